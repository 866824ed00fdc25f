//! The conformance suite's Tasks fixtures (2026-07-28, SEP-2663; `@modelcontextprotocol/conformance`
//! 0.2.0-alpha.12's tasks-* scenarios): `greet` runs at once; `slow_compute` (`seconds`, `label`)
//! and `protocol_error_job` become tasks for a client that declares the extension and run at once
//! for one that does not; `failing_job`, `confirm_delete`, `multi_input` and `test_tool_with_task`
//! run only as tasks (-32021 naming the extension otherwise). `confirm_delete` and `multi_input`
//! ask the client inside the task (`inputRequests` on `tasks/get`, answered with `tasks/update`);
//! `test_tool_with_task` asks first in an input-required result and starts its task with the answer.
//! The task machinery is the mock's own ([`super::super::tasks`]).

use crate::json::{Json, Node};
use crate::rpc::errors::INTERNAL_ERROR;

use super::super::ask::missing_extension;
use super::super::ask::Capability;
use super::super::content::{text_content, tool_error};
use super::super::rounds::{input_required, retry, InputRequest};
use super::super::tasks::{Answers, Job};
use super::input_required::form;
use super::{content, MockServer, Outcome, RpcError};

/// The tools, as `tools/list` names them: name, description, its string and number arguments.
pub(super) const TOOLS: &[(&str, &str, &[&str], &[&str])] = &[
    ("greet", "Greets name at once (never a task)", &["name"], &[]),
    (
        "slow_compute",
        "Computes for `seconds` seconds: a task for a client that declares io.modelcontextprotocol/tasks (cancellable), at once otherwise",
        &["label"],
        &["seconds"],
    ),
    (
        "failing_job",
        "A task (only) whose tool fails after a second: completed with isError",
        &[],
        &[],
    ),
    (
        "protocol_error_job",
        "Fails with a JSON-RPC error (-32603): a failed task for a client that declares io.modelcontextprotocol/tasks",
        &[],
        &[],
    ),
    (
        "confirm_delete",
        "A task (only) that asks the user to confirm deleting filename (inputRequests, answered with tasks/update)",
        &["filename"],
        &[],
    ),
    (
        "multi_input",
        "A task (only) that asks the user two questions at once",
        &[],
        &[],
    ),
    (
        "test_tool_with_task",
        "Asks the user's name in an input-required result, then (a task only) greets them",
        &[],
        &[],
    ),
];

/// The longest `slow_compute` runs.
const MAX_SECONDS: u64 = 600;
/// The most of a `label` or `filename` a task keeps.
const MAX_NOTE_CHARS: usize = 200;

/// `tools/call` of one of [`TOOLS`]; `None` for another tool.
pub(super) fn tools_call(
    server: &mut MockServer,
    name: &str,
    params: Option<&Node<'_>>,
) -> Option<Outcome> {
    TOOLS.iter().find(|t| t.0 == name)?;
    let argument = |key: &str| {
        params
            .and_then(|p| p.get("arguments"))
            .and_then(|a| a.get(key))
    };
    let text = |key: &str| -> String {
        argument(key)
            .and_then(Node::as_str)
            .unwrap_or_default()
            .chars()
            .take(MAX_NOTE_CHARS)
            .collect()
    };
    let task = server.may_create_task();
    let only_a_task = |server: &MockServer, job: Job| -> Outcome {
        if task {
            server.start_task(job)
        } else if server.request.modern {
            Err(missing_extension(&format!("{name} runs only as a task")))
        } else {
            Ok(tool_error(format!(
                "{name} runs only as a task of the Tasks extension of MCP 2026-07-28: call it with the 2026-07-28 _meta envelope declaring io.modelcontextprotocol/tasks"
            )))
        }
    };
    Some(match name {
        "greet" => Ok(content([text_content(format!("Hello, {}!", text("name")))])),
        "slow_compute" => {
            let seconds = match argument("seconds").map(|s| (s, s.as_f64())) {
                None => 0.0,
                Some((_, Some(s))) if (0.0..=MAX_SECONDS as f64).contains(&s) => s,
                Some((node, _)) => {
                    return Some(Ok(tool_error(format!(
                        "slow_compute takes seconds, a number from 0 to {MAX_SECONDS}; found {}",
                        super::super::describe(node)
                    ))))
                }
            };
            let job = Job {
                run_ms: (seconds * 1000.0) as u64,
                asks: Vec::new(),
                note: text("label"),
                finish: computed,
            };
            if task && seconds > 0.0 {
                server.start_task(job)
            } else {
                // At once (a fast job, or a client without the extension: a mock need not wait).
                computed(&job.note, &Answers::default())
            }
        }
        "failing_job" => only_a_task(
            server,
            Job {
                run_ms: 1000,
                asks: Vec::new(),
                note: String::new(),
                finish: |_, _| {
                    Ok(tool_error("failing_job failed, as it always does (a tool error: the task completes with isError)"))
                },
            },
        ),
        "protocol_error_job" => {
            let job = Job {
                run_ms: 300,
                asks: Vec::new(),
                note: String::new(),
                finish: |_, _| Err(protocol_error()),
            };
            if task {
                server.start_task(job)
            } else {
                Err(protocol_error())
            }
        }
        "confirm_delete" => {
            let filename = text("filename");
            let question = form(&format!("Delete {filename}?"), "confirm", "boolean");
            only_a_task(
                server,
                Job {
                    run_ms: 0,
                    asks: vec![("confirm_delete", elicitation(question))],
                    note: filename,
                    finish: |filename, answers| {
                        let confirmed = answers.accepted_field("confirm_delete", "confirm");
                        Ok(content([text_content(
                            if confirmed.as_deref() == Some("true") {
                                format!("Deleted {filename} (the user confirmed).")
                            } else {
                                format!("Kept {filename}: the user did not confirm.")
                            },
                        )]))
                    },
                },
            )
        }
        "multi_input" => only_a_task(
            server,
            Job {
                run_ms: 0,
                asks: vec![
                    (
                        "multi_input_name",
                        elicitation(form("What is your name?", "name", "string")),
                    ),
                    (
                        "multi_input_confirm",
                        elicitation(form("Shall I go on?", "confirm", "boolean")),
                    ),
                ],
                note: String::new(),
                finish: |_, answers| {
                    let name = answers.accepted_field("multi_input_name", "name");
                    let confirm = answers.accepted_field("multi_input_confirm", "confirm");
                    Ok(content([text_content(format!(
                        "Both answers arrived: name = {}, confirm = {}",
                        name.as_deref().unwrap_or("(declined)"),
                        confirm.as_deref().unwrap_or("(declined)")
                    ))]))
                },
            },
        ),
        _ => with_task(server, name, params),
    })
}

/// `test_tool_with_task`: the user's name first (an input-required result, synchronously, as the
/// extension advises), then a task that greets them.
fn with_task(server: &MockServer, name: &str, params: Option<&Node<'_>>) -> Outcome {
    if !server.may_create_task() {
        return if server.request.modern {
            Err(missing_extension(&format!("{name} runs only as a task")))
        } else {
            Ok(tool_error(format!(
                "{name} runs only as a task of the Tasks extension of MCP 2026-07-28"
            )))
        };
    }
    let binding = format!("tools/call {name}");
    let retry = retry(server, &binding, params)?;
    let answered = retry.answer("user_name").and_then(|answer| {
        let (action, content) = super::super::ask::elicited(answer).ok()?;
        (action == "accept")
            .then(|| super::super::ask::form_text(content, "name"))
            .flatten()
    });
    match answered {
        Some(user) => server.start_task(Job {
            run_ms: 500,
            asks: Vec::new(),
            note: user.chars().take(MAX_NOTE_CHARS).collect(),
            finish: |user, _| {
                Ok(content([text_content(format!(
                    "Hello, {user}! (your name came in an input-required round before this task started)"
                ))]))
            },
        }),
        None => {
            let request = InputRequest::new(
                "user_name",
                Capability::Elicitation,
                form("What is your name?", "name", "string"),
            );
            if !server.client_declared(Capability::Elicitation) {
                return Err(super::super::ask::missing_capability(
                    Capability::Elicitation,
                ));
            }
            Ok(input_required(server, &binding, vec![request], None))
        }
    }
}

/// An `elicitation/create` input request.
fn elicitation(params: Json) -> Json {
    Json::obj([
        ("method", Json::from(Capability::Elicitation.method())),
        ("params", params),
    ])
}

/// `slow_compute`'s result.
fn computed(label: &str, _: &Answers) -> Outcome {
    Ok(content([text_content(format!("Computed {label}."))]))
}

/// The error `protocol_error_job` fails with.
fn protocol_error() -> RpcError {
    RpcError::new(
        INTERNAL_ERROR,
        "protocol_error_job failed with a JSON-RPC error, as it always does",
    )
}
