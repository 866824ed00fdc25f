//! Shared by the tests that run a server process (`jrpc serve --ws/--http`, the example test
//! servers): start it, read where it listens from its first stderr line, stop it. Every wait is
//! bounded by [`WAIT`]; a server is killed when its test ends.
#![allow(dead_code)] // Each test crate uses its own part.

pub mod http;

use std::ffi::OsStr;
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// How long any one wait may take before the test fails.
pub const WAIT: Duration = Duration::from_secs(20);

/// A running server process, killed on drop; its stderr lines after the banner arrive on `stderr`.
pub struct Server {
    pub child: Child,
    /// The first stderr line: where it listens.
    pub banner: String,
    pub stderr: mpsc::Receiver<String>,
}

impl Server {
    /// Starts `program ARGS` and waits for its first stderr line.
    pub fn spawn(program: impl AsRef<OsStr>, args: &[&str]) -> Server {
        let name = program.as_ref().to_string_lossy().into_owned();
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("{name} runs: {e}"));
        let stderr = child.stderr.take().unwrap();
        let (tx, rx) = mpsc::channel();
        // Read stderr to its end so the server never blocks on a full pipe.
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                let _ = tx.send(line);
            }
        });
        let banner = rx
            .recv_timeout(WAIT)
            .unwrap_or_else(|_| panic!("{name} prints where it listens on stderr"));
        Server {
            child,
            banner,
            stderr: rx,
        }
    }

    /// Starts `jrpc serve ARGS`.
    pub fn jrpc_serve(args: &[&str]) -> Server {
        let mut all = vec!["serve"];
        all.extend_from_slice(args);
        Server::spawn(env!("CARGO_BIN_EXE_jrpc"), &all)
    }

    /// The `n`th `scheme://…` URL of the banner (0: the first).
    pub fn nth_url(&self, scheme: &str, n: usize) -> String {
        let prefix = format!("{scheme}://");
        let (start, _) = self
            .banner
            .match_indices(&prefix)
            .nth(n)
            .unwrap_or_else(|| panic!("no {prefix} URL #{n} in {:?}", self.banner));
        self.banner[start..]
            .split([',', ' ', ';'])
            .next()
            .unwrap()
            .to_string()
    }

    /// The first `scheme://…` URL of the banner.
    pub fn url(&self, scheme: &str) -> String {
        self.nth_url(scheme, 0)
    }

    /// `host:port` of the first `scheme://` URL.
    pub fn addr(&self, scheme: &str) -> String {
        let url = self.url(scheme);
        url[scheme.len() + 3..]
            .split('/')
            .next()
            .unwrap()
            .to_string()
    }

    /// Waits for the process to end by itself.
    pub fn wait(&mut self) -> ExitStatus {
        let deadline = Instant::now() + WAIT;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            assert!(
                Instant::now() < deadline,
                "the server did not stop by itself"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// The stderr lines printed after the banner, up to the process's end.
    pub fn rest_of_stderr(&self) -> Vec<String> {
        let mut lines = Vec::new();
        while let Ok(line) = self.stderr.recv_timeout(WAIT) {
            lines.push(line);
        }
        lines
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Runs `future` on a current-thread runtime, failing the test after [`WAIT`].
pub fn run<F: std::future::Future>(future: F) -> F::Output {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        tokio::time::timeout(WAIT, future)
            .await
            .expect("the exchange finished in time")
    })
}

pub type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// Opens a WebSocket client connection.
pub async fn connect(url: &str) -> Socket {
    tokio_tungstenite::connect_async(url)
        .await
        .unwrap_or_else(|e| panic!("{url} opens: {e}"))
        .0
}

/// How long a command run to its end ([`jrpc`], [`output_of`], [`finish`]) may take: longer than
/// [`WAIT`], for the tests that feed megabytes to a debug build on a busy machine.
pub const RUN: Duration = Duration::from_secs(180);

/// Runs `jrpc ARGS` to its end with `stdin` as its standard input, at most [`RUN`].
pub fn jrpc(args: &[&str], stdin: &[u8]) -> std::process::Output {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_jrpc"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("jrpc runs");
    let mut to_jrpc = child.stdin.take().unwrap();
    let input = stdin.to_vec();
    // Written from another thread, so a large input cannot deadlock against unread output.
    let writer = std::thread::spawn(move || {
        let _ = to_jrpc.write_all(&input);
    });
    let output = finish(child, &format!("jrpc {}", args.join(" ")));
    writer.join().unwrap();
    output
}

/// `command.output()` with a deadline ([`RUN`]): standard input empty, the others captured.
pub fn output_of(command: &mut Command) -> std::process::Output {
    let what = format!("{command:?}");
    let child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{what} runs: {e}"));
    finish(child, &what)
}

/// `child.wait_with_output()` with a deadline: its piped stdout and stderr read to their ends,
/// its exit awaited at most [`RUN`]; past it the child is killed and the test fails naming `what`.
pub fn finish(mut child: Child, what: &str) -> std::process::Output {
    let read_all = |pipe: Option<Box<dyn std::io::Read + Send>>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            if let Some(mut pipe) = pipe {
                let _ = pipe.read_to_end(&mut bytes);
            }
            bytes
        })
    };
    let stdout = read_all(child.stdout.take().map(|p| Box::new(p) as _));
    let stderr = read_all(child.stderr.take().map(|p| Box::new(p) as _));
    let status = wait_within(&mut child, RUN, what);
    std::process::Output {
        status,
        stdout: stdout.join().unwrap(),
        stderr: stderr.join().unwrap(),
    }
}

/// Waits for `child` to end, at most `limit`; past it the child is killed and the test fails
/// naming `what`.
pub fn wait_within(child: &mut Child, limit: Duration, what: &str) -> ExitStatus {
    let deadline = Instant::now() + limit;
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if Instant::now() >= deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{what} did not end within {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// The lines `reader` yields, read on a thread of their own: take each with
/// `recv_timeout(WAIT)` (a closed stream ends the channel).
pub fn lines_of(reader: impl std::io::Read + Send + 'static) -> mpsc::Receiver<String> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(reader).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    rx
}

/// The next line of `lines` ([`lines_of`]) within [`WAIT`]; the test fails naming `what`.
pub fn next_line(lines: &mpsc::Receiver<String>, what: &str) -> String {
    lines
        .recv_timeout(WAIT)
        .unwrap_or_else(|e| panic!("no line from {what} within {WAIT:?} ({e})"))
}

/// A process's peak resident memory so far (Linux: `VmHWM` of /proc/PID/status), in bytes.
#[cfg(target_os = "linux")]
pub fn peak_memory(pid: u32) -> usize {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("the process runs");
    let line = status
        .lines()
        .find(|l| l.starts_with("VmHWM:"))
        .expect("Linux says the peak");
    let kb: usize = line
        .split_whitespace()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .expect("a number of kB");
    kb * 1024
}

/// One batch of `n` `tools/list` requests: each is answered with about 4 KB, so 44,000 of them
/// (2 MiB) ask for 181 MB.
pub fn tools_list_batch(n: usize) -> String {
    let items: Vec<String> = (0..n)
        .map(|id| format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/list"}}"#))
        .collect();
    format!("[{}]", items.join(","))
}

/// The mock's answer to a batch whose replies would pass 16 MiB.
pub const REPLY_TOO_LARGE: &str = r#"{"jsonrpc":"2.0","error":{"code":-32010,"message":"Reply too large: the replies would pass 16777216 bytes (16 MiB); send fewer requests per batch"},"id":null}"#;
