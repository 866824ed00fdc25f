//! The MCP profile's catalogue entries (see [`crate::rpc::catalogue`]). Explanations are ours; the
//! specification is at <https://modelcontextprotocol.io/specification>. Examples are checked under
//! 2025-11-25 unless a rule names its version.

use super::McpVersion;
use crate::rpc::rule::{rule, Rule, Section};

const fn mcp(name: &'static str, title: &'static str, url: &'static str) -> Section {
    Section { name, title, url }
}

pub const REQUESTS: Section = mcp(
    "MCP 2025-11-25 base protocol",
    "Requests",
    "https://modelcontextprotocol.io/specification/2025-11-25/basic#requests",
);
pub const NOTIFICATIONS: Section = mcp(
    "MCP 2025-11-25 base protocol",
    "Notifications",
    "https://modelcontextprotocol.io/specification/2025-11-25/basic#notifications",
);
pub const SCHEMA: Section = mcp(
    "MCP 2025-11-25 schema",
    "Schema reference",
    "https://modelcontextprotocol.io/specification/2025-11-25/schema",
);
pub const BATCHING: Section = mcp(
    "MCP 2025-03-26 base protocol",
    "Batching",
    "https://modelcontextprotocol.io/specification/2025-03-26/basic#batching",
);
pub const LIFECYCLE: Section = mcp(
    "MCP 2025-11-25 lifecycle",
    "Initialization",
    "https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle#initialization",
);
pub const META_2026: Section = mcp(
    "MCP 2026-07-28 schema",
    "RequestMetaObject",
    "https://modelcontextprotocol.io/specification/2026-07-28/schema#requestmetaobject",
);
pub const CHANGES_2026: Section = mcp(
    "MCP 2026-07-28 changelog",
    "Key changes",
    "https://modelcontextprotocol.io/specification/2026-07-28/changelog",
);
pub const RESULT_2026: Section = mcp(
    "MCP 2026-07-28 schema",
    "Result",
    "https://modelcontextprotocol.io/specification/2026-07-28/schema#result",
);
pub const MRTR_2026: Section = mcp(
    "MCP 2026-07-28 base protocol",
    "Multi round-trip requests",
    "https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr",
);
pub const CACHE_2026: Section = mcp(
    "MCP 2026-07-28 schema",
    "CacheableResult",
    "https://modelcontextprotocol.io/specification/2026-07-28/schema#cacheableresult",
);
pub const ERRORS_2026: Section = mcp(
    "MCP 2026-07-28 schema",
    "Errors",
    "https://modelcontextprotocol.io/specification/2026-07-28/schema#unsupportedprotocolversionerror",
);

/// The example handshake of 2025-11-25 (initialize, its result, notifications/initialized), as transcript lines.
#[cfg(not(target_arch = "wasm32"))] // examples only (teaching text)
macro_rules! handshake {
    () => {
        concat!(
            "--> {\"jsonrpc\": \"2.0\", \"method\": \"initialize\", \"params\": {\"protocolVersion\": \"2025-11-25\", \"capabilities\": {}, \"clientInfo\": {\"name\": \"demo-client\", \"version\": \"1.0\"}}, \"id\": 1}\n",
            "<-- {\"jsonrpc\": \"2.0\", \"result\": {\"protocolVersion\": \"2025-11-25\", \"capabilities\": {}, \"serverInfo\": {\"name\": \"demo-server\", \"version\": \"1.0\"}}, \"id\": 1}\n",
        )
    };
}
#[cfg(not(target_arch = "wasm32"))] // examples only (teaching text)
macro_rules! init_request {
    () => {
        "{\"jsonrpc\": \"2.0\", \"method\": \"initialize\", \"params\": {\"protocolVersion\": \"2025-11-25\", \"capabilities\": {}, \"clientInfo\": {\"name\": \"demo-client\", \"version\": \"1.0\"}}, \"id\": 1}"
    };
}
#[cfg(not(target_arch = "wasm32"))] // examples only (teaching text)
macro_rules! init_result {
    () => {
        "{\"jsonrpc\": \"2.0\", \"result\": {\"protocolVersion\": \"2025-11-25\", \"capabilities\": {}, \"serverInfo\": {\"name\": \"demo-server\", \"version\": \"1.0\"}}, \"id\": 1}"
    };
}

/// 2026-07-28's request `_meta` (protocol version, capabilities, client), as JSON members.
#[cfg(not(target_arch = "wasm32"))] // examples only (teaching text)
macro_rules! meta {
    () => {
        "\"_meta\": {\"io.modelcontextprotocol/protocolVersion\": \"2026-07-28\", \"io.modelcontextprotocol/clientCapabilities\": {\"roots\": {}}, \"io.modelcontextprotocol/clientInfo\": {\"name\": \"c\", \"version\": \"1\"}}"
    };
}
/// A 2026-07-28 tools/call of list_roots (id 1) and its input-required answer asking key "r".
#[cfg(not(target_arch = "wasm32"))] // examples only (teaching text)
macro_rules! round {
    () => {
        concat!(
            "--> {\"jsonrpc\": \"2.0\", \"method\": \"tools/call\", \"params\": {", meta!(), ", \"name\": \"list_roots\"}, \"id\": 1}\n",
            "<-- {\"jsonrpc\": \"2.0\", \"result\": {\"resultType\": \"input_required\", \"inputRequests\": {\"r\": {\"method\": \"roots/list\"}}, \"requestState\": \"s1\"}, \"id\": 1}\n",
        )
    };
}
/// The retry of [`round!`] as id 2 with `$rest` (inputResponses, requestState) in its params, answered.
#[cfg(not(target_arch = "wasm32"))] // examples only (teaching text)
macro_rules! retry {
    ($rest:expr) => {
        concat!(
            round!(),
            "--> {\"jsonrpc\": \"2.0\", \"method\": \"tools/call\", \"params\": {", meta!(), ", \"name\": \"list_roots\", ", $rest, "}, \"id\": 2}\n",
            "<-- {\"jsonrpc\": \"2.0\", \"result\": {\"resultType\": \"complete\", \"content\": []}, \"id\": 2}"
        )
    };
}

// ---- Messages --------------------------------------------------------------------------------

rule!(Mcp, ID_NULL, "mcp-id-null", Error, REQUESTS,
    "An MCP request id must not be null.",
    "Unlike plain JSON-RPC, MCP requires every request id to be a string or an integer: null is what a peer sends when it could not read an id, so a null id makes the reply impossible to pair. A message without any id is a notification.",
    bad: r#"{"jsonrpc": "2.0", "method": "ping", "id": null}"#,
    good: r#"{"jsonrpc": "2.0", "method": "ping", "id": 1}"#);

rule!(Mcp, ID_NOT_INTEGER, "mcp-id-not-integer", Error, REQUESTS,
    "A numeric MCP id must be an integer.",
    "MCP's RequestId is a string or an integer. 1.5, 1.0 and 1e3 are numbers with a fraction or an exponent: peers may echo them back as a different text or refuse them. Use an integer counter or a string.",
    bad: r#"{"jsonrpc": "2.0", "method": "ping", "id": 1.5}"#,
    good: r#"{"jsonrpc": "2.0", "method": "ping", "id": 15}"#);

rule!(Mcp, REQUEST_WITHOUT_ID, "mcp-request-without-id", Error, REQUESTS,
    "An MCP request method must be sent with an id.",
    "Methods like tools/list, tools/call or initialize expect a response, so they are requests and carry a string or integer id. Without an id the message is a notification: the peer must not answer it, and the caller waits forever.",
    bad: r#"{"jsonrpc": "2.0", "method": "tools/list"}"#,
    good: r#"{"jsonrpc": "2.0", "method": "tools/list", "id": 1}"#);

rule!(Mcp, NOTIFICATION_WITH_ID, "mcp-notification-with-id", Error, NOTIFICATIONS,
    "An MCP notification must not have an id.",
    "Methods under notifications/ are one-way: they must not include an id. With an id the message becomes a request, and the receiver either answers something nobody waits for or rejects it.",
    bad: r#"{"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": "t1", "progress": 50}, "id": 1}"#,
    good: r#"{"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": "t1", "progress": 50}}"#);

rule!(Mcp, METHOD_UNKNOWN, "mcp-method-unknown", Warning, SCHEMA,
    "The method should be one of the protocol version's methods.",
    "Each MCP version defines its requests and notifications; a server answers anything else with -32601 (Method not found). Check the spelling and the protocol version: some methods were added later (elicitation/create in 2025-06-18, tasks/* in 2025-11-25), and 2026-07-28 drops initialize, ping and logging/setLevel.",
    bad: r#"{"jsonrpc": "2.0", "method": "tools/run", "params": {"name": "get_weather"}, "id": 1}"#,
    good: r#"{"jsonrpc": "2.0", "method": "tools/call", "params": {"name": "get_weather"}, "id": 1}"#);

rule!(Mcp, WRONG_DIRECTION, "mcp-wrong-direction", Error, SCHEMA,
    "Each MCP method is sent by one side: the client or the server.",
    "The client calls tools/*, resources/*, prompts/* and initialize; the server asks the client for sampling/createMessage, elicitation/create and roots/list; ping and some notifications go both ways. A request sent by the wrong side has no handler on the other.",
    bad: "--> {\"jsonrpc\": \"2.0\", \"method\": \"roots/list\", \"id\": 1}\n<-- {\"jsonrpc\": \"2.0\", \"result\": {\"roots\": []}, \"id\": 1}",
    good: "<-- {\"jsonrpc\": \"2.0\", \"method\": \"roots/list\", \"id\": 1}\n--> {\"jsonrpc\": \"2.0\", \"result\": {\"roots\": []}, \"id\": 1}");

// ---- Params ----------------------------------------------------------------------------------

rule!(Mcp, PARAMS_NOT_OBJECT, "mcp-params-not-object", Error, SCHEMA,
    "MCP params are an object.",
    "JSON-RPC allows positional params (an array); MCP passes every parameter by name, so \"params\" is always an object. Leave it out only when the method has no required parameters.",
    bad: r#"{"jsonrpc": "2.0", "method": "tools/call", "params": ["get_weather"], "id": 1}"#,
    good: r#"{"jsonrpc": "2.0", "method": "tools/call", "params": {"name": "get_weather"}, "id": 1}"#);

rule!(Mcp, PARAM_MISSING, "mcp-param-missing", Error, SCHEMA,
    "A method's required params must be present.",
    "Each method's schema names the params it requires: initialize needs protocolVersion, capabilities and clientInfo (with name and version); tools/call and prompts/get need a name; resources/read needs a uri. A server answers a request missing one with -32602 (Invalid params).",
    bad: r#"{"jsonrpc": "2.0", "method": "tools/call", "params": {"arguments": {"city": "Paris"}}, "id": 1}"#,
    good: r#"{"jsonrpc": "2.0", "method": "tools/call", "params": {"name": "get_weather", "arguments": {"city": "Paris"}}, "id": 1}"#);

rule!(Mcp, PARAM_WRONG_TYPE, "mcp-param-wrong-type", Error, SCHEMA,
    "Each param must have the JSON type its schema gives.",
    "A tool's name and a resource's uri are strings, tools/call's arguments an object, sampling's maxTokens an integer. A value of another type (a number in quotes, an object as a string) is answered with -32602 (Invalid params).",
    bad: r#"{"jsonrpc": "2.0", "method": "tools/call", "params": {"name": "get_weather", "arguments": "Paris"}, "id": 1}"#,
    good: r#"{"jsonrpc": "2.0", "method": "tools/call", "params": {"name": "get_weather", "arguments": {"city": "Paris"}}, "id": 1}"#);

rule!(Mcp, META_REQUIRED, "mcp-meta-required", Error, META_2026,
    "In 2026-07-28 every request's params._meta names the protocol version and the client's capabilities.",
    "2026-07-28 has no initialize handshake: each request carries params._meta with \"io.modelcontextprotocol/protocolVersion\" (a string) and \"io.modelcontextprotocol/clientCapabilities\" (an object, {} for none), and should carry \"io.modelcontextprotocol/clientInfo\". A client that wants to know what the server supports first calls server/discover.",
    bad: r#"{"jsonrpc": "2.0", "method": "tools/list", "params": {"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientInfo": {"name": "c", "version": "1"}}}, "id": 1}"#,
    good: r#"{"jsonrpc": "2.0", "method": "tools/list", "params": {"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}, "io.modelcontextprotocol/clientInfo": {"name": "c", "version": "1"}}}, "id": 1}"#,
    version: Some(McpVersion::V2026_07_28));

// ---- Batching --------------------------------------------------------------------------------

rule!(Mcp, BATCH_NOT_SUPPORTED, "mcp-batch-not-supported", Error, BATCHING,
    "MCP allows JSON-RPC batches only in protocol version 2025-03-26.",
    "2024-11-05 never had batches, 2025-03-26 added them and 2025-06-18 removed them again. Under any other version send each message on its own.",
    bad: r#"[{"jsonrpc": "2.0", "method": "tools/list", "id": 1}, {"jsonrpc": "2.0", "method": "prompts/list", "id": 2}]"#,
    good: "{\"jsonrpc\": \"2.0\", \"method\": \"tools/list\", \"id\": 1}\n{\"jsonrpc\": \"2.0\", \"method\": \"prompts/list\", \"id\": 2}");

rule!(Mcp, BATCH_INITIALIZE, "mcp-batch-initialize", Error, BATCHING,
    "The initialize request must not be part of a batch.",
    "Even in 2025-03-26, which allows batches, initialize travels alone: nothing else can be sent before the session's version and capabilities are agreed.",
    bad: r#"[{"jsonrpc": "2.0", "method": "initialize", "params": {"protocolVersion": "2025-03-26", "capabilities": {}, "clientInfo": {"name": "demo-client", "version": "1.0"}}, "id": 1}, {"jsonrpc": "2.0", "method": "ping", "id": 2}]"#,
    good: r#"{"jsonrpc": "2.0", "method": "initialize", "params": {"protocolVersion": "2025-03-26", "capabilities": {}, "clientInfo": {"name": "demo-client", "version": "1.0"}}, "id": 1}"#,
    version: Some(McpVersion::V2025_03_26));

// ---- Lifecycle (transcripts) -----------------------------------------------------------------

rule!(Mcp, INITIALIZE_FIRST, "mcp-initialize-first", Error, LIFECYCLE,
"A session starts with the client's initialize request.",
"Initialization must be the first interaction: client and server agree on the protocol version and capabilities before anything else is sent. (Checked when a transcript shows an initialize; a transcript without one is taken as the middle of a session. 2026-07-28 has no initialize.)",
bad: concat!(
    "--> {\"jsonrpc\": \"2.0\", \"method\": \"tools/list\", \"id\": 2}\n",
    "<-- {\"jsonrpc\": \"2.0\", \"result\": {\"tools\": []}, \"id\": 2}\n",
    handshake!(),
    "--> {\"jsonrpc\": \"2.0\", \"method\": \"notifications/initialized\"}"
),
good: concat!(
    handshake!(),
    "--> {\"jsonrpc\": \"2.0\", \"method\": \"notifications/initialized\"}\n",
    "--> {\"jsonrpc\": \"2.0\", \"method\": \"tools/list\", \"id\": 2}\n",
    "<-- {\"jsonrpc\": \"2.0\", \"result\": {\"tools\": []}, \"id\": 2}"
));

rule!(Mcp, INITIALIZED_ORDER, "mcp-initialized-order", Error, LIFECYCLE,
"After the initialize response the client sends notifications/initialized, before any other request.",
"The initialized notification tells the server the client is ready for normal operation. It comes after the server's initialize result (not before) and before the client's first request other than ping.",
bad: concat!(
    handshake!(),
    "--> {\"jsonrpc\": \"2.0\", \"method\": \"tools/list\", \"id\": 2}\n",
    "<-- {\"jsonrpc\": \"2.0\", \"result\": {\"tools\": []}, \"id\": 2}"
),
good: concat!(
    handshake!(),
    "--> {\"jsonrpc\": \"2.0\", \"method\": \"notifications/initialized\"}\n",
    "--> {\"jsonrpc\": \"2.0\", \"method\": \"tools/list\", \"id\": 2}\n",
    "<-- {\"jsonrpc\": \"2.0\", \"result\": {\"tools\": []}, \"id\": 2}"
));

rule!(Mcp, REQUEST_DURING_INITIALIZATION, "mcp-request-during-initialization", Warning, LIFECYCLE,
"Only pings (and the server's logging) should be sent while initialization is under way.",
"The client should send no request other than ping before the server has answered initialize, and the server none other than ping before it receives notifications/initialized: until then neither side knows the other's capabilities.",
bad: concat!(
    "--> ", init_request!(), "\n",
    "--> {\"jsonrpc\": \"2.0\", \"method\": \"tools/list\", \"id\": 2}\n",
    "<-- ", init_result!(), "\n",
    "<-- {\"jsonrpc\": \"2.0\", \"result\": {\"tools\": []}, \"id\": 2}\n",
    "--> {\"jsonrpc\": \"2.0\", \"method\": \"notifications/initialized\"}"
),
good: concat!(
    "--> ", init_request!(), "\n",
    "--> {\"jsonrpc\": \"2.0\", \"method\": \"ping\", \"id\": 2}\n",
    "<-- ", init_result!(), "\n",
    "<-- {\"jsonrpc\": \"2.0\", \"result\": {}, \"id\": 2}\n",
    "--> {\"jsonrpc\": \"2.0\", \"method\": \"notifications/initialized\"}"
));

rule!(Mcp, ID_REUSED, "mcp-id-reused", Error, REQUESTS,
"A request id must not be reused within the session.",
"MCP is stricter than JSON-RPC: the requestor must never use an id twice in one session, even after the first request was answered. Logs, cancellations (notifications/cancelled names a request by id) and progress all rely on ids being unique.",
bad: concat!(
    handshake!(),
    "--> {\"jsonrpc\": \"2.0\", \"method\": \"notifications/initialized\"}\n",
    "--> {\"jsonrpc\": \"2.0\", \"method\": \"tools/list\", \"id\": 1}\n",
    "<-- {\"jsonrpc\": \"2.0\", \"result\": {\"tools\": []}, \"id\": 1}"
),
good: concat!(
    handshake!(),
    "--> {\"jsonrpc\": \"2.0\", \"method\": \"notifications/initialized\"}\n",
    "--> {\"jsonrpc\": \"2.0\", \"method\": \"tools/list\", \"id\": 2}\n",
    "<-- {\"jsonrpc\": \"2.0\", \"result\": {\"tools\": []}, \"id\": 2}"
));

// ---- 2026-07-28: stateless requests, results, input-required rounds, caching, errors ----------

rule!(Mcp, METHOD_REMOVED, "mcp-method-removed", Error, CHANGES_2026,
    "2026-07-28 removed initialize, ping, logging/setLevel, resources/(un)subscribe and the server's requests.",
    "They get -32601. Requests carry version and capabilities in _meta (logLevel too), server/discover tells what the server supports, subscriptions/listen subscribes, and the server asks inside input-required results.",
    bad: r#"{"jsonrpc": "2.0", "method": "ping", "id": 1}"#,
    good: concat!("{\"jsonrpc\": \"2.0\", \"method\": \"server/discover\", \"params\": {", meta!(), "}, \"id\": 1}"),
    version: Some(McpVersion::V2026_07_28));

rule!(Mcp, META_CLIENT_INFO, "mcp-meta-client-info", Warning, META_2026,
    "A 2026-07-28 request should name its client in _meta's io.modelcontextprotocol/clientInfo.",
    "With no initialize, each request is all the server knows of its caller: send clientInfo (name, version) every time.",
    bad: r#"{"jsonrpc": "2.0", "method": "tools/list", "params": {"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}}, "id": 1}"#,
    good: concat!("{\"jsonrpc\": \"2.0\", \"method\": \"tools/list\", \"params\": {", meta!(), "}, \"id\": 1}"),
    version: Some(McpVersion::V2026_07_28));

rule!(Mcp, RESULT_TYPE_MISSING, "mcp-result-type-missing", Error, RESULT_2026,
    "Every 2026-07-28 result carries resultType, a string.",
    "It tells the client how to read the result: \"complete\" (the answer) or \"input_required\" (the server needs more input first).",
    bad: r#"{"jsonrpc": "2.0", "result": {"content": []}, "id": 1}"#,
    good: r#"{"jsonrpc": "2.0", "result": {"resultType": "complete", "content": []}, "id": 1}"#,
    version: Some(McpVersion::V2026_07_28));

rule!(Mcp, INPUT_REQUIRED_SHAPE, "mcp-input-required-shape", Error, MRTR_2026,
    "An input_required result has inputRequests (an object) or requestState (a string), or both.",
    "inputRequests maps keys of the server's choice to what it asks; requestState is opaque text the client echoes back. With neither, the client has nothing to do.",
    bad: r#"{"jsonrpc": "2.0", "result": {"resultType": "input_required"}, "id": 1}"#,
    good: r#"{"jsonrpc": "2.0", "result": {"resultType": "input_required", "requestState": "s1"}, "id": 1}"#,
    version: Some(McpVersion::V2026_07_28));

rule!(Mcp, INPUT_REQUEST_INVALID, "mcp-input-request-invalid", Error, MRTR_2026,
    "Each input request is sampling/createMessage, elicitation/create or roots/list, with its params.",
    "Sampling needs messages and maxTokens, elicitation a message and a requestedSchema (or mode \"url\" and a url).",
    bad: r#"{"jsonrpc": "2.0", "result": {"resultType": "input_required", "inputRequests": {"q": {"method": "sampling/createMessage", "params": {"messages": []}}}}, "id": 1}"#,
    good: r#"{"jsonrpc": "2.0", "result": {"resultType": "input_required", "inputRequests": {"q": {"method": "sampling/createMessage", "params": {"messages": [], "maxTokens": 50}}}}, "id": 1}"#,
    version: Some(McpVersion::V2026_07_28));

rule!(Mcp, INPUT_RESPONSE_INVALID, "mcp-input-response-invalid", Error, MRTR_2026,
    "Each input response is the result its input request asks for.",
    "An elicitation is answered with an action (accept, decline, cancel), sampling with role, content and model, roots/list with {\"roots\": [...]}.",
    bad: retry!("\"inputResponses\": {\"r\": {\"roots\": {}}}, \"requestState\": \"s1\""),
    good: retry!("\"inputResponses\": {\"r\": {\"roots\": []}}, \"requestState\": \"s1\""),
    version: Some(McpVersion::V2026_07_28));

rule!(Mcp, RETRY_MISSING_RESPONSES, "mcp-retry-missing-responses", Error, MRTR_2026,
    "A retry answers every key of the input requests in inputResponses.",
    "The client retries the same request with an answer for each key of inputRequests; without them the server can only ask again. (The same call with neither inputResponses nor requestState is a fresh call, not a retry.)",
    bad: retry!("\"requestState\": \"s1\""),
    good: retry!("\"inputResponses\": {\"r\": {\"roots\": []}}, \"requestState\": \"s1\""),
    version: Some(McpVersion::V2026_07_28));

rule!(Mcp, INPUT_RESPONSE_UNREQUESTED, "mcp-input-response-unrequested", Warning, MRTR_2026,
    "inputResponses should answer only the keys the server asked.",
    "The server ignores any other key; one never asked is usually misspelt.",
    bad: retry!("\"inputResponses\": {\"r\": {\"roots\": []}, \"x\": {\"roots\": []}}, \"requestState\": \"s1\""),
    good: retry!("\"inputResponses\": {\"r\": {\"roots\": []}}, \"requestState\": \"s1\""),
    version: Some(McpVersion::V2026_07_28));

rule!(Mcp, REQUEST_STATE_CHANGED, "mcp-request-state-changed", Error, MRTR_2026,
    "A retry echoes the server's requestState unchanged (and sends none when none was given).",
    "It is the server's memory between rounds, opaque to the client; the server refuses a changed or missing one.",
    bad: retry!("\"inputResponses\": {\"r\": {\"roots\": []}}, \"requestState\": \"s2\""),
    good: retry!("\"inputResponses\": {\"r\": {\"roots\": []}}, \"requestState\": \"s1\""),
    version: Some(McpVersion::V2026_07_28));

rule!(Mcp, CACHE_FIELDS, "mcp-cache-fields", Error, CACHE_2026,
    "List, read and discover results carry ttlMs (an integer, 0 or more) and cacheScope (\"public\" or \"private\").",
    "ttlMs: how long the answer stays fresh (0: stale at once); cacheScope: may caches share it across users (\"public\") or not (\"private\").",
    bad: r#"{"jsonrpc": "2.0", "result": {"resultType": "complete", "tools": [], "ttlMs": -1, "cacheScope": "public"}, "id": 1}"#,
    good: r#"{"jsonrpc": "2.0", "result": {"resultType": "complete", "tools": [], "ttlMs": 60000, "cacheScope": "public"}, "id": 1}"#,
    version: Some(McpVersion::V2026_07_28));

rule!(Mcp, ERROR_DATA, "mcp-error-data", Error, ERRORS_2026,
    "2026-07-28's errors -32021 and -32022 carry their data.",
    "-32021 (missing capability) gives data.requiredCapabilities, -32022 (unsupported version) data.requested and data.supported.",
    bad: r#"{"jsonrpc": "2.0", "error": {"code": -32022, "message": "Unsupported protocol version"}, "id": 1}"#,
    good: r#"{"jsonrpc": "2.0", "error": {"code": -32022, "message": "Unsupported protocol version", "data": {"requested": "2024-01-01", "supported": ["2026-07-28"]}}, "id": 1}"#,
    version: Some(McpVersion::V2026_07_28));

/// Every MCP rule.
pub static RULES: &[&Rule] = &[
    &ID_NULL,
    &ID_NOT_INTEGER,
    &REQUEST_WITHOUT_ID,
    &NOTIFICATION_WITH_ID,
    &METHOD_UNKNOWN,
    &WRONG_DIRECTION,
    &PARAMS_NOT_OBJECT,
    &PARAM_MISSING,
    &PARAM_WRONG_TYPE,
    &META_REQUIRED,
    &BATCH_NOT_SUPPORTED,
    &BATCH_INITIALIZE,
    &INITIALIZE_FIRST,
    &INITIALIZED_ORDER,
    &REQUEST_DURING_INITIALIZATION,
    &ID_REUSED,
    &METHOD_REMOVED,
    &META_CLIENT_INFO,
    &RESULT_TYPE_MISSING,
    &INPUT_REQUIRED_SHAPE,
    &INPUT_REQUEST_INVALID,
    &INPUT_RESPONSE_INVALID,
    &RETRY_MISSING_RESPONSES,
    &INPUT_RESPONSE_UNREQUESTED,
    &REQUEST_STATE_CHANGED,
    &CACHE_FIELDS,
    &ERROR_DATA,
];
