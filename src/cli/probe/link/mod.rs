//! The probe's connection to the server on the command line: a spawned command's stdio, HTTP or
//! WebSocket, with tokio ([`Link`], the engine's [`ProbeLink`]). Stdio and WebSocket are streams
//! (replies and the server's own messages arrive in any order); over HTTP each message is a POST
//! whose response (JSON or an SSE stream) holds the replies, queued here until they are received.

mod http;
pub use http::get;
mod oauth;
pub use oauth::ClientOptions;
mod stdio;
mod tls;
mod ws;

use std::time::Duration;

use tokio::time::Instant;

use super::headers::Headers;
use super::target::Target;
use crate::probe::{Delivery, LinkError, ProbeLink};

enum Transport {
    Stdio(stdio::StdioLink),
    Http(Box<http::HttpLink>),
    Ws(ws::WsLink),
}

/// The connection, and when the probe started (its clock).
pub struct Link {
    transport: Transport,
    started: Instant,
}

impl Link {
    /// Starts or connects to `target`, within `timeout`; the probe's clock runs from `started`.
    /// `headers` go with every HTTP request and the WebSocket handshake.
    pub async fn open(
        target: &Target,
        headers: &Headers,
        client: &ClientOptions,
        timeout: Duration,
        started: Instant,
    ) -> Result<Link, LinkError> {
        let transport = match target {
            Target::Spawn { program, args } => {
                Transport::Stdio(stdio::StdioLink::spawn(program, args)?)
            }
            Target::Http(uri) => Transport::Http(Box::new(http::HttpLink::authorizing(
                uri.clone(),
                timeout,
                headers.clone(),
                Some(client.clone()),
            ))),
            Target::Ws(url) => Transport::Ws(ws::WsLink::connect(url, headers, timeout).await?),
        };
        Ok(Link { transport, started })
    }

    /// The process group of the server the probe started (stdio), to kill if the probe must
    /// end without closing the link.
    pub fn process_group(&self) -> Option<i32> {
        match &self.transport {
            Transport::Stdio(link) => link.process_group(),
            _ => None,
        }
    }

    /// Ends the connection: the spawned server (and its process group) is stopped, the HTTP
    /// session deleted, the WebSocket closed.
    pub async fn close(self) {
        match self.transport {
            Transport::Stdio(link) => link.stop().await,
            Transport::Http(link) => link.end_session().await,
            Transport::Ws(link) => link.close().await,
        }
    }
}

impl ProbeLink for Link {
    async fn send(&mut self, text: &str, timeout: Duration) -> Result<Delivery, LinkError> {
        match &mut self.transport {
            Transport::Stdio(link) => link.send(text, timeout).await.map(|()| Delivery::default()),
            Transport::Http(link) => link.post(text, timeout).await,
            Transport::Ws(link) => link.send(text, timeout).await.map(|()| Delivery::default()),
        }
    }

    async fn receive(&mut self, wait: Duration) -> Result<Option<String>, LinkError> {
        match &mut self.transport {
            Transport::Stdio(link) => link.receive(wait).await,
            Transport::Http(link) => link.receive(wait).await,
            Transport::Ws(link) => link.receive(wait).await,
        }
    }

    fn set_protocol_version(&mut self, version: Option<&str>) {
        if let Transport::Http(link) = &mut self.transport {
            link.protocol_version = version.map(str::to_string);
        }
    }

    fn elapsed(&self) -> Duration {
        self.started.elapsed()
    }

    fn declare_header_params(&mut self, name: &str, params: Vec<crate::probe::link::HeaderParam>) {
        if let Transport::Http(link) = &mut self.transport {
            link.header_params.insert(name.to_string(), params);
        }
    }

    fn auth_steps(&mut self) -> Vec<crate::probe::auth::Step> {
        match &mut self.transport {
            Transport::Http(link) => link
                .auth
                .as_mut()
                .map(|auth| std::mem::take(&mut auth.steps))
                .unwrap_or_default(),
            _ => Vec::new(),
        }
    }

    fn mismatch_next_method(&mut self) -> bool {
        match &mut self.transport {
            Transport::Http(link) => {
                link.mismatch_method = true;
                true
            }
            _ => false,
        }
    }
}
