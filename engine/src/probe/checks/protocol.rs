//! What every JSON-RPC 2.0 server owes, whatever its methods: -32601 for an unknown method, -32700
//! (id null) for text that is not JSON, -32600 (id null) for JSON that is not a request, no answer
//! to a notification, batches as the profile says, ids echoed exactly; then the user's `--call`s.

use serde_json::{json, Value};

use super::{Plan, Record, Runner, Status};
use crate::probe::conversation::{Exchange, Expect};
use crate::probe::link::{LinkError, ProbeLink};
use crate::probe::rules::*;
use crate::rpc::rules::{REQUEST_UNANSWERED, RESPONSE_UNMATCHED};
use crate::rpc::Profile;

const ERRORS: &str = "https://www.jsonrpc.org/specification#error_object";
const NOTIFICATION: &str = "https://www.jsonrpc.org/specification#notification";
const RESPONSE: &str = "https://www.jsonrpc.org/specification#response_object";
const BATCH: &str = "https://www.jsonrpc.org/specification#batch";
const MCP_BATCHING: &str =
    "https://modelcontextprotocol.io/specification/2025-03-26/basic#batching";

/// A batch refused in a version without batches: its requests stay unanswered, or one error with
/// id null answers it; neither is the server's fault.
const BATCH_REFUSAL_TOLERATED: &[&str] = &[REQUEST_UNANSWERED.id, RESPONSE_UNMATCHED.id];

/// A message whose id cannot be read, answered within the check's own wait: whether the
/// transcript's pairing of errors with id null also gives it that reply is no longer the question.
const ANSWERED_IN_TIME: &[&str] = &[REQUEST_UNANSWERED.id];

/// The specification's own example of text that is not JSON (§7).
pub const MALFORMED: &str = r#"{"jsonrpc": "2.0", "method": "foobar, "params": "bar", "baz]"#;
/// The specification's own example of an invalid request (§7: method is a number).
pub const INVALID: &str = r#"{"jsonrpc": "2.0", "method": 1, "params": "bar"}"#;

pub async fn checks<L: ProbeLink>(runner: &mut Runner<'_, L>, mcp: bool) -> Result<(), LinkError> {
    let unknown = if mcp {
        "probe/no-such-method"
    } else {
        "probe.no_such_method"
    };

    runner.begin(
        "jsonrpc/unknown-method",
        "a method the server does not have is answered with -32601",
        ERRORS,
    );
    let exchange = runner.conversation.request(unknown, json!({})).await?;
    expect_error(runner, &exchange, -32601, &UNKNOWN_METHOD_CODE, false);

    runner.begin(
        "jsonrpc/parse-error",
        "text that is not JSON is answered with -32700 and id null",
        ERRORS,
    );
    let exchange = runner
        .conversation
        .send(MALFORMED.to_string(), Expect::Reply)
        .await?;
    expect_error(runner, &exchange, -32700, &PARSE_ERROR_CODE, true);

    runner.begin(
        "jsonrpc/invalid-request",
        "JSON that is not a request is answered with -32600 and id null",
        ERRORS,
    );
    let exchange = runner
        .conversation
        .send(INVALID.to_string(), Expect::Reply)
        .await?;
    expect_error(runner, &exchange, -32600, &INVALID_REQUEST_CODE, true);

    runner.begin(
        "jsonrpc/notification-not-answered",
        "a notification gets no reply, not even an error",
        NOTIFICATION,
    );
    let method = if mcp {
        "notifications/probe"
    } else {
        "probe.notification"
    };
    // Under 2026-07-28 it carries the envelope too, as every message of the probe's that can.
    let params = match &runner.conversation.envelope {
        Some(meta) => json!({"_meta": meta}),
        None => json!({}),
    };
    let text = json!({"jsonrpc": "2.0", "method": method, "params": params}).to_string();
    runner.conversation.send(text, Expect::Nothing).await?;

    // The batch before the ids: the probe's last messages are well-formed requests (a server
    // that reads the last one to judge the client sees one carrying the whole envelope).
    batch(runner, unknown).await?;

    runner.begin(
        "jsonrpc/ids-echoed",
        "a response carries its request's id exactly: a string, a number, a large number",
        RESPONSE,
    );
    let method = if mcp {
        known_method(runner.profile, unknown)
    } else {
        unknown
    };
    for id in [
        json!("probe-ä-1"),
        json!(runner.conversation.next_id()),
        json!(9_007_199_254_740_991_u64),
    ] {
        runner
            .conversation
            .request_as(id, method, Value::Null)
            .await?;
    }
    Ok(())
}

/// Expects the error `code` (and id null when the request could not be read); over HTTP, a 4xx
/// status without a body is a refusal too.
fn expect_error(
    record: &mut Record,
    exchange: &Exchange,
    code: i64,
    rule: &'static crate::rpc::Rule,
    null_id: bool,
) {
    let Some((at, value)) = &exchange.reply else {
        if let Some(status) = exchange
            .delivery
            .http_status
            .filter(|s| (400..500).contains(s))
        {
            record.note(format!("refused with HTTP {status} and no JSON-RPC body"));
            return;
        }
        // The engine reports the message left unanswered (request-unanswered).
        record.note(
            exchange
                .delivery
                .note
                .clone()
                .unwrap_or_else(|| "no reply within the timeout".into()),
        );
        if null_id {
            // Judged here, on the check's own wait: an error with id null that comes later names
            // no message, so what follows must not turn this silence into an answer.
            record.current().status = Status::Fail;
        }
        return;
    };
    if null_id {
        record.current().tolerated = ANSWERED_IN_TIME;
    }
    let at = *at;
    let Some(value) = value else {
        // Not JSON: the engine says so.
        record.current().status = Status::Fail;
        return;
    };
    match exchange.error_code() {
        Some(c) if c == code => record.note(format!("answered {c}")),
        Some(c) => record.find(
            at,
            rule,
            "/error/code",
            format!("answered with error {c}, not {code}"),
        ),
        None if value.get("result").is_some() => record.find(
            at,
            rule,
            "/result",
            format!("answered with a result, not error {code}"),
        ),
        None => record.find(at, rule, "", format!("answered without error {code}")),
    }
    if null_id {
        match value.get("id") {
            Some(Value::Null) | None => {}
            Some(id) => record.find(
                at,
                &UNREADABLE_ID_NOT_NULL,
                "/id",
                format!("the reply's id is {id}, not null: the request's id could not be read"),
            ),
        }
    }
}

async fn batch<L: ProbeLink>(runner: &mut Runner<'_, L>, unknown: &str) -> Result<(), LinkError> {
    let batches = match runner.profile {
        Profile::JsonRpc => true,
        Profile::Mcp(v) => mcp_has_batches(v),
    };
    let first = runner.conversation.next_id();
    let second = runner.conversation.next_id();
    let method = known_method(runner.profile, unknown);
    let mut requests = [
        json!({"jsonrpc": "2.0", "id": first, "method": method}),
        json!({"jsonrpc": "2.0", "id": second, "method": unknown}),
    ];
    // Under 2026-07-28 each request carries its envelope, in a batch too.
    if let Some(meta) = &runner.conversation.envelope {
        for request in &mut requests {
            request["params"] = json!({"_meta": meta});
        }
    }
    let [first, second] = requests;
    let notification = if matches!(runner.profile, Profile::Mcp(_)) {
        "notifications/probe"
    } else {
        "probe.notification"
    };
    let text = json!([first, {"jsonrpc": "2.0", "method": notification}, second]).to_string();
    if batches {
        runner.begin(
            "jsonrpc/batch",
            "a batch of two requests and a notification is answered with an array of two responses",
            BATCH,
        );
        let exchange = runner.conversation.send(text, Expect::Reply).await?;
        match exchange.value() {
            Some(Value::Array(items)) => runner.note(format!("{} responses", items.len())),
            Some(_) => runner.note("answered with a single message, not an array"),
            None => {}
        }
    } else {
        let Profile::Mcp(version) = runner.profile else {
            return Ok(());
        };
        runner.begin(
            "mcp/batch-refused",
            format!("{version} has no batches: a batch is not answered with a batch"),
            MCP_BATCHING,
        );
        let exchange = runner.conversation.send(text, Expect::Reply).await?;
        // Refusing with a single error (id null), an HTTP error, or silence are all fine.
        runner.current().tolerated = BATCH_REFUSAL_TOLERATED;
        match (exchange.value(), exchange.delivery.http_status) {
            (Some(Value::Array(_)), _) => runner.note("answered with a batch"),
            (Some(_), _) => runner.note(format!(
                "refused with error {}",
                exchange.error_code().map_or("?".into(), |c| c.to_string())
            )),
            (None, Some(status)) => runner.note(format!("refused with HTTP {status}")),
            (None, None) => runner.note("not answered"),
        }
    }
    Ok(())
}

/// A method every server of `profile` answers with a result: `ping` in MCP up to 2025-11-25,
/// `server/discover` in 2026-07-28 (which has no ping); in plain JSON-RPC none is known, so
/// `unknown` (answered with an error, which echoes the id as well).
fn known_method(profile: Profile, unknown: &str) -> &str {
    match profile {
        Profile::Mcp(v) if crate::rpc::mcp::methods::lookup("ping", v).is_some() => "ping",
        Profile::Mcp(_) => "server/discover",
        Profile::JsonRpc => unknown,
    }
}

/// MCP 2025-03-26 is the one version with JSON-RPC batches.
fn mcp_has_batches(version: crate::rpc::McpVersion) -> bool {
    version == crate::rpc::McpVersion::V2025_03_26
}

/// The user's `--call METHOD PARAMS`: each answered, and well-formed.
pub async fn calls<L: ProbeLink>(runner: &mut Runner<'_, L>, plan: &Plan) -> Result<(), LinkError> {
    for (method, params) in &plan.calls {
        runner.begin(
            format!("call/{method}"),
            format!("{method} (--call) is answered"),
            RESPONSE,
        );
        let exchange = runner.conversation.request(method, params.clone()).await?;
        match (exchange.result(), exchange.error_code()) {
            (Some(_), _) => runner.note("answered with a result"),
            (None, Some(code)) => runner.note(format!("answered with error {code}")),
            (None, None) if exchange.reply.is_none() => runner.note("no reply within the timeout"),
            (None, None) => {}
        }
    }
    Ok(())
}
