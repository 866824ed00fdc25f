//! The lifecycle: `initialize` (the handshake versions) and `server/discover` (2026-07-28), with
//! the server's identity, instructions and capabilities.

use crate::json::{Json, Node};
use crate::rpc::McpVersion;

use super::super::ask::ClientCapabilities;
use super::era::{is_handshake, MODERN};
use super::{Fixtures, MockServer, Outcome};

/// `serverInfo.name`.
pub const SERVER_NAME: &str = "jrpc-mock";

pub(super) const INSTRUCTIONS: &str = "A mock MCP server from jsonrpc-playground. Tools: add and divide (two numbers a, b), echo (text), \
add_structured (a, b; structured content), countdown (n; log lines and progress while it runs), add_note (text; changes mock://notes), summarize (text; asks the client's model), ask_name (asks the user) and list_roots (asks the client's roots), and one per content type: show_image, play_sound, embed_readme, link_resources, mixed_content. \
Resources: mock://readme, mock://error-codes, mock://logo.png (binary), mock://notes (subscribe to it) and each note added (mock://notes/1, …: the list changes). \
Prompts: explain-error (code), write-request (method, params), review-readme (an embedded resource) and describe-image (an image).";

pub(super) fn server_info(version: McpVersion) -> Json {
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
/// resource subscriptions where `resources/subscribe` exists (the handshake versions); the Tasks
/// extension under 2026-07-28 when `tasks` (the server keeps tasks) and the catalogue has tools
/// that make them (the conformance suite's).
pub(super) fn capabilities(version: McpVersion, fixtures: Fixtures, tasks: bool) -> Json {
    let empty = || Json::Object(Vec::new());
    let resources = if is_handshake(version) {
        let mut resources = vec![("subscribe", Json::Bool(true))];
        // The friendly set's list changes (add_note adds a resource); the conformance set's not.
        if fixtures == Fixtures::Friendly {
            resources.push(("listChanged", Json::Bool(true)));
        }
        Json::obj(resources)
    } else {
        // subscriptions/listen's resourceSubscriptions (its lists do not change under 2026-07-28).
        Json::obj([("subscribe", Json::Bool(true))])
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
    if tasks && !is_handshake(version) && fixtures == Fixtures::Conformance {
        caps.push((
            "extensions",
            Json::obj([(super::super::TASKS_EXTENSION, empty())]),
        ));
    }
    Json::obj(caps)
}

pub(super) fn initialize(
    server: &mut MockServer,
    params: Option<&Node<'_>>,
    version: McpVersion,
) -> Outcome {
    server.negotiated = Some(version);
    server.initialized = false;
    server.client_can = ClientCapabilities::declared_in(params);
    Ok(Json::obj([
        ("protocolVersion", Json::from(version.as_str())),
        (
            "capabilities",
            capabilities(version, server.fixtures, false),
        ),
        ("serverInfo", server_info(version)),
        ("instructions", Json::from(INSTRUCTIONS)),
    ]))
}

/// `server/discover` (2026-07-28): the versions reachable with the per-request envelope.
pub(super) fn discover(fixtures: Fixtures, tasks: bool) -> Json {
    Json::obj([
        (
            "supportedVersions",
            Json::arr(MODERN.iter().map(|v| Json::from(v.as_str()))),
        ),
        ("capabilities", capabilities(MODERN[0], fixtures, tasks)),
        ("instructions", Json::from(INSTRUCTIONS)),
    ])
}
