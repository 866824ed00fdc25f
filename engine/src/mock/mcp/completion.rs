//! `completion/complete`: argument values for the friendly prompts and the resource template.

use crate::json::{Json, Node};

use super::super::content::completion;
use super::resources::{error_code_values, ERROR_CODE_TEMPLATE};
use super::{Outcome, RpcError};

/// `completion/complete`: values for a prompt's argument, or for the `{code}` of the resource
/// template, that start with what was typed (any other resource reference completes to nothing).
pub(super) fn complete(params: Option<&Node<'_>>) -> Outcome {
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
