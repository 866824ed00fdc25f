//! A server started by the probe: one message per line on its stdin and stdout. It runs in its own
//! process group, which is killed when the probe ends (normally or not: [`Drop`] too); its stderr
//! is kept (the last lines) to say why it stopped.

use std::collections::VecDeque;
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::process::{Child, ChildStdin, Command};
use tokio::sync::{mpsc, OwnedSemaphorePermit, Semaphore};

use crate::probe::link::{excerpt, LinkError};

/// The longest line read from the server (a longer one ends the probe: the server is broken).
const MAX_LINE: u64 = 16 * 1024 * 1024;
/// The most bytes of lines read ahead of the probe (read from the server, not yet received):
/// the reader waits past it, so a server writing faster than the probe reads fills its pipe,
/// not the probe's memory.
const MAX_READ_AHEAD: u32 = 32 * 1024 * 1024;
/// Lines of the server's stderr kept for the error message.
const STDERR_KEPT: usize = 8;
/// The characters of each kept stderr line shown.
const STDERR_LINE_SHOWN: usize = 200;
/// The bytes of one stderr line held while it is read (4 bytes per character shown: the rest of
/// a longer line is dropped as it arrives).
const STDERR_LINE_HELD: usize = 4 * STDERR_LINE_SHOWN;
/// The bytes of stderr read at a time.
const STDERR_CHUNK: usize = 8 * 1024;

pub struct StdioLink {
    program: String,
    child: Child,
    /// The process group (the child's pid), killed at the end.
    group: Option<i32>,
    stdin: Option<ChildStdin>,
    /// Lines read, each with its share of [`MAX_READ_AHEAD`] (given back when received).
    lines: mpsc::Receiver<Result<(String, OwnedSemaphorePermit), String>>,
    stderr: Arc<Mutex<VecDeque<String>>>,
}

impl StdioLink {
    pub fn spawn(program: &str, args: &[String]) -> Result<StdioLink, LinkError> {
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0)
            .kill_on_drop(true)
            .spawn()
            .map_err(|e| LinkError(format!("cannot start {program}: {e}")))?;
        let group = child.id().and_then(|pid| i32::try_from(pid).ok());
        let (Some(stdin), Some(stdout), Some(stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            return Err(LinkError(format!(
                "{program} has no standard input or output"
            )));
        };
        let (tx, lines) = mpsc::channel(1024);
        let read_ahead = Arc::new(Semaphore::new(MAX_READ_AHEAD as usize));
        tokio::spawn(async move {
            let mut reader = BufReader::new(stdout);
            loop {
                let mut line = Vec::new();
                match (&mut reader)
                    .take(MAX_LINE + 1)
                    .read_until(b'\n', &mut line)
                    .await
                {
                    Ok(0) => break,
                    Ok(_) if line.len() as u64 > MAX_LINE => {
                        let _ = tx
                            .send(Err(format!(
                                "the server wrote a line longer than {MAX_LINE} bytes"
                            )))
                            .await;
                        break;
                    }
                    Ok(_) => {
                        let text = String::from_utf8_lossy(&line);
                        let text = text.trim_end_matches(['\r', '\n']);
                        if text.trim().is_empty() {
                            continue;
                        }
                        let share = u32::try_from(text.len())
                            .unwrap_or(u32::MAX)
                            .min(MAX_READ_AHEAD);
                        let Ok(permit) = Arc::clone(&read_ahead).acquire_many_owned(share).await
                        else {
                            break;
                        };
                        if tx.send(Ok((text.to_string(), permit))).await.is_err() {
                            break;
                        }
                    }
                    Err(e) => {
                        let _ = tx
                            .send(Err(format!("reading the server's output: {e}")))
                            .await;
                        break;
                    }
                }
            }
        });
        let kept = Arc::new(Mutex::new(VecDeque::new()));
        tokio::spawn(keep_stderr_tail(stderr, Arc::clone(&kept)));
        Ok(StdioLink {
            program: program.to_string(),
            child,
            group,
            stdin: Some(stdin),
            lines,
            stderr: kept,
        })
    }

    /// Writes `text` and a newline to the server's input, within `timeout` (a server that stops
    /// reading fills the pipe: then the probe stops, and [`StdioLink::stop`] kills it).
    pub async fn send(&mut self, text: &str, timeout: Duration) -> Result<(), LinkError> {
        let Some(stdin) = &mut self.stdin else {
            return Err(self.gone().await);
        };
        let mut line = text.as_bytes().to_vec();
        line.push(b'\n');
        let written = async {
            stdin.write_all(&line).await?;
            stdin.flush().await
        };
        match tokio::time::timeout(timeout, written).await {
            Ok(Ok(())) => Ok(()),
            Ok(Err(_)) => {
                self.stdin = None;
                Err(self.gone().await)
            }
            Err(_) => {
                self.stdin = None;
                Err(LinkError(format!(
                    "{} did not read a message of {} bytes within {timeout:?} (it stopped reading its input)",
                    self.program,
                    line.len()
                )))
            }
        }
    }

    pub async fn receive(&mut self, wait: Duration) -> Result<Option<String>, LinkError> {
        match tokio::time::timeout(wait, self.lines.recv()).await {
            Err(_) => Ok(None),
            Ok(Some(Ok((line, _read_ahead)))) => Ok(Some(line)),
            Ok(Some(Err(problem))) => Err(LinkError(problem)),
            Ok(None) => Err(self.gone().await),
        }
    }

    /// Why the server cannot be talked to: its exit status and its last stderr lines.
    async fn gone(&mut self) -> LinkError {
        let status = tokio::time::timeout(Duration::from_millis(500), self.child.wait()).await;
        let how = match status {
            Ok(Ok(status)) => format!("{} exited ({status})", self.program),
            _ => format!("{} closed its output", self.program),
        };
        let tail: Vec<String> = self
            .stderr
            .lock()
            .map(|t| t.iter().cloned().collect())
            .unwrap_or_default();
        if tail.is_empty() {
            LinkError(how)
        } else {
            LinkError(format!(
                "{how}; its last stderr lines:\n  {}",
                tail.join("\n  ")
            ))
        }
    }

    /// Closes the server's input, gives it a moment to exit, then kills its process group.
    pub async fn stop(mut self) {
        self.stdin = None;
        if tokio::time::timeout(Duration::from_millis(300), self.child.wait())
            .await
            .is_err()
        {
            self.kill_group(libc::SIGTERM);
            if tokio::time::timeout(Duration::from_millis(500), self.child.wait())
                .await
                .is_err()
            {
                let _ = self.child.start_kill();
            }
        }
        self.kill_group(libc::SIGKILL);
        self.group = None;
    }

    /// The server's process group (its pid), while it runs.
    pub fn process_group(&self) -> Option<i32> {
        self.group
    }

    fn kill_group(&self, signal: i32) {
        if let Some(group) = self.group {
            // SAFETY: kill(2) with a negative pid signals that process group; it touches no memory.
            unsafe {
                libc::kill(-group, signal);
            }
        }
    }
}

/// Reads the server's stderr to its end, in chunks, keeping its last [`STDERR_KEPT`] lines (each
/// cut to [`STDERR_LINE_SHOWN`] characters; `\r` ends a line too, as a progress bar draws them).
/// Any bytes are fine (decoded lossily): the pipe stays open and drained until the server closes
/// it, so a server's log line never meets a closed pipe, and memory stays bounded whatever the
/// server writes.
async fn keep_stderr_tail(
    mut stderr: tokio::process::ChildStderr,
    tail: Arc<Mutex<VecDeque<String>>>,
) {
    let mut chunk = vec![0u8; STDERR_CHUNK];
    let mut line: Vec<u8> = Vec::new();
    let keep = |line: &mut Vec<u8>| {
        if !line.is_empty() {
            let text = excerpt(&String::from_utf8_lossy(line), STDERR_LINE_SHOWN);
            if let Ok(mut tail) = tail.lock() {
                if tail.len() == STDERR_KEPT {
                    tail.pop_front();
                }
                tail.push_back(text);
            }
        }
        line.clear();
    };
    loop {
        let n = match stderr.read(&mut chunk).await {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => break,
        };
        for piece in chunk[..n].split_inclusive(|&b| b == b'\n' || b == b'\r') {
            let (body, ended) = match piece.split_last() {
                Some((b'\n' | b'\r', body)) => (body, true),
                _ => (piece, false),
            };
            let room = STDERR_LINE_HELD.saturating_sub(line.len());
            line.extend_from_slice(&body[..body.len().min(room)]);
            if ended {
                keep(&mut line);
            }
        }
    }
    keep(&mut line);
}

impl Drop for StdioLink {
    fn drop(&mut self) {
        // Whatever happened (an error, a panic, Ctrl+C): nothing the probe started outlives it.
        self.kill_group(libc::SIGKILL);
    }
}
