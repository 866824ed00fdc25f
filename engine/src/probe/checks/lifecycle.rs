//! The MCP lifecycle: a request before initialize, then initialize for the version asked (the
//! result names a version, the capabilities and serverInfo) and notifications/initialized.

use serde_json::{json, Value};

use super::mcp::result_members;
use super::{Mode, Plan, Record, Runner, Status};
use crate::probe::conversation::Exchange;
use crate::probe::link::{LinkError, ProbeLink};
use crate::probe::rules::{INITIALIZE_RESULT_INVALID, VERSION_NOT_SUPPORTED};
use crate::rpc::{McpVersion, Profile};

const LIFECYCLE: &str = "https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle";
const DISCOVER: &str =
    "https://modelcontextprotocol.io/specification/2026-07-28/schema#server%2Fdiscover";

/// What initialize told the probe.
pub struct Server {
    pub version: McpVersion,
    pub capabilities: Value,
}

impl Server {
    pub fn declares(&self, capability: &str) -> bool {
        self.capabilities
            .get(capability)
            .is_some_and(|c| !c.is_null())
    }
}

/// A request before initialize, then initialize and notifications/initialized. `None` when the
/// server does not speak MCP (in `--profile` detection) or refused to start a session.
pub async fn lifecycle<L: ProbeLink>(
    runner: &mut Runner<'_, L>,
    plan: &Plan,
) -> Result<Option<Server>, LinkError> {
    let asked = match plan.mode {
        Mode::Mcp(Some(v)) => v,
        _ => McpVersion::default(),
    };
    if asked == McpVersion::V2026_07_28 {
        return discover(runner).await;
    }
    runner.begin(
        "lifecycle/request-before-initialize",
        "a request before initialize is answered (with an error or a result), not ignored",
        LIFECYCLE,
    );
    let early = runner.conversation.request("tools/list", json!({})).await?;
    describe_reply(runner, &early);

    runner.begin(
        "lifecycle/initialize",
        format!("initialize asking for {asked}: the result names a supported version, the capabilities and serverInfo"),
        LIFECYCLE,
    );
    let init = runner
        .conversation
        .request(
            "initialize",
            json!({
                "protocolVersion": asked.as_str(),
                "capabilities": {},
                "clientInfo": {"name": "jrpc-probe", "version": env!("CARGO_PKG_VERSION")}
            }),
        )
        .await?;
    let Some(result) = init.result().cloned() else {
        let why = match (&init.reply, init.error_code()) {
            (None, _) => "no reply to initialize".to_string(),
            (Some(_), Some(code)) => format!("initialize was answered with error {code}"),
            (Some(_), None) => "initialize was answered without a result".to_string(),
        };
        if plan.mode == Mode::Detect {
            let check = runner.current();
            check.status = Status::Skipped;
            check.detail = format!("not an MCP server ({why}): checked as plain JSON-RPC");
            // The early tools/list was plain JSON-RPC's business too: an unknown method.
            runner.checks[0].status = Status::Skipped;
            runner.checks[0].detail = "not an MCP server".into();
            return Ok(None);
        }
        runner.note(why);
        runner.current().status = Status::Fail;
        return Ok(None);
    };
    let at = super::blame(&init);
    result_members(runner, &init, "initialize", asked);
    let version = match result.get("protocolVersion").and_then(Value::as_str) {
        Some(v) => match v.parse::<McpVersion>() {
            Ok(McpVersion::V2026_07_28) | Err(_) => {
                runner.find(at, &VERSION_NOT_SUPPORTED, "/result/protocolVersion", format!("the server answered protocolVersion {v:?} to a request for {asked}: not a version negotiated by initialize"));
                asked
            }
            Ok(v) => {
                runner.note(format!("negotiated {v}"));
                v
            }
        },
        None => {
            runner.find(
                at,
                &VERSION_NOT_SUPPORTED,
                "/result",
                "the initialize result names no protocolVersion (a string)",
            );
            asked
        }
    };
    if !result.get("capabilities").is_some_and(Value::is_object) {
        runner.find(
            at,
            &INITIALIZE_RESULT_INVALID,
            "/result",
            "the initialize result has no capabilities object",
        );
    }
    if !result.get("serverInfo").is_some_and(Value::is_object) {
        runner.find(
            at,
            &INITIALIZE_RESULT_INVALID,
            "/result",
            "the initialize result has no serverInfo object",
        );
    }
    runner.profile = Profile::Mcp(version);
    runner
        .conversation
        .link()
        .set_protocol_version(version.as_str());
    runner
        .conversation
        .notify("notifications/initialized", Value::Null)
        .await?;
    Ok(Some(Server {
        version,
        capabilities: result.get("capabilities").cloned().unwrap_or(Value::Null),
    }))
}

/// MCP 2026-07-28 has no initialize: `server/discover` says what the server supports, and every
/// request carries the version, the client's capabilities and its name in `_meta`.
async fn discover<L: ProbeLink>(runner: &mut Runner<'_, L>) -> Result<Option<Server>, LinkError> {
    let version = McpVersion::V2026_07_28;
    runner.skip(
        "lifecycle/request-before-initialize",
        "a request before initialize is answered (with an error or a result), not ignored",
        LIFECYCLE,
        format!("{version} has no initialization"),
    );
    runner.begin(
        "lifecycle/discover",
        format!("server/discover with the {version} envelope: the result lists {version} among the supported versions, and the capabilities"),
        DISCOVER,
    );
    runner.conversation.envelope = Some(json!({
        "io.modelcontextprotocol/protocolVersion": version.as_str(),
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "jrpc-probe", "version": env!("CARGO_PKG_VERSION")}
    }));
    runner.profile = Profile::Mcp(version);
    runner
        .conversation
        .link()
        .set_protocol_version(version.as_str());
    let discovered = runner
        .conversation
        .request("server/discover", json!({}))
        .await?;
    let Some(result) = discovered.result().cloned() else {
        runner.note(match discovered.error_code() {
            Some(code) => format!("server/discover was answered with error {code}"),
            None => "no result for server/discover".to_string(),
        });
        runner.current().status = Status::Fail;
        return Ok(None);
    };
    result_members(runner, &discovered, "server/discover", version);
    let at = super::blame(&discovered);
    let supported = result
        .get("supportedVersions")
        .and_then(Value::as_array)
        .is_some_and(|v| v.iter().any(|v| v.as_str() == Some(version.as_str())));
    if !supported {
        runner.find(
            at,
            &VERSION_NOT_SUPPORTED,
            "/result/supportedVersions",
            format!("supportedVersions does not list {version}"),
        );
    }
    if !result.get("capabilities").is_some_and(Value::is_object) {
        runner.find(
            at,
            &INITIALIZE_RESULT_INVALID,
            "/result",
            "the server/discover result has no capabilities object",
        );
    }
    Ok(Some(Server {
        version,
        capabilities: result.get("capabilities").cloned().unwrap_or(Value::Null),
    }))
}

/// Says in the check's detail what came back.
fn describe_reply(record: &mut Record, exchange: &Exchange) {
    let status = exchange
        .delivery
        .http_status
        .map(|s| format!(" (HTTP {s})"))
        .unwrap_or_default();
    let detail = match (&exchange.reply, exchange.error_code()) {
        (None, _) => format!("no reply{status}"),
        (Some(_), Some(code)) => format!("answered with error {code}{status}"),
        (Some(_), None) if exchange.result().is_some() => format!("answered with a result{status}"),
        (Some(_), None) => format!("answered{status}"),
    };
    record.note(detail);
    if let Some(note) = &exchange.delivery.note {
        if exchange.reply.is_none() {
            record.note(note);
        }
    }
}
