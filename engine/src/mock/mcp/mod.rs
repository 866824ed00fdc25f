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
//!
//! One module per MCP area: [`version`] (which era a request is answered in, 2026-07-28's result
//! shape), [`lifecycle`], [`logging`], [`tools`] (with [`questions`], what the tools that ask the
//! client send), [`resources`] (with [`notes`], the resource that changes), [`prompts`],
//! [`completion`]. This module dispatches, to the conformance suite's catalogue
//! (`super::conformance`) when the server serves it. What both catalogues build on lies a level
//! down: `super::content` (content blocks), `super::params` (params read, not-found errors) and
//! `super::ask` (requests to the client).

mod completion;
mod lifecycle;
mod logging;
mod notes;
mod prompts;
mod questions;
mod resources;
mod tools;
mod version;

use crate::json::{Json, Node};
use crate::rpc::errors;
use crate::rpc::mcp::param_problems;

#[cfg(feature = "conformance")]
use super::conformance;
use super::{describe, Fixtures, MockServer, Num, Outcome, RpcError};

pub use lifecycle::SERVER_NAME;
pub(super) use version::in_modern_envelope;
pub use version::SUPPORTED_VERSIONS;

use completion::complete;
use lifecycle::{discover, initialize};
use logging::set_level;
use notes::note_resources;
use prompts::{prompts_get, PROMPTS};
use resources::{error_code_template, resources_read, subscribe, RESOURCES};
use tools::{tools_call, TOOLS};
use version::{
    envelope, modern_shape, requested_handshake, unsupported_version, Era, LATEST_HANDSHAKE, MODERN,
};

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
