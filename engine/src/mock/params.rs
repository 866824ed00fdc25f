//! What every catalogue's methods need of a request's params: a string member they read, the
//! errors for a name or URI the server does not have.

use crate::json::{escape_token, quote, Json, Node};
use crate::rpc::errors::INVALID_PARAMS;

use super::{describe, RpcError};

/// MCP's "Resource not found".
pub const RESOURCE_NOT_FOUND: i64 = -32002;

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

/// -32002 Resource not found, naming `uri` in `data`.
pub(super) fn resource_not_found(uri: &str) -> RpcError {
    RpcError {
        code: RESOURCE_NOT_FOUND,
        message: "Resource not found".into(),
        data: Some(Json::obj([("uri", Json::from(uri))])),
    }
}

/// A tool argument mirrored into an HTTP header (2026-07-28, SEP-2243): the tool's `inputSchema`
/// marks the property with `"x-mcp-header": header`, and the header is `Mcp-Param-{header}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct HeaderParam {
    pub(super) argument: &'static str,
    pub(super) header: &'static str,
}
