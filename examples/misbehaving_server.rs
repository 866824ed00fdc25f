//! A deliberately misbehaving WebSocket and HTTP server for the live link's fault tests (raw
//! tokio-tungstenite, and hyper for HTTP). Test-only code (a cargo example): nothing of it ships.
//!
//! ```text
//! cargo build --examples
//! target/debug/examples/misbehaving_server [--port N] [--exit-after SECS]
//! ```
//!
//! Binds 127.0.0.1 only (port 0, the default, picks a free one) and prints one line on stderr:
//! `misbehaving_server: listening on ws://127.0.0.1:PORT; refused: ws://127.0.0.1:CLOSED; http:
//! http://127.0.0.1:HTTP` — CLOSED is a port it bound and let go, so nothing listens there (a refused
//! connection); HTTP is a free port of its own. Stops by itself after `--exit-after` seconds
//! (default 60), or on Ctrl+C.
//!
//! The connection's path chooses the behaviour (`?name=value` options):
//! - `/` (or `/echo`): well-behaved: each request gets `{"jsonrpc":"2.0","result":{"echo":PARAMS},"id":ID}`,
//!   notifications nothing. Every path below answers requests like this unless it says otherwise.
//! - `/close-mid-request`: the first text frame is not answered: the TCP connection is dropped
//!   with no close frame (the browser reports 1006).
//! - `/close-with-code?code=4000&reason=TEXT`: after the first frame (or after `after_ms`, if
//!   given) sends a close frame with that code and reason (defaults 4000 and "misbehaving server
//!   closes with 4000"), answering nothing.
//! - `/garbage`: on open sends four text frames that are not JSON (`this is not JSON`, a truncated
//!   object, an empty frame, a lone `]`), then the notification `{"jsonrpc":"2.0","method":"garbage/done"}`;
//!   each request is answered with `not JSON: ` and the frame's first 40 characters. Stays open.
//! - `/binary`: on open sends two binary frames (bytes 00 01 02 FF, and the UTF-8 bytes of the
//!   notification `{"jsonrpc":"2.0","method":"binary/hello"}`); each request is answered with its
//!   echo reply as a binary frame. Stays open.
//! - `/flood?n=10000`: on open sends `n` notifications (default 10 000, at most 1 000 000) in one
//!   burst, `{"jsonrpc":"2.0","method":"flood","params":{"seq":1..=n,"of":n}}`, then answers as `/`.
//! - `/server-request?method=ping`: on open sends the request
//!   `{"jsonrpc":"2.0","id":"srv-1","method":METHOD}` (params `{}` unless METHOD is `ping`) and waits
//!   for the client's response with id `"srv-1"`; then sends the notification
//!   `{"jsonrpc":"2.0","method":"server-request/answered","params":{"response":RESPONSE}}` carrying
//!   the response it got. Other requests are answered as `/`.
//! - `/huge?mb=17`: on open sends one notification of about `mb` MB (default 17, at most 64:
//!   `{"jsonrpc":"2.0","method":"huge","params":{"fill":"xxx…"}}`), then answers as `/`.
//! - `/slow?ms=2000`: each request is answered after `ms` milliseconds.
//! - `/silent`: never answers anything (for request timeouts).
//! - any other path: the handshake is refused with HTTP 404.
//!
//! Over HTTP (any path; CORS allows every origin, and the preflight) one endpoint serves every
//! POST, so the method of the message (or of any element of a batch) chooses the behaviour:
//! - `slow`: answered as `/` does, after `params.ms` milliseconds (default 2000);
//! - `fail`: HTTP `params.status` (default 500) with an empty body;
//! - `drop`: no response at all: the connection is closed (the browser's fetch fails);
//! - `sse-split`: an event stream (`text/event-stream`) sent in three pieces 50 ms apart: the
//!   notification `{"jsonrpc":"2.0","method":"sse/notice","params":{"text":"é"}}` as one event,
//!   then the echo reply as another, with CRLF line ends; the first piece ends between the `\r`
//!   and the `\n` of the blank line ending the notification, the second inside the reply's first
//!   `é` (so PARAMS should hold one), to check readers join what they read before decoding it;
//! - `sse-drop`: an event stream holding only a priming event (`id: sse-drop-N`, `retry: 200`,
//!   empty data) that then ends before the reply; a `GET` with `Last-Event-ID: sse-drop-N` gets
//!   the echo reply as an event stream (each reply once; any other GET gets 405);
//! - `huge`: the echo reply padded to about `params.mb` MB (default 17, at most 64) with a
//!   `"fill"` member of `x`s beside its result;
//! - anything else: `{"jsonrpc":"2.0","result":{"echo":PARAMS},"id":ID}` for each request (an array
//!   for a batch), 202 with no body when there is no request; a body that is not JSON gets 400.

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    server::main()
}

#[cfg(target_arch = "wasm32")]
fn main() {}

#[cfg(not(target_arch = "wasm32"))]
mod server {
    use std::collections::HashMap;
    use std::process::ExitCode;
    use std::time::Duration;

    use futures_util::future::select;
    use futures_util::{SinkExt, StreamExt};
    use serde_json::{json, Value};
    use tokio::net::{TcpListener, TcpStream};
    use tokio_tungstenite::tungstenite::handshake::server::{ErrorResponse, Request, Response};
    use tokio_tungstenite::tungstenite::http::StatusCode;
    use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
    use tokio_tungstenite::tungstenite::protocol::CloseFrame;
    use tokio_tungstenite::tungstenite::Message;
    use tokio_tungstenite::WebSocketStream;

    type Socket = WebSocketStream<TcpStream>;

    const PATHS: &[&str] = &[
        "/",
        "/echo",
        "/close-mid-request",
        "/close-with-code",
        "/garbage",
        "/binary",
        "/flood",
        "/server-request",
        "/slow",
        "/huge",
        "/silent",
    ];

    pub fn main() -> ExitCode {
        let mut port = 0u16;
        let mut exit_after = Duration::from_secs(60);
        let mut args = std::env::args().skip(1);
        while let Some(flag) = args.next() {
            let value = args.next().unwrap_or_default();
            match (flag.as_str(), value.parse::<f64>()) {
                ("--port", _) if value.parse::<u16>().is_ok() => port = value.parse().unwrap(),
                ("--exit-after", Ok(secs)) if secs.is_finite() && secs >= 0.0 => {
                    exit_after = Duration::from_secs_f64(secs)
                }
                _ => {
                    eprintln!("misbehaving_server: bad argument {flag} {value}\nusage: misbehaving_server [--port N] [--exit-after SECS]");
                    return ExitCode::from(2);
                }
            }
        }
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a tokio runtime");
        runtime.block_on(async move {
            let listener = match TcpListener::bind(("127.0.0.1", port)).await {
                Ok(listener) => listener,
                Err(e) => {
                    eprintln!("misbehaving_server: cannot listen on 127.0.0.1:{port}: {e}");
                    return ExitCode::from(2);
                }
            };
            let http = match TcpListener::bind(("127.0.0.1", 0)).await {
                Ok(listener) => listener,
                Err(e) => {
                    eprintln!("misbehaving_server: cannot listen on 127.0.0.1:0 for HTTP: {e}");
                    return ExitCode::from(2);
                }
            };
            let addr = listener.local_addr().unwrap();
            let http_addr = http.local_addr().unwrap();
            let closed = std::net::TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).map(|a| a.port()).unwrap_or(1);
            eprintln!("misbehaving_server: listening on ws://{addr}; refused: ws://127.0.0.1:{closed}; http: http://{http_addr}");
            let accepting = std::pin::pin!(async move {
                let ws = async {
                    while let Ok((stream, _)) = listener.accept().await {
                        tokio::spawn(connection(stream));
                    }
                };
                let http = async {
                    while let Ok((stream, _)) = http.accept().await {
                        tokio::spawn(http_connection(stream));
                    }
                };
                select(std::pin::pin!(ws), std::pin::pin!(http)).await;
            });
            let stop = std::pin::pin!(tokio::time::sleep(exit_after));
            let ctrl_c = std::pin::pin!(tokio::signal::ctrl_c());
            select(accepting, select(stop, ctrl_c)).await;
            eprintln!("misbehaving_server: stopped");
            ExitCode::SUCCESS
        })
    }

    async fn connection(stream: TcpStream) {
        let mut target = None;
        #[allow(clippy::result_large_err)] // the signature tungstenite's handshake callback has
        let callback = |request: &Request, response: Response| -> Result<Response, ErrorResponse> {
            let uri = request.uri();
            if !PATHS.contains(&uri.path()) {
                let mut refusal = ErrorResponse::new(Some(format!(
                    "misbehaving_server: no such path {}\n",
                    uri.path()
                )));
                *refusal.status_mut() = StatusCode::NOT_FOUND;
                return Err(refusal);
            }
            target = Some((uri.path().to_string(), query(uri.query().unwrap_or(""))));
            Ok(response)
        };
        let Ok(mut socket) = tokio_tungstenite::accept_hdr_async(stream, callback).await else {
            return;
        };
        let Some((path, options)) = target else {
            return;
        };
        let number = |name: &str, default: u64| {
            options
                .get(name)
                .and_then(|v| v.parse::<u64>().ok())
                .unwrap_or(default)
        };
        let _ = match path.as_str() {
            "/close-mid-request" => {
                // Wait for the request, then vanish without a close frame.
                let _ = next_text(&mut socket).await;
                drop(socket);
                Ok(())
            }
            "/close-with-code" => {
                let code = number("code", 4000) as u16;
                let reason = options
                    .get("reason")
                    .cloned()
                    .unwrap_or_else(|| format!("misbehaving server closes with {code}"));
                match options.get("after_ms").and_then(|v| v.parse::<u64>().ok()) {
                    Some(ms) => tokio::time::sleep(Duration::from_millis(ms)).await,
                    None => {
                        let _ = socket.next().await;
                    }
                }
                let _ = socket
                    .close(Some(CloseFrame {
                        code: CloseCode::from(code),
                        reason: reason.into(),
                    }))
                    .await;
                while let Some(Ok(_)) = socket.next().await {}
                Ok(())
            }
            "/garbage" => garbage(&mut socket).await,
            "/binary" => binary(&mut socket).await,
            "/flood" => flood(&mut socket, number("n", 10_000).min(1_000_000)).await,
            "/server-request" => {
                server_request(
                    &mut socket,
                    options.get("method").map_or("ping", String::as_str),
                )
                .await
            }
            "/slow" => answer(&mut socket, Duration::from_millis(number("ms", 2000))).await,
            "/huge" => {
                let fill = "x".repeat(number("mb", 17).min(64) as usize * 1024 * 1024);
                let notification =
                    json!({"jsonrpc": "2.0", "method": "huge", "params": {"fill": fill}});
                match socket.send(Message::text(notification.to_string())).await {
                    Ok(()) => answer(&mut socket, Duration::ZERO).await,
                    Err(e) => Err(e),
                }
            }
            "/silent" => {
                while let Some(Ok(_)) = socket.next().await {}
                Ok(())
            }
            _ => answer(&mut socket, Duration::ZERO).await,
        };
    }

    type Sent = Result<(), tokio_tungstenite::tungstenite::Error>;

    /// The next text frame, or `None` when the connection ends.
    async fn next_text(socket: &mut Socket) -> Option<String> {
        loop {
            match socket.next().await? {
                Ok(Message::Text(text)) => return Some(text.to_string()),
                Ok(
                    Message::Binary(_) | Message::Ping(_) | Message::Pong(_) | Message::Frame(_),
                ) => continue,
                Ok(Message::Close(_)) | Err(_) => return None,
            }
        }
    }

    /// The well-behaved reply: `{"echo": params}` for a request, nothing for the rest.
    fn echo(text: &str) -> Option<String> {
        let message: Value = serde_json::from_str(text).ok()?;
        let id = message.get("id")?;
        message.get("method")?;
        Some(json!({"jsonrpc": "2.0", "result": {"echo": message.get("params").cloned().unwrap_or(Value::Null)}, "id": id}).to_string())
    }

    /// Answers requests as `/` does, each after `delay`, until the connection ends.
    async fn answer(socket: &mut Socket, delay: Duration) -> Sent {
        while let Some(text) = next_text(socket).await {
            if let Some(reply) = echo(&text) {
                tokio::time::sleep(delay).await;
                socket.send(Message::text(reply)).await?;
            }
        }
        Ok(())
    }

    async fn garbage(socket: &mut Socket) -> Sent {
        for frame in ["this is not JSON", r#"{"jsonrpc":"2.0","method":"#, "", "]"] {
            socket.send(Message::text(frame)).await?;
        }
        socket
            .send(Message::text(
                r#"{"jsonrpc":"2.0","method":"garbage/done"}"#,
            ))
            .await?;
        while let Some(text) = next_text(socket).await {
            if echo(&text).is_some() {
                socket
                    .send(Message::text(format!(
                        "not JSON: {}",
                        text.chars().take(40).collect::<String>()
                    )))
                    .await?;
            }
        }
        Ok(())
    }

    async fn binary(socket: &mut Socket) -> Sent {
        socket
            .send(Message::binary(vec![0x00, 0x01, 0x02, 0xFF]))
            .await?;
        socket
            .send(Message::binary(
                br#"{"jsonrpc":"2.0","method":"binary/hello"}"#.to_vec(),
            ))
            .await?;
        while let Some(text) = next_text(socket).await {
            if let Some(reply) = echo(&text) {
                socket.send(Message::binary(reply.into_bytes())).await?;
            }
        }
        Ok(())
    }

    async fn flood(socket: &mut Socket, n: u64) -> Sent {
        for seq in 1..=n {
            let notification =
                json!({"jsonrpc": "2.0", "method": "flood", "params": {"seq": seq, "of": n}});
            socket.feed(Message::text(notification.to_string())).await?;
        }
        socket.flush().await?;
        answer(socket, Duration::ZERO).await
    }

    async fn server_request(socket: &mut Socket, method: &str) -> Sent {
        let mut request = json!({"jsonrpc": "2.0", "id": "srv-1", "method": method});
        if method != "ping" {
            request["params"] = json!({});
        }
        socket.send(Message::text(request.to_string())).await?;
        while let Some(text) = next_text(socket).await {
            let Ok(message) = serde_json::from_str::<Value>(&text) else {
                continue;
            };
            let is_response =
                message.get("method").is_none() && message.get("id") == Some(&json!("srv-1"));
            if is_response {
                let answered = json!({"jsonrpc": "2.0", "method": "server-request/answered", "params": {"response": message}});
                socket.send(Message::text(answered.to_string())).await?;
            } else if let Some(reply) = echo(&text) {
                socket.send(Message::text(reply)).await?;
            }
        }
        Ok(())
    }

    type Body =
        http_body_util::combinators::UnsyncBoxBody<hyper::body::Bytes, std::convert::Infallible>;

    /// The service says: close the connection without a response.
    #[derive(Debug)]
    struct Hangup;

    impl std::fmt::Display for Hangup {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("dropped without a response, on purpose")
        }
    }

    impl std::error::Error for Hangup {}

    /// One HTTP/1.1 connection: each POST as the module's documentation says.
    async fn http_connection(stream: TcpStream) {
        let service = hyper::service::service_fn(http_answer);
        // An error from the service (`drop`) makes hyper close the connection, writing nothing.
        let _ = hyper::server::conn::http1::Builder::new()
            .serve_connection(hyper_util::rt::TokioIo::new(stream), service)
            .await;
    }

    async fn http_answer(
        request: hyper::Request<hyper::body::Incoming>,
    ) -> Result<hyper::Response<Body>, Hangup> {
        use http_body_util::BodyExt;
        use hyper::StatusCode;
        let reply = |status: StatusCode, body: String| {
            let mut response =
                hyper::Response::new(http_body_util::Full::from(body).boxed_unsync());
            *response.status_mut() = status;
            let headers = response.headers_mut();
            headers.insert("access-control-allow-origin", "*".parse().unwrap());
            headers.insert(
                "access-control-allow-headers",
                "content-type, accept, mcp-session-id".parse().unwrap(),
            );
            headers.insert(
                "access-control-allow-methods",
                "POST, OPTIONS".parse().unwrap(),
            );
            headers.insert("content-type", "application/json".parse().unwrap());
            Ok(response)
        };
        if request.method() == hyper::Method::OPTIONS {
            return reply(StatusCode::NO_CONTENT, String::new());
        }
        let event_stream = |text: String| {
            let mut response = reply(StatusCode::OK, text)?;
            response
                .headers_mut()
                .insert("content-type", "text/event-stream".parse().unwrap());
            Ok(response)
        };
        if request.method() == hyper::Method::GET {
            let resumed = request
                .headers()
                .get("last-event-id")
                .and_then(|v| v.to_str().ok())
                .and_then(|id| DROPPED.lock().unwrap().remove(id));
            return match resumed {
                Some(reply) => event_stream(format!("id: resumed\ndata: {reply}\n\n")),
                None => reply(StatusCode::METHOD_NOT_ALLOWED, String::new()),
            };
        }
        let Ok(body) = request.into_body().collect().await.map(|b| b.to_bytes()) else {
            return Err(Hangup);
        };
        let Ok(message) = serde_json::from_slice::<Value>(&body) else {
            return reply(StatusCode::BAD_REQUEST, String::new());
        };
        let messages = match &message {
            Value::Array(items) => items.clone(),
            one => vec![one.clone()],
        };
        let with = |name: &str| {
            messages
                .iter()
                .find(|m| m.get("method").and_then(Value::as_str) == Some(name))
        };
        let param = |m: &Value, name: &str| {
            m.get("params")
                .and_then(|p| p.get(name))
                .and_then(Value::as_u64)
        };
        if with("drop").is_some() {
            return Err(Hangup);
        }
        if let Some(m) = with("fail") {
            let status = param(m, "status")
                .and_then(|s| u16::try_from(s).ok())
                .and_then(|s| StatusCode::from_u16(s).ok());
            return reply(
                status.unwrap_or(StatusCode::INTERNAL_SERVER_ERROR),
                String::new(),
            );
        }
        if let Some(m) = with("sse-split") {
            let mut response = reply(StatusCode::OK, String::new())?;
            *response.body_mut() = sse_split(m);
            response
                .headers_mut()
                .insert("content-type", "text/event-stream".parse().unwrap());
            return Ok(response);
        }
        if let Some(m) = with("sse-drop") {
            let id = format!(
                "sse-drop-{}",
                DROPS.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
            );
            let reply = echo(&m.to_string()).unwrap_or_default();
            DROPPED.lock().unwrap().insert(id.clone(), reply);
            return event_stream(format!("id: {id}\nretry: 200\ndata: \n\n"));
        }
        if let Some(m) = with("huge") {
            let mb = param(m, "mb").unwrap_or(17).min(64) as usize;
            let mut padded: Value = echo(&m.to_string())
                .and_then(|r| serde_json::from_str(&r).ok())
                .unwrap_or(Value::Null);
            padded["fill"] = Value::String("x".repeat(mb * 1024 * 1024));
            return reply(StatusCode::OK, padded.to_string());
        }
        if let Some(m) = with("slow") {
            tokio::time::sleep(Duration::from_millis(param(m, "ms").unwrap_or(2000))).await;
        }
        let replies: Vec<Value> = messages
            .iter()
            .filter_map(|m| echo(&m.to_string()))
            .map(|r| serde_json::from_str(&r).unwrap_or(Value::Null))
            .collect();
        match (&message, replies.as_slice()) {
            (_, []) => reply(StatusCode::ACCEPTED, String::new()),
            (Value::Array(_), _) => reply(StatusCode::OK, Value::Array(replies).to_string()),
            (_, [one, ..]) => reply(StatusCode::OK, one.to_string()),
        }
    }

    /// The replies of `sse-drop` streams not yet resumed, by the event id a GET resumes after.
    static DROPPED: std::sync::Mutex<std::collections::BTreeMap<String, String>> =
        std::sync::Mutex::new(std::collections::BTreeMap::new());
    static DROPS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

    /// The `sse-split` stream for the request `m` (see the module's documentation).
    fn sse_split(m: &Value) -> Body {
        use http_body_util::BodyExt;
        let notice = r#"{"jsonrpc":"2.0","method":"sse/notice","params":{"text":"é"}}"#;
        let reply = echo(&m.to_string()).unwrap_or_default();
        let mut stream = format!("event: message\r\ndata: {notice}\r\n\r").into_bytes();
        let first = stream.len();
        stream.extend_from_slice(format!("\nevent: message\r\ndata: {reply}\r\n\r\n").as_bytes());
        // Inside the reply's first 'é' (two bytes, C3 A9), if it has one.
        let second = stream[first..]
            .windows(2)
            .position(|w| w == "é".as_bytes())
            .map_or(stream.len(), |at| first + at + 1);
        let pieces = [
            stream[..first].to_vec(),
            stream[first..second].to_vec(),
            stream[second..].to_vec(),
        ];
        let frames = futures_util::stream::iter(pieces).then(|piece| async move {
            tokio::time::sleep(Duration::from_millis(50)).await;
            Ok(hyper::body::Frame::data(hyper::body::Bytes::from(piece)))
        });
        http_body_util::StreamBody::new(frames).boxed_unsync()
    }

    /// `a=1&b=two` → {a: "1", b: "two"} (no percent-decoding beyond `+` and `%20` as spaces).
    fn query(text: &str) -> HashMap<String, String> {
        text.split('&')
            .filter_map(|pair| pair.split_once('=').or(Some((pair, ""))))
            .filter(|(name, _)| !name.is_empty())
            .map(|(name, value)| {
                (
                    name.to_string(),
                    value.replace('+', " ").replace("%20", " "),
                )
            })
            .collect()
    }
}
