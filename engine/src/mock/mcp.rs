//! The mock server's MCP methods: the lifecycle (`initialize`, `ping`, `server/discover`), tools,
//! resources and prompts, shaped for the protocol version in use.
//!
//! Two eras of MCP meet here, as in the official SDKs:
//! - **handshake era** (2024-11-05 … 2025-11-25): `initialize` agrees on a version. The mock does not
//!   insist on the handshake (the `echo '…tools/list…' | jrpc serve` workflow must work), so before
//!   any `initialize` it answers as 2025-11-25.
//! - **2026-07-28** has no `initialize`: every request carries its version in
//!   `params._meta["io.modelcontextprotocol/protocolVersion"]`, and `server/discover` advertises what
//!   the server speaks. A request carrying that envelope is answered in 2026-07-28 shape (`resultType`,
//!   `ttlMs`/`cacheScope` on cacheable results, the `serverInfo` stamp in `_meta`); an envelope naming
//!   another version gets -32022 Unsupported protocol version, listing what we support.
//!
//! `initialize` negotiates among the handshake versions only: a client asking for one of them gets
//! it, any other (2026-07-28 included, which cannot be reached by a handshake) gets 2025-11-25.
//!
//! Params are checked by [`crate::rpc::mcp::param_problems`] (-32602 with `data.errors`); the few
//! fallbacks below only guard the values the methods read. Tool *arguments* are the tool's business:
//! wrong or missing arguments give a tool result with `isError: true` (the practice since 2025-11-25,
//! so that a model can correct itself); an unknown tool or prompt is a protocol error, -32602.

use crate::json::{escape_token, quote, Json, Node, Value};
use crate::rpc::errors::{self, INVALID_PARAMS};
use crate::rpc::mcp::param_problems;
use crate::rpc::McpVersion;

use super::ask::{self, Capability, ClientCapabilities};
#[cfg(feature = "conformance")]
use super::conformance;
use super::{describe, Fixtures, MockServer, Num, Outcome, RpcError};

/// `serverInfo.name`.
pub const SERVER_NAME: &str = "jrpc-mock";
/// Every version the mock speaks, oldest first.
pub const SUPPORTED_VERSIONS: [McpVersion; 5] = McpVersion::ALL;

/// The newest version reachable through `initialize`.
const LATEST_HANDSHAKE: McpVersion = McpVersion::V2025_11_25;
/// Versions that use the per-request envelope instead of `initialize`.
const MODERN: [McpVersion; 1] = [McpVersion::V2026_07_28];

const META_PROTOCOL_VERSION: &str = "io.modelcontextprotocol/protocolVersion";
const META_SERVER_INFO: &str = "io.modelcontextprotocol/serverInfo";

/// MCP's "Resource not found".
pub const RESOURCE_NOT_FOUND: i64 = -32002;
/// MCP 2026-07-28's "Unsupported protocol version".
pub const UNSUPPORTED_PROTOCOL_VERSION: i64 = -32022;

/// How long (ms) 2026-era clients may cache list results: the mock's lists never change.
const TTL_MS: u64 = 3_600_000;

const INSTRUCTIONS: &str = "A mock MCP server from jsonrpc-playground. Tools: add and divide (two numbers a, b), echo (text), \
add_structured (a, b; structured content), countdown (n; log lines and progress while it runs), add_note (text; changes mock://notes), summarize (text; asks the client's model) and ask_name (asks the user), and one per content type: show_image, play_sound, embed_readme, link_resources, mixed_content. \
Resources: mock://readme, mock://error-codes, mock://logo.png (binary), mock://notes (subscribe to it) and each note added (mock://notes/1, …: the list changes). \
Prompts: explain-error (code), write-request (method, params), review-readme (an embedded resource) and describe-image (an image).";

fn is_modern(v: McpVersion) -> bool {
    MODERN.contains(&v)
}

fn is_handshake(v: McpVersion) -> bool {
    !is_modern(v)
}

/// The version one request is answered in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Era {
    version: McpVersion,
    /// The request carried the 2026-07-28 envelope (or is `server/discover`).
    modern: bool,
}

/// The outcome of `method` if it is an MCP method the mock serves.
pub(super) fn call(
    server: &mut MockServer,
    method: &str,
    params: Option<&Node<'_>>,
) -> Option<Outcome> {
    const METHODS: &[&str] = &[
        "initialize",
        "ping",
        "server/discover",
        "tools/list",
        "tools/call",
        "resources/list",
        "resources/read",
        "resources/templates/list",
        "prompts/list",
        "prompts/get",
        "logging/setLevel",
        "completion/complete",
        "resources/subscribe",
        "resources/unsubscribe",
    ];
    if !METHODS.contains(&method) {
        return None;
    }
    Some(serve(server, method, params))
}

fn serve(server: &mut MockServer, method: &str, params: Option<&Node<'_>>) -> Outcome {
    let era = match envelope(params) {
        Some(Ok(version)) => Era {
            version,
            modern: true,
        },
        Some(Err(requested)) => return Err(unsupported_version(requested)),
        None if method == "server/discover" => Era {
            version: MODERN[0],
            modern: true,
        },
        None if method == "initialize" => Era {
            version: requested_handshake(params),
            modern: false,
        },
        None => Era {
            version: server.negotiated.unwrap_or(LATEST_HANDSHAKE),
            modern: false,
        },
    };
    let problems = param_problems(method, params, era.version);
    if !problems.is_empty() {
        return Err(RpcError::invalid_params(
            problems
                .into_iter()
                .map(|p| (format!("/params{}", p.path), p.message)),
        ));
    }
    // 2026-07-28 replaced resource subscriptions with subscriptions/listen (not served here): in
    // no catalogue does that version answer them, nor declare them.
    if era.modern && matches!(method, "resources/subscribe" | "resources/unsubscribe") {
        return Err(RpcError::new(errors::METHOD_NOT_FOUND, "Method not found"));
    }
    // The conformance suite's catalogue (same lifecycle, other tools, resources, prompts).
    if let Some(outcome) = conformance_answer(server, method, params) {
        let result = outcome?;
        return Ok(if era.modern {
            modern_shape(method, result)
        } else {
            result
        });
    }
    let result = match method {
        "initialize" => initialize(server, params, era.version),
        "ping" => Ok(Json::Object(Vec::new())),
        "server/discover" => Ok(discover()),
        "tools/list" => Ok(Json::obj([(
            "tools",
            Json::arr(
                TOOLS
                    .iter()
                    .filter(|t| t.listed(era.version))
                    .map(|t| t.to_json(era.version)),
            ),
        )])),
        "tools/call" => tools_call(server, params, era.version),
        "resources/list" => Ok(Json::obj([(
            "resources",
            Json::arr(
                RESOURCES
                    .iter()
                    .map(|r| r.to_json(era.version))
                    .chain(note_resources(server, era.version)),
            ),
        )])),
        "resources/templates/list" => Ok(Json::obj([(
            "resourceTemplates",
            Json::arr([error_code_template(era.version)]),
        )])),
        "resources/read" => resources_read(server, params),
        "resources/subscribe" => subscribe(server, params, true),
        "resources/unsubscribe" => subscribe(server, params, false),
        "prompts/list" => Ok(Json::obj([(
            "prompts",
            Json::arr(PROMPTS.iter().map(|p| p.to_json(era.version))),
        )])),
        "prompts/get" => prompts_get(params),
        // 2026-07-28 replaced the RPC with a per-request `_meta` log level: a version without
        // the method does not answer it (the engine's method table says the same).
        "logging/setLevel" if !era.modern => set_level(server, params),
        "completion/complete" => complete(params),
        _ => Err(RpcError::new(errors::METHOD_NOT_FOUND, "Method not found")),
    }?;
    Ok(if era.modern {
        modern_shape(method, result)
    } else {
        result
    })
}

/// The answer of the conformance suite's catalogue (`--fixtures conformance`), when the server
/// serves it and `method` is one it changes.
#[cfg(feature = "conformance")]
fn conformance_answer(
    server: &mut MockServer,
    method: &str,
    params: Option<&Node<'_>>,
) -> Option<Outcome> {
    if server.fixtures != super::Fixtures::Conformance {
        return None;
    }
    conformance::serve(server, method, params)
}

/// Without the `conformance` feature (the web build) there is no such catalogue.
#[cfg(not(feature = "conformance"))]
fn conformance_answer(
    _server: &mut MockServer,
    _method: &str,
    _params: Option<&Node<'_>>,
) -> Option<Outcome> {
    None
}

/// The 2026-07-28 envelope's version: `None` without one, `Err(requested)` when we do not speak it.
/// A request carrying the 2026-07-28 envelope (`_meta` naming a version without initialize).
pub(super) fn in_modern_envelope(message: &Node<'_>) -> bool {
    matches!(envelope(message.get("params")), Some(Ok(_)))
}

fn envelope(params: Option<&Node<'_>>) -> Option<Result<McpVersion, String>> {
    let node = params?.get("_meta")?.get(META_PROTOCOL_VERSION)?;
    Some(match node.as_str() {
        Some(text) => text
            .parse()
            .ok()
            .filter(|v| is_modern(*v))
            .ok_or_else(|| text.to_string()),
        None => Err(Json::from_node(node).compact()),
    })
}

/// -32022 with the versions we support, newest first (as MCP's own example lists them).
fn unsupported_version(requested: String) -> RpcError {
    let supported = SUPPORTED_VERSIONS
        .iter()
        .rev()
        .map(|v| Json::from(v.as_str()));
    RpcError {
        code: UNSUPPORTED_PROTOCOL_VERSION,
        message: "Unsupported protocol version".into(),
        data: Some(Json::obj([
            ("supported", Json::arr(supported)),
            ("requested", Json::from(requested)),
        ])),
    }
}

/// The handshake version `initialize` settles on: the client's, when we speak it, else our latest.
fn requested_handshake(params: Option<&Node<'_>>) -> McpVersion {
    params
        .and_then(|p| p.get("protocolVersion"))
        .and_then(Node::as_str)
        .and_then(|s| s.parse().ok())
        .filter(|v| is_handshake(*v))
        .unwrap_or(LATEST_HANDSHAKE)
}

fn server_info(version: McpVersion) -> Json {
    let mut info = vec![("name", Json::from(SERVER_NAME))];
    if version >= McpVersion::V2025_06_18 {
        info.push(("title", Json::from("jsonrpc-playground mock server")));
    }
    info.push(("version", Json::from(env!("CARGO_PKG_VERSION"))));
    Json::obj(info)
}

/// What the mock serves, as `version` names it: tools, resources, prompts and logging in every
/// version; argument completion declared from 2025-03-26 on (the version that gave it a
/// capability; `completion/complete` is answered in 2024-11-05 too, where it needed none);
/// resource subscriptions where `resources/subscribe` exists (the handshake versions).
fn capabilities(version: McpVersion, fixtures: Fixtures) -> Json {
    let empty = || Json::Object(Vec::new());
    let resources = if is_handshake(version) {
        let mut resources = vec![("subscribe", Json::Bool(true))];
        // The friendly set's list changes (add_note adds a resource); the conformance set's not.
        if fixtures == Fixtures::Friendly {
            resources.push(("listChanged", Json::Bool(true)));
        }
        Json::obj(resources)
    } else {
        empty()
    };
    let mut caps = vec![
        ("tools", empty()),
        ("resources", resources),
        ("prompts", empty()),
        ("logging", empty()),
    ];
    if version >= McpVersion::V2025_03_26 {
        caps.push(("completions", empty()));
    }
    Json::obj(caps)
}

/// The log levels of MCP (RFC 5424's, least severe first).
const LOG_LEVELS: [&str; 8] = [
    "debug",
    "info",
    "notice",
    "warning",
    "error",
    "critical",
    "alert",
    "emergency",
];

impl MockServer {
    /// Sends a `notifications/message` log line at `level` (one of [`LOG_LEVELS`]) unless the
    /// client asked for more severe ones only (`logging/setLevel`).
    pub(super) fn log(&mut self, level: &str, data: Json) {
        let index = LOG_LEVELS.iter().position(|l| *l == level).unwrap_or(0);
        if self.log_level.is_some_and(|least| index < least) {
            return;
        }
        self.notify(
            "notifications/message",
            Json::obj([
                ("level", Json::from(level)),
                ("logger", Json::from(SERVER_NAME)),
                ("data", data),
            ]),
        );
    }

    /// Sends `notifications/progress` for `token` (the request's `_meta.progressToken`).
    pub(super) fn progress(&mut self, token: &Node<'_>, progress: u64, total: u64, message: &str) {
        self.notify(
            "notifications/progress",
            Json::obj([
                ("progressToken", Json::from_node(token)),
                ("progress", Json::from(progress)),
                ("total", Json::from(total)),
                ("message", Json::from(message)),
            ]),
        );
    }
}

/// `logging/setLevel`: the least severe level the client wants to hear about from now on.
fn set_level(server: &mut MockServer, params: Option<&Node<'_>>) -> Outcome {
    let level = params.and_then(|p| p.get("level")).and_then(Node::as_str);
    match level.and_then(|l| LOG_LEVELS.iter().position(|known| *known == l)) {
        Some(index) => {
            server.log_level = Some(index);
            Ok(Json::Object(Vec::new()))
        }
        None => Err(RpcError::invalid_params([(
            "/params/level".to_string(),
            format!("level must be one of {}", LOG_LEVELS.join(", ")),
        )])),
    }
}

/// `completion/complete`: values for a prompt's argument, or for the `{code}` of the resource
/// template, that start with what was typed (any other resource reference completes to nothing).
fn complete(params: Option<&Node<'_>>) -> Outcome {
    let reference = params.and_then(|p| p.get("ref"));
    let kind = reference.and_then(|r| r.get("type")).and_then(Node::as_str);
    let argument = params.and_then(|p| p.get("argument"));
    let name = argument
        .and_then(|a| a.get("name"))
        .and_then(Node::as_str)
        .unwrap_or_default();
    let typed = argument
        .and_then(|a| a.get("value"))
        .and_then(Node::as_str)
        .unwrap_or_default();
    let candidates: &[&str] = match kind {
        Some("ref/prompt") => {
            let prompt = reference
                .and_then(|r| r.get("name"))
                .and_then(Node::as_str)
                .unwrap_or_default();
            match (prompt, name) {
                ("explain-error", "code") => &["-32700", "-32600", "-32601", "-32602", "-32603"],
                ("write-request", "method") => &[
                    "subtract",
                    "sum",
                    "get_data",
                    "update",
                    "notify_hello",
                    "notify_sum",
                ],
                ("explain-error" | "write-request", _) => &[],
                _ => {
                    return Err(RpcError::invalid_params([(
                        "/params/ref/name".to_string(),
                        format!("no prompt named {}", crate::json::quote(prompt)),
                    )]))
                }
            }
        }
        Some("ref/resource") => {
            let uri = reference
                .and_then(|r| r.get("uri"))
                .and_then(Node::as_str)
                .unwrap_or_default();
            if uri != ERROR_CODE_TEMPLATE || name != "code" {
                return Ok(completion(Vec::new()));
            }
            return Ok(completion(
                error_code_values()
                    .filter(|c| c.starts_with(typed))
                    .map(Json::from)
                    .collect(),
            ));
        }
        _ => {
            return Err(RpcError::invalid_params([(
                "/params/ref/type".to_string(),
                "ref.type must be \"ref/prompt\" or \"ref/resource\"".to_string(),
            )]))
        }
    };
    Ok(completion(
        candidates
            .iter()
            .filter(|c| c.starts_with(typed))
            .map(|c| Json::from(*c))
            .collect(),
    ))
}

/// A `completion/complete` result holding all of `values`.
pub(super) fn completion(values: Vec<Json>) -> Json {
    let total = values.len();
    Json::obj([(
        "completion",
        Json::obj([
            ("values", Json::Array(values)),
            ("total", Json::from(total as u64)),
            ("hasMore", Json::Bool(false)),
        ]),
    )])
}

fn initialize(server: &mut MockServer, params: Option<&Node<'_>>, version: McpVersion) -> Outcome {
    server.negotiated = Some(version);
    server.initialized = false;
    server.client_can = ClientCapabilities::declared_in(params);
    Ok(Json::obj([
        ("protocolVersion", Json::from(version.as_str())),
        ("capabilities", capabilities(version, server.fixtures)),
        ("serverInfo", server_info(version)),
        ("instructions", Json::from(INSTRUCTIONS)),
    ]))
}

/// `server/discover` (2026-07-28): the versions reachable with the per-request envelope.
fn discover() -> Json {
    Json::obj([
        (
            "supportedVersions",
            Json::arr(MODERN.iter().map(|v| Json::from(v.as_str()))),
        ),
        ("capabilities", capabilities(MODERN[0], Fixtures::Friendly)),
        ("instructions", Json::from(INSTRUCTIONS)),
    ])
}

/// Adds what 2026-07-28 requires of a result: `resultType` first, `ttlMs` and `cacheScope` on
/// cacheable results, and the `serverInfo` stamp in `_meta`.
fn modern_shape(method: &str, result: Json) -> Json {
    let Json::Object(members) = result else {
        return result;
    };
    let mut out = Json::obj([("resultType", Json::from("complete"))]);
    for (key, value) in members {
        out.set(&key, value);
    }
    let cacheable = matches!(
        method,
        "server/discover"
            | "tools/list"
            | "resources/list"
            | "resources/templates/list"
            | "resources/read"
            | "prompts/list"
    );
    if cacheable {
        // The notes change (add_note): a read of them is stale at once, and one session's.
        let first_uri = out
            .get("contents")
            .and_then(|c| match c {
                Json::Array(items) => items.first(),
                _ => None,
            })
            .and_then(|c| c.get("uri"));
        let (ttl, scope) = if first_uri == Some(&Json::from(NOTES_URI)) {
            (0, "private")
        } else {
            (TTL_MS, "public")
        };
        out.set("ttlMs", Json::from(ttl));
        out.set("cacheScope", Json::from(scope));
    }
    out.set(
        "_meta",
        Json::obj([(META_SERVER_INFO, server_info(MODERN[0]))]),
    );
    out
}

/// A string member of `params` the method needs. `param_problems` names a missing or mistyped one
/// first; this is only the guard for when it did not.
pub(super) fn required_str<'n>(
    params: Option<&'n Node<'_>>,
    key: &str,
    what: &str,
) -> Result<&'n str, RpcError> {
    let node = params.and_then(|p| p.get(key));
    match node {
        Some(n) => n.as_str().ok_or_else(|| {
            RpcError::invalid_params([(
                format!("/params/{}", escape_token(key)),
                format!("\"{key}\" must be a string ({what}), found {}", describe(n)),
            )])
        }),
        None => Err(RpcError::invalid_params([(
            if params.is_some() {
                "/params".to_string()
            } else {
                String::new()
            },
            format!("\"{key}\" is missing ({what})"),
        )])),
    }
}

// ---- tools ---------------------------------------------------------------------------------

/// One argument of a tool: its name, JSON Schema type and description.
struct Arg {
    name: &'static str,
    kind: &'static str,
    description: &'static str,
}

struct Tool {
    name: &'static str,
    title: &'static str,
    description: &'static str,
    args: &'static [Arg],
    /// The first protocol version with what it shows (audio content came in 2025-03-26, resource
    /// links and structured content in 2025-06-18): older versions neither list nor run it.
    since: McpVersion,
    /// Its result's `structuredContent`: the names of its number members (an `outputSchema`
    /// declares them).
    output: &'static [&'static str],
    /// What it asks the client during the call, if anything. Such a tool is listed only by the
    /// handshake versions (2026-07-28 has no request from the server of its own: it asks inside
    /// a result, `resultType: "input_required"`, which this mock does not do).
    asks: Option<Capability>,
}

impl Tool {
    /// Whether `version` lists and runs it.
    fn listed(&self, version: McpVersion) -> bool {
        version >= self.since && (self.asks.is_none() || is_handshake(version))
    }
}

/// A 1×1 PNG, base64 (image content).
pub(super) const PNG_1X1: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";
/// Four samples of silence, 8-bit mono WAV at 8 kHz, base64 (audio content).
pub(super) const WAV_SILENCE: &str =
    "UklGRigAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YQQAAACAgICA";

const A: Arg = Arg {
    name: "a",
    kind: "number",
    description: "First number",
};
const B: Arg = Arg {
    name: "b",
    kind: "number",
    description: "Second number",
};

static TOOLS: &[Tool] = &[
    Tool {
        name: "add",
        title: "Addition Tool",
        description: "Add two numbers together: a + b.",
        args: &[A, B],
        since: McpVersion::V2024_11_05,
        output: &[],
        asks: None,
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
        asks: None,
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
        asks: None,
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
        asks: None,
    },
    Tool {
        name: "show_image",
        title: "Image Tool",
        description: "Shows a tiny PNG: image content, base64 data with its MIME type.",
        args: &[],
        since: McpVersion::V2024_11_05,
        output: &[],
        asks: None,
    },
    Tool {
        name: "play_sound",
        title: "Audio Tool",
        description: "Plays a short silence: audio content, base64 WAV with its MIME type.",
        args: &[],
        since: McpVersion::V2025_03_26,
        output: &[],
        asks: None,
    },
    Tool {
        name: "embed_readme",
        title: "Embedded Resource Tool",
        description: "Returns the resource mock://readme inside the result: embedded resource content.",
        args: &[],
        since: McpVersion::V2024_11_05,
        output: &[],
        asks: None,
    },
    Tool {
        name: "link_resources",
        title: "Resource Link Tool",
        description: "Points at the server's resources instead of copying them: resource_link content.",
        args: &[],
        since: McpVersion::V2025_06_18,
        output: &[],
        asks: None,
    },
    Tool {
        name: "mixed_content",
        title: "Mixed Content Tool",
        description: "Text, an image and an embedded resource in one result.",
        args: &[],
        since: McpVersion::V2024_11_05,
        output: &[],
        asks: None,
    },
    Tool {
        name: "add_structured",
        title: "Structured Addition Tool",
        description: "Adds a and b and returns {\"sum\": …} as structuredContent, as its outputSchema declares (and the same JSON as text).",
        args: &[A, B],
        since: McpVersion::V2025_06_18,
        output: &["sum"],
        asks: None,
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
        asks: None,
    },
    Tool {
        name: "summarize",
        title: "Summarize Tool (asks the client's model)",
        description: "Asks the client's language model (sampling/createMessage) to summarize the text in one sentence, then returns what the model wrote. The client must declare the sampling capability; the call waits for its answer and can be cancelled (notifications/cancelled).",
        args: &[Arg {
            name: "text",
            kind: "string",
            description: "The text to summarize",
        }],
        since: McpVersion::V2024_11_05,
        output: &[],
        asks: Some(Capability::Sampling),
    },
    Tool {
        name: "ask_name",
        title: "Greeting Tool (asks the user)",
        description: "Asks the user for their name and favourite colour (elicitation/create: a form with a default and a choice), then greets them. The client must declare the elicitation capability; the call waits for its answer and can be cancelled (notifications/cancelled).",
        args: &[],
        since: McpVersion::V2025_06_18,
        output: &[],
        asks: Some(Capability::Elicitation),
    },
];

impl Tool {
    fn to_json(&self, version: McpVersion) -> Json {
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

pub(super) fn text_content(text: impl Into<String>) -> Json {
    Json::obj([
        ("type", Json::from("text")),
        ("text", Json::String(text.into())),
    ])
}

/// A tool's failure, reported in its result so that the model sees it.
pub(super) fn tool_error(text: impl Into<String>) -> Json {
    Json::obj([
        ("content", Json::arr([text_content(text)])),
        ("isError", Json::Bool(true)),
    ])
}

/// Content that is not text: an image or audio clip (base64 with its MIME type).
pub(super) fn media_content(kind: &str, data: &str, mime: &str) -> Json {
    Json::obj([
        ("type", Json::from(kind)),
        ("data", Json::from(data)),
        ("mimeType", Json::from(mime)),
    ])
}

/// The resource mock://readme inside a result.
fn embedded_readme() -> Json {
    let readme = &RESOURCES[0];
    Json::obj([
        ("type", Json::from("resource")),
        (
            "resource",
            Json::obj([
                ("uri", Json::from(readme.uri)),
                ("mimeType", Json::from(readme.mime_type)),
                ("text", Json::String(readme.text())),
            ]),
        ),
    ])
}

/// The countdown's steps, sent while it runs: a log line each, and progress when the call asked
/// for it (`_meta.progressToken`). Returns the result's text.
fn countdown(server: &mut MockServer, params: Option<&Node<'_>>, start: u64) -> String {
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

/// `summarize`'s request to the client's model.
fn summary_request(text: &str) -> Json {
    Json::obj([
        (
            "messages",
            Json::arr([Json::obj([
                ("role", Json::from("user")),
                (
                    "content",
                    text_content(format!("Summarize this text in one sentence:\n\n{text}")),
                ),
            ])]),
        ),
        (
            "systemPrompt",
            Json::from("You write one-sentence summaries."),
        ),
        ("maxTokens", Json::from(100u64)),
    ])
}

/// `summarize`'s result: what the client's model wrote.
fn summary(result: &Node<'_>) -> Json {
    match ask::sampled(result) {
        Ok((text, model)) => Json::obj([(
            "content",
            Json::arr([text_content(format!("Summary by {model}: {text}"))]),
        )]),
        Err(problem) => tool_error(problem),
    }
}

/// `ask_name`'s form: a name (with a default from 2025-11-25, the version that allows one) and
/// a colour to choose (titled choices from 2025-11-25, `enum` with `enumNames` before).
fn name_form(version: McpVersion) -> Json {
    let mut name = vec![
        ("type", Json::from("string")),
        ("title", Json::from("Your name")),
        (
            "description",
            Json::from("What should the server call you?"),
        ),
        ("minLength", Json::from(1u64)),
    ];
    const COLOURS: [(&str, &str); 3] = [("red", "Red"), ("green", "Green"), ("blue", "Blue")];
    let mut colour = vec![
        ("type", Json::from("string")),
        ("title", Json::from("Favourite colour")),
    ];
    if version >= McpVersion::V2025_11_25 {
        name.push(("default", Json::from("Ada")));
        colour.push((
            "oneOf",
            Json::arr(COLOURS.iter().map(|(value, title)| {
                Json::obj([("const", Json::from(*value)), ("title", Json::from(*title))])
            })),
        ));
        colour.push(("default", Json::from("blue")));
    } else {
        colour.push(("enum", Json::arr(COLOURS.iter().map(|c| Json::from(c.0)))));
        colour.push((
            "enumNames",
            Json::arr(COLOURS.iter().map(|c| Json::from(c.1))),
        ));
    }
    Json::obj([
        ("message", Json::from("What should I call you?")),
        (
            "requestedSchema",
            Json::obj([
                ("type", Json::from("object")),
                (
                    "properties",
                    Json::obj([("name", Json::obj(name)), ("colour", Json::obj(colour))]),
                ),
                ("required", Json::arr([Json::from("name")])),
            ]),
        ),
    ])
}

/// `ask_name`'s result: a greeting, or what the user did instead of answering.
fn greeting(result: &Node<'_>) -> Json {
    let (action, content) = match ask::elicited(result) {
        Ok(answer) => answer,
        Err(problem) => return tool_error(problem),
    };
    let text = match action {
        "accept" => match (
            ask::form_text(content, "name"),
            ask::form_text(content, "colour"),
        ) {
            (Some(name), Some(colour)) => {
                format!("Hello, {name}! Your favourite colour is {colour}.")
            }
            (Some(name), None) => format!("Hello, {name}!"),
            (None, _) => return tool_error(
                "the form was accepted without the required field \"name\" (at /result/content)",
            ),
        },
        "decline" => "You declined to give your name. Hello anyway, stranger!".to_string(),
        _ => "You dismissed the question: no name, no greeting.".to_string(),
    };
    Json::obj([("content", Json::arr([text_content(text)]))])
}

fn content_of(tool: &str) -> Option<Json> {
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

fn tools_call(server: &mut MockServer, params: Option<&Node<'_>>, version: McpVersion) -> Outcome {
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
    if let Some(result) = content_of(tool.name) {
        return Ok(result);
    }
    let number = |i: usize| values.get(i).and_then(|v| Num::of(v));
    let text = match (tool.name, number(0), number(1)) {
        ("add_note", _, _) => {
            let text = values.first().and_then(|v| v.as_str()).unwrap_or_default();
            return Ok(add_note(server, text, version));
        }
        ("summarize", _, _) => {
            let text = values.first().and_then(|v| v.as_str()).unwrap_or_default();
            return Ok(server.ask(Capability::Sampling, summary_request(text), summary));
        }
        ("ask_name", _, _) => {
            return Ok(server.ask(Capability::Elicitation, name_form(version), greeting))
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

// ---- resources -----------------------------------------------------------------------------

struct Resource {
    uri: &'static str,
    name: &'static str,
    title: &'static str,
    description: &'static str,
    mime_type: &'static str,
}

static RESOURCES: &[Resource] = &[
    Resource {
        uri: "mock://readme",
        name: "readme",
        title: "About this server",
        description: "What the mock server offers and how to try it.",
        mime_type: "text/markdown",
    },
    Resource {
        uri: "mock://error-codes",
        name: "error-codes",
        title: "JSON-RPC 2.0 error codes",
        description: "The predefined error codes of JSON-RPC 2.0 §5.1 and what they mean.",
        mime_type: "text/plain",
    },
    Resource {
        uri: "mock://logo.png",
        name: "logo",
        title: "A tiny logo",
        description: "A binary resource: a 1×1 PNG, read as base64 in \"blob\" (not \"text\").",
        mime_type: "image/png",
    },
    Resource {
        uri: NOTES_URI,
        name: "notes",
        title: "Notes",
        description: "The notes the add_note tool keeps: it changes, so a client subscribed to it (resources/subscribe) hears notifications/resources/updated.",
        mime_type: "text/plain",
    },
];

/// The resource that changes (the add_note tool).
const NOTES_URI: &str = "mock://notes";
/// The notes kept (the oldest go first)…
const MAX_NOTES: usize = 20;
/// …and the longest note, in characters.
const MAX_NOTE_CHARS: usize = 500;

/// The notes, as mock://notes reads.
fn notes_text(notes: &[String]) -> String {
    if notes.is_empty() {
        return "No notes yet: add one with the add_note tool.\n".to_string();
    }
    notes
        .iter()
        .enumerate()
        .map(|(i, note)| format!("{}. {note}\n", i + 1))
        .collect()
}

/// Each note as a resource of its own (`mock://notes/1`, …), listed by the handshake versions
/// (the ones that declare `resources.listChanged`: adding a note changes the list).
fn note_resources(server: &MockServer, version: McpVersion) -> Vec<Json> {
    if !is_handshake(version) {
        return Vec::new();
    }
    server
        .notes
        .iter()
        .enumerate()
        .map(|(i, note)| {
            let n = i + 1;
            let mut r = vec![
                ("uri", Json::String(format!("{NOTES_URI}/{n}"))),
                ("name", Json::String(format!("note-{n}"))),
            ];
            if version >= McpVersion::V2025_06_18 {
                r.push(("title", Json::String(format!("Note {n}"))));
            }
            let preview: String = note.chars().take(60).collect();
            r.push(("description", Json::String(preview)));
            r.push(("mimeType", Json::from("text/plain")));
            Json::obj(r)
        })
        .collect()
}

/// `mock://notes/N`: the note's number, when it names one.
fn note_number(server: &MockServer, uri: &str) -> Option<usize> {
    let n = uri.strip_prefix(NOTES_URI)?.strip_prefix('/')?;
    let n: usize = n.parse().ok()?;
    (1..=server.notes.len()).contains(&n).then_some(n)
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
    let subscribed = server.subscriptions.iter().any(|uri| uri == NOTES_URI);
    if subscribed {
        server.notify(
            "notifications/resources/updated",
            Json::obj([("uri", Json::from(NOTES_URI))]),
        );
    }
    let heard = if subscribed {
        "you are subscribed, so the server sent notifications/resources/updated"
    } else {
        "subscribe to it (resources/subscribe) to hear when it changes"
    };
    Json::obj([(
        "content",
        Json::arr([text_content(format!(
            "Added note {}{said}. {NOTES_URI} changed: {heard}.",
            server.notes.len()
        ))]),
    )])
}

/// `resources/subscribe` (`on`) and `resources/unsubscribe` of a resource the server has; an
/// unknown one is -32002. Unsubscribing from what was not subscribed changes nothing.
fn subscribe(server: &mut MockServer, params: Option<&Node<'_>>, on: bool) -> Outcome {
    let uri = required_str(params, "uri", "the resource")?;
    if resources_read(server, params).is_err() {
        return Err(RpcError {
            code: RESOURCE_NOT_FOUND,
            message: "Resource not found".into(),
            data: Some(Json::obj([("uri", Json::from(uri))])),
        });
    }
    let known = server.subscriptions.iter().position(|u| u == uri);
    match (on, known) {
        (true, None) => server.subscriptions.push(uri.to_string()),
        (false, Some(index)) => {
            server.subscriptions.remove(index);
        }
        _ => {}
    }
    Ok(Json::Object(Vec::new()))
}

impl Resource {
    fn to_json(&self, version: McpVersion) -> Json {
        let mut r = vec![
            ("uri", Json::from(self.uri)),
            ("name", Json::from(self.name)),
        ];
        if version >= McpVersion::V2025_06_18 {
            r.push(("title", Json::from(self.title)));
        }
        r.push(("description", Json::from(self.description)));
        r.push(("mimeType", Json::from(self.mime_type)));
        Json::obj(r)
    }

    fn text(&self) -> String {
        match self.name {
            "readme" => format!(
                "# {SERVER_NAME}\n\n{INSTRUCTIONS}\n\nTry: echo '{{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":{{}}}}' | jrpc serve\n"
            ),
            _ => {
                let mut text = String::new();
                for code in errors::PREDEFINED {
                    text.push_str(&format!("{} {}: {}\n", code.code, code.message, code.meaning));
                }
                text.push_str("-32099..-32000 Server error: reserved for implementation-defined server errors\n");
                text
            }
        }
    }
}

/// The one resource template: each predefined error code on its own, `mock://error-codes/{code}`.
const ERROR_CODE_TEMPLATE: &str = "mock://error-codes/{code}";

fn error_code_template(version: McpVersion) -> Json {
    let mut t = vec![
        ("uriTemplate", Json::from(ERROR_CODE_TEMPLATE)),
        ("name", Json::from("error-code")),
    ];
    if version >= McpVersion::V2025_06_18 {
        t.push(("title", Json::from("One JSON-RPC 2.0 error code")));
    }
    t.push((
        "description",
        Json::from("A predefined error code of JSON-RPC 2.0 §5.1: its message and what it means."),
    ));
    t.push(("mimeType", Json::from("text/plain")));
    Json::obj(t)
}

/// The codes `{code}` of [`ERROR_CODE_TEMPLATE`] takes.
fn error_code_values() -> impl Iterator<Item = String> {
    errors::PREDEFINED.iter().map(|c| c.code.to_string())
}

fn resources_read(server: &MockServer, params: Option<&Node<'_>>) -> Outcome {
    let uri = required_str(params, "uri", "the resource to read")?;
    let templated = uri
        .strip_prefix("mock://error-codes/")
        .and_then(|code| code.parse::<i64>().ok())
        .and_then(errors::predefined);
    if let Some(code) = templated {
        return Ok(Json::obj([(
            "contents",
            Json::arr([Json::obj([
                ("uri", Json::from(uri)),
                ("mimeType", Json::from("text/plain")),
                (
                    "text",
                    Json::String(format!(
                        "{} {}: {}\n",
                        code.code, code.message, code.meaning
                    )),
                ),
            ])]),
        )]));
    }
    if let Some(n) = note_number(server, uri) {
        return Ok(Json::obj([(
            "contents",
            Json::arr([Json::obj([
                ("uri", Json::from(uri)),
                ("mimeType", Json::from("text/plain")),
                ("text", Json::String(server.notes[n - 1].clone())),
            ])]),
        )]));
    }
    let Some(resource) = RESOURCES.iter().find(|r| r.uri == uri) else {
        return Err(RpcError {
            code: RESOURCE_NOT_FOUND,
            message: "Resource not found".into(),
            data: Some(Json::obj([("uri", Json::from(uri))])),
        });
    };
    // Binary contents travel as base64 in "blob"; text in "text".
    let body = if resource.mime_type == "image/png" {
        ("blob", Json::from(PNG_1X1))
    } else if resource.uri == NOTES_URI {
        ("text", Json::String(notes_text(&server.notes)))
    } else {
        ("text", Json::String(resource.text()))
    };
    Ok(Json::obj([(
        "contents",
        Json::arr([Json::obj([
            ("uri", Json::from(resource.uri)),
            ("mimeType", Json::from(resource.mime_type)),
            body,
        ])]),
    )]))
}

// ---- prompts -------------------------------------------------------------------------------

struct PromptArg {
    name: &'static str,
    description: &'static str,
    required: bool,
}

struct Prompt {
    name: &'static str,
    title: &'static str,
    description: &'static str,
    args: &'static [PromptArg],
}

static PROMPTS: &[Prompt] = &[
    Prompt {
        name: "explain-error",
        title: "Explain a JSON-RPC error",
        description: "Ask for an explanation of a JSON-RPC error code and how to fix its cause.",
        args: &[PromptArg {
            name: "code",
            description: "The error code, e.g. -32601",
            required: true,
        }],
    },
    Prompt {
        name: "write-request",
        title: "Write a JSON-RPC request",
        description: "Ask for a JSON-RPC 2.0 request calling a method.",
        args: &[
            PromptArg {
                name: "method",
                description: "The method to call",
                required: true,
            },
            PromptArg {
                name: "params",
                description: "The parameters, as JSON (optional)",
                required: false,
            },
        ],
    },
    Prompt {
        name: "review-readme",
        title: "Review the readme",
        description: "A prompt that carries a resource: the text asks, the readme comes embedded.",
        args: &[],
    },
    Prompt {
        name: "describe-image",
        title: "Describe an image",
        description: "A prompt that carries an image: the text asks, a PNG comes as image content.",
        args: &[],
    },
];

impl Prompt {
    fn to_json(&self, version: McpVersion) -> Json {
        let arguments = self.args.iter().map(|a| {
            Json::obj([
                ("name", Json::from(a.name)),
                ("description", Json::from(a.description)),
                ("required", Json::Bool(a.required)),
            ])
        });
        let mut p = vec![("name", Json::from(self.name))];
        if version >= McpVersion::V2025_06_18 {
            p.push(("title", Json::from(self.title)));
        }
        p.push(("description", Json::from(self.description)));
        p.push(("arguments", Json::arr(arguments)));
        Json::obj(p)
    }
}

/// A tool or prompt the server does not have: -32602, `data.errors` naming the ones it has.
pub(super) fn unknown(what: &str, name: &str, known: &[&str]) -> RpcError {
    RpcError::new(INVALID_PARAMS, format!("Unknown {what}: {name}")).with_errors([(
        "/params/name",
        format!(
            "no {what} is named {}; the {what}s are {}",
            quote(name),
            known.join(", ")
        ),
    )])
}

fn prompts_get(params: Option<&Node<'_>>) -> Outcome {
    let name = required_str(params, "name", "the prompt to get")?;
    let Some(prompt) = PROMPTS.iter().find(|p| p.name == name) else {
        let known: Vec<&str> = PROMPTS.iter().map(|p| p.name).collect();
        return Err(unknown("prompt", name, &known));
    };
    let arguments = params.and_then(|p| p.get("arguments"));
    let mut values: Vec<Option<&str>> = Vec::new();
    let mut missing = Vec::new();
    for arg in prompt.args {
        match arguments.and_then(|a| a.get(arg.name)) {
            Some(v) => match v.as_str() {
                Some(s) => values.push(Some(s)),
                None => {
                    return Err(RpcError::invalid_params([(
                        format!("/params/arguments/{}", escape_token(arg.name)),
                        format!("prompt arguments are strings, found {}", describe(v)),
                    )]))
                }
            },
            None if arg.required => {
                missing.push(arg.name);
                values.push(None);
            }
            None => values.push(None),
        }
    }
    if !missing.is_empty() {
        let at = if arguments.is_some() {
            "/params/arguments"
        } else {
            "/params"
        };
        return Err(RpcError::new(
            INVALID_PARAMS,
            format!("Missing required argument: {}", missing.join(", ")),
        )
        .with_errors(missing.iter().map(|m| {
            (
                at.to_string(),
                format!("the required argument \"{m}\" is missing"),
            )
        })));
    }
    let user = |content: Json| Json::obj([("role", Json::from("user")), ("content", content)]);
    let carried = match prompt.name {
        "review-readme" => Some((
            "Review this server's readme: is anything unclear?",
            embedded_readme(),
        )),
        "describe-image" => Some((
            "What is in this image?",
            media_content("image", PNG_1X1, "image/png"),
        )),
        _ => None,
    };
    if let Some((ask, content)) = carried {
        return Ok(Json::obj([
            ("description", Json::from(prompt.description)),
            (
                "messages",
                Json::arr([user(text_content(ask)), user(content)]),
            ),
        ]));
    }
    let text = match prompt.name {
        "explain-error" => explain_error(values[0].unwrap_or_default()),
        _ => {
            let method = values[0].unwrap_or_default();
            match values.get(1).copied().flatten() {
                Some(params) => format!("Write a JSON-RPC 2.0 request that calls the method \"{method}\" with these params: {params}"),
                None => format!("Write a JSON-RPC 2.0 request that calls the method \"{method}\"."),
            }
        }
    };
    Ok(Json::obj([
        ("description", Json::from(prompt.description)),
        (
            "messages",
            Json::arr([Json::obj([
                ("role", Json::from("user")),
                ("content", text_content(text)),
            ])]),
        ),
    ]))
}

fn explain_error(code: &str) -> String {
    let known = match code.trim().parse::<i64>() {
        Ok(n) => match errors::predefined(n) {
            Some(c) => format!(" ({} in the specification: {})", c.message, c.meaning),
            None if errors::SERVER_ERRORS.contains(&n) => {
                " (a server error: the range -32099..-32000 is left to implementations)".into()
            }
            None if errors::RESERVED.contains(&n) => {
                " (reserved by the specification for future use)".into()
            }
            None => " (an application-defined code)".into(),
        },
        Err(_) => String::new(),
    };
    format!("Explain the JSON-RPC 2.0 error code {code}{known}: what does it mean, and how do I fix the request that caused it?")
}
