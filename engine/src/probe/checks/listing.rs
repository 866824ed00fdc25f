//! What the feature checks ([`super::lifecycle`], [`super::mcp`], [`super::tools`]) share, below
//! all of them: a list followed page by page, the members a result must hold (the generated
//! method table), the words for each check. None of them is needed here.

use serde_json::{json, Value};

use super::{Record, Runner, Server, Status};
use crate::probe::conversation::Exchange;
use crate::probe::link::{excerpt, LinkError, ProbeLink};
use crate::probe::rules::{RESULT_MEMBER_MISSING, RESULT_MEMBER_TYPE};
use crate::rpc::mcp::methods;
use crate::rpc::McpVersion;

pub const PAGINATION: &str =
    "https://modelcontextprotocol.io/specification/2025-11-25/server/utilities/pagination";

/// Pages of one list followed before giving up.
const MAX_PAGES: usize = 50;

/// The reply to `method` holds what its result schema says in `version` (the generated method
/// table): every required member, each member of the JSON type the schema gives it, a few levels
/// deep and in each item of a listed array (`tools/*/name`).
pub fn result_members(record: &mut Record, exchange: &Exchange, method: &str, version: McpVersion) {
    let Some(result) = exchange.result() else {
        return;
    };
    let Some(row) = methods::lookup(method, version) else {
        return;
    };
    let at = super::blame(exchange);
    let mut found = Vec::new();
    for member in row.result {
        let tokens: Vec<String> = member.path.split('/').map(unescape).collect();
        check_member(result, "/result", &tokens, member, &mut found);
    }
    for (missing, path, said) in found {
        let rule = if missing {
            &RESULT_MEMBER_MISSING
        } else {
            &RESULT_MEMBER_TYPE
        };
        record.find(
            at,
            rule,
            &path,
            format!("the {method} result: {said} (MCP {version})"),
        );
    }
    let cached = if version >= McpVersion::V2026_07_28 {
        caching_fields(result)
    } else {
        Vec::new()
    };
    for (path, said) in cached {
        record.find(
            at,
            &RESULT_MEMBER_TYPE,
            path,
            format!("the {method} result: {said} (MCP {version} caching)"),
        );
    }
}

/// What is wrong with the caching fields of a result, when it has them (2026-07-28 requires them
/// on list and read results, which the method table checks): `ttlMs` is a whole number of
/// milliseconds, zero or more, and `cacheScope` is "public" or "private".
/// <https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/caching>
fn caching_fields(result: &Value) -> Vec<(&'static str, String)> {
    let mut wrong = Vec::new();
    if let Some(ttl) = result.get("ttlMs") {
        let whole = ttl.as_u64().is_some()
            || ttl
                .as_f64()
                .is_some_and(|f| f >= 0.0 && f.fract() == 0.0 && f.is_finite());
        if ttl.is_number() && !whole {
            wrong.push((
                "/result/ttlMs",
                format!("ttlMs must be a whole number of milliseconds, zero or more: found {ttl}"),
            ));
        }
    }
    if let Some(Value::String(scope)) = result.get("cacheScope") {
        if scope != "public" && scope != "private" {
            wrong.push((
                "/result/cacheScope",
                format!(
                    "cacheScope must be \"public\" or \"private\": found {:?}",
                    excerpt(scope, 40)
                ),
            ));
        }
    }
    wrong
}

/// One member of the result schema (`tokens` from `value`, at `pointer`): whether it is missing
/// or of another type, with where and what. An absent parent was said already (or is optional).
fn check_member(
    value: &Value,
    pointer: &str,
    tokens: &[String],
    member: &methods::Param,
    found: &mut Vec<(bool, String, String)>,
) {
    let Some((first, rest)) = tokens.split_first() else {
        return;
    };
    if first == "*" {
        for (i, item) in value.as_array().into_iter().flatten().enumerate() {
            check_member(item, &format!("{pointer}/{i}"), rest, member, found);
        }
        return;
    }
    let Some(object) = value.as_object() else {
        return;
    };
    let here = format!("{pointer}/{}", first.replace('~', "~0").replace('/', "~1"));
    match object.get(first) {
        None if rest.is_empty() && member.required => found.push((
            true,
            pointer.to_string(),
            format!(
                "{pointer} has no {first:?} ({})",
                methods::types_name(member.types)
            ),
        )),
        None => {}
        Some(v) if rest.is_empty() && !has_type(v, member.types) => found.push((
            false,
            here.clone(),
            format!(
                "{here} must be {}, found {}",
                methods::types_name(member.types),
                type_name(v)
            ),
        )),
        Some(_) if rest.is_empty() => {}
        Some(v) => check_member(v, &here, rest, member, found),
    }
}

/// A pointer token as written in the table (`~1` for `/`, `~0` for `~`).
fn unescape(token: &str) -> String {
    token.replace("~1", "/").replace("~0", "~")
}

/// Whether `v` is of one of `types` (`ANY`: whatever it is).
fn has_type(v: &Value, types: methods::Types) -> bool {
    types == methods::ANY
        || types
            & match v {
                Value::String(_) => methods::STRING,
                Value::Number(n)
                    if n.is_i64() || n.is_u64() || n.as_f64().is_some_and(|f| f.fract() == 0.0) =>
                {
                    methods::INTEGER | methods::NUMBER
                }
                Value::Number(_) => methods::NUMBER,
                Value::Bool(_) => methods::BOOLEAN,
                Value::Object(_) => methods::OBJECT,
                Value::Array(_) => methods::ARRAY,
                Value::Null => methods::NULL,
            }
            != 0
}

fn type_name(v: &Value) -> &'static str {
    match v {
        Value::String(_) => "a string",
        Value::Number(_) => "a number",
        Value::Bool(_) => "a boolean",
        Value::Object(_) => "an object",
        Value::Array(_) => "an array",
        Value::Null => "null",
    }
}

/// Notes the error when `exchange` did not succeed (the engine reports an unanswered request).
pub fn expect_result(record: &mut Record, exchange: &Exchange, method: &str) -> bool {
    if exchange.result().is_some() {
        return true;
    }
    match exchange.error_code() {
        Some(code) => {
            let message = exchange
                .value()
                .and_then(|v| v.pointer("/error/message"))
                .and_then(Value::as_str)
                .unwrap_or("");
            record.note(format!(
                "{method} answered with error {code} {:?}",
                excerpt(message, 80)
            ));
            record.current().status = Status::Fail;
        }
        // The engine reports the unanswered request (request-unanswered).
        None if exchange.reply.is_none() => {
            record.note(format!("no reply to {method} within the timeout"))
        }
        None => record.note(format!("{method} answered without a result")),
    }
    false
}

/// `method` page by page (following `nextCursor`); the items of member `items`.
pub async fn list<L: ProbeLink>(
    runner: &mut Runner<'_, L>,
    server: &Server,
    method: &str,
    items: &str,
) -> Result<Vec<Value>, LinkError> {
    Ok(list_located(runner, server, method, items)
        .await?
        .into_iter()
        .map(|item| item.value)
        .collect())
}

/// A listed item and where it was: the entry of the reply that listed it, and its JSON pointer
/// there.
pub struct Listed {
    pub value: Value,
    pub entry: usize,
    pub pointer: String,
}

/// [`list`], each item with where it was listed.
pub async fn list_located<L: ProbeLink>(
    runner: &mut Runner<'_, L>,
    server: &Server,
    method: &str,
    items: &str,
) -> Result<Vec<Listed>, LinkError> {
    let mut all = Vec::new();
    let mut cursor: Option<Value> = None;
    let mut seen = Vec::new();
    for page in 0..MAX_PAGES {
        let params = match &cursor {
            Some(c) => json!({"cursor": c}),
            None => json!({}),
        };
        let exchange = runner.conversation.request(method, params).await?;
        if !expect_result(runner, &exchange, method) {
            break;
        }
        result_members(runner, &exchange, method, server.version);
        let result = exchange.result().cloned().unwrap_or(Value::Null);
        if let Some(found) = result.get(items).and_then(Value::as_array) {
            item_members(runner, &exchange, items, found);
            let entry = super::blame(&exchange);
            all.extend(found.iter().enumerate().map(|(i, value)| Listed {
                value: value.clone(),
                entry,
                pointer: format!("/result/{items}/{i}"),
            }));
        }
        match result.get("nextCursor") {
            Some(next) if !next.is_null() => {
                if seen.contains(next) {
                    runner.note(format!("page {} repeats a cursor: stopped", page + 1));
                    break;
                }
                seen.push(next.clone());
                cursor = Some(next.clone());
            }
            _ => break,
        }
    }
    if !seen.is_empty() {
        runner.note(format!("{} pages", seen.len() + 1));
    }
    Ok(all)
}

/// Each listed item (a tool, resource, template or prompt) has the members the schema requires of
/// it, a tool's inputSchema being an object schema.
/// What the result schema cannot say of a listed item: a tool's inputSchema is an object schema.
/// (Each item's members and their types are [`result_members`]'.)
fn item_members(record: &mut Record, exchange: &Exchange, items: &str, found: &[Value]) {
    let at = super::blame(exchange);
    for (i, item) in found.iter().enumerate() {
        let path = format!("/result/{items}/{i}");
        if !item.is_object() {
            record.find(
                at,
                &RESULT_MEMBER_TYPE,
                &path,
                format!("{items}[{i}] is not an object"),
            );
            continue;
        }
        if let Some(schema) = item.get("inputSchema") {
            if schema.get("type").and_then(Value::as_str) != Some("object") {
                record.find(at, &RESULT_MEMBER_MISSING, &format!("{path}/inputSchema"), format!("the inputSchema of {items}[{i}] is not an object schema (\"type\": \"object\")"));
            }
        }
    }
}

/// "1 tool", "3 tools".
pub fn count(n: usize, what: &str) -> String {
    format!("{n} {what}{}", if n == 1 { "" } else { "s" })
}

/// What each feature check does, in words: one place for running it and for skipping it.
pub fn title(id: &str) -> &'static str {
    match id {
        "tools/list" => "tools/list, every page",
        "tools/call" => "each tool called with arguments made from its inputSchema; every result has content blocks of known types",
        "tools/call-invalid-arguments" => "a call with arguments that break the inputSchema is refused (-32602 or an isError result)",
        "resources/list" => "resources/list, every page",
        "resources/read" => "each listed resource (up to --max-calls) is read",
        "resources/subscribe" => "resources/subscribe and resources/unsubscribe of a listed resource are answered",
        "subscriptions/listen" => "subscriptions/listen for a listed resource is acknowledged (notifications/subscriptions/acknowledged naming the request), then cancelled",
        "resources/templates/list" => "resources/templates/list, every page",
        "prompts/list" => "prompts/list, every page",
        "prompts/get" => "each listed prompt (up to --max-calls) is got with its required arguments",
        "completion/complete" => "completion/complete for a prompt's argument (or a template's variable)",
        "logging/setLevel" => "logging/setLevel is answered with an empty result",
        "ping" => "ping is answered with an empty result",
        _ => "",
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::caching_fields;

    #[test]
    fn caching_fields_need_a_whole_non_negative_ttl_and_a_known_scope() {
        assert!(caching_fields(&json!({"ttlMs": 0, "cacheScope": "private"})).is_empty());
        assert!(caching_fields(&json!({"ttlMs": 60000, "cacheScope": "public"})).is_empty());
        // Absent or of another type: the method table's findings, not these.
        assert!(caching_fields(&json!({"ttlMs": "1", "cacheScope": 3})).is_empty());
        let wrong = caching_fields(&json!({"ttlMs": -1, "cacheScope": "shared"}));
        let paths: Vec<&str> = wrong.iter().map(|(p, _)| *p).collect();
        assert_eq!(paths, ["/result/ttlMs", "/result/cacheScope"]);
        assert!(
            wrong[1].1.contains("\"public\" or \"private\""),
            "{wrong:?}"
        );
        assert_eq!(caching_fields(&json!({"ttlMs": 1.5})).len(), 1);
    }
}
