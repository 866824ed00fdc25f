//! The one implementation of MCP params checking: the validator turns its problems into
//! violations, the mock server into the `data` of a -32602 (Invalid params) error.

use crate::json::{escape_token, Node, Span, Value};

use super::methods::{self, Method, Param, Types};
use super::McpVersion;

/// What kind of problem it is (each maps to one catalogue rule).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ProblemKind {
    /// The method needs `params` and it is absent.
    ParamsMissing,
    /// `params` is not an object.
    NotObject,
    /// A required member is absent (the problem points at the object lacking it).
    Missing,
    /// A member has the wrong JSON type.
    WrongType,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Problem {
    pub kind: ProblemKind,
    /// JSON pointer relative to `params`.
    pub path: String,
    /// Where in the source (`None` when `params` itself is absent: the message is to blame).
    pub span: Option<Span>,
    pub message: String,
    /// The problem concerns `params._meta` (2026-07-28's per-request metadata).
    pub meta: bool,
}

/// Unescapes one RFC 6901 reference token (`~1` is `/`, `~0` is `~`, in one pass: `~01` is `~1`).
fn unescape(token: &str) -> String {
    let mut out = String::with_capacity(token.len());
    let mut chars = token.chars();
    while let Some(c) = chars.next() {
        if c != '~' {
            out.push(c);
            continue;
        }
        match chars.clone().next() {
            Some('0') => out.push('~'),
            Some('1') => out.push('/'),
            _ => {
                out.push('~');
                continue;
            }
        }
        chars.next();
    }
    out
}

/// True when `node` has one of `types` (`0`: any).
pub(crate) fn has_type(node: &Node<'_>, types: Types) -> bool {
    if types == methods::ANY {
        return true;
    }
    let bit = match &node.value {
        Value::Null => methods::NULL,
        Value::Bool(_) => methods::BOOLEAN,
        Value::String(_) => methods::STRING,
        Value::Array(_) => methods::ARRAY,
        Value::Object(_) => methods::OBJECT,
        Value::Number(_) => {
            let integral = node.as_integer_text().is_some()
                || node
                    .as_f64()
                    .is_some_and(|f| f.is_finite() && f.fract() == 0.0);
            if types & methods::NUMBER != 0 || integral && types & methods::INTEGER != 0 {
                return true;
            }
            methods::NUMBER
        }
    };
    types & bit != 0
}

/// The pointer of a params member as the message shows it (from the message root).
fn shown(relative: &str) -> String {
    format!("/params{relative}")
}

/// The required top-level members, for "params is missing" messages.
fn required_names(m: &Method) -> String {
    let names: Vec<String> = m
        .params
        .iter()
        .filter(|p| p.required && !p.path.contains('/'))
        .map(|p| format!("\"{}\"", unescape(p.path)))
        .collect();
    if names.is_empty() {
        "an object".to_string()
    } else {
        format!("an object with {}", names.join(", "))
    }
}

/// Everything wrong with `params` for `method` in `version` (nothing for unknown methods).
pub(crate) fn problems(
    method: &str,
    params: Option<&Node<'_>>,
    version: McpVersion,
) -> Vec<Problem> {
    let Some(m) = methods::lookup(method, version) else {
        return Vec::new();
    };
    let params = match params {
        None if m.params_required => {
            let only_meta = m
                .params
                .iter()
                .all(|p| !p.required || p.path.starts_with("_meta"));
            return vec![Problem {
                kind: ProblemKind::ParamsMissing,
                path: String::new(),
                span: None,
                message: format!(
                    "{method} needs \"params\": {} (MCP {version})",
                    required_names(m)
                ),
                meta: only_meta && version == McpVersion::V2026_07_28,
            }];
        }
        None => return Vec::new(),
        Some(p) => p,
    };
    if !params.is_object() {
        return vec![Problem {
            kind: ProblemKind::NotObject,
            path: String::new(),
            span: Some(params.span),
            message: format!(
                "MCP passes parameters by name: \"params\" must be an object, found {}",
                params.json_type().name()
            ),
            meta: false,
        }];
    }
    let mut out = Vec::new();
    for p in m.params {
        check_param(method, params, p, &mut out);
    }
    out
}

fn check_param(method: &str, params: &Node<'_>, p: &Param, out: &mut Vec<Problem>) {
    let tokens: Vec<String> = p.path.split('/').map(unescape).collect();
    let (last, parents) = tokens.split_last().expect("a param path has a token");
    // The object holding the member; skip when an ancestor is absent or no object (said already).
    let mut parent = params;
    let mut parent_path = String::new();
    for t in parents {
        match parent.get(t) {
            Some(n) if n.is_object() => {
                parent = n;
                parent_path.push('/');
                parent_path.push_str(&escape_token(t));
            }
            _ => return,
        }
    }
    let member_path = format!("{parent_path}/{}", escape_token(last));
    let meta = tokens[0] == "_meta";
    match parent.get(last) {
        None if p.required => out.push(Problem {
            kind: ProblemKind::Missing,
            path: parent_path.clone(),
            span: Some(parent.span),
            message: format!(
                "{} is missing \"{last}\", which {method} requires ({})",
                if parent_path.is_empty() {
                    "\"params\"".to_string()
                } else {
                    format!("\"{}\"", shown(&parent_path))
                },
                methods::types_name(p.types)
            ),
            meta,
        }),
        None => {}
        Some(node) if !has_type(node, p.types) => out.push(Problem {
            kind: ProblemKind::WrongType,
            path: member_path.clone(),
            span: Some(node.span),
            message: format!(
                "\"{}\" must be {}, found {}",
                shown(&member_path),
                methods::types_name(p.types),
                node.json_type().name()
            ),
            meta,
        }),
        Some(_) => {}
    }
}

#[cfg(test)]
mod tests {
    use super::unescape;

    #[test]
    fn reference_tokens_unescape_as_rfc_6901_says() {
        for (token, key) in [
            ("a", "a"),
            ("a~1b", "a/b"),
            ("m~0n", "m~n"),
            ("~01", "~1"),
            ("~10", "/0"),
            ("~~1", "~/"),
            ("~", "~"),
            ("x~", "x~"),
            ("~2", "~2"),
            ("é~1ü", "é/ü"),
            ("", ""),
        ] {
            assert_eq!(unescape(token), key, "{token}");
        }
    }
}
