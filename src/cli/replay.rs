//! `jrpc replay TRANSCRIPT (URL | -- CMD)`: re-sends a recorded session's client side to a live
//! server over the probe's links (stdio, HTTP, WebSocket), pairs each new answer with the recorded
//! one by the recorded ids, and diffs them structurally: one JSON pointer per difference, old and
//! new value, `--ignore` rules and defaults for volatile MCP fields. The new conversation is
//! checked by the validator as `jrpc check` checks a transcript. Text, JSON or JUnit out; exit 1
//! on a difference (or an error finding in the server's messages), 2 on a usage or connection
//! error.
//!
//! Also [`listings`]: a server's interface (initialize, tools/list, … each page) as a transcript,
//! for `jrpc diff`.

use crate::cli::probe::headers::Headers;
use crate::cli::probe::link::ClientOptions;
use std::collections::HashMap;
use std::fmt::Write as _;
use std::process::ExitCode;
use std::time::Duration;

use serde_json::{json, Value};
use tokio::time::Instant;

use super::diagnostic::printable;
use super::probe::link::Link;
use super::probe::target;
use super::recording::{Exchange, Item, Recording};
use crate::probe::ProbeLink;

/// Re-send a recorded session to a live server and show every difference in its answers.
///
/// TRANSCRIPT is a `-->` / `<--` transcript (`jrpc tap --transcript`, `jrpc probe --transcript`).
/// Its client messages are sent again in order, with their recorded ids, to the server (an
/// http(s):// or ws(s):// URL, or a command after `--`); the server's requests are answered with
/// the client's recorded answers. Each reply is compared with the recorded one; so are the
/// messages the server sent before it (waited for, up to --timeout).
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  jrpc replay session.txt -- ./my-server --stdio
  jrpc replay session.txt http://127.0.0.1:8766/mcp --ignore /result/content/0/text
  jrpc replay session.txt --format junit --ignore-file volatile.txt -- npx my-server > replay.xml

Ignored by default (--no-default-ignores keeps only /id): **/_meta, **/timestamp, **/createdAt,
**/updatedAt, **/lastModified, **/sessionId, **/progressToken, /result/serverInfo/version.
A pattern is a JSON pointer whose token * matches any one token and ** any number of them.

Exit status: 0 every answer as recorded, 1 a difference (or an error finding in the server's
messages), 2 a usage error, or the transcript or the server could not be used.")]
pub struct Args {
    /// The recorded session
    #[arg(value_name = "TRANSCRIPT")]
    transcript: String,
    /// The server's URL: http(s)://HOST:PORT/PATH or ws(s)://HOST:PORT/PATH (or a command after --)
    #[arg(value_name = "URL")]
    url: Option<String>,
    /// Leave out of the comparison what POINTER matches (e.g. /result/content/0/text or
    /// **/requestId); repeatable
    #[arg(long, value_name = "POINTER")]
    ignore: Vec<String>,
    /// Ignore the patterns of FILE too: one a line, `#` comments
    #[arg(long, value_name = "FILE")]
    ignore_file: Option<String>,
    /// Compare volatile MCP fields too (see below); /id is always ignored
    #[arg(long)]
    no_default_ignores: bool,
    /// Output: text, a JSON report, or JUnit XML
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Write the new conversation as a transcript to FILE
    #[arg(long, value_name = "FILE")]
    transcript_out: Option<String>,
    /// How long one request may wait for its reply (and the messages recorded before it), in seconds
    #[arg(long, value_name = "SECS", default_value = "5", value_parser = seconds)]
    timeout: Duration,
    /// How long the whole replay may take, in seconds
    #[arg(long, value_name = "SECS", default_value = "300", value_parser = seconds)]
    total_timeout: Duration,
    /// The server to start, and its arguments (after `--`)
    #[arg(last = true, value_name = "CMD")]
    command: Vec<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum Format {
    Text,
    Json,
    Junit,
}

/// A positive number of seconds, at most a day.
pub(crate) fn seconds(text: &str) -> Result<Duration, String> {
    let secs: f64 = text
        .parse()
        .map_err(|_| format!("{text:?} is not a number of seconds"))?;
    if !(secs > 0.0 && secs <= 86_400.0) {
        return Err(format!("{text} is not between 0 and 86400 seconds"));
    }
    Ok(Duration::from_secs_f64(secs))
}

/// The ignore patterns used unless `--no-default-ignores`.
pub const DEFAULT_IGNORES: &[&str] = &[
    "**/_meta",
    "**/timestamp",
    "**/createdAt",
    "**/updatedAt",
    "**/lastModified",
    "**/sessionId",
    "**/progressToken",
    "/result/serverInfo/version",
];
/// The largest `--ignore-file` (1 MiB).
const MAX_IGNORE_FILE_BYTES: u64 = 1 << 20;
/// The most ignore patterns.
const MAX_IGNORES: usize = 1_000;
/// The most JSON nodes compared in one replay; past it the replay says it stopped comparing.
pub const MAX_COMPARED_NODES: usize = 50_000_000;
/// The most differences listed per answer (the rest are counted).
const MAX_LISTED_PER_ANSWER: usize = 100;
/// The most server messages kept while waiting for one reply (the rest are counted).
const MAX_KEPT_MESSAGES: usize = 10_000;

/// One difference between a recorded answer and the new one.
#[derive(Debug)]
struct Difference {
    /// `FILE:LINE` of the recorded request.
    at: String,
    method: String,
    /// Where: `/…` in the reply, `/messages/N/…` in the server's messages before it.
    pointer: String,
    old: Option<Value>,
    new: Option<Value>,
    why: String,
}

/// An ignore pattern, split into tokens.
struct Pattern(Vec<String>);

impl Pattern {
    fn parse(text: &str) -> Result<Pattern, String> {
        // `**/x` is `/**/x`: any depth from the top.
        let owned;
        let text = if text.starts_with("**") {
            owned = format!("/{text}");
            owned.as_str()
        } else {
            text
        };
        if !(text.is_empty() || text.starts_with('/')) {
            return Err(format!(
                "{text:?} is not a JSON pointer (it starts with /, e.g. /result/content/0/text)"
            ));
        }
        Ok(Pattern(
            text.split('/')
                .skip(1)
                .map(|t| t.replace("~1", "/").replace("~0", "~"))
                .collect(),
        ))
    }

    fn matches(&self, path: &[String]) -> bool {
        fn walk(pattern: &[String], path: &[String]) -> bool {
            match pattern.split_first() {
                None => path.is_empty(),
                Some((first, rest)) if first == "**" => {
                    (0..=path.len()).any(|skip| walk(rest, &path[skip..]))
                }
                Some((first, rest)) => match path.split_first() {
                    Some((token, path_rest)) => {
                        (first == "*" || first == token) && walk(rest, path_rest)
                    }
                    None => false,
                },
            }
        }
        walk(&self.0, path)
    }
}

/// Compares JSON values within a budget.
struct Comparer {
    ignores: Vec<Pattern>,
    nodes: usize,
    truncated: bool,
}

impl Comparer {
    fn ignored(&self, path: &[String]) -> bool {
        self.ignores.iter().any(|p| p.matches(path))
    }

    /// The differences of `new` from `old`, as (pointer, old, new) under `path`.
    fn diff(
        &mut self,
        path: &mut Vec<String>,
        old: Option<&Value>,
        new: Option<&Value>,
        out: &mut Vec<(String, Option<Value>, Option<Value>)>,
    ) {
        self.nodes += 1;
        if self.nodes > MAX_COMPARED_NODES {
            self.truncated = true;
            return;
        }
        if self.ignored(path) || old == new {
            return;
        }
        match (old, new) {
            (Some(Value::Object(a)), Some(Value::Object(b))) => {
                for (key, value) in a {
                    path.push(key.clone());
                    self.diff(path, Some(value), b.get(key), out);
                    path.pop();
                }
                for (key, value) in b {
                    if !a.contains_key(key) {
                        path.push(key.clone());
                        self.diff(path, None, Some(value), out);
                        path.pop();
                    }
                }
            }
            (Some(Value::Array(a)), Some(Value::Array(b))) => {
                for i in 0..a.len().max(b.len()) {
                    path.push(i.to_string());
                    self.diff(path, a.get(i), b.get(i), out);
                    path.pop();
                }
            }
            _ => out.push((pointer_of(path), old.cloned(), new.cloned())),
        }
    }
}

fn pointer_of(path: &[String]) -> String {
    path.iter()
        .map(|t| format!("/{}", t.replace('~', "~0").replace('/', "~1")))
        .collect()
}

/// The new conversation, as a transcript.
#[derive(Default)]
struct Conversation {
    transcript: String,
}

impl Conversation {
    fn sent(&mut self, text: &str) {
        let _ = writeln!(self.transcript, "--> {text}");
    }
    fn received(&mut self, text: &str) {
        let _ = writeln!(self.transcript, "<-- {}", text.trim());
    }
}

/// What a replay found.
struct Outcome {
    differences: Vec<Difference>,
    /// Differences found past [`MAX_LISTED_PER_ANSWER`] and not listed.
    unlisted: usize,
    exchanges: usize,
    /// (`FILE:LINE`, method) of each exchange replayed.
    replayed: Vec<(String, String)>,
    findings: Vec<String>,
    truncated: bool,
    transcript: String,
}

pub fn main(args: Args) -> ExitCode {
    let target = match target::parse(args.url.as_deref(), &args.command) {
        Ok(target) => target,
        Err(message) => {
            return super::usage_error("replay", clap::error::ErrorKind::InvalidValue, message)
        }
    };
    let mut patterns: Vec<String> = vec!["/id".into()];
    if !args.no_default_ignores {
        patterns.extend(DEFAULT_IGNORES.iter().map(|p| p.to_string()));
    }
    patterns.extend(args.ignore.iter().cloned());
    if let Some(file) = &args.ignore_file {
        let bytes = match super::recording::read_bounded(file, MAX_IGNORE_FILE_BYTES) {
            Ok(bytes) => bytes,
            Err(message) => {
                eprintln!("jrpc replay: --ignore-file {}", printable(&message));
                return ExitCode::from(2);
            }
        };
        for (n, line) in String::from_utf8_lossy(&bytes).lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            if let Err(message) = Pattern::parse(line) {
                eprintln!(
                    "jrpc replay: {}:{}: {}",
                    printable(file),
                    n + 1,
                    printable(&message)
                );
                return ExitCode::from(2);
            }
            patterns.push(line.to_string());
        }
    }
    if patterns.len() > MAX_IGNORES {
        eprintln!(
            "jrpc replay: {} ignore patterns; at most {MAX_IGNORES}",
            patterns.len()
        );
        return ExitCode::from(2);
    }
    let mut ignores = Vec::new();
    for pattern in &patterns {
        match Pattern::parse(pattern) {
            Ok(p) => ignores.push(p),
            Err(message) => {
                return super::usage_error(
                    "replay",
                    clap::error::ErrorKind::InvalidValue,
                    format!("--ignore {message}"),
                )
            }
        }
    }
    let recording = match Recording::load(std::slice::from_ref(&args.transcript)) {
        Ok(recording) => recording,
        Err(message) => {
            eprintln!("jrpc replay: {}", printable(&message));
            return ExitCode::from(2);
        }
    };
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("jrpc replay: cannot start the async runtime: {e}");
            return ExitCode::from(2);
        }
    };
    let comparer = Comparer {
        ignores,
        nodes: 0,
        truncated: false,
    };
    let outcome = runtime.block_on(replay(&recording, &target, comparer, &args));
    drop(runtime);
    let mut outcome = match outcome {
        Ok(outcome) => outcome,
        Err(why) => {
            eprintln!(
                "jrpc replay: {} could not be replayed against: {}",
                printable(&target.to_string()),
                printable(&why)
            );
            return ExitCode::from(2);
        }
    };
    check_new_answers(&recording, &mut outcome);
    if let Some(path) = &args.transcript_out {
        if let Err(e) = std::fs::write(path, &outcome.transcript) {
            eprintln!("jrpc replay: cannot write the transcript {path}: {e}");
            return ExitCode::from(2);
        }
    }
    let target_name = target.to_string();
    let out = match args.format {
        Format::Text => text_report(&args.transcript, &target_name, &outcome),
        Format::Json => json_report(&args.transcript, &target_name, &outcome),
        Format::Junit => junit_report(&args.transcript, &outcome),
    };
    let written = super::write_stdout(out.as_bytes());
    if written != ExitCode::SUCCESS {
        return written;
    }
    let failed = !outcome.differences.is_empty() || !outcome.findings.is_empty();
    ExitCode::from(u8::from(failed))
}

/// The MCP revision a recorded session speaks (from its initialize request or `_meta`), if any.
fn recorded_profile(recording: &Recording) -> crate::rpc::Profile {
    for exchange in recording.exchanges.iter().take(8) {
        if exchange.method == "initialize" || exchange.method == "server/discover" {
            let params: Value = serde_json::from_str(&exchange.params).unwrap_or(Value::Null);
            let version = params
                .get("protocolVersion")
                .or_else(|| params.pointer("/_meta/io.modelcontextprotocol~1protocolVersion"))
                .and_then(Value::as_str)
                .and_then(|v| v.parse().ok())
                .unwrap_or_default();
            return crate::rpc::Profile::Mcp(version);
        }
    }
    crate::rpc::Profile::JsonRpc
}

/// The validator's error findings on the server's messages of the new conversation.
fn check_new_answers(recording: &Recording, outcome: &mut Outcome) {
    let report = crate::rpc::check(outcome.transcript.as_bytes(), recorded_profile(recording));
    let lines = crate::json::LineIndex::new(outcome.transcript.as_bytes());
    for document in &report.documents {
        if document.direction != Some(crate::json::Direction::Server) {
            continue;
        }
        for violation in document.all_violations() {
            if violation.severity != crate::rpc::Severity::Error {
                continue;
            }
            let line = lines
                .position(outcome.transcript.as_bytes(), violation.span.start)
                .line;
            outcome.findings.push(format!(
                "new transcript line {line}: error[{}]: {}",
                violation.rule.id, violation.message
            ));
        }
    }
}

/// The id of a message as compact JSON text.
fn id_text(message: &Value) -> Option<String> {
    message.get("id").map(Value::to_string)
}

/// Waits for what answers `exchange` (its reply, and as many server messages as were recorded
/// before it), answering the server's requests with the recorded client answers.
async fn await_answer(
    link: &mut Link,
    conversation: &mut Conversation,
    exchange: &Exchange,
    deadline: Instant,
    early: &mut HashMap<String, Value>,
) -> Result<(Option<Value>, Vec<Value>, usize), String> {
    let recorded_messages = exchange
        .items
        .iter()
        .filter(|i| matches!(i, Item::Message(_)))
        .count();
    let wants_reply = exchange.reply().is_some();
    let id: Value = serde_json::from_str(&exchange.id).unwrap_or(Value::Null);
    let mut reply = early.remove(&exchange.id);
    let mut messages = Vec::new();
    let mut dropped = 0;
    let mut answers = exchange.client_answers.iter();
    while (wants_reply && reply.is_none()) || messages.len() + dropped < recorded_messages {
        let now = Instant::now();
        if now >= deadline {
            break;
        }
        let received = link.receive(deadline - now).await.map_err(|e| e.0)?;
        let Some(text) = received else {
            break;
        };
        conversation.received(&text);
        let Ok(message) = serde_json::from_str::<Value>(&text) else {
            messages.push(Value::String(text));
            continue;
        };
        let is_response = message.get("method").is_none();
        if is_response {
            if message.get("id") == Some(&id) {
                reply = Some(message);
            } else if let Some(other) = id_text(&message) {
                early.insert(other, message);
            }
            continue;
        }
        if let (Some(server_id), Some(answer)) = (message.get("id"), answers.next()) {
            let text = answer.with_id(&server_id.to_string());
            conversation.sent(&text);
            link.send(&text, deadline.saturating_duration_since(Instant::now()))
                .await
                .map_err(|e| e.0)?;
        }
        if messages.len() < MAX_KEPT_MESSAGES {
            messages.push(message);
        } else {
            dropped += 1;
        }
    }
    Ok((reply, messages, dropped))
}

async fn replay(
    recording: &Recording,
    target: &target::Target,
    mut comparer: Comparer,
    args: &Args,
) -> Result<Outcome, String> {
    let started = Instant::now();
    let total_deadline = started + args.total_timeout;
    // No headers and no client identity of its own (the probe's --header and OAuth options are
    // not offered by replay yet).
    let (headers, client) = (Headers::default(), ClientOptions::default());
    let mut link = Link::open(
        target,
        &headers,
        &client,
        args.timeout.min(args.total_timeout),
        started,
    )
    .await
    .map_err(|e| e.0)?;
    let mut conversation = Conversation::default();
    let mut outcome = Outcome {
        differences: Vec::new(),
        unlisted: 0,
        exchanges: 0,
        replayed: Vec::new(),
        findings: Vec::new(),
        truncated: false,
        transcript: String::new(),
    };
    let mut early = HashMap::new();
    let result: Result<(), String> = async {
        for notification in &recording.notifications_first {
            conversation.sent(notification);
            link.send(notification, args.timeout)
                .await
                .map_err(|e| e.0)?;
        }
        for exchange in &recording.exchanges {
            if Instant::now() >= total_deadline {
                return Err(format!(
                    "the replay took longer than --total-timeout {} s",
                    args.total_timeout.as_secs_f64()
                ));
            }
            let params: Value = serde_json::from_str(&exchange.params).unwrap_or(Value::Null);
            if let Some(version) = params
                .pointer("/_meta/io.modelcontextprotocol~1protocolVersion")
                .and_then(Value::as_str)
            {
                link.set_protocol_version(Some(version));
            }
            conversation.sent(&exchange.request.text);
            outcome.exchanges += 1;
            outcome
                .replayed
                .push((exchange.at.clone(), exchange.method.clone()));
            link.send(&exchange.request.text, args.timeout)
                .await
                .map_err(|e| e.0)?;
            let deadline = (Instant::now() + args.timeout).min(total_deadline);
            let (reply, messages, dropped) =
                await_answer(&mut link, &mut conversation, exchange, deadline, &mut early).await?;
            if exchange.method == "initialize" {
                if let Some(version) = reply
                    .as_ref()
                    .and_then(|r| r.pointer("/result/protocolVersion"))
                    .and_then(Value::as_str)
                {
                    link.set_protocol_version(Some(version));
                }
            }
            compare(
                exchange,
                reply,
                messages,
                dropped,
                &mut comparer,
                &mut outcome,
                args.timeout,
            );
            for notification in &exchange.notifications_after {
                conversation.sent(notification);
                link.send(notification, args.timeout)
                    .await
                    .map_err(|e| e.0)?;
            }
        }
        Ok(())
    }
    .await;
    link.close().await;
    result?;
    outcome.truncated = comparer.truncated;
    outcome.transcript = conversation.transcript;
    Ok(outcome)
}

/// Compares one exchange's new answer with the recorded one.
fn compare(
    exchange: &Exchange,
    reply: Option<Value>,
    messages: Vec<Value>,
    dropped: usize,
    comparer: &mut Comparer,
    outcome: &mut Outcome,
    timeout: Duration,
) {
    let mut found: Vec<(String, Option<Value>, Option<Value>)> = Vec::new();
    let mut whys: Vec<String> = Vec::new();
    let recorded_reply = exchange
        .reply()
        .and_then(|r| serde_json::from_str::<Value>(&r.text).ok());
    match (&recorded_reply, &reply) {
        (Some(old), Some(new)) => {
            let before = found.len();
            comparer.diff(&mut Vec::new(), Some(old), Some(new), &mut found);
            whys.extend(std::iter::repeat_n(String::new(), found.len() - before));
        }
        (Some(old), None) => {
            found.push((String::new(), Some(old.clone()), None));
            whys.push(format!(
                "no reply within {} s (one was recorded)",
                timeout.as_secs_f64()
            ));
        }
        (None, Some(new)) => {
            found.push((String::new(), None, Some(new.clone())));
            whys.push("a reply where the recording has none".into());
        }
        (None, None) => {}
    }
    let recorded: Vec<Value> = exchange
        .items
        .iter()
        .filter_map(|i| match i {
            Item::Message(sent) => serde_json::from_str(&sent.text).ok(),
            Item::Reply(_) => None,
        })
        .collect();
    for i in 0..recorded.len().max(messages.len()) {
        let before = found.len();
        let mut path = vec!["messages".to_string(), i.to_string()];
        match (recorded.get(i), messages.get(i)) {
            (Some(old), None) if dropped == 0 => {
                found.push((pointer_of(&path), Some(old.clone()), None));
                whys.push(format!(
                    "the server did not send this recorded {} within {} s",
                    old.get("method")
                        .and_then(Value::as_str)
                        .unwrap_or("message"),
                    timeout.as_secs_f64()
                ));
                continue;
            }
            (old, new) => comparer.diff(&mut path, old, new, &mut found),
        }
        whys.extend(std::iter::repeat_n(String::new(), found.len() - before));
    }
    let total = found.len();
    for ((pointer, old, new), why) in found.into_iter().zip(whys).take(MAX_LISTED_PER_ANSWER) {
        let why = if why.is_empty() {
            match (&old, &new) {
                (Some(_), None) => "gone".to_string(),
                (None, Some(_)) => "new".to_string(),
                _ => "changed".to_string(),
            }
        } else {
            why
        };
        outcome.differences.push(Difference {
            at: exchange.at.clone(),
            method: exchange.method.clone(),
            pointer,
            old,
            new,
            why,
        });
    }
    outcome.unlisted += total.saturating_sub(MAX_LISTED_PER_ANSWER);
}

fn shown(value: &Option<Value>) -> String {
    let text = value
        .as_ref()
        .map_or("(absent)".to_string(), Value::to_string);
    let text = if text.chars().count() > 120 {
        format!("{}…", text.chars().take(120).collect::<String>())
    } else {
        text
    };
    printable(&text)
}

fn text_report(transcript: &str, target: &str, outcome: &Outcome) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "jrpc replay: {} → {}",
        printable(transcript),
        printable(target)
    );
    for d in &outcome.differences {
        let pointer = if d.pointer.is_empty() {
            "/"
        } else {
            &d.pointer
        };
        let _ = writeln!(
            out,
            "  {} {} {}: {}: {} → {}",
            printable(&d.at),
            printable(&d.method),
            printable(pointer),
            printable(&d.why),
            shown(&d.old),
            shown(&d.new)
        );
    }
    if outcome.unlisted > 0 {
        let _ = writeln!(
            out,
            "  … and {} more difference(s) not listed (at most {MAX_LISTED_PER_ANSWER} per answer)",
            outcome.unlisted
        );
    }
    for finding in &outcome.findings {
        let _ = writeln!(out, "  check: {}", printable(finding));
    }
    if outcome.truncated {
        let _ = writeln!(
            out,
            "note: stopped comparing after {MAX_COMPARED_NODES} JSON nodes"
        );
    }
    let differing: std::collections::BTreeSet<&str> =
        outcome.differences.iter().map(|d| d.at.as_str()).collect();
    let _ = writeln!(
        out,
        "result: {} of {} answers differ ({} difference(s)), {} check error(s)",
        differing.len(),
        outcome.exchanges,
        outcome.differences.len() + outcome.unlisted,
        outcome.findings.len()
    );
    out
}

fn json_report(transcript: &str, target: &str, outcome: &Outcome) -> String {
    let differences: Vec<Value> = outcome
        .differences
        .iter()
        .map(|d| {
            json!({"at": d.at, "method": d.method, "pointer": d.pointer, "old": d.old, "new": d.new, "why": d.why})
        })
        .collect();
    let report = json!({
        "transcript": transcript,
        "target": target,
        "exchanges": outcome.exchanges,
        "differences": differences,
        "unlisted": outcome.unlisted,
        "findings": outcome.findings,
        "truncated": outcome.truncated,
    });
    format!("{report:#}\n")
}

fn xml(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c if (c as u32) < 0x20 && !matches!(c, '\n' | '\t' | '\r') => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

fn junit_report(transcript: &str, outcome: &Outcome) -> String {
    let mut by_at: HashMap<&str, Vec<&Difference>> = HashMap::new();
    for d in &outcome.differences {
        by_at.entry(d.at.as_str()).or_default().push(d);
    }
    let failures = by_at.len() + usize::from(!outcome.findings.is_empty());
    let mut out = String::new();
    let _ = writeln!(out, r#"<?xml version="1.0" encoding="UTF-8"?>"#);
    let _ = writeln!(
        out,
        r#"<testsuite name="jrpc replay {}" tests="{}" failures="{failures}">"#,
        xml(transcript),
        outcome.replayed.len() + 1
    );
    for (at, method) in &outcome.replayed {
        let _ = write!(
            out,
            r#"  <testcase classname="replay" name="{} {}""#,
            xml(at),
            xml(method)
        );
        match by_at.get(at.as_str()) {
            None => {
                let _ = writeln!(out, "/>");
            }
            Some(list) => {
                let _ = writeln!(
                    out,
                    ">\n    <failure message=\"{} difference(s)\">",
                    list.len()
                );
                for d in list {
                    let _ = writeln!(
                        out,
                        "{}: {}: {} → {}",
                        xml(&d.pointer),
                        xml(&d.why),
                        xml(&shown(&d.old)),
                        xml(&shown(&d.new))
                    );
                }
                let _ = writeln!(out, "    </failure>\n  </testcase>");
            }
        }
    }
    let _ = write!(out, r#"  <testcase classname="replay" name="checks""#);
    if outcome.findings.is_empty() {
        let _ = writeln!(out, "/>");
    } else {
        let _ = writeln!(
            out,
            ">\n    <failure message=\"{} error(s)\">",
            outcome.findings.len()
        );
        for finding in &outcome.findings {
            let _ = writeln!(out, "{}", xml(finding));
        }
        let _ = writeln!(out, "    </failure>\n  </testcase>");
    }
    let _ = writeln!(out, "</testsuite>");
    out
}

/// The most pages of one listing fetched.
pub const MAX_PAGES: usize = 100;

/// A server's interface as a transcript (for `jrpc diff`): `initialize` (else `rpc.discover`
/// for a plain JSON-RPC server), then each listing its capabilities declare, every page of it.
/// Nothing is called.
pub(crate) fn listings(
    url: Option<&str>,
    command: &[String],
    (timeout, total_timeout): (Duration, Duration),
) -> Result<String, String> {
    let target = target::parse(url, command)?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the async runtime: {e}"))?;
    let shown = target.to_string();
    let result = runtime.block_on(async {
        let started = Instant::now();
        let deadline = started + total_timeout;
        let (headers, client) = (Headers::default(), ClientOptions::default());
        let mut link = Link::open(
            &target,
            &headers,
            &client,
            timeout.min(total_timeout),
            started,
        )
        .await
        .map_err(|e| e.0)?;
        let mut conversation = Conversation::default();
        let result = fetch_listings(&mut link, &mut conversation, timeout, deadline).await;
        link.close().await;
        result.map(|()| conversation.transcript)
    });
    drop(runtime);
    result.map_err(|why| format!("{shown}: its listings could not be fetched: {why}"))
}

/// Sends one request and waits for its reply (other messages are recorded, not answered).
async fn request(
    link: &mut Link,
    conversation: &mut Conversation,
    id: u64,
    method: &str,
    params: Value,
    timeout: Duration,
    deadline: Instant,
) -> Result<Option<Value>, String> {
    let text = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}).to_string();
    conversation.sent(&text);
    link.send(&text, timeout).await.map_err(|e| e.0)?;
    let until = (Instant::now() + timeout).min(deadline);
    loop {
        let now = Instant::now();
        if now >= until {
            return Err(format!(
                "no reply to {method} within {} s",
                timeout.as_secs_f64()
            ));
        }
        let Some(text) = link.receive(until - now).await.map_err(|e| e.0)? else {
            return Err(format!("the connection ended before the reply to {method}"));
        };
        conversation.received(&text);
        if let Ok(message) = serde_json::from_str::<Value>(&text) {
            if message.get("method").is_none() && message.get("id") == Some(&json!(id)) {
                return Ok(Some(message));
            }
        }
    }
}

async fn fetch_listings(
    link: &mut Link,
    conversation: &mut Conversation,
    timeout: Duration,
    deadline: Instant,
) -> Result<(), String> {
    let mut id = 0u64;
    id += 1;
    let initialize = request(
        link,
        conversation,
        id,
        "initialize",
        json!({"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "jrpc diff", "version": env!("CARGO_PKG_VERSION")}}),
        timeout,
        deadline,
    )
    .await?;
    let Some(result) = initialize.as_ref().and_then(|r| r.get("result")).cloned() else {
        // Not MCP: the OpenRPC document the server describes itself with, if it does.
        id += 1;
        request(
            link,
            conversation,
            id,
            "rpc.discover",
            Value::Null,
            timeout,
            deadline,
        )
        .await?;
        return Ok(());
    };
    if let Some(version) = result.get("protocolVersion").and_then(Value::as_str) {
        link.set_protocol_version(Some(version));
    }
    let initialized = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
    conversation.sent(initialized);
    link.send(initialized, timeout).await.map_err(|e| e.0)?;
    let capabilities = result.get("capabilities").cloned().unwrap_or(Value::Null);
    for (capability, method) in [
        ("tools", "tools/list"),
        ("resources", "resources/list"),
        ("resources", "resources/templates/list"),
        ("prompts", "prompts/list"),
    ] {
        if capabilities.get(capability).is_none() {
            continue;
        }
        let mut cursor: Option<Value> = None;
        for _ in 0..MAX_PAGES {
            id += 1;
            let params = match &cursor {
                Some(cursor) => json!({"cursor": cursor}),
                None => json!({}),
            };
            let reply = request(link, conversation, id, method, params, timeout, deadline).await?;
            cursor = reply
                .as_ref()
                .and_then(|r| r.pointer("/result/nextCursor"))
                .filter(|c| !c.is_null())
                .cloned();
            if cursor.is_none() {
                break;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn path(p: &str) -> Vec<String> {
        Pattern::parse(p).unwrap().0
    }

    #[test]
    fn patterns_match_one_or_any_number_of_tokens() {
        let meta = Pattern::parse("**/_meta").unwrap();
        assert!(meta.matches(&path("/_meta")));
        assert!(meta.matches(&path("/result/content/0/_meta")));
        assert!(!meta.matches(&path("/result/content/0/_meta/x")));
        let text = Pattern::parse("/result/content/*/text").unwrap();
        assert!(text.matches(&path("/result/content/3/text")));
        assert!(!text.matches(&path("/result/content/text")));
        assert!(Pattern::parse("result").is_err());
    }

    #[test]
    fn differences_are_found_at_their_pointers_and_ignored_ones_are_not() {
        let mut comparer = Comparer {
            ignores: vec![
                Pattern::parse("/id").unwrap(),
                Pattern::parse("**/_meta").unwrap(),
            ],
            nodes: 0,
            truncated: false,
        };
        let old =
            json!({"id": 1, "result": {"content": [{"text": "3"}], "_meta": {"t": 1}, "gone": 1}});
        let new = json!({"id": 2, "result": {"content": [{"text": "4"}, {"text": "x"}], "_meta": {"t": 2}}});
        let mut found = Vec::new();
        comparer.diff(&mut Vec::new(), Some(&old), Some(&new), &mut found);
        let pointers: Vec<&str> = found.iter().map(|(p, _, _)| p.as_str()).collect();
        assert_eq!(
            pointers,
            [
                "/result/content/0/text",
                "/result/content/1",
                "/result/gone"
            ]
        );
    }
}
