//! The friendly tools: their catalogue (`tools/list`, shaped per version) and `tools/call`.

use crate::json::{Json, Node, Value};
use crate::rpc::McpVersion;

use super::super::ask::Capability;
use super::super::ask::Finish;
use super::super::content::{media_content, text_content, tool_error, PNG_1X1, WAV_SILENCE};
use super::super::params::{required_str, unknown};
use super::super::rounds::{ask_once, InputRequest};
use super::era::is_handshake;
use super::listen::resource_updated;
use super::notes::{MAX_NOTES, MAX_NOTE_CHARS, NOTES_URI};
use super::questions::{greeting, name_form, roots_named, summary, summary_request, ANSWER_KEY};
use super::resources::{embedded_readme, RESOURCES};
use super::{describe, MockServer, Num, Outcome, RpcError};

/// One argument of a tool: its name, JSON Schema type and description.
pub(super) struct Arg {
    pub(super) name: &'static str,
    pub(super) kind: &'static str,
    pub(super) description: &'static str,
}

pub(super) struct Tool {
    pub(super) name: &'static str,
    pub(super) title: &'static str,
    pub(super) description: &'static str,
    pub(super) args: &'static [Arg],
    /// The first protocol version with what it shows (audio content came in 2025-03-26, resource
    /// links and structured content in 2025-06-18): older versions neither list nor run it.
    pub(super) since: McpVersion,
    /// Its result's `structuredContent`: the names of its number members (an `outputSchema`
    /// declares them).
    pub(super) output: &'static [&'static str],
}

impl Tool {
    /// Whether `version` lists and runs it.
    pub(super) fn listed(&self, version: McpVersion) -> bool {
        version >= self.since
    }
}

pub(super) const A: Arg = Arg {
    name: "a",
    kind: "number",
    description: "First number",
};

pub(super) const B: Arg = Arg {
    name: "b",
    kind: "number",
    description: "Second number",
};

pub(super) static TOOLS: &[Tool] = &[
    Tool {
        name: "add",
        title: "Addition Tool",
        description: "Add two numbers together: a + b.",
        args: &[A, B],
        since: McpVersion::V2024_11_05,
        output: &[],
    },
    Tool {
        name: "echo",
        title: "Echo Tool",
        description: "Send the text back unchanged.",
        args: &[Arg {
            name: "text",
            kind: "string",
            description: "The text to echo",
        }],
        since: McpVersion::V2024_11_05,
        output: &[],
    },
    Tool {
        name: "divide",
        title: "Division Tool",
        description: "Divide a by b. Dividing by zero fails as a tool error (isError: true).",
        args: &[
            Arg {
                name: "a",
                kind: "number",
                description: "The dividend",
            },
            Arg {
                name: "b",
                kind: "number",
                description: "The divisor (not zero)",
            },
        ],
        since: McpVersion::V2024_11_05,
        output: &[],
    },
    Tool {
        name: "countdown",
        title: "Countdown Tool",
        description: "Counts down from n (1 to 10) to liftoff: a log line (notifications/message) at each step while it runs, and progress (notifications/progress) when the call carries a progressToken, all before the result.",
        args: &[Arg {
            name: "n",
            kind: "number",
            description: "Where to start (a whole number from 1 to 10)",
        }],
        since: McpVersion::V2024_11_05,
        output: &[],
    },
    Tool {
        name: "show_image",
        title: "Image Tool",
        description: "Shows a tiny PNG: image content, base64 data with its MIME type.",
        args: &[],
        since: McpVersion::V2024_11_05,
        output: &[],
    },
    Tool {
        name: "play_sound",
        title: "Audio Tool",
        description: "Plays a short silence: audio content, base64 WAV with its MIME type.",
        args: &[],
        since: McpVersion::V2025_03_26,
        output: &[],
    },
    Tool {
        name: "embed_readme",
        title: "Embedded Resource Tool",
        description: "Returns the resource mock://readme inside the result: embedded resource content.",
        args: &[],
        since: McpVersion::V2024_11_05,
        output: &[],
    },
    Tool {
        name: "link_resources",
        title: "Resource Link Tool",
        description: "Points at the server's resources instead of copying them: resource_link content.",
        args: &[],
        since: McpVersion::V2025_06_18,
        output: &[],
    },
    Tool {
        name: "mixed_content",
        title: "Mixed Content Tool",
        description: "Text, an image and an embedded resource in one result.",
        args: &[],
        since: McpVersion::V2024_11_05,
        output: &[],
    },
    Tool {
        name: "add_structured",
        title: "Structured Addition Tool",
        description: "Adds a and b and returns {\"sum\": …} as structuredContent, as its outputSchema declares (and the same JSON as text).",
        args: &[A, B],
        since: McpVersion::V2025_06_18,
        output: &["sum"],
    },
    Tool {
        name: "add_note",
        title: "Note Tool (changes a resource)",
        description: "Adds a note to the resource mock://notes, and the note as a resource of its own (mock://notes/N). Before the result every client hears notifications/resources/list_changed, and a client subscribed to mock://notes (resources/subscribe) notifications/resources/updated; then it reads again.",
        args: &[Arg {
            name: "text",
            kind: "string",
            description: "The note (1 to 500 characters)",
        }],
        since: McpVersion::V2024_11_05,
        output: &[],
    },
    Tool {
        name: "summarize",
        title: "Summarize Tool (asks the client's model)",
        description: "Asks the client's language model (sampling/createMessage) to summarize the text in one sentence, then returns what the model wrote. The client must declare the sampling capability; the call waits for its answer and can be cancelled (notifications/cancelled). Under 2026-07-28 it asks inside an input-required result instead, and the client retries the call with the answer.",
        args: &[Arg {
            name: "text",
            kind: "string",
            description: "The text to summarize",
        }],
        since: McpVersion::V2024_11_05,
        output: &[],
    },
    Tool {
        name: "ask_name",
        title: "Greeting Tool (asks the user)",
        description: "Asks the user for their name and favourite colour (elicitation/create: a form with a default and a choice), then greets them. The client must declare the elicitation capability; the call waits for its answer and can be cancelled (notifications/cancelled). Under 2026-07-28 it asks inside an input-required result instead, and the client retries the call with the answer.",
        args: &[],
        since: McpVersion::V2025_06_18,
        output: &[],
    },
    Tool {
        name: "list_roots",
        title: "Roots Tool (asks the client's roots)",
        description: "Asks the client for its roots (roots/list: the folders or files it lets the server see), then names them. The client must declare the roots capability; under the handshake versions the call waits for its answer, under 2026-07-28 it asks inside an input-required result and the client retries the call with the answer.",
        args: &[],
        since: McpVersion::V2024_11_05,
        output: &[],
    },
];

impl Tool {
    pub(super) fn to_json(&self, version: McpVersion) -> Json {
        let properties = self.args.iter().map(|arg| {
            (
                arg.name,
                Json::obj([
                    ("type", Json::from(arg.kind)),
                    ("description", Json::from(arg.description)),
                ]),
            )
        });
        let required = self.args.iter().map(|a| Json::from(a.name));
        let mut tool = vec![("name", Json::from(self.name))];
        if version >= McpVersion::V2025_06_18 {
            tool.push(("title", Json::from(self.title)));
        }
        tool.push(("description", Json::from(self.description)));
        tool.push((
            "inputSchema",
            Json::obj([
                ("type", Json::from("object")),
                ("properties", Json::obj(properties)),
                ("required", Json::arr(required)),
            ]),
        ));
        if !self.output.is_empty() {
            let properties = self
                .output
                .iter()
                .map(|&name| (name, Json::obj([("type", Json::from("number"))])));
            tool.push((
                "outputSchema",
                Json::obj([
                    ("type", Json::from("object")),
                    ("properties", Json::obj(properties)),
                    (
                        "required",
                        Json::arr(self.output.iter().map(|&n| Json::from(n))),
                    ),
                ]),
            ));
        }
        Json::obj(tool)
    }
}

/// The countdown's steps, sent while it runs: a log line each, and progress when the call asked
/// for it (`_meta.progressToken`). Returns the result's text.
pub(super) fn countdown(server: &mut MockServer, params: Option<&Node<'_>>, start: u64) -> String {
    let token = params
        .and_then(|p| p.get("_meta"))
        .and_then(|m| m.get("progressToken"));
    for left in (1..=start).rev() {
        server.log("info", Json::String(format!("{left}…")));
        if let Some(token) = token {
            let done = start - left + 1;
            server.progress(token, done, start, &format!("{left} to go"));
        }
    }
    format!("Liftoff! Counted down from {start}.")
}

pub(super) fn content_of(tool: &str) -> Option<Json> {
    let content = match tool {
        "show_image" => vec![media_content("image", PNG_1X1, "image/png")],
        "play_sound" => vec![media_content("audio", WAV_SILENCE, "audio/wav")],
        "embed_readme" => vec![embedded_readme()],
        "link_resources" => RESOURCES
            .iter()
            .map(|r| {
                Json::obj([
                    ("type", Json::from("resource_link")),
                    ("uri", Json::from(r.uri)),
                    ("name", Json::from(r.name)),
                    ("description", Json::from(r.description)),
                    ("mimeType", Json::from(r.mime_type)),
                ])
            })
            .collect(),
        "mixed_content" => vec![
            text_content("A text, an image and a resource, in one result:"),
            media_content("image", PNG_1X1, "image/png"),
            embedded_readme(),
        ],
        _ => return None,
    };
    Some(Json::obj([("content", Json::arr(content))]))
}

pub(super) fn tools_call(
    server: &mut MockServer,
    params: Option<&Node<'_>>,
    version: McpVersion,
) -> Outcome {
    let name = required_str(params, "name", "the tool to call")?;
    let Some(tool) = TOOLS.iter().find(|t| t.name == name && t.listed(version)) else {
        let known: Vec<&str> = TOOLS
            .iter()
            .filter(|t| t.listed(version))
            .map(|t| t.name)
            .collect();
        return Err(unknown("tool", name, &known));
    };
    let arguments = params.and_then(|p| p.get("arguments"));
    if let Some(args) = arguments.filter(|a| !a.is_object()) {
        return Err(RpcError::invalid_params([(
            "/params/arguments",
            format!("\"arguments\" must be an object, found {}", describe(args)),
        )]));
    }
    // Every declared argument, checked against its type; the first problem fails the call.
    let mut values = Vec::new();
    for arg in tool.args {
        let value = arguments.and_then(|a| a.get(arg.name));
        let ok = match (value, arg.kind) {
            (None, _) => {
                return Ok(tool_error(format!(
                    "missing argument \"{}\" ({})",
                    arg.name, arg.kind
                )))
            }
            (Some(v), "number") => matches!(v.value, Value::Number(_)),
            (Some(v), _) => matches!(v.value, Value::String(_)),
        };
        let value = value.expect("checked above");
        if !ok {
            return Ok(tool_error(format!(
                "argument \"{}\" must be a {}, found {}",
                arg.name,
                arg.kind,
                describe(value)
            )));
        }
        values.push(value);
    }
    // With the tool schemas (feature `mcp-schemas`), the whole inputSchema too (the checks above name a missing or mistyped argument).
    #[cfg(feature = "mcp-schemas")]
    if let Some(refused) = super::super::input_schema::refused(&tool.to_json(version), params) {
        return Ok(refused);
    }
    if let Some(result) = content_of(tool.name) {
        return Ok(result);
    }
    let number = |i: usize| values.get(i).and_then(|v| Num::of(v));
    let text = match (tool.name, number(0), number(1)) {
        ("add_note", _, _) => {
            let text = values.first().and_then(|v| v.as_str()).unwrap_or_default();
            return Ok(add_note(server, text, version));
        }
        ("summarize" | "ask_name" | "list_roots", _, _) => {
            let (capability, request, finish): (_, _, Finish) = match tool.name {
                "summarize" => {
                    let text = values.first().and_then(|v| v.as_str()).unwrap_or_default();
                    (Capability::Sampling, summary_request(text), summary)
                }
                "ask_name" => (Capability::Elicitation, name_form(version), greeting),
                _ => (Capability::Roots, Json::Object(Vec::new()), roots_named),
            };
            if server.request.modern {
                let binding = format!("tools/call {}", tool.name);
                let request = InputRequest::new(ANSWER_KEY, capability, request);
                return ask_once(server, &binding, params, request, finish);
            }
            return Ok(server.ask(capability, request, finish));
        }
        ("echo", _, _) => values
            .first()
            .and_then(|v| v.as_str())
            .unwrap_or_default()
            .to_string(),
        ("countdown", _, _) => {
            let start = values
                .first()
                .and_then(|v| v.as_integer_text())
                .and_then(|t| t.parse::<u64>().ok())
                .filter(|n| (1..=10).contains(n));
            let Some(start) = start else {
                return Ok(tool_error("n must be a whole number from 1 to 10"));
            };
            countdown(server, params, start)
        }
        ("divide", _, Some(b)) if b.is_zero() => {
            return Ok(tool_error("cannot divide by zero (b is 0)"))
        }
        ("add_structured", Some(a), Some(b)) => {
            let Some(sum) = a.add(b).to_text() else {
                return Ok(tool_error("the sum is not a finite number"));
            };
            let structured = Json::obj([("sum", Json::Number(sum.clone()))]);
            return Ok(Json::obj([
                (
                    "content",
                    Json::arr([text_content(format!("{{\"sum\":{sum}}}"))]),
                ),
                ("structuredContent", structured),
            ]));
        }
        ("add", Some(a), Some(b)) => match a.add(b).to_text() {
            Some(text) => text,
            None => return Ok(tool_error("the sum is not a finite number")),
        },
        ("divide", Some(a), Some(b)) => match a.div(b).to_text() {
            Some(text) => text,
            None => return Ok(tool_error("the quotient is not a finite number")),
        },
        _ => return Ok(tool_error("the arguments are not usable numbers")),
    };
    Ok(Json::obj([("content", Json::arr([text_content(text)]))]))
}

/// `add_note`: keeps `text`; the list of resources changed (a note is a resource of its own:
/// `notifications/resources/list_changed` under the handshake versions, which declare
/// `listChanged`), and a subscriber of mock://notes hears that it changed (both before the result).
fn add_note(server: &mut MockServer, text: &str, version: McpVersion) -> Json {
    let length = text.chars().count();
    if length == 0 || length > MAX_NOTE_CHARS {
        return tool_error(format!(
            "a note holds 1 to {MAX_NOTE_CHARS} characters, this one has {length}"
        ));
    }
    let mut said = String::new();
    if server.notes.len() >= MAX_NOTES {
        server.notes.remove(0);
        said.push_str(&format!(" (the oldest went: {MAX_NOTES} are kept)"));
    }
    server.notes.push(text.to_string());
    if is_handshake(version) {
        server.notify(
            "notifications/resources/list_changed",
            Json::Object(Vec::new()),
        );
    }
    let subscribed = if is_handshake(version) {
        let subscribed = server.subscriptions.iter().any(|uri| uri == NOTES_URI);
        if subscribed {
            server.notify(
                "notifications/resources/updated",
                Json::obj([("uri", Json::from(NOTES_URI))]),
            );
        }
        subscribed
    } else {
        resource_updated(server, NOTES_URI)
    };
    let heard = match (subscribed, is_handshake(version)) {
        (true, _) => "you are subscribed, so the server sent notifications/resources/updated",
        (false, true) => "subscribe to it (resources/subscribe) to hear when it changes",
        (false, false) => "subscribe to it (subscriptions/listen with resourceSubscriptions) to hear when it changes",
    };
    Json::obj([(
        "content",
        Json::arr([text_content(format!(
            "Added note {}{said}. {NOTES_URI} changed: {heard}.",
            server.notes.len()
        ))]),
    )])
}
