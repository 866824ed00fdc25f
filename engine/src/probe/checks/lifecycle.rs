//! The MCP lifecycle. Unless a version is forced, `server/discover` first (MCP 2026-07-28, which
//! has no initialize): the revision is chosen from the versions it lists, and a server that does not
//! serve it (-32601, an error, no result) gets the initialize handshake. The handshake: a request
//! before initialize, then initialize for the version asked (the result names a version, the
//! capabilities and serverInfo) and notifications/initialized.

use serde_json::{json, Value};

use super::listing::result_members;
use super::{Mode, Plan, Record, Runner, Server, Status};
use crate::probe::conversation::Exchange;
use crate::probe::link::{LinkError, ProbeLink};
use crate::probe::rules::{INITIALIZE_RESULT_INVALID, VERSION_NOT_SUPPORTED};
use crate::rpc::{McpVersion, Profile};

const LIFECYCLE: &str = "https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle";
const DISCOVER: &str =
    "https://modelcontextprotocol.io/specification/2026-07-28/schema#server%2Fdiscover";
/// MCP 2026-07-28's error for a protocol version the server does not support; its `data.supported`
/// lists those it does.
const UNSUPPORTED_PROTOCOL_VERSION: i64 = -32022;

/// The client capabilities the probe declares (in initialize, and in every 2026-07-28 request's
/// `_meta`): it answers sampling, elicitation (form mode) and roots requests as a cooperative
/// client does ([`crate::client`]).
pub fn client_capabilities() -> Value {
    json!({"sampling": {}, "elicitation": {"form": {}}, "roots": {}})
}

/// The client's name in initialize and the 2026-07-28 envelope.
fn client_info() -> Value {
    json!({"name": "jrpc-probe", "version": env!("CARGO_PKG_VERSION")})
}

/// The MCP lifecycle for `plan`: a forced `--mcp-version` as asked; otherwise `server/discover`,
/// then the handshake when the server does not serve it. `None` when the server does not speak
/// MCP (in `--profile` detection) or refused to start a session.
pub async fn lifecycle<L: ProbeLink>(
    runner: &mut Runner<'_, L>,
    plan: &Plan,
) -> Result<Option<Server>, LinkError> {
    let asked = match plan.mode {
        Mode::Mcp(Some(v)) if v < McpVersion::V2026_07_28 => v,
        Mode::Mcp(Some(_)) => match discover(runner, true).await? {
            Discovery::Stateless(server) => return Ok(server),
            Discovery::Handshake(v) => v,
        },
        Mode::Mcp(None) | Mode::Detect | Mode::JsonRpc => match discover(runner, false).await? {
            Discovery::Stateless(server) => return Ok(server),
            Discovery::Handshake(v) => v,
        },
    };
    handshake(runner, plan, asked).await
}

/// A request before initialize, then initialize asking for `asked` and notifications/initialized.
async fn handshake<L: ProbeLink>(
    runner: &mut Runner<'_, L>,
    plan: &Plan,
    asked: McpVersion,
) -> Result<Option<Server>, LinkError> {
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
                "capabilities": client_capabilities(),
                "clientInfo": client_info()
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
            let early = runner.checks.len() - 2;
            runner.checks[early].status = Status::Skipped;
            runner.checks[early].detail = "not an MCP server".into();
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
        .set_protocol_version(Some(version.as_str()));
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
/// request carries the version, the client's capabilities and its name in `_meta`. `forced`
/// (`--mcp-version 2026-07-28`): whatever the answer, the run goes on under 2026-07-28 and a
/// missing version is a finding. Otherwise a server that does not serve discover, or does not list
/// 2026-07-28, is left to the handshake.
async fn discover<L: ProbeLink>(
    runner: &mut Runner<'_, L>,
    forced: bool,
) -> Result<Discovery, LinkError> {
    let version = McpVersion::V2026_07_28;
    if forced {
        runner.skip(
            "lifecycle/request-before-initialize",
            "a request before initialize is answered (with an error or a result), not ignored",
            LIFECYCLE,
            format!("{version} has no initialization"),
        );
    }
    runner.begin(
        "lifecycle/discover",
        format!("server/discover with the {version} envelope: the result lists {version} among the supported versions, and the capabilities"),
        DISCOVER,
    );
    start_envelope(runner, version);
    let mut discovered = runner
        .conversation
        .request("server/discover", json!({}))
        .await?;
    // A server may refuse the version (-32022) and say which it supports: asked again with one.
    if discovered.error_code() == Some(UNSUPPORTED_PROTOCOL_VERSION) {
        let supported = discovered
            .value()
            .and_then(|v| v.pointer("/error/data/supported"))
            .map(known_versions)
            .unwrap_or_default();
        if supported.contains(&version) {
            runner.note(format!(
                "refused with {UNSUPPORTED_PROTOCOL_VERSION}, which lists {version}: asked again"
            ));
            discovered = runner
                .conversation
                .request("server/discover", json!({}))
                .await?;
        } else if !forced {
            return Ok(fall_back(
                runner,
                supported.into_iter().max(),
                format!("server/discover refused {version} ({UNSUPPORTED_PROTOCOL_VERSION})"),
            ));
        }
    }
    let listed = discovered
        .result()
        .and_then(|r| r.get("supportedVersions"))
        .map(known_versions)
        .unwrap_or_default();
    if !forced && !listed.contains(&version) {
        let why = match (discovered.result(), discovered.error_code()) {
            (Some(_), _) if listed.is_empty() => {
                "server/discover answered without a supportedVersions list".to_string()
            }
            (Some(_), _) => format!("server/discover does not list {version}"),
            (None, Some(code)) => format!("server/discover answered with error {code}"),
            (None, None) if discovered.reply.is_none() => "no reply to server/discover".into(),
            (None, None) => "server/discover answered without a result".into(),
        };
        return Ok(fall_back(runner, listed.into_iter().max(), why));
    }
    runner.profile = Profile::Mcp(version);
    let Some(result) = discovered.result().cloned() else {
        runner.note(match discovered.error_code() {
            Some(code) => format!("server/discover was answered with error {code}"),
            None => "no result for server/discover".to_string(),
        });
        runner.current().status = Status::Fail;
        return Ok(Discovery::Stateless(None));
    };
    result_members(runner, &discovered, "server/discover", version);
    let at = super::blame(&discovered);
    if !listed.contains(&version) {
        runner.find(
            at,
            &VERSION_NOT_SUPPORTED,
            "/result/supportedVersions",
            format!("supportedVersions does not list {version}"),
        );
    } else if !forced {
        runner.note(format!("{version} chosen from supportedVersions"));
    }
    if !result.get("capabilities").is_some_and(Value::is_object) {
        runner.find(
            at,
            &INITIALIZE_RESULT_INVALID,
            "/result",
            "the server/discover result has no capabilities object",
        );
    }
    Ok(Discovery::Stateless(Some(Server {
        version,
        capabilities: result.get("capabilities").cloned().unwrap_or(Value::Null),
    })))
}

/// What server/discover decided.
enum Discovery {
    /// The server speaks 2026-07-28 (or it was forced): the server, unless it refused.
    Stateless(Option<Server>),
    /// The handshake, asking for this version.
    Handshake(McpVersion),
}

/// From here on every request carries the `_meta` envelope of `version`, and the transport its
/// version header.
fn start_envelope<L: ProbeLink>(runner: &mut Runner<'_, L>, version: McpVersion) {
    runner.conversation.envelope = Some(json!({
        "io.modelcontextprotocol/protocolVersion": version.as_str(),
        "io.modelcontextprotocol/clientCapabilities": client_capabilities(),
        "io.modelcontextprotocol/clientInfo": client_info()
    }));
    runner
        .conversation
        .link()
        .set_protocol_version(Some(version.as_str()));
}

/// The server does not speak 2026-07-28 (`why`): the envelope and version header go, the discover
/// check is skipped saying so, and the handshake asks for `listed` (the newest handshake version
/// discover listed) or the default.
fn fall_back<L: ProbeLink>(
    runner: &mut Runner<'_, L>,
    listed: Option<McpVersion>,
    why: String,
) -> Discovery {
    runner.conversation.envelope = None;
    runner.conversation.link().set_protocol_version(None);
    let asked = listed
        .filter(|v| *v < McpVersion::V2026_07_28)
        .unwrap_or_default();
    let check = runner.current();
    check.status = Status::Skipped;
    check.detail = format!("{why}: the initialize handshake instead (asking for {asked})");
    Discovery::Handshake(asked)
}

/// The MCP versions the probe knows among a list of version strings.
fn known_versions(list: &Value) -> Vec<McpVersion> {
    list.as_array()
        .into_iter()
        .flatten()
        .filter_map(|v| v.as_str()?.parse().ok())
        .collect()
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
