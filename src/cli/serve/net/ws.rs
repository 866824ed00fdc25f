//! `jrpc serve --ws`: the mock server over WebSocket.
//!
//! - Each connection has its own [`MockServer`] (so an MCP `initialize` holds for that connection).
//! - A text frame is one document (a message or a batch); each reply is one text frame; a
//!   notification, a response or a batch of notifications gets no frame. What the server sends
//!   on its own (log lines, progress, a request to the client such as `sampling/createMessage`,
//!   and later the result of the call that waited for its answer) is a frame of its own, before
//!   the reply to the frame that caused it.
//! - A binary frame is not read: it is answered with a `-32700 Parse error` (id null) and the
//!   connection stays open, as for any other bytes that are not JSON.
//! - The first subprotocol a client offers (`Sec-WebSocket-Protocol`) is accepted, so a browser that
//!   asks for one is not refused.
//! - DNS-rebinding protection ([`super::guard`]): a foreign `Host` or `Origin` is refused with
//!   `403` and a JSON-RPC error body, before the upgrade.
//! - An empty text frame holds no JSON value: it is answered with the same `-32700`.
//! - When the server stops, the peer gets a close frame: 1001 (going away), "jrpc serve stopped".
//! - Bounds: a message over [`MAX_MESSAGE`] bytes closes the connection with 1009, a text frame
//!   that is not UTF-8 with 1007, a protocol violation (an unmasked client frame…) with 1002. The
//!   server pings every 30 s and closes (1001) a connection it has heard nothing from for [`IDLE`];
//!   the handshake must be done within 10 s. A plain HTTP request on the port gets `426 Upgrade
//!   Required` with a line saying what the port is.
//! - A large message is answered on a blocking thread: other connections go on meanwhile.

use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use tokio::io::AsyncWriteExt;
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::handshake::server::{ErrorResponse, Request, Response};
use tokio_tungstenite::tungstenite::http::header::{
    HeaderValue, CONTENT_TYPE, HOST, ORIGIN, SEC_WEBSOCKET_PROTOCOL,
};
use tokio_tungstenite::tungstenite::http::StatusCode;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::protocol::CloseFrame;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::Error as WsError;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::WebSocketStream;

use super::{stopped, Context};

/// The reply to a binary frame: the specification's parse error, as the mock writes it.
pub(super) const PARSE_ERROR: &str =
    r#"{"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error"},"id":null}"#;

/// How long a client has to finish the opening handshake.
const HANDSHAKE: Duration = Duration::from_secs(10);
/// The server pings a connection this often (a browser answers by itself)…
const PING_EVERY: Duration = Duration::from_secs(30);
/// …and closes one it has heard nothing from (not even a pong) for this long.
pub const IDLE: Duration = Duration::from_secs(75);
/// The largest message (and frame) read; a larger one closes the connection with 1009.
pub const MAX_MESSAGE: usize = 16 * 1024 * 1024;

/// Serves one WebSocket connection until the peer closes it or the server stops.
#[allow(clippy::result_large_err)] // the handshake callback's signature is tungstenite's
pub(super) async fn connection(mut stream: TcpStream, name: String, context: Context) {
    let verbose = context.verbose;
    match tokio::time::timeout(HANDSHAKE, upgrade_requested(&mut stream)).await {
        Ok(Ok(true)) => {}
        Ok(Ok(false)) => {
            // A plain HTTP request (a browser tab, curl): say what this port is.
            let body = "jrpc serve: this port speaks WebSocket (JSON-RPC 2.0, one message per text frame); connect with ws://\n";
            let head = format!("HTTP/1.1 426 Upgrade Required\r\nUpgrade: websocket\r\nConnection: Upgrade, close\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: {}\r\n\r\n{body}", body.len());
            let _ = stream.write_all(head.as_bytes()).await;
            let _ = stream.shutdown().await;
            return;
        }
        Ok(Err(_)) | Err(_) => return,
    }
    let config = WebSocketConfig::default()
        .max_message_size(Some(MAX_MESSAGE))
        .max_frame_size(Some(MAX_MESSAGE));
    let guard = std::sync::Arc::clone(&context.guard);
    let accept = move |request: &Request, response: Response| {
        let header = |name| {
            request
                .headers()
                .get(name)
                .and_then(|v: &HeaderValue| v.to_str().ok())
        };
        match guard.refuse(header(HOST), header(ORIGIN)) {
            None => accept_first_subprotocol(request, response),
            Some(reason) => {
                let mut refusal = ErrorResponse::new(Some(super::guard::body(&reason)));
                *refusal.status_mut() = StatusCode::FORBIDDEN;
                refusal
                    .headers_mut()
                    .insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
                Err(refusal)
            }
        }
    };
    let handshake = tokio_tungstenite::accept_hdr_async_with_config(stream, accept, Some(config));
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
    let mut server = super::super::mock_server(context.fixtures);
    let mut replay_session = crate::cli::recording::Session::waiting_for_answers();
    let mut stop = std::pin::pin!(stopped(context.stop.clone()));
    let mut ping = tokio::time::interval_at(tokio::time::Instant::now() + PING_EVERY, PING_EVERY);
    let mut heard = tokio::time::Instant::now();
    loop {
        let frame = tokio::select! {
            frame = socket.next() => frame,
            () = &mut stop => {
                close(&mut socket, CloseCode::Away, "jrpc serve stopped").await;
                break;
            }
            _ = ping.tick() => {
                if heard.elapsed() >= IDLE {
                    if verbose {
                        eprintln!("jrpc serve: {name}: nothing heard for {} s: closing", IDLE.as_secs());
                    }
                    close(&mut socket, CloseCode::Away, "idle: nothing heard, not even a pong").await;
                    break;
                }
                if socket.send(Message::Ping(Default::default())).await.is_err() {
                    break;
                }
                continue;
            }
        };
        heard = tokio::time::Instant::now();
        let frame = match frame {
            None => break,
            Some(Err(e)) => {
                // Say why before going: a close code the peer can read, not a dropped connection.
                let (code, reason) = match &e {
                    WsError::Capacity(_) => (
                        CloseCode::Size,
                        format!("message larger than {MAX_MESSAGE} bytes"),
                    ),
                    WsError::Utf8(_) => (
                        CloseCode::Invalid,
                        "a text frame that is not UTF-8".to_string(),
                    ),
                    WsError::Protocol(p) => (CloseCode::Protocol, format!("protocol error: {p}")),
                    _ => {
                        if verbose {
                            eprintln!("jrpc serve: {name}: {e}");
                        }
                        break;
                    }
                };
                if verbose {
                    eprintln!(
                        "jrpc serve: {name}: closing with {}: {reason}",
                        u16::from(code)
                    );
                }
                close(&mut socket, code, &reason).await;
                break;
            }
            Some(Ok(frame)) => frame,
        };
        let reply = match frame {
            Message::Text(text) => {
                if verbose {
                    eprintln!(
                        "--> [{name}] {}",
                        crate::cli::diagnostic::printable(text.as_str().trim())
                    );
                }
                if text.trim().is_empty() {
                    // An empty frame holds no JSON value: the client must not wait forever.
                    Some(PARSE_ERROR.to_string())
                } else if let Some(recording) = &context.replay {
                    let recording = std::sync::Arc::clone(recording);
                    let (back, answered) = super::off_thread(move || {
                        let answered = recording.answer(&mut replay_session, text.as_bytes());
                        (replay_session, answered)
                    })
                    .await;
                    replay_session = back;
                    let mut sent = answered.sent;
                    let reply = if answered.replied { sent.pop() } else { None };
                    for message in sent {
                        if verbose {
                            eprintln!(
                                "<-- [{name}] {}",
                                crate::cli::diagnostic::printable_of(&message)
                            );
                        }
                        if socket.send(Message::text(message)).await.is_err() {
                            break;
                        }
                    }
                    reply
                } else if let Some(doc) = &context.openrpc {
                    let doc = std::sync::Arc::clone(doc);
                    super::off_thread(move || crate::openrpc::mock::reply(&doc, text.as_bytes()))
                        .await
                } else {
                    let (back, sent, reply) = super::off_thread(move || {
                        let reply = server.handle(text.as_bytes());
                        let sent = server.take_sent();
                        (server, sent, reply)
                    })
                    .await;
                    server = back;
                    // What the server sent on its own while answering goes first, a frame each.
                    for message in sent {
                        if verbose {
                            eprintln!(
                                "<-- [{name}] {}",
                                crate::cli::diagnostic::printable_of(&message)
                            );
                        }
                        if socket.send(Message::text(message)).await.is_err() {
                            break;
                        }
                    }
                    reply
                }
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
                    eprintln!(
                        "<-- [{name}] {}",
                        crate::cli::diagnostic::printable_of(&reply)
                    );
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

/// Sends a close frame and reads until the peer answers it (tungstenite ends the stream then),
/// for at most a second.
async fn close(socket: &mut WebSocketStream<TcpStream>, code: CloseCode, reason: &str) {
    let _ = socket
        .close(Some(CloseFrame {
            code,
            reason: reason.to_string().into(),
        }))
        .await;
    let drain = async { while let Some(Ok(_)) = socket.next().await {} };
    let _ = tokio::time::timeout(Duration::from_secs(1), drain).await;
}

/// Whether the request waiting on `stream` asks for a WebSocket upgrade (read without consuming
/// it: the handshake reads it again). Looks at the request head only.
async fn upgrade_requested(stream: &mut TcpStream) -> std::io::Result<bool> {
    let mut buf = vec![0u8; 8192];
    loop {
        let n = stream.peek(&mut buf).await?;
        if n == 0 {
            return Err(std::io::ErrorKind::UnexpectedEof.into());
        }
        let head = &buf[..n];
        let complete = head.windows(4).any(|w| w == b"\r\n\r\n");
        if complete || n == buf.len() {
            let text = String::from_utf8_lossy(head).to_ascii_lowercase();
            return Ok(text
                .lines()
                .any(|l| l.starts_with("upgrade:") && l.contains("websocket")));
        }
        // Not all of the head yet: wait for more (peek returns what is there at once).
        tokio::time::sleep(Duration::from_millis(5)).await;
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
            crate::mock::MockServer::new().handle(b"\x00").as_deref(),
            Some(PARSE_ERROR)
        );
    }
}
