//! A WebSocket server: one text frame per message both ways.

use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::WebSocketStream;

use super::super::headers::Headers;
use super::tls::{self, Endpoint, Stream};
use crate::probe::LinkError;

/// The largest message (and frame) read from the server: a larger one fails the link, as over
/// stdio and HTTP.
const MAX_MESSAGE: usize = 16 * 1024 * 1024;

pub struct WsLink {
    socket: WebSocketStream<Stream>,
}

impl WsLink {
    /// Connects to `url` (`ws://`, or `wss://` over TLS) and opens the WebSocket, within `timeout`;
    /// the handshake carries `headers`.
    pub async fn connect(
        url: &str,
        headers: &Headers,
        timeout: Duration,
    ) -> Result<WsLink, LinkError> {
        use tokio_tungstenite::tungstenite::client::IntoClientRequest;
        let uri: hyper::Uri = url
            .parse()
            .map_err(|e| LinkError(format!("{url:?} is not a valid URL: {e}")))?;
        let tls = uri.scheme_str() == Some("wss");
        let to = Endpoint {
            url,
            host: uri.host().unwrap_or("localhost"),
            port: uri.port_u16().unwrap_or(if tls { 443 } else { 80 }),
            tls,
        };
        let stream = tls::connect(&to, timeout).await?;
        let config = WebSocketConfig::default()
            .max_message_size(Some(MAX_MESSAGE))
            .max_frame_size(Some(MAX_MESSAGE));
        let mut request = url
            .into_client_request()
            .map_err(|e| LinkError(format!("{url:?} is not a WebSocket URL: {e}")))?;
        for (name, value) in headers.iter() {
            request.headers_mut().append(name, value.clone());
        }
        let handshake = tokio_tungstenite::client_async_with_config(request, stream, Some(config));
        match tokio::time::timeout(timeout, handshake).await {
            Err(_) => Err(LinkError(format!(
                "{url}: no WebSocket handshake within {timeout:?}"
            ))),
            Ok(Err(e)) => Err(LinkError(format!("cannot connect to {url}: {e}"))),
            Ok(Ok((socket, _))) => Ok(WsLink { socket }),
        }
    }

    /// Sends `text` as one text frame, within `timeout` (a server that stops reading fills the
    /// connection's buffers: then the probe stops).
    pub async fn send(&mut self, text: &str, timeout: Duration) -> Result<(), LinkError> {
        match tokio::time::timeout(timeout, self.socket.send(Message::text(text))).await {
            Ok(sent) => {
                sent.map_err(|e| LinkError(format!("the WebSocket failed while sending: {e}")))
            }
            Err(_) => Err(LinkError(format!(
                "the server did not read a message of {} bytes within {timeout:?} (it stopped reading)",
                text.len()
            ))),
        }
    }

    pub async fn receive(&mut self, wait: Duration) -> Result<Option<String>, LinkError> {
        let deadline = tokio::time::Instant::now() + wait;
        loop {
            let frame = match tokio::time::timeout_at(deadline, self.socket.next()).await {
                Err(_) => return Ok(None),
                Ok(None) => return Err(LinkError("the server closed the WebSocket".into())),
                Ok(Some(Err(e))) => return Err(LinkError(format!("the WebSocket failed: {e}"))),
                Ok(Some(Ok(frame))) => frame,
            };
            match frame {
                Message::Text(text) => return Ok(Some(text.to_string())),
                Message::Binary(bytes) => {
                    return Ok(Some(String::from_utf8_lossy(&bytes).into_owned()))
                }
                Message::Close(frame) => {
                    let why = frame
                        .map(|f| format!(" (code {}, {:?})", u16::from(f.code), f.reason.as_str()))
                        .unwrap_or_default();
                    return Err(LinkError(format!("the server closed the WebSocket{why}")));
                }
                Message::Ping(_) | Message::Pong(_) | Message::Frame(_) => {}
            }
        }
    }

    pub async fn close(mut self) {
        let _ = tokio::time::timeout(Duration::from_secs(1), self.socket.close(None)).await;
    }
}
