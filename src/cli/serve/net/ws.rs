//! `jrpc serve --ws`: the mock server over WebSocket.
//!
//! - Each connection has its own [`MockServer`] (so an MCP `initialize` holds for that connection).
//! - A text frame is one document (a message or a batch); each reply is one text frame; a
//!   notification, a response or a batch of notifications gets no frame.
//! - A binary frame is not read: it is answered with a `-32700 Parse error` (id null) and the
//!   connection stays open, as for any other bytes that are not JSON.
//! - The first subprotocol a client offers (`Sec-WebSocket-Protocol`) is accepted, so a browser that
//!   asks for one is not refused; any origin may connect (the mock has nothing to protect).
//! - When the server stops, the peer gets a close frame: 1001 (going away), "jrpc serve stopped".

use futures_util::future::{select, Either};
use futures_util::{SinkExt, StreamExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::handshake::server::{ErrorResponse, Request, Response};
use tokio_tungstenite::tungstenite::http::header::SEC_WEBSOCKET_PROTOCOL;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::protocol::CloseFrame;
use tokio_tungstenite::tungstenite::Message;

use super::{stopped, Context};
use crate::mock::MockServer;

/// The reply to a binary frame: the specification's parse error, as the mock writes it.
pub(super) const PARSE_ERROR: &str =
    r#"{"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error"},"id":null}"#;

/// How long a client has to finish the opening handshake.
const HANDSHAKE: std::time::Duration = std::time::Duration::from_secs(10);

/// Serves one WebSocket connection until the peer closes it or the server stops.
pub(super) async fn connection(stream: TcpStream, name: String, context: Context) {
    let verbose = context.verbose;
    let handshake = tokio_tungstenite::accept_hdr_async(stream, accept_first_subprotocol);
    let mut socket = match tokio::time::timeout(HANDSHAKE, handshake).await {
        Ok(Ok(socket)) => socket,
        Ok(Err(e)) => {
            if verbose {
                eprintln!("jrpc serve: {name}: not a WebSocket handshake: {e}");
            }
            return;
        }
        Err(_) => return,
    };
    let mut server = MockServer::new();
    loop {
        let event = {
            let next = socket.next();
            let stop = std::pin::pin!(stopped(context.stop.clone()));
            match select(next, stop).await {
                Either::Left((frame, _)) => Some(frame),
                Either::Right(_) => None,
            }
        };
        let frame = match event {
            None => {
                let goodbye = CloseFrame {
                    code: CloseCode::Away,
                    reason: "jrpc serve stopped".into(),
                };
                let _ = socket.close(Some(goodbye)).await;
                // Read until the peer answers the close (tungstenite ends the stream then).
                while let Some(Ok(_)) = socket.next().await {}
                break;
            }
            Some(None) => break,
            Some(Some(Err(e))) => {
                if verbose {
                    eprintln!("jrpc serve: {name}: {e}");
                }
                break;
            }
            Some(Some(Ok(frame))) => frame,
        };
        let reply = match &frame {
            Message::Text(text) => {
                if verbose {
                    eprintln!("--> [{name}] {}", text.as_str().trim());
                }
                server.handle(text.as_bytes())
            }
            Message::Binary(bytes) => {
                if verbose {
                    eprintln!(
                        "--> [{name}] (binary frame, {} bytes: answered as not JSON)",
                        bytes.len()
                    );
                }
                Some(PARSE_ERROR.to_string())
            }
            // Pings are answered by tungstenite itself; a close is answered and ends the stream.
            Message::Ping(_) | Message::Pong(_) | Message::Close(_) | Message::Frame(_) => continue,
        };
        match reply {
            Some(reply) => {
                if verbose {
                    eprintln!("<-- [{name}] {reply}");
                }
                if let Err(e) = socket.send(Message::text(reply)).await {
                    if verbose {
                        eprintln!("jrpc serve: {name}: {e}");
                    }
                    break;
                }
            }
            None if verbose => eprintln!("<-- [{name}] // nothing is returned"),
            None => {}
        }
    }
    if verbose {
        eprintln!("jrpc serve: {name} closed");
    }
}

/// The handshake callback: accepts the first subprotocol the client offers, if any. (A browser
/// fails the connection when it asked for a subprotocol and the answer names none.)
#[allow(clippy::result_large_err)] // the signature tungstenite's handshake callback has
fn accept_first_subprotocol(
    request: &Request,
    mut response: Response,
) -> Result<Response, ErrorResponse> {
    let offered = request
        .headers()
        .get(SEC_WEBSOCKET_PROTOCOL)
        .and_then(|v| v.to_str().ok());
    if let Some(first) =
        offered.and_then(|list| list.split(',').map(str::trim).find(|p| !p.is_empty()))
    {
        if let Ok(value) = first.parse() {
            response.headers_mut().insert(SEC_WEBSOCKET_PROTOCOL, value);
        }
    }
    Ok(response)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binary_reply_is_the_mocks_parse_error() {
        assert_eq!(
            MockServer::new().handle(b"\x00").as_deref(),
            Some(PARSE_ERROR)
        );
    }
}
