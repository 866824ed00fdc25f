//! The checks the probe runs, in order: the MCP lifecycle ([`lifecycle`]) and the features the
//! server declared ([`tools`], [`mcp`]), then the behaviour every JSON-RPC server owes ([`protocol`]), then the user's own
//! `--call`s. Each check owns the messages exchanged while it ran; the engine's findings about
//! those messages and the probe's own ([`super::rules`]) decide whether it passed
//! ([`super::verdict`]).

mod lifecycle;
mod listing;
mod mcp;
#[cfg(feature = "openrpc")]
pub mod openrpc;
#[cfg(feature = "mcp-schemas")]
mod output_schema;
pub(crate) mod protocol;
mod tools;

use std::ops::Range;

use serde_json::Value;

use super::conversation::{Conversation, Exchange};
use super::link::{LinkError, ProbeLink};
use crate::rpc::catalogue::Rule;
use crate::rpc::{McpVersion, Profile};

/// How a check ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Pass,
    Fail,
    Skipped,
}

impl Status {
    pub const fn as_str(self) -> &'static str {
        match self {
            Status::Pass => "pass",
            Status::Fail => "fail",
            Status::Skipped => "skipped",
        }
    }
}

/// The most findings of the probe's own rules one check keeps: a reply listing 50 000 broken
/// items tells no more with 50 000 findings than with 100, and each finding is located in the
/// reply when judged. The rest are counted ([`Check::findings_dropped`]) and said in its detail.
pub const MAX_FINDINGS_PER_CHECK: usize = 100;

/// A finding of one of the probe's rules about one message of the conversation.
#[derive(Clone, Debug)]
pub struct ProbeFinding {
    pub entry: usize,
    pub rule: &'static Rule,
    /// JSON pointer in that message.
    pub path: String,
    pub message: String,
}

/// One check and its outcome.
#[derive(Clone, Debug)]
pub struct Check {
    /// Stable id: `lifecycle/initialize`, `tools/call`, `jsonrpc/parse-error`.
    pub id: String,
    /// What it does, in words.
    pub title: String,
    /// Where the specification says what it checks.
    pub spec: &'static str,
    /// Skipped is decided while running; pass or fail by the verdict.
    pub status: Status,
    /// Why it was skipped or failed; what it saw.
    pub detail: String,
    /// The conversation's messages exchanged while it ran.
    pub entries: Range<usize>,
    pub findings: Vec<ProbeFinding>,
    /// Findings past [`MAX_FINDINGS_PER_CHECK`], counted but not kept.
    pub findings_dropped: usize,
    /// Engine rules that do not count against the server in this check (the probe provoked them).
    pub tolerated: &'static [&'static str],
}

/// What initialize (or server/discover) told the probe.
pub struct Server {
    pub version: McpVersion,
    pub capabilities: Value,
}

impl Server {
    pub fn declares(&self, capability: &str) -> bool {
        self.capabilities
            .get(capability)
            .is_some_and(|c| !c.is_null())
    }
}

/// What the probe is asked to do (`jrpc probe`'s options; the page's Probe uses their defaults).
#[derive(Clone, Debug)]
pub struct Plan {
    pub mode: Mode,
    /// `--call METHOD PARAMS`.
    pub calls: Vec<(String, Value)>,
    /// The most tool calls, prompt gets and resource reads made (each).
    pub max_calls: usize,
    /// Tools never called (`--skip-tool`).
    pub skip_tools: Vec<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// MCP when the server answers server/discover (2026-07-28) or initialize, plain JSON-RPC
    /// otherwise.
    Detect,
    /// MCP: this version forced, or (`None`) chosen as `Detect` chooses it.
    Mcp(Option<McpVersion>),
    JsonRpc,
}

/// What the run produced.
pub struct Run {
    pub checks: Vec<Check>,
    /// The profile the conversation is checked under (the negotiated MCP version).
    pub profile: Profile,
    /// The run stopped early: the link failed or time ran out.
    pub stopped: Option<LinkError>,
}

/// The checks so far and the profile the conversation is checked under: what a run records,
/// whatever the link (the checks' helpers that only record take it, not the generic [`Runner`]).
pub struct Record {
    pub checks: Vec<Check>,
    pub profile: Profile,
}

impl Record {
    fn current(&mut self) -> &mut Check {
        self.checks.last_mut().expect("a check has begun")
    }

    fn note(&mut self, detail: impl AsRef<str>) {
        let check = self.current();
        if !check.detail.is_empty() {
            check.detail.push_str("; ");
        }
        check.detail.push_str(detail.as_ref());
    }

    /// A finding of a probe rule about entry `entry`.
    fn find(&mut self, entry: usize, rule: &'static Rule, path: &str, message: impl Into<String>) {
        if self.current().findings.len() == MAX_FINDINGS_PER_CHECK {
            self.current().findings_dropped += 1;
            return;
        }
        let message = message.into();
        self.note(&message);
        self.current().findings.push(ProbeFinding {
            entry,
            rule,
            path: path.to_string(),
            message,
        });
    }
}

/// The state of a run: the conversation and what it recorded (its [`Record`], also reached
/// through `Deref`).
pub struct Runner<'c, L> {
    pub conversation: &'c mut Conversation<L>,
    pub record: Record,
}

impl<L> std::ops::Deref for Runner<'_, L> {
    type Target = Record;
    fn deref(&self) -> &Record {
        &self.record
    }
}

impl<L> std::ops::DerefMut for Runner<'_, L> {
    fn deref_mut(&mut self) -> &mut Record {
        &mut self.record
    }
}

impl<L: ProbeLink> Runner<'_, L> {
    /// Starts a check: its messages are those exchanged from now until the next one starts.
    fn begin(
        &mut self,
        id: impl Into<String>,
        title: impl Into<String>,
        spec: &'static str,
    ) -> usize {
        let at = self.conversation.entries.len();
        self.close_last();
        self.checks.push(Check {
            id: id.into(),
            title: title.into(),
            spec,
            status: Status::Pass,
            detail: String::new(),
            entries: at..at,
            findings: Vec::new(),
            findings_dropped: 0,
            tolerated: &[],
        });
        self.checks.len() - 1
    }

    fn close_last(&mut self) {
        let end = self.conversation.entries.len();
        if let Some(last) = self.checks.last_mut() {
            last.entries.end = end;
        }
    }

    /// A check that does not apply, and why.
    fn skip(
        &mut self,
        id: impl Into<String>,
        title: impl Into<String>,
        spec: &'static str,
        why: impl Into<String>,
    ) {
        self.begin(id, title, spec);
        let check = self.current();
        check.status = Status::Skipped;
        check.detail = why.into();
    }
}

/// The reply's entry, or the sent message's when nothing came back.
fn blame(exchange: &Exchange) -> usize {
    exchange.reply.as_ref().map_or(exchange.sent, |(at, _)| *at)
}

/// Runs every check of `plan` over `conversation`.
pub async fn run<L: ProbeLink>(conversation: &mut Conversation<L>, plan: &Plan) -> Run {
    let mut runner = Runner {
        conversation,
        record: Record {
            checks: Vec::new(),
            profile: match plan.mode {
                Mode::Mcp(v) => Profile::Mcp(v.unwrap_or_default()),
                Mode::Detect | Mode::JsonRpc => Profile::JsonRpc,
            },
        },
    };
    let stopped = steps(&mut runner, plan).await.err();
    finish(runner, stopped).await
}

/// The end of a run: the check that was running when it stopped fails, saying why; otherwise
/// late replies get their chance.
async fn finish<L: ProbeLink>(mut runner: Runner<'_, L>, stopped: Option<LinkError>) -> Run {
    if let Some(e) = &stopped {
        if !runner.checks.is_empty() {
            let check = runner.current();
            check.status = Status::Fail;
            let detail = format!("stopped: {e}");
            if check.detail.is_empty() {
                check.detail = detail;
            } else {
                check.detail = format!("{}; {detail}", check.detail);
            }
        }
    } else {
        // Late replies still have a chance, up to one more --timeout.
        let wait = if runner.conversation.has_overdue() {
            runner.conversation.timeout
        } else {
            runner.conversation.grace
        };
        let _ = runner.conversation.drain(wait).await;
    }
    runner.close_last();
    // The authorization's steps come first: they happened before the server answered.
    let mut checks: Vec<Check> = runner
        .conversation
        .link()
        .auth_steps()
        .into_iter()
        .map(|step| Check {
            id: step.id.to_string(),
            title: step.title.to_string(),
            spec: step.spec,
            status: if step.failed {
                Status::Fail
            } else {
                Status::Pass
            },
            detail: step.detail,
            entries: 0..0,
            findings: Vec::new(),
            findings_dropped: 0,
            tolerated: &[],
        })
        .collect();
    checks.extend(runner.record.checks);
    Run {
        checks,
        profile: runner.record.profile,
        stopped,
    }
}

async fn steps<L: ProbeLink>(runner: &mut Runner<'_, L>, plan: &Plan) -> Result<(), LinkError> {
    let mcp = match plan.mode {
        Mode::JsonRpc => None,
        Mode::Detect | Mode::Mcp(_) => lifecycle::lifecycle(runner, plan).await?,
    };
    if let Some(server) = &mcp {
        mcp::features(runner, plan, server).await?;
    }
    protocol::checks(runner, mcp.is_some()).await?;
    protocol::calls(runner, plan).await
}
