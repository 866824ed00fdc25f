//! `jrpc serve --ws ADDR --http ADDR`: the mock server over WebSocket ([`ws`]) and HTTP ([`http`]),
//! so a browser (the playground's live link) or any client can try a real connection without writing
//! a server.
//!
//! - Addresses are checked and bound before anything runs: an address that is not loopback needs
//!   `--allow-remote`; a port in use, or any other bind failure, is one line on stderr and exit 2.
//! - The listening URLs are printed on stderr as one line, `jrpc serve: WebSocket on ws://HOST:PORT,
//!   HTTP on http://HOST:PORT` (port 0 shows the port the system chose), so scripts and tests can
//!   read it.
//! - One thread, one tokio current-thread runtime; every message is answered on its blocking pool
//!   ([`off_thread`]), so the runtime's thread only moves bytes. Ctrl+C, SIGTERM or `--exit-after SECS` stop it:
//!   WebSocket peers get a close frame (1001, going away), HTTP connections finish what they were
//!   answering, then it exits 0.

mod guard;
mod http;
mod ws;

use std::future::Future;
use std::io;
use std::net::{SocketAddr, TcpListener as StdListener, ToSocketAddrs};
use std::pin::Pin;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use futures_util::future::select_all;
use tokio::net::TcpListener;
use tokio::sync::{mpsc, watch};

use crate::cli::recording::Recording;
use crate::mock::Fixtures;
use crate::openrpc::OpenRpc;

/// What `jrpc serve` was asked for.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// `--ws ADDR`, as typed.
    pub ws: Option<String>,
    /// `--http ADDR`, as typed.
    pub http: Option<String>,
    /// `--allow-remote`: an address that is not loopback is allowed (and any `Host` answered).
    pub allow_remote: bool,
    /// `--allow-origin ORIGIN`: browser origins besides loopback ones that may connect.
    pub allow_origins: Vec<String>,
    /// `--exit-after SECS`.
    pub exit_after: Option<Duration>,
    /// `--verbose`: every message and reply on stderr.
    pub verbose: bool,
    /// `--fixtures`: the MCP server's tools, resources and prompts.
    pub fixtures: Fixtures,
    /// `--openrpc DOC`: serve the API this document describes instead of the MCP mock.
    pub openrpc: Option<Arc<OpenRpc>>,
    /// `--replay TRANSCRIPT`: serve a recorded session instead.
    pub replay: Option<Arc<Recording>>,
}

/// How long a stopping server waits for its connections to say goodbye.
const GOODBYE: Duration = Duration::from_secs(2);

/// What every connection task gets: the stop signal, a guard whose drop says the task ended, and
/// whether to log.
#[derive(Clone)]
struct Context {
    stop: watch::Receiver<bool>,
    /// Which `Host` and `Origin` are answered ([`guard`]).
    guard: Arc<guard::Guard>,
    _alive: mpsc::Sender<()>,
    verbose: bool,
    fixtures: Fixtures,
    /// The OpenRPC document whose API is served instead of the MCP mock.
    openrpc: Option<Arc<OpenRpc>>,
    /// The recorded session served instead of the MCP mock.
    replay: Option<Arc<Recording>>,
}

/// Runs the network transports until stopped. Exit 0 when stopped, 2 on a usage or bind error.
pub fn main(options: &Options) -> ExitCode {
    let mut listeners = Vec::new();
    for (flag, text) in [("--ws", &options.ws), ("--http", &options.http)] {
        let Some(text) = text else { continue };
        let shared = listeners.iter().find(|(_, bound): &&(&str, StdListener)| {
            resolve(text)
                .is_ok_and(|addr| addr.port() != 0 && bound.local_addr().is_ok_and(|b| b == addr))
        });
        if let Some((other, _)) = shared {
            eprintln!("jrpc serve: {other} and {flag} cannot share {text}; give them different ports (0 picks a free one)");
            return ExitCode::from(2);
        }
        match bind(flag, text, options.allow_remote) {
            Ok(listener) => listeners.push((flag, listener)),
            Err(message) => {
                eprintln!("jrpc serve: {message}");
                return ExitCode::from(2);
            }
        }
    }
    let mut urls = Vec::new();
    for (flag, listener) in &listeners {
        let addr = listener
            .local_addr()
            .expect("a bound listener has an address");
        urls.push(match *flag {
            "--ws" => format!("WebSocket on ws://{addr}"),
            _ => format!("HTTP on http://{addr}"),
        });
    }
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("jrpc serve: cannot start the runtime: {e}");
            return ExitCode::from(1);
        }
    };
    let reason = runtime.block_on(async move {
        let (stop_tx, stop_rx) = watch::channel(false);
        let (alive_tx, mut alive_rx) = mpsc::channel::<()>(1);
        let context = Context {
            stop: stop_rx,
            guard: Arc::new(guard::Guard {
                any_host: options.allow_remote,
                origins: options.allow_origins.clone(),
            }),
            _alive: alive_tx,
            verbose: options.verbose,
            fixtures: options.fixtures,
            openrpc: options.openrpc.clone(),
            replay: options.replay.clone(),
        };
        for (flag, listener) in listeners {
            let listener =
                TcpListener::from_std(listener).expect("a non-blocking std listener converts");
            let context = context.clone();
            match flag {
                "--ws" => tokio::spawn(accept_loop(listener, context, "ws", ws::connection)),
                _ => tokio::spawn(accept_loop(listener, context, "http", http::connection)),
            };
        }
        drop(context);
        // The signal handlers exist before the line that says the server is ready: a SIGTERM sent
        // as soon as it is read stops the server cleanly instead of killing it.
        let stop = stop_signal(options.exit_after);
        eprintln!("jrpc serve: {} (Ctrl+C stops)", urls.join(", "));
        let reason = stop.await;
        let _ = stop_tx.send(true);
        // Every task holds a sender; the channel closes when the last one has ended.
        let _ = tokio::time::timeout(GOODBYE, alive_rx.recv()).await;
        reason
    });
    eprintln!("jrpc serve: stopped ({reason})");
    ExitCode::SUCCESS
}

/// Resolves and binds `text` for `flag`, or says in one line why not.
fn bind(flag: &str, text: &str, allow_remote: bool) -> Result<StdListener, String> {
    let addr = resolve(text).map_err(|e| format!("{flag} {text}: {e}"))?;
    if !addr.ip().is_loopback() && !allow_remote {
        return Err(format!(
            "{flag} {text}: {} is not a loopback address, so other machines could reach this server; \
             use 127.0.0.1 (or [::1]), or pass --allow-remote to serve the network",
            addr.ip()
        ));
    }
    let listener = StdListener::bind(addr).map_err(|e| match e.kind() {
        io::ErrorKind::AddrInUse => format!(
            "{flag} {text}: port {} is already in use on {}; stop the program using it or choose another port (0 picks a free one)",
            addr.port(),
            addr.ip()
        ),
        io::ErrorKind::PermissionDenied => {
            format!("{flag} {text}: permission denied to listen on port {} (ports below 1024 need privileges)", addr.port())
        }
        io::ErrorKind::AddrNotAvailable => format!("{flag} {text}: {} is not an address of this machine", addr.ip()),
        _ => format!("{flag} {text}: cannot listen on {addr}: {e}"),
    })?;
    if !addr.ip().is_loopback() {
        eprintln!(
            "jrpc serve: warning: {flag} {addr} is not loopback{}: anyone who can reach this machine on port {} can connect",
            if addr.ip().is_unspecified() { " (every network interface)" } else { "" },
            addr.port()
        );
    }
    listener
        .set_nonblocking(true)
        .map_err(|e| format!("{flag} {text}: {e}"))?;
    Ok(listener)
}

/// `HOST:PORT` (`127.0.0.1:8765`, `[::1]:8765`, `localhost:8765`) or a bare `PORT` (on 127.0.0.1).
/// A name resolving to several addresses takes the first IPv4 one.
fn resolve(text: &str) -> Result<SocketAddr, String> {
    if let Ok(port) = text.parse::<u16>() {
        return Ok(SocketAddr::from(([127, 0, 0, 1], port)));
    }
    if let Ok(addr) = text.parse::<SocketAddr>() {
        return Ok(addr);
    }
    let addrs: Vec<SocketAddr> = text
        .to_socket_addrs()
        .map_err(|e| format!("not an address (HOST:PORT, e.g. 127.0.0.1:8765): {e}"))?
        .collect();
    addrs
        .iter()
        .find(|a| a.is_ipv4())
        .or(addrs.first())
        .copied()
        .ok_or_else(|| "the name has no address".to_string())
}

/// Accepts connections until stopped, each answered by `connection` in its own task.
async fn accept_loop<F, Fut>(
    listener: TcpListener,
    context: Context,
    scheme: &'static str,
    connection: F,
) where
    F: Fn(tokio::net::TcpStream, String, Context) -> Fut,
    Fut: Future<Output = ()> + Send + 'static,
{
    let mut stop = context.stop.clone();
    let mut count = 0u64;
    loop {
        let accepted = {
            let accept = std::pin::pin!(listener.accept());
            let stopped = std::pin::pin!(stop.wait_for(|stop| *stop));
            match futures_util::future::select(accept, stopped).await {
                futures_util::future::Either::Left((accepted, _)) => accepted,
                futures_util::future::Either::Right(_) => return,
            }
        };
        match accepted {
            Ok((stream, peer)) => {
                count += 1;
                let _ = stream.set_nodelay(true);
                let name = format!("{scheme}#{count}");
                if context.verbose {
                    eprintln!("jrpc serve: {name} connected from {peer}");
                }
                tokio::spawn(connection(stream, name, context.clone()));
            }
            // Out of file descriptors and the like: wait a little rather than spin.
            Err(e) => {
                eprintln!("jrpc serve: accept failed: {e}");
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        }
    }
}

/// What stopped the server: Ctrl+C, SIGTERM or `--exit-after`. The handlers are registered now
/// (on Unix), before the returned future is first polled.
fn stop_signal(exit_after: Option<Duration>) -> impl Future<Output = String> {
    type Signal = Pin<Box<dyn Future<Output = String>>>;
    #[cfg(unix)]
    let (interrupt, terminate) = {
        use tokio::signal::unix::{signal, SignalKind};
        (
            signal(SignalKind::interrupt()).ok(),
            signal(SignalKind::terminate()).ok(),
        )
    };
    let ctrl_c: Signal = Box::pin(async move {
        #[cfg(unix)]
        if let Some(mut interrupt) = interrupt {
            interrupt.recv().await;
            return "Ctrl+C".to_string();
        }
        #[cfg(not(unix))]
        if tokio::signal::ctrl_c().await.is_ok() {
            return "Ctrl+C".to_string();
        }
        std::future::pending().await
    });
    let term: Signal = Box::pin(async move {
        #[cfg(unix)]
        if let Some(mut terminate) = terminate {
            terminate.recv().await;
            return "SIGTERM".to_string();
        }
        std::future::pending().await
    });
    let timer: Signal = Box::pin(async move {
        match exit_after {
            Some(after) => {
                tokio::time::sleep(after).await;
                format!("--exit-after {}s", after.as_secs_f64())
            }
            None => std::future::pending().await,
        }
    });
    async move { select_all([ctrl_c, term, timer]).await.0 }
}

/// Runs `work` (answering one input) on tokio's blocking pool (at most 512 threads), never on
/// the runtime's own thread: however long one answer takes, every other connection goes on.
async fn off_thread<T: Send + 'static>(work: impl FnOnce() -> T + Send + 'static) -> T {
    match tokio::task::spawn_blocking(work).await {
        Ok(done) => done,
        // Only a panic in `work` gets here: carry it on rather than invent an answer.
        Err(e) => std::panic::resume_unwind(e.into_panic()),
    }
}

/// Waits until `stop` turns true (or its sender is gone).
async fn stopped(mut stop: watch::Receiver<bool>) {
    let _ = stop.wait_for(|stop| *stop).await;
}
