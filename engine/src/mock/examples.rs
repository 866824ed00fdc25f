//! The methods of the JSON-RPC 2.0 specification's examples (§7,
//! <https://www.jsonrpc.org/specification#examples>): `subtract`, `sum`, `get_data`, and the
//! notifications `update`, `notify_hello`, `notify_sum`.

use crate::json::{quote, Json, Node, Value};

use super::{describe, Num, Outcome, RpcError};

/// The outcome of `method` if it is one of the examples' methods.
pub(super) fn call(method: &str, params: Option<&Node<'_>>) -> Option<Outcome> {
    Some(match method {
        "subtract" => subtract(params),
        "sum" => sum(params),
        "get_data" => get_data(params),
        // The specification only ever sends these as notifications; called with an id they
        // acknowledge with null.
        "update" | "notify_hello" | "notify_sum" => Ok(Json::Null),
        _ => return None,
    })
}

const SUBTRACT_USAGE: &str =
    "subtract takes two numbers: [minuend, subtrahend] or {\"minuend\": …, \"subtrahend\": …}";

/// `subtract`: by position `[minuend, subtrahend]` or by name.
fn subtract(params: Option<&Node<'_>>) -> Outcome {
    let Some(params) = params else {
        return Err(RpcError::invalid_params([(
            "/params",
            format!("\"params\" is missing; {SUBTRACT_USAGE}"),
        )]));
    };
    let mut errors: Vec<(String, String)> = Vec::new();
    let (minuend, subtrahend) = match &params.value {
        Value::Array(items) => {
            if items.len() != 2 {
                errors.push((
                    "/params".into(),
                    format!(
                        "expected 2 numbers (minuend, subtrahend), found {} value(s)",
                        items.len()
                    ),
                ));
            }
            let mut number = |i: usize, role: &str| {
                let node = items.get(i)?;
                let n = Num::of(node);
                if n.is_none() {
                    errors.push((
                        format!("/params/{i}"),
                        format!("the {role} must be a number, found {}", describe(node)),
                    ));
                }
                n
            };
            (number(0, "minuend"), number(1, "subtrahend"))
        }
        Value::Object(members) => {
            for m in members {
                if m.key != "minuend" && m.key != "subtrahend" {
                    errors.push((
                        format!("/params/{}", crate::json::escape_token(&m.key)),
                        format!("unknown parameter {}; {SUBTRACT_USAGE}", quote(&m.key)),
                    ));
                }
            }
            let mut number = |name: &str| match params.get(name) {
                None => {
                    errors.push((
                        "/params".into(),
                        format!("the parameter \"{name}\" is missing"),
                    ));
                    None
                }
                Some(node) => {
                    let n = Num::of(node);
                    if n.is_none() {
                        errors.push((
                            format!("/params/{name}"),
                            format!("\"{name}\" must be a number, found {}", describe(node)),
                        ));
                    }
                    n
                }
            };
            (number("minuend"), number("subtrahend"))
        }
        _ => (None, None),
    };
    match (minuend, subtrahend) {
        (Some(a), Some(b)) if errors.is_empty() => finite(a.sub(b)),
        _ => Err(RpcError::invalid_params(errors)),
    }
}

/// `sum`: the numbers of an array, added.
fn sum(params: Option<&Node<'_>>) -> Outcome {
    let items = match params {
        None => &[][..],
        Some(node) => match node.as_array() {
            Some(items) => items,
            None => {
                return Err(RpcError::invalid_params([(
                    "/params",
                    "sum takes its numbers by position, as an array: [1, 2, 4]",
                )]));
            }
        },
    };
    let mut total = Num::Int(0);
    let mut errors = Vec::new();
    for (i, item) in items.iter().enumerate() {
        match Num::of(item) {
            Some(n) => total = total.add(n),
            None => errors.push((
                format!("/params/{i}"),
                format!("every element must be a number, found {}", describe(item)),
            )),
        }
    }
    if errors.is_empty() {
        finite(total)
    } else {
        Err(RpcError::invalid_params(errors))
    }
}

/// `get_data`: the fixed `["hello", 5]`.
fn get_data(params: Option<&Node<'_>>) -> Outcome {
    let empty = params.is_none_or(|p| {
        p.as_array().is_some_and(<[_]>::is_empty) || (p.is_object() && p.members().is_empty())
    });
    if !empty {
        return Err(RpcError::invalid_params([(
            "/params",
            "get_data takes no parameters (leave \"params\" out)",
        )]));
    }
    Ok(Json::arr([Json::from("hello"), Json::from(5i64)]))
}

fn finite(n: Num) -> Outcome {
    n.to_json().ok_or_else(|| {
        RpcError::invalid_params([(
            "/params",
            "the result is not a finite number (the numbers are too large)",
        )])
    })
}
