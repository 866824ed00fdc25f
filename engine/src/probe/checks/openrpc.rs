//! The probe under an OpenRPC document (`jrpc probe --openrpc DOC`): a plain JSON-RPC server
//! checked against the API its document describes.
//!
//! - `openrpc/discover`: `rpc.discover` is called; a document it returns is checked against the
//!   meta-schema (its findings located under `/result`) and compared with the given one (the
//!   methods one has and the other lacks, in the detail). A server without it (-32601) passes when
//!   a document was given; with [`Source::Discover`] the document it returns is the one probed
//!   with, and a server without one fails the check (and no method is called).
//! - The JSON-RPC checks every server owes ([`super::protocol`]).
//! - `openrpc/METHOD` for each method of the document (`rpc.*` ones aside): called with the params
//!   of each of its example pairings (matched to its params by name), or with params generated
//!   from its params' schemas when it has none; a method without a result is sent as a
//!   notification. Each reply is checked by the validator under the document
//!   (`openrpc-result-invalid`, `openrpc-error-undeclared`, …), its findings the check's. A method
//!   none of whose calls with valid params got a result fails (it has not been shown to work); one
//!   none of whose calls had valid params is skipped, "not tested". `--skip-method` skips a
//!   method, `--max-calls` bounds the calls.
//! - The user's `--call`s.

use serde_json::Value;

use super::{protocol, Plan, Record, Run, Runner};
use crate::json::Direction;
use crate::openrpc::mock::{example_params, generated_params};
use crate::openrpc::{Method, OpenRpc, Pairing};
use crate::probe::conversation::Exchange;
use crate::probe::link::{LinkError, ProbeLink};
use crate::rpc::{check, Profile};

const DISCOVER_SPEC: &str = "https://spec.open-rpc.org/#service-discovery-method";
const METHOD_SPEC: &str = "https://spec.open-rpc.org/#method-object";

/// Where the document comes from.
pub enum Source<'d> {
    /// `--openrpc FILE|URL`: given, and compared with what `rpc.discover` returns.
    Given(&'d OpenRpc),
    /// `--openrpc discover`: whatever the server's `rpc.discover` returns.
    Discover,
}

/// What the OpenRPC probe is asked to do besides the [`Plan`].
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// `--skip-method NAME`: methods never called.
    pub skip_methods: Vec<String>,
}

/// Runs the probe of a plain JSON-RPC server under an OpenRPC document.
pub async fn run<L: ProbeLink>(
    conversation: &mut crate::probe::Conversation<L>,
    plan: &Plan,
    source: Source<'_>,
    options: &Options,
) -> Run {
    let mut runner = Runner {
        conversation,
        record: Record {
            checks: Vec::new(),
            profile: Profile::JsonRpc,
        },
    };
    let stopped = steps(&mut runner, plan, source, options).await.err();
    super::finish(runner, stopped).await
}

async fn steps<L: ProbeLink>(
    runner: &mut Runner<'_, L>,
    plan: &Plan,
    source: Source<'_>,
    options: &Options,
) -> Result<(), LinkError> {
    let given = match source {
        Source::Given(doc) => Some(doc),
        Source::Discover => None,
    };
    let discovered = discover(runner, given).await?;
    protocol::checks(runner, false).await?;
    match given.or(discovered.as_ref()) {
        Some(doc) => methods(runner, plan, doc, options).await?,
        None => runner.skip(
            "openrpc/methods",
            "each method of the document is called and its replies checked",
            METHOD_SPEC,
            "no document: the server's rpc.discover gave none",
        ),
    }
    protocol::calls(runner, plan).await
}

/// `openrpc/discover`. Gives the document the server returned, when it is a usable one.
async fn discover<L: ProbeLink>(
    runner: &mut Runner<'_, L>,
    given: Option<&OpenRpc>,
) -> Result<Option<OpenRpc>, LinkError> {
    runner.begin(
        "openrpc/discover",
        "rpc.discover returns the service's OpenRPC document, valid under the meta-schema",
        DISCOVER_SPEC,
    );
    let exchange = runner
        .conversation
        .request("rpc.discover", Value::Null)
        .await?;
    let Some((at, _)) = exchange.reply else {
        // The engine reports the request left unanswered.
        return Ok(None);
    };
    let Some(result) = exchange.result() else {
        match (exchange.error_code(), given) {
            (Some(code), Some(_)) => runner.note(format!(
                "answered with error {code}: the server does not describe itself (optional; the given document is used)"
            )),
            (code, None) => {
                runner.note(format!(
                    "answered without a document{}: there is nothing to probe the methods with",
                    code.map_or(String::new(), |c| format!(" (error {c})"))
                ));
                runner.current().status = super::Status::Fail;
            }
            (None, Some(_)) => {}
        }
        return Ok(None);
    };
    let text = result.to_string();
    let served = match OpenRpc::load(text.as_bytes()) {
        Ok(doc) => doc,
        Err(e) => {
            for v in &e.violations {
                runner.find(
                    at,
                    v.rule,
                    &format!("/result{}", v.path),
                    v.message.to_string(),
                );
            }
            if given.is_none() {
                runner.current().status = super::Status::Fail;
            }
            return Ok(None);
        }
    };
    let names =
        |doc: &OpenRpc| -> Vec<String> { doc.methods().iter().map(|m| m.name.clone()).collect() };
    let theirs = names(&served);
    match given {
        None => runner.note(format!(
            "a valid document with {} methods: the methods probed",
            theirs.len()
        )),
        Some(doc) if doc.value() == served.value() => {
            runner.note("the same document as the one given")
        }
        Some(doc) => {
            let ours = names(doc);
            // Each side's names in a set: one look-up per method, not a search of the other list.
            let set = |names: &[String]| -> std::collections::HashSet<String> {
                names.iter().cloned().collect()
            };
            let (ours_set, theirs_set) = (set(&ours), set(&theirs));
            let lacks: Vec<&str> = ours
                .iter()
                .filter(|n| !theirs_set.contains(*n))
                .map(String::as_str)
                .collect();
            let extra: Vec<&str> = theirs
                .iter()
                .filter(|n| !ours_set.contains(*n))
                .map(String::as_str)
                .collect();
            let mut said = vec!["a valid document that differs from the one given".to_string()];
            if !lacks.is_empty() {
                said.push(format!("it lacks {}", shortlist(&lacks)));
            }
            if !extra.is_empty() {
                said.push(format!("it adds {}", shortlist(&extra)));
            }
            if lacks.is_empty() && extra.is_empty() {
                said.push(format!("the same {} methods", ours.len()));
            }
            runner.note(said.join("; "));
        }
    }
    Ok(Some(served))
}

/// At most eight names, and how many more.
fn shortlist(names: &[&str]) -> String {
    let mut out = names.iter().take(8).copied().collect::<Vec<_>>().join(", ");
    if names.len() > 8 {
        out.push_str(&format!(" and {} more", names.len() - 8));
    }
    out
}

/// Where a call's params come from.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Origin {
    /// An example pairing of the document; `paired_result`: the pairing gives a result (one
    /// without pairs its params with an error).
    Example { paired_result: bool },
    /// Generated by the probe from the params' schemas.
    Generated,
}

/// The params of each call of `method`: its example pairings' (matched to the method's params by
/// name: [`example_params`]), or generated ones when it has none.
fn calls_of(doc: &OpenRpc, method: &Method) -> Vec<(String, Value, Origin)> {
    let mut calls: Vec<(String, Value, Origin)> = method
        .examples
        .iter()
        .map(|example| {
            (
                format!("example \"{}\"", example.name),
                example_params(method, example),
                Origin::Example {
                    paired_result: example.result.is_some(),
                },
            )
        })
        .collect();
    if calls.is_empty() {
        calls.push((
            "params generated from their schemas".to_string(),
            generated_params(doc, method),
            Origin::Generated,
        ));
    }
    calls
}

/// `openrpc/METHOD` for each method.
async fn methods<L: ProbeLink>(
    runner: &mut Runner<'_, L>,
    plan: &Plan,
    doc: &OpenRpc,
    options: &Options,
) -> Result<(), LinkError> {
    let mut made = 0usize;
    for method in doc.methods() {
        // rpc.* names are JSON-RPC's own (rpc.discover was called above).
        if method.name.starts_with("rpc.") {
            continue;
        }
        let id = format!("openrpc/{}", method.name);
        let title = match method.result {
            Some(_) => format!(
                "{} answers its document's calls with results its schema allows, or errors it declares",
                method.name
            ),
            None => format!(
                "{} (no result: a notification) is sent as one and not answered",
                method.name
            ),
        };
        if options.skip_methods.contains(&method.name) {
            runner.skip(id, title, METHOD_SPEC, "--skip-method");
            continue;
        }
        if made >= plan.max_calls {
            runner.skip(
                id,
                title,
                METHOD_SPEC,
                format!("--max-calls {} reached", plan.max_calls),
            );
            continue;
        }
        runner.begin(id, title, METHOD_SPEC);
        let mut shown = false;
        let mut tested = 0usize;
        let mut untested = 0usize;
        let mut refused: Vec<i64> = Vec::new();
        for (what, params, origin) in calls_of(doc, method) {
            if made >= plan.max_calls {
                runner.note(format!("--max-calls {} reached", plan.max_calls));
                break;
            }
            made += 1;
            let params = match params {
                Value::Array(items) if items.is_empty() && method.params.is_empty() => Value::Null,
                params => params,
            };
            if method.result.is_none() {
                runner.conversation.notify(&method.name, params).await?;
                runner.note(format!("{what}: sent as a notification"));
                continue;
            }
            let exchange = runner.conversation.request(&method.name, params).await?;
            match judge(runner, doc, &exchange, &what, origin) {
                Answer::Untested => untested += 1,
                Answer::Result => {
                    tested += 1;
                    shown = true;
                }
                Answer::Error(code) => {
                    tested += 1;
                    // A pairing without a result pairs its params with an error the method declares.
                    let paired = origin
                        == Origin::Example {
                            paired_result: false,
                        }
                        && method.errors.contains(&code);
                    shown |= paired;
                    if !paired && !refused.contains(&code) {
                        refused.push(code);
                    }
                }
                Answer::Nothing => tested += 1,
            }
        }
        if method.result.is_none() || shown {
            continue;
        }
        if tested > 0 {
            let codes: Vec<String> = refused.iter().map(i64::to_string).collect();
            runner.note(format!(
                "no call with valid params was answered with a result{}: the method has not been shown to work",
                if codes.is_empty() {
                    String::new()
                } else {
                    format!(" (answered with error {})", codes.join(", "))
                }
            ));
            runner.current().status = super::Status::Fail;
        } else if untested > 0 {
            runner.note(format!(
                "not tested: no call of it had params its schemas accept ({untested} tried)"
            ));
            runner.current().status = super::Status::Skipped;
        }
    }
    Ok(())
}

/// What one call of a method showed.
enum Answer {
    /// Its params break the method's schemas: the call shows nothing about the server.
    Untested,
    /// A result.
    Result,
    /// An error of this code.
    Error(i64),
    /// No reply, or one that is neither.
    Nothing,
}

/// The validator's findings under the document about one call and its reply: the reply's are
/// the server's (findings of the check); the call's are not the server's fault (an example that
/// breaks its own schema is the document's; params the probe generated and could not make valid
/// are the probe's), and such a call tests nothing.
fn judge<L: ProbeLink>(
    runner: &mut Runner<'_, L>,
    doc: &OpenRpc,
    exchange: &Exchange,
    what: &str,
    origin: Origin,
) -> Answer {
    let Some((at, _)) = exchange.reply else {
        runner.note(format!("{what}: no reply within the timeout"));
        return Answer::Nothing;
    };
    let entries = &runner.conversation.entries;
    let (Some(sent), Some(reply)) = (entries.get(exchange.sent), entries.get(at)) else {
        return Answer::Nothing;
    };
    let text = format!("--> {}\n<-- {}\n", sent.text, reply.text);
    let mut report = check(text.as_bytes(), Profile::JsonRpc);
    Pairing::default().check(doc, text.as_bytes(), &mut report);
    let mut found = Vec::new();
    let mut ours = Vec::new();
    for d in &report.documents {
        for v in d
            .all_violations()
            .filter(|v| v.rule.id.starts_with("openrpc-"))
        {
            if d.direction == Some(Direction::Server) {
                found.push((v.rule, v.path.to_string(), v.message.to_string()));
            } else {
                ours.push(format!("{}: {}", v.rule.id, v.message));
            }
        }
    }
    let answer = match (exchange.result(), exchange.error_code()) {
        (Some(_), _) => {
            runner.note(format!("{what}: answered with a result"));
            Answer::Result
        }
        (None, Some(-32601)) => {
            runner.note(format!(
                "{what}: answered with error -32601: the server lacks this method of the document"
            ));
            Answer::Error(-32601)
        }
        (None, Some(code)) => {
            runner.note(format!("{what}: answered with error {code}"));
            Answer::Error(code)
        }
        (None, None) => Answer::Nothing,
    };
    let answer = if ours.is_empty() {
        answer
    } else {
        let why = match origin {
            Origin::Generated => format!(
                "{what}: not tested, the probe could not generate params its schemas accept: {}",
                ours.join("; ")
            ),
            Origin::Example { .. } => format!(
                "{what}: the example's params break the method's schemas (the document's fault, not the server's): {}",
                ours.join("; ")
            ),
        };
        runner.note(why);
        Answer::Untested
    };
    for (rule, path, message) in found {
        runner.find(at, rule, &path, message);
    }
    answer
}
