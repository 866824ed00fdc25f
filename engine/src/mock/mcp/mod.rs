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
//! client send), [`resources`] (with [`notes`], the resource that changes, and [`listen`],
//! 2026-07-28's `subscriptions/listen`), [`prompts`], [`completion`]. The Tasks extension's
//! methods (`tasks/get`, `tasks/update`, `tasks/cancel`) are `super::tasks`'s, shared with the
//! conformance catalogue whose tools make tasks. This module dispatches, to the conformance suite's catalogue
//! (`super::conformance`) when the server serves it. What both catalogues build on lies a level
//! down: `super::content` (content blocks), `super::params` (params read, not-found errors) and
//! `super::ask` (requests to the client).

mod completion;
mod era;
mod headers;
mod lifecycle;
mod listen;
mod logging;
mod notes;
mod prompts;
mod questions;
mod resources;
mod tools;
mod version;

use crate::json::{Json, Node};
use crate::rpc::errors;
use crate::rpc::mcp::{methods, param_problems};

#[cfg(feature = "conformance")]
use super::conformance;
use super::params::{HeaderParam, RESOURCE_NOT_FOUND};
#[cfg(feature = "tasks")]
use super::tasks;
use super::{describe, Fixtures, MockServer, Num, Outcome, RpcError};

pub use headers::{HttpHeaders, HEADER_MISMATCH};
pub use lifecycle::SERVER_NAME;
pub use listen::MAX_LISTENS;
pub(super) use listen::{cancelled as listen_cancelled, Listen};
pub(super) use version::{in_modern_envelope, RequestMeta};
pub use version::{SUPPORTED_VERSIONS, UNSUPPORTED_PROTOCOL_VERSION};

use completion::complete;
use lifecycle::{discover, initialize};
use logging::set_level;
use notes::note_resources;
use prompts::{prompts_get, PROMPTS};
use resources::{error_code_template, resources_read, subscribe, RESOURCES};
use tools::{tools_call, TOOLS};
use version::{envelope_complete, era, modern_shape, Era};

/// MCP 2026-07-28's "Missing required client capability": the request needs a capability the
/// client did not declare in its `_meta`.
pub const MISSING_REQUIRED_CLIENT_CAPABILITY: i64 = -32021;

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
        "subscriptions/listen",
    ];
    let era = match era(server, method, params) {
        Ok(era) => era,
        Err(refused) => {
            server.reply_status = Some(400);
            return Some(Err(refused));
        }
    };
    if !era.modern {
        return METHODS
            .contains(&method)
            .then(|| serve(server, method, params, era));
    }
    // A 2026-07-28 request: what its `_meta` says counts for it alone, and over HTTP what it is
    // refused for has its status (400 for what is wrong with the request, 404 for a method the
    // revision does not have: initialize, ping, logging/setLevel, resources/subscribe … or any
    // other we do not serve).
    server.request = RequestMeta::of(params);
    let outcome = if let Some(outcome) = tasks_method(server, method, params) {
        outcome
    } else if METHODS.contains(&method) && methods::lookup(method, era.version).is_some() {
        serve(server, method, params, era)
    } else {
        Err(RpcError::new(errors::METHOD_NOT_FOUND, "Method not found"))
    };
    if let Err(error) = &outcome {
        let envelope_broken = error.code == errors::INVALID_PARAMS && !envelope_complete(params);
        server.reply_status = match error.code {
            errors::METHOD_NOT_FOUND => Some(404),
            HEADER_MISMATCH | MISSING_REQUIRED_CLIENT_CAPABILITY | UNSUPPORTED_PROTOCOL_VERSION => {
                Some(400)
            }
            _ if envelope_broken => Some(400),
            _ => None,
        };
    }
    Some(outcome)
}

/// The outcome of a method of the Tasks extension (not in the revision's own schema); `None` for
/// another method.
#[cfg(feature = "tasks")]
fn tasks_method(server: &MockServer, method: &str, params: Option<&Node<'_>>) -> Option<Outcome> {
    if !tasks::METHODS.contains(&method) {
        return None;
    }
    Some(if envelope_complete(params) {
        tasks::serve(server, method, params).map(|result| modern_shape(method, result))
    } else {
        Err(RpcError::invalid_params([(
            "/params/_meta",
            "a 2026-07-28 request carries io.modelcontextprotocol/protocolVersion and io.modelcontextprotocol/clientCapabilities in params._meta",
        )]))
    })
}

/// Without the `tasks` feature the extension's methods are unknown like any other.
#[cfg(not(feature = "tasks"))]
fn tasks_method(_: &MockServer, _: &str, _: Option<&Node<'_>>) -> Option<Outcome> {
    None
}

fn serve(server: &mut MockServer, method: &str, params: Option<&Node<'_>>, era: Era) -> Outcome {
    let problems = param_problems(method, params, era.version);
    if !problems.is_empty() {
        return Err(RpcError::invalid_params(
            problems
                .into_iter()
                .map(|p| (format!("/params{}", p.path), p.message)),
        ));
    }
    // The conformance suite's catalogue (same lifecycle, other tools, resources, prompts).
    if let Some(outcome) = conformance_answer(server, method, params) {
        let result = outcome.map_err(|e| not_found_shape(e, era))?;
        return Ok(if era.modern {
            modern_shape(method, result)
        } else {
            result
        });
    }
    let result = match method {
        "initialize" => initialize(server, params, era.version),
        "ping" => Ok(Json::Object(Vec::new())),
        "server/discover" => Ok(discover(server.fixtures, server.serves_tasks())),
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
        "resources/read" => resources_read(server, params).map_err(|e| not_found_shape(e, era)),
        "subscriptions/listen" if era.modern => listen::listen(server, params),
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

/// A missing resource under 2026-07-28: -32602 Invalid params, still naming the URI in `data`
/// (SEP-2164; the handshake versions' -32002 otherwise).
fn not_found_shape(error: RpcError, era: Era) -> RpcError {
    if era.modern && error.code == RESOURCE_NOT_FOUND {
        RpcError {
            code: errors::INVALID_PARAMS,
            ..error
        }
    } else {
        error
    }
}

/// The arguments tool `name` mirrors into `Mcp-Param-*` headers (SEP-2243): the conformance
/// catalogue's header tool's; none of the friendly tools does.
fn header_params(server: &MockServer, name: &str) -> &'static [HeaderParam] {
    #[cfg(feature = "conformance")]
    if server.fixtures == Fixtures::Conformance {
        return conformance::header_params(name);
    }
    let _ = (server, name);
    &[]
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
