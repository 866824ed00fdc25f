//! MCP: only what the server declared (tools in [`super::tools`]): resources, prompts,
//! completion, logging, ping; and that what it did not declare it does not serve.

use serde_json::{json, Value};

use super::listing::{count, expect_result, list, result_members, title, PAGINATION};
use super::{Plan, Runner, Server, Status};
use crate::probe::conversation::{ACKNOWLEDGED, MAX_INPUT_ROUNDS};
use crate::probe::link::{LinkError, ProbeLink};
use crate::probe::rules::{CAPABILITY_UNDECLARED, HEADER_MISMATCH_ACCEPTED, RESULT_MEMBER_MISSING};
use crate::rpc::mcp::methods;
use crate::rpc::McpVersion;

const RESOURCES: &str = "https://modelcontextprotocol.io/specification/2025-11-25/server/resources";
const PROMPTS: &str = "https://modelcontextprotocol.io/specification/2025-11-25/server/prompts";
const COMPLETION: &str =
    "https://modelcontextprotocol.io/specification/2025-11-25/server/utilities/completion";
const LOGGING: &str =
    "https://modelcontextprotocol.io/specification/2025-11-25/server/utilities/logging";
const PING: &str = "https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/ping";
/// Every feature the server declared, and a look at those it did not.
pub async fn features<L: ProbeLink>(
    runner: &mut Runner<'_, L>,
    plan: &Plan,
    server: &Server,
) -> Result<(), LinkError> {
    if !skipped_in_version(runner, "ping", PING, server.version) {
        runner.begin("ping", title("ping"), PING);
        let pong = runner.conversation.request("ping", Value::Null).await?;
        expect_result(runner, &pong, "ping");
    }

    super::tools::tools(runner, plan, server).await?;
    resources(runner, plan, server).await?;
    prompts(runner, plan, server).await?;
    completion(runner, server).await?;
    logging(runner, server).await?;
    undeclared(runner, server).await?;
    input_required(runner, server);
    header_mismatch(runner, server).await
}

const HEADER_VALIDATION: &str = "https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http#server-validation";

/// Over Streamable HTTP under 2026-07-28: `tools/list` (or `server/discover`, without tools) sent
/// with an `Mcp-Method` header naming another method is refused (HTTP 400, -32020). Checked only
/// where the link sends headers and the revision has them: elsewhere it is not listed.
async fn header_mismatch<L: ProbeLink>(
    runner: &mut Runner<'_, L>,
    server: &Server,
) -> Result<(), LinkError> {
    if server.version < McpVersion::V2026_07_28
        || !runner.conversation.link().mismatch_next_method()
    {
        return Ok(());
    }
    let method = if server.declares("tools") {
        "tools/list"
    } else {
        "server/discover"
    };
    let claimed = crate::probe::link::mismatched_method(method);
    runner.begin(
        "http/header-mismatch",
        format!("{method} sent with Mcp-Method: {claimed} is refused (HTTP 400, -32020)"),
        HEADER_VALIDATION,
    );
    let exchange = runner.conversation.request(method, json!({})).await?;
    let status = exchange.delivery.http_status;
    let code = exchange.error_code();
    if status == Some(400) || code == Some(-32020) {
        let code = code.map_or(String::new(), |c| format!(", error {c}"));
        runner.note(format!("refused: HTTP {}{code}", status.unwrap_or(0)));
    } else if exchange.reply.is_some() {
        let at = super::blame(&exchange);
        runner.find(
            at,
            &HEADER_MISMATCH_ACCEPTED,
            "",
            format!(
                "{method} with the header Mcp-Method: {claimed} was served (HTTP {})",
                status.unwrap_or(0)
            ),
        );
    } else {
        runner.note("no reply within the timeout");
    }
    Ok(())
}

const INPUT_REQUIRED: &str =
    "https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr";

/// The input-required round trips of the run so far (2026-07-28), and the server's own requests
/// answered (earlier revisions): every request asked for input got a final result within
/// [`MAX_INPUT_ROUNDS`] rounds. Its messages are the checks' that made them.
fn input_required<L: ProbeLink>(runner: &mut Runner<'_, L>, server: &Server) {
    let trips = runner.conversation.round_trips.clone();
    let answered = runner.conversation.server_requests_answered;
    let id = "mcp/input-required";
    let title = format!("input-required results answered as a cooperative client (sampling, elicitation with the schema's defaults, roots) and the request retried with inputResponses and the unchanged requestState, at most {MAX_INPUT_ROUNDS} rounds");
    if trips.is_empty() {
        let why = if server.version >= McpVersion::V2026_07_28 {
            "no request was answered with an input-required result".to_string()
        } else {
            format!("{} has no input-required results; {answered} server requests answered as a cooperative client", server.version)
        };
        runner.skip(id, title, INPUT_REQUIRED, why);
        return;
    }
    runner.begin(id, title, INPUT_REQUIRED);
    let at = runner.conversation.entries.len();
    runner.current().entries = at..at;
    for trip in &trips {
        let asked = if trip.asked.is_empty() {
            "nothing answered".to_string()
        } else {
            trip.asked.join(", ")
        };
        let rounds = count(trip.rounds, "round");
        match &trip.gave_up {
            None => runner.note(format!(
                "{}: {rounds} ({asked}), then a final result",
                trip.request
            )),
            Some(why) => {
                runner.note(format!(
                    "{}: {rounds} ({asked}), given up: {why}",
                    trip.request
                ));
                runner.current().status = Status::Fail;
            }
        }
    }
    let dropped = runner.conversation.round_trips_dropped;
    if dropped > 0 {
        runner.note(format!("{dropped} more requests not listed"));
    }
}

/// Skips the check of `method` (its id) when `version` has no such method (2026-07-28 removed
/// ping and logging/setLevel), naming the version; whether it was skipped.
fn skipped_in_version<L: ProbeLink>(
    runner: &mut Runner<'_, L>,
    method: &'static str,
    spec: &'static str,
    version: McpVersion,
) -> bool {
    if methods::lookup(method, version).is_some() {
        return false;
    }
    runner.skip(
        method,
        title(method),
        spec,
        format!("{version} has no {method}"),
    );
    true
}

async fn resources<L: ProbeLink>(
    runner: &mut Runner<'_, L>,
    plan: &Plan,
    server: &Server,
) -> Result<(), LinkError> {
    if !server.declares("resources") {
        let subscribe = if server.version >= McpVersion::V2026_07_28 {
            "subscriptions/listen"
        } else {
            "resources/subscribe"
        };
        for id in [
            "resources/list",
            "resources/read",
            subscribe,
            "resources/templates/list",
        ] {
            runner.skip(
                id,
                title(id),
                RESOURCES,
                "not declared (no resources capability): skipped",
            );
        }
        return Ok(());
    }
    runner.begin("resources/list", title("resources/list"), PAGINATION);
    let listed = list(runner, server, "resources/list", "resources").await?;
    runner.note(count(listed.len(), "resource"));

    runner.begin("resources/read", title("resources/read"), RESOURCES);
    let uris: Vec<String> = listed
        .iter()
        .filter_map(|r| r.get("uri").and_then(Value::as_str))
        .take(plan.max_calls)
        .map(str::to_string)
        .collect();
    if uris.is_empty() {
        let check = runner.current();
        check.status = Status::Skipped;
        check.detail = "no resources listed".into();
    }
    for uri in uris {
        let exchange = runner
            .conversation
            .request("resources/read", json!({"uri": uri}))
            .await?;
        if expect_result(runner, &exchange, "resources/read") {
            result_members(runner, &exchange, "resources/read", server.version);
        }
    }

    if server.version >= McpVersion::V2026_07_28 {
        listen(runner, server, listed.first()).await?;
    } else {
        subscribe(runner, server, listed.first()).await?;
    }

    runner.begin(
        "resources/templates/list",
        title("resources/templates/list"),
        PAGINATION,
    );
    let templates = list(
        runner,
        server,
        "resources/templates/list",
        "resourceTemplates",
    )
    .await?;
    runner.note(count(templates.len(), "template"));
    Ok(())
}

async fn prompts<L: ProbeLink>(
    runner: &mut Runner<'_, L>,
    plan: &Plan,
    server: &Server,
) -> Result<(), LinkError> {
    if !server.declares("prompts") {
        for id in ["prompts/list", "prompts/get"] {
            runner.skip(
                id,
                title(id),
                PROMPTS,
                "not declared (no prompts capability): skipped",
            );
        }
        return Ok(());
    }
    runner.begin("prompts/list", title("prompts/list"), PAGINATION);
    let listed = list(runner, server, "prompts/list", "prompts").await?;
    runner.note(count(listed.len(), "prompt"));
    runner.begin("prompts/get", title("prompts/get"), PROMPTS);
    if listed.is_empty() {
        let check = runner.current();
        check.status = Status::Skipped;
        check.detail = "no prompts listed".into();
    }
    for prompt in listed.iter().take(plan.max_calls) {
        let Some(name) = prompt.get("name").and_then(Value::as_str) else {
            continue;
        };
        let arguments = prompt_arguments(runner, server, prompt).await?;
        let exchange = runner
            .conversation
            .request("prompts/get", json!({"name": name, "arguments": arguments}))
            .await?;
        if exchange.result().is_some() {
            result_members(runner, &exchange, "prompts/get", server.version);
        } else if let Some(code) = exchange.error_code() {
            // Made-up argument values may be refused: that is the prompt's business.
            runner.note(format!("{name}: error {code}"));
        } else if exchange.reply.is_none() {
            runner.note(format!("{name}: no reply within the timeout"));
        }
    }
    Ok(())
}

/// A value for each required argument of a prompt: the first completion the server offers for it
/// (when it declares completions), else "probe".
async fn prompt_arguments<L: ProbeLink>(
    runner: &mut Runner<'_, L>,
    server: &Server,
    prompt: &Value,
) -> Result<Value, LinkError> {
    let mut args = serde_json::Map::new();
    let name = prompt.get("name").cloned().unwrap_or(Value::Null);
    for argument in prompt
        .get("arguments")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        if argument.get("required") != Some(&Value::Bool(true)) {
            continue;
        }
        let Some(argument) = argument.get("name").and_then(Value::as_str) else {
            continue;
        };
        let mut value = Value::String("probe".into());
        if server.declares("completions") {
            let offered = runner
                .conversation
                .request(
                    "completion/complete",
                    json!({"ref": {"type": "ref/prompt", "name": name}, "argument": {"name": argument, "value": ""}}),
                )
                .await?;
            if let Some(first) = offered
                .result()
                .and_then(|r| r.pointer("/completion/values/0"))
            {
                value = first.clone();
            }
        }
        args.insert(argument.to_string(), value);
    }
    Ok(Value::Object(args))
}

async fn completion<L: ProbeLink>(
    runner: &mut Runner<'_, L>,
    server: &Server,
) -> Result<(), LinkError> {
    if !server.declares("completions") {
        runner.skip(
            "completion/complete",
            title("completion/complete"),
            COMPLETION,
            "not declared (no completions capability): skipped",
        );
        return Ok(());
    }
    runner.begin(
        "completion/complete",
        title("completion/complete"),
        COMPLETION,
    );
    // A prompt with an argument, else a resource template with a {variable}.
    let prompts = if server.declares("prompts") {
        runner
            .conversation
            .request("prompts/list", json!({}))
            .await?
            .result()
            .cloned()
    } else {
        None
    };
    let from_prompt = prompts
        .as_ref()
        .and_then(|r| r.get("prompts"))
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .find_map(|p| {
            let name = p.get("name")?.as_str()?;
            let argument = p
                .get("arguments")?
                .as_array()?
                .first()?
                .get("name")?
                .as_str()?;
            Some((
                json!({"type": "ref/prompt", "name": name}),
                argument.to_string(),
            ))
        });
    let reference = match from_prompt {
        Some(found) => Some(found),
        None if server.declares("resources") => {
            let templates = runner
                .conversation
                .request("resources/templates/list", json!({}))
                .await?;
            templates
                .result()
                .and_then(|r| r.get("resourceTemplates"))
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .find_map(|t| {
                    let uri = t.get("uriTemplate")?.as_str()?;
                    let start = uri.find('{')?;
                    let end = uri[start..].find('}')? + start;
                    let variable =
                        uri[start + 1..end].trim_start_matches(['+', '#', '?', '&', '/', '.', ';']);
                    Some((
                        json!({"type": "ref/resource", "uri": uri}),
                        variable.to_string(),
                    ))
                })
        }
        None => None,
    };
    let Some((reference, argument)) = reference else {
        let check = runner.current();
        check.status = Status::Skipped;
        check.detail = "nothing to complete: no prompt argument or template variable".into();
        return Ok(());
    };
    let exchange = runner
        .conversation
        .request(
            "completion/complete",
            json!({"ref": reference, "argument": {"name": argument, "value": ""}}),
        )
        .await?;
    if expect_result(runner, &exchange, "completion/complete") {
        result_members(runner, &exchange, "completion/complete", server.version);
    }
    Ok(())
}

async fn logging<L: ProbeLink>(
    runner: &mut Runner<'_, L>,
    server: &Server,
) -> Result<(), LinkError> {
    // The version first: 2026-07-28 has no logging/setLevel, whatever the server declares.
    if skipped_in_version(runner, "logging/setLevel", LOGGING, server.version) {
        return Ok(());
    }
    if !server.declares("logging") {
        runner.skip(
            "logging/setLevel",
            title("logging/setLevel"),
            LOGGING,
            "not declared (no logging capability): skipped",
        );
        return Ok(());
    }
    runner.begin("logging/setLevel", title("logging/setLevel"), LOGGING);
    let exchange = runner
        .conversation
        .request("logging/setLevel", json!({"level": "error"}))
        .await?;
    expect_result(runner, &exchange, "logging/setLevel");
    Ok(())
}

/// A feature the server did not declare is not served: its list method is not answered with a
/// result.
async fn undeclared<L: ProbeLink>(
    runner: &mut Runner<'_, L>,
    server: &Server,
) -> Result<(), LinkError> {
    runner.begin(
        "capabilities/undeclared-not-served",
        "the list method of each feature not declared is not answered with a result",
        "https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle#capability-negotiation",
    );
    let mut tried = 0;
    for (capability, method) in [
        ("tools", "tools/list"),
        ("resources", "resources/list"),
        ("prompts", "prompts/list"),
    ] {
        if server.declares(capability) {
            continue;
        }
        tried += 1;
        let exchange = runner.conversation.request(method, json!({})).await?;
        if exchange.result().is_some() {
            let at = super::blame(&exchange);
            runner.find(at, &CAPABILITY_UNDECLARED, "/result", format!("{method} is answered with a result, but the initialize result declares no {capability} capability"));
        }
    }
    if tried == 0 {
        let check = runner.current();
        check.status = Status::Skipped;
        check.detail = "every feature is declared".into();
    }
    Ok(())
}

const SUBSCRIPTIONS: &str =
    "https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/subscriptions";

/// MCP 2026-07-28: `subscriptions/listen` for the first resource, when the server declares
/// `resources.subscribe`: the server acknowledges it with `notifications/subscriptions/
/// acknowledged` (its `notifications` the part of the filter it agreed to, its `_meta` naming the
/// request as the subscription); the probe then cancels it (`notifications/cancelled`). The open
/// request gets no reply by design: request-unanswered is not the server's fault here.
async fn listen<L: ProbeLink>(
    runner: &mut Runner<'_, L>,
    server: &Server,
    first: Option<&Value>,
) -> Result<(), LinkError> {
    let id = "subscriptions/listen";
    if server.capabilities.pointer("/resources/subscribe") != Some(&Value::Bool(true)) {
        runner.skip(
            id,
            title(id),
            SUBSCRIPTIONS,
            "not declared (no resources.subscribe): skipped",
        );
        return Ok(());
    }
    let Some(uri) = first.and_then(|r| r.get("uri")).and_then(Value::as_str) else {
        runner.skip(id, title(id), SUBSCRIPTIONS, "no resources listed");
        return Ok(());
    };
    runner.begin(id, title(id), SUBSCRIPTIONS);
    runner.current().tolerated = LISTEN_OPEN;
    let (request_id, exchange) = runner
        .conversation
        .listen(json!({"notifications": {"resourceSubscriptions": [uri]}}))
        .await?;
    let at = super::blame(&exchange);
    match exchange.value() {
        None if exchange.reply.is_none() => {
            runner.note(format!("no {ACKNOWLEDGED} within the timeout"));
            runner.current().status = Status::Fail;
        }
        Some(v) if v.get("method").is_some() => {
            let agreed = v.pointer("/params/notifications");
            if !agreed.is_some_and(Value::is_object) {
                runner.find(
                    at,
                    &RESULT_MEMBER_MISSING,
                    "/params",
                    format!("{ACKNOWLEDGED} has no notifications object (the filter agreed to)"),
                );
            }
            let named = v.pointer("/params/_meta/io.modelcontextprotocol~1subscriptionId");
            if named != Some(&request_id) {
                runner.find(
                    at,
                    &RESULT_MEMBER_MISSING,
                    "/params/_meta",
                    format!("{ACKNOWLEDGED} does not name the subscription: _meta[\"io.modelcontextprotocol/subscriptionId\"] should be the request's id {request_id}"),
                );
            }
            let honoured = agreed
                .and_then(|a| a.get("resourceSubscriptions"))
                .and_then(Value::as_array)
                .map_or(0, Vec::len);
            runner.note(format!(
                "acknowledged ({honoured} of 1 resource subscriptions agreed to), then cancelled"
            ));
        }
        _ => {
            expect_result(runner, &exchange, id);
            return Ok(());
        }
    }
    runner
        .conversation
        .notify(
            "notifications/cancelled",
            json!({"requestId": request_id, "reason": "the probe is done listening"}),
        )
        .await?;
    Ok(())
}

/// A subscription is a request left open until cancelled: it gets no reply.
const LISTEN_OPEN: &[&str] = &[crate::rpc::rules::REQUEST_UNANSWERED.id];

/// `resources/subscribe` then `resources/unsubscribe` for the first resource, when the server
/// declares `resources.subscribe`.
async fn subscribe<L: ProbeLink>(
    runner: &mut Runner<'_, L>,
    server: &Server,
    first: Option<&Value>,
) -> Result<(), LinkError> {
    if server.capabilities.pointer("/resources/subscribe") != Some(&Value::Bool(true)) {
        runner.skip(
            "resources/subscribe",
            title("resources/subscribe"),
            RESOURCES,
            "not declared (no resources.subscribe): skipped",
        );
        return Ok(());
    }
    let Some(uri) = first.and_then(|r| r.get("uri")).cloned() else {
        runner.skip(
            "resources/subscribe",
            title("resources/subscribe"),
            RESOURCES,
            "no resources listed",
        );
        return Ok(());
    };
    runner.begin(
        "resources/subscribe",
        title("resources/subscribe"),
        RESOURCES,
    );
    for method in ["resources/subscribe", "resources/unsubscribe"] {
        let exchange = runner
            .conversation
            .request(method, json!({"uri": uri}))
            .await?;
        expect_result(runner, &exchange, method);
    }
    Ok(())
}
