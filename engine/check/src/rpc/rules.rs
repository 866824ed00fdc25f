//! The JSON and JSON-RPC 2.0 catalogue entries (see [`super::catalogue`]). Explanations are ours;
//! the specification is at <https://www.jsonrpc.org/specification>.

use super::rule::{rule, Rule, Section};

const fn jsonrpc(name: &'static str, title: &'static str, url: &'static str) -> Section {
    Section { name, title, url }
}

pub const RFC8259: Section = jsonrpc(
    "RFC 8259",
    "The JSON data interchange format",
    "https://www.rfc-editor.org/rfc/rfc8259",
);
pub const RFC8259_OBJECTS: Section = jsonrpc(
    "RFC 8259 §4",
    "Objects",
    "https://www.rfc-editor.org/rfc/rfc8259#section-4",
);
pub const RFC8259_NUMBERS: Section = jsonrpc(
    "RFC 8259 §6",
    "Numbers",
    "https://www.rfc-editor.org/rfc/rfc8259#section-6",
);
pub const RFC8259_UNICODE: Section = jsonrpc(
    "RFC 8259 §8.2",
    "Unicode characters",
    "https://www.rfc-editor.org/rfc/rfc8259#section-8.2",
);
pub const REQUEST: Section = jsonrpc(
    "JSON-RPC 2.0 §4",
    "Request object",
    "https://www.jsonrpc.org/specification#request_object",
);
pub const NOTIFICATION: Section = jsonrpc(
    "JSON-RPC 2.0 §4.1",
    "Notification",
    "https://www.jsonrpc.org/specification#notification",
);
pub const PARAMS: Section = jsonrpc(
    "JSON-RPC 2.0 §4.2",
    "Parameter structures",
    "https://www.jsonrpc.org/specification#parameter_structures",
);
pub const RESPONSE: Section = jsonrpc(
    "JSON-RPC 2.0 §5",
    "Response object",
    "https://www.jsonrpc.org/specification#response_object",
);
pub const ERROR: Section = jsonrpc(
    "JSON-RPC 2.0 §5.1",
    "Error object",
    "https://www.jsonrpc.org/specification#error_object",
);
pub const BATCH: Section = jsonrpc(
    "JSON-RPC 2.0 §6",
    "Batch",
    "https://www.jsonrpc.org/specification#batch",
);

// ---- JSON itself -------------------------------------------------------------------------------

rule!(JsonRpc, JSON_SYNTAX, "json-syntax", Error, RFC8259,
    "The text must be valid JSON.",
    "A message that is not JSON cannot be read at all; a server answers it with error -32700 (Parse error) and a null id. Common causes: a trailing comma, single quotes, an unquoted name, a missing closing quote or bracket.",
    bad: r#"{"jsonrpc": "2.0", "method": "ping", "id": 1,}"#,
    good: r#"{"jsonrpc": "2.0", "method": "ping", "id": 1}"#);

rule!(JsonRpc, JSON_DUPLICATE_MEMBER, "json-duplicate-member", Warning, RFC8259_OBJECTS,
    "Member names within an object should be unique.",
    "When a name repeats, peers disagree on which value counts: most keep the last one, some the first, some reject the message. Send each member once.",
    bad: r#"{"jsonrpc": "2.0", "method": "ping", "id": 1, "id": 2}"#,
    good: r#"{"jsonrpc": "2.0", "method": "ping", "id": 2}"#);

rule!(JsonRpc, JSON_LONE_SURROGATE, "json-lone-surrogate", Warning, RFC8259_UNICODE,
    "A \\u escape must not leave half of a surrogate pair.",
    "An escape like \\ud800 without its partner is legal JSON grammar but names no character: peers replace it, reject it or crash. Escape whole characters (a high and a low surrogate together) or write the character itself.",
    bad: r#"{"jsonrpc": "2.0", "method": "echo\ud800", "id": 1}"#,
    good: r#"{"jsonrpc": "2.0", "method": "echo\ud83d\ude00", "id": 1}"#);

// ---- §4 Request object -----------------------------------------------------------------------

rule!(JsonRpc, MESSAGE_NOT_OBJECT, "message-not-object", Error, REQUEST,
    "A message is an object (or a batch: an array of objects).",
    "Every JSON-RPC request, notification and response is a JSON object; several go together only as an array (a batch). A bare string, number, boolean or null is no message: a server answers -32600 (Invalid Request).",
    bad: r#""subtract""#,
    good: r#"{"jsonrpc": "2.0", "method": "subtract", "id": 1}"#);

rule!(JsonRpc, JSONRPC_MISSING, "jsonrpc-missing", Error, REQUEST,
    "The member \"jsonrpc\" is required.",
    "Every request, notification and response names the protocol version with \"jsonrpc\": \"2.0\". Without it the message is JSON-RPC 1.0 or something else, and a 2.0 server may refuse it.",
    bad: r#"{"method": "ping", "id": 1}"#,
    good: r#"{"jsonrpc": "2.0", "method": "ping", "id": 1}"#);

rule!(JsonRpc, JSONRPC_NOT_2_0, "jsonrpc-not-2-0", Error, REQUEST,
    "\"jsonrpc\" must be exactly the string \"2.0\".",
    "The version is the string \"2.0\": not the number 2.0, not \"2\", not \"1.0\". Peers compare it as a string.",
    bad: r#"{"jsonrpc": "1.0", "method": "ping", "id": 1}"#,
    good: r#"{"jsonrpc": "2.0", "method": "ping", "id": 1}"#);

rule!(JsonRpc, KIND_UNKNOWN, "method-result-or-error-required", Error, REQUEST,
    "A message needs \"method\" (request or notification) or \"result\" / \"error\" (response).",
    "An object with none of \"method\", \"result\" and \"error\" is neither a request nor a response: nobody can tell what it is for.",
    bad: r#"{"jsonrpc": "2.0", "id": 1}"#,
    good: r#"{"jsonrpc": "2.0", "method": "ping", "id": 1}"#);

rule!(JsonRpc, METHOD_WITH_RESULT, "request-and-response-members", Error, REQUEST,
    "A message is a request or a response, not both.",
    "\"method\" makes a message a request or notification, \"result\" and \"error\" make it a response; an object holding both kinds of member is invalid.",
    bad: r#"{"jsonrpc": "2.0", "method": "ping", "result": 1, "id": 1}"#,
    good: r#"{"jsonrpc": "2.0", "method": "ping", "id": 1}"#);

rule!(JsonRpc, METHOD_NOT_STRING, "method-not-string", Error, REQUEST,
    "\"method\" must be a string.",
    "The method is the name of the procedure to call, always a string.",
    bad: r#"{"jsonrpc": "2.0", "method": 1, "id": 1}"#,
    good: r#"{"jsonrpc": "2.0", "method": "one", "id": 1}"#);

rule!(JsonRpc, METHOD_RPC_RESERVED, "method-rpc-reserved", Warning, REQUEST,
    "Method names starting with \"rpc.\" are reserved for rpc-internal methods and extensions.",
    "The specification keeps names beginning with rpc. for rpc-internal methods and extensions (§4, §8), so a call to one is legitimate when it is such an extension: OpenRPC's rpc.discover is one. Outside that, an application method with the prefix may collide with an extension a peer implements: name your own methods without it.",
    bad: r#"{"jsonrpc": "2.0", "method": "rpc.hello", "id": 1}"#,
    good: r#"{"jsonrpc": "2.0", "method": "hello", "id": 1}"#);

rule!(JsonRpc, PARAMS_NOT_STRUCTURED, "params-not-structured", Error, PARAMS,
    "\"params\" must be an array (by position) or an object (by name).",
    "Parameters are structured: an array holds them in the server's expected order, an object holds them by name. A bare string, number, boolean or null is not allowed; leave \"params\" out if there are none.",
    bad: r#"{"jsonrpc": "2.0", "method": "greet", "params": "bar", "id": 1}"#,
    good: r#"{"jsonrpc": "2.0", "method": "greet", "params": ["bar"], "id": 1}"#);

rule!(JsonRpc, ID_WRONG_TYPE, "id-wrong-type", Error, REQUEST,
    "An id is a string, a number or null.",
    "The id pairs a response with its request, so it must be a value peers can compare and echo: a string, a number, or null. Booleans, arrays and objects are not ids.",
    bad: r#"{"jsonrpc": "2.0", "method": "ping", "id": true}"#,
    good: r#"{"jsonrpc": "2.0", "method": "ping", "id": 1}"#);

rule!(JsonRpc, ID_NULL_IN_REQUEST, "id-null-in-request", Warning, REQUEST,
    "A request should not use null as its id.",
    "A null id is what a server sends when it could not read the request's id, so a reply with id null cannot be paired with your request. JSON-RPC 1.0 used id null for notifications; in 2.0 a notification simply has no id.",
    bad: r#"{"jsonrpc": "2.0", "method": "ping", "id": null}"#,
    good: r#"{"jsonrpc": "2.0", "method": "ping", "id": 1}"#);

rule!(JsonRpc, ID_FRACTIONAL, "id-fractional", Warning, REQUEST,
    "A numeric id should have no fractional part.",
    "Peers store numbers differently: 1.0 may come back as 1, and 0.1 may not come back at all. Use an integer or a string.",
    bad: r#"{"jsonrpc": "2.0", "method": "ping", "id": 1.5}"#,
    good: r#"{"jsonrpc": "2.0", "method": "ping", "id": 15}"#);

rule!(JsonRpc, ID_NEGATIVE_ZERO, "id-negative-zero", Warning, RFC8259_NUMBERS,
    "A numeric id should not be -0.",
    "-0 and 0 are the same number to most peers: the reply comes back with id 0, and a client that compares the id's text pairs it with nothing. Use 0, another integer, or a string.",
    bad: r#"{"jsonrpc": "2.0", "method": "ping", "id": -0}"#,
    good: r#"{"jsonrpc": "2.0", "method": "ping", "id": 0}"#);

rule!(JsonRpc, ID_BEYOND_SAFE_INTEGER, "id-beyond-safe-integer", Warning, RFC8259_NUMBERS,
    "A numeric id above 2^53 loses precision in JavaScript peers.",
    "JavaScript (and every peer that stores JSON numbers as doubles) rounds integers beyond 9007199254740991: the id that comes back may differ from the one sent, and the reply pairs with nothing. Use a string for large ids.",
    bad: r#"{"jsonrpc": "2.0", "method": "ping", "id": 9007199254740993}"#,
    good: r#"{"jsonrpc": "2.0", "method": "ping", "id": "9007199254740993"}"#);

rule!(JsonRpc, MEMBER_UNKNOWN, "member-unknown", Warning, REQUEST,
    "A message holds only the members the specification names.",
    "Requests have jsonrpc, method, params and id; responses jsonrpc, result or error, and id; error objects code, message and data. Anything else is ignored by the peer at best, and is often a misspelling (parms, Id, json-rpc).",
    bad: r#"{"jsonrpc": "2.0", "method": "sum", "parms": [1, 2], "id": 1}"#,
    good: r#"{"jsonrpc": "2.0", "method": "sum", "params": [1, 2], "id": 1}"#);

// ---- §4.1 Notification -----------------------------------------------------------------------

rule!(JsonRpc, NOTIFICATION_ANSWERED, "notification-answered", Error, NOTIFICATION,
    "A server must not reply to a notification.",
    "A notification (a request without an id) tells the client nothing will come back, not even an error. A reply to one has nothing to pair with.",
    bad: "--> {\"jsonrpc\": \"2.0\", \"method\": \"update\", \"params\": [1]}\n<-- {\"jsonrpc\": \"2.0\", \"error\": {\"code\": -32601, \"message\": \"Method not found\"}, \"id\": null}",
    good: "--> {\"jsonrpc\": \"2.0\", \"method\": \"update\", \"params\": [1]}\n<-- // nothing is returned for a notification");

// ---- §5 Response object ----------------------------------------------------------------------

rule!(JsonRpc, RESULT_AND_ERROR, "result-and-error", Error, RESPONSE,
    "A response has either \"result\" or \"error\", never both.",
    "\"result\" is there on success and must be absent on failure; \"error\" the other way round. JSON-RPC 1.0 sent both with the unused one null; 2.0 sends exactly one.",
    bad: r#"{"jsonrpc": "2.0", "result": 19, "error": {"code": -32603, "message": "Internal error"}, "id": 1}"#,
    good: r#"{"jsonrpc": "2.0", "result": 19, "id": 1}"#);

rule!(JsonRpc, RESPONSE_ID_MISSING, "response-id-missing", Error, RESPONSE,
    "A response must have an \"id\".",
    "The id is required in every response: it is the same as the request's id, or null when the server could not read that id (a parse error or an invalid request).",
    bad: r#"{"jsonrpc": "2.0", "result": 19}"#,
    good: r#"{"jsonrpc": "2.0", "result": 19, "id": 1}"#);

rule!(JsonRpc, RESPONSE_NULL_ID_WITH_RESULT, "response-null-id-with-result", Error, RESPONSE,
    "A successful response has id null only when its request's id was null.",
    "id null means the server could not read the request's id (the request was unreadable or invalid), and that is always answered with an error, never a result. The one exception is a request that sent id null itself (legal, though discouraged: id-null-in-request): its reply carries that null back, a result included, and in a transcript such a pair is accepted. On its own, a result with id null looks like a broken reply: give requests a real id.",
    bad: r#"{"jsonrpc": "2.0", "result": 19, "id": null}"#,
    good: r#"{"jsonrpc": "2.0", "result": 19, "id": 1}"#);

rule!(JsonRpc, RESPONSE_UNMATCHED, "response-unmatched", Error, RESPONSE,
    "A response's id must be the id of a request waiting for it.",
    "The server copies the request's id into the response. A response whose id matches no pending request (a typo, a second answer, an id the client never sent) cannot be delivered.",
    bad: "--> {\"jsonrpc\": \"2.0\", \"method\": \"ping\", \"id\": 1}\n<-- {\"jsonrpc\": \"2.0\", \"result\": {}, \"id\": 1}\n<-- {\"jsonrpc\": \"2.0\", \"result\": {}, \"id\": 2}",
    good: "--> {\"jsonrpc\": \"2.0\", \"method\": \"ping\", \"id\": 1}\n<-- {\"jsonrpc\": \"2.0\", \"result\": {}, \"id\": 1}");

rule!(JsonRpc, RESPONSE_NULL_ID_DETECTABLE, "response-null-id-detectable", Error, RESPONSE,
    "A response carries id null only when the request's id could not be read.",
    "When the request had a readable id, the response must echo it, even for an error; null is only for requests the server could not parse or whose id it could not detect.",
    bad: "--> {\"jsonrpc\": \"2.0\", \"method\": \"foobar\", \"id\": 1}\n<-- {\"jsonrpc\": \"2.0\", \"error\": {\"code\": -32601, \"message\": \"Method not found\"}, \"id\": null}",
    good: "--> {\"jsonrpc\": \"2.0\", \"method\": \"foobar\", \"id\": 1}\n<-- {\"jsonrpc\": \"2.0\", \"error\": {\"code\": -32601, \"message\": \"Method not found\"}, \"id\": 1}");

rule!(JsonRpc, REQUEST_UNANSWERED, "request-unanswered", Error, RESPONSE,
    "Every request gets a response.",
    "Except for notifications, the server must reply to each request, with a result or an error. A request left unanswered keeps its caller waiting forever.",
    bad: "--> {\"jsonrpc\": \"2.0\", \"method\": \"a\", \"id\": 1}\n--> {\"jsonrpc\": \"2.0\", \"method\": \"b\", \"id\": 2}\n<-- {\"jsonrpc\": \"2.0\", \"result\": 0, \"id\": 1}",
    good: "--> {\"jsonrpc\": \"2.0\", \"method\": \"a\", \"id\": 1}\n--> {\"jsonrpc\": \"2.0\", \"method\": \"b\", \"id\": 2}\n<-- {\"jsonrpc\": \"2.0\", \"result\": 0, \"id\": 1}\n<-- {\"jsonrpc\": \"2.0\", \"result\": 0, \"id\": 2}");

rule!(JsonRpc, REQUEST_ID_REUSED, "request-id-reused", Warning, REQUEST,
    "A request should not reuse the id of a request still waiting for its response.",
    "Two pending requests with one id make their responses impossible to tell apart. Use a fresh id (a counter) for every request.",
    bad: "--> {\"jsonrpc\": \"2.0\", \"method\": \"a\", \"id\": 1}\n--> {\"jsonrpc\": \"2.0\", \"method\": \"b\", \"id\": 1}\n<-- {\"jsonrpc\": \"2.0\", \"result\": 0, \"id\": 1}\n<-- {\"jsonrpc\": \"2.0\", \"result\": 0, \"id\": 1}",
    good: "--> {\"jsonrpc\": \"2.0\", \"method\": \"a\", \"id\": 1}\n--> {\"jsonrpc\": \"2.0\", \"method\": \"b\", \"id\": 2}\n<-- {\"jsonrpc\": \"2.0\", \"result\": 0, \"id\": 1}\n<-- {\"jsonrpc\": \"2.0\", \"result\": 0, \"id\": 2}");

// ---- §5.1 Error object -----------------------------------------------------------------------

rule!(JsonRpc, ERROR_NOT_OBJECT, "error-not-object", Error, ERROR,
    "\"error\" must be an object with \"code\" and \"message\".",
    "A failed call is described by an error object: an integer code, a string message and optional data. A bare string or number is not enough for a client to act on.",
    bad: r#"{"jsonrpc": "2.0", "error": "Something went wrong", "id": 1}"#,
    good: r#"{"jsonrpc": "2.0", "error": {"code": -32603, "message": "Something went wrong"}, "id": 1}"#);

rule!(JsonRpc, ERROR_CODE_NOT_INTEGER, "error-code-not-integer", Error, ERROR,
    "The error object needs a \"code\" that is an integer.",
    "The code tells the client what kind of failure it was: -32700 to -32600 for protocol errors, other integers for the application's own. It is required and must be an integer (no fractional part, not a string); an integer merely written with a fraction or exponent (-32700.0) is error-code-written-with-fraction instead.",
    bad: r#"{"jsonrpc": "2.0", "error": {"code": "-32601", "message": "Method not found"}, "id": 1}"#,
    good: r#"{"jsonrpc": "2.0", "error": {"code": -32601, "message": "Method not found"}, "id": 1}"#);

rule!(JsonRpc, ERROR_CODE_WRITTEN_WITH_FRACTION, "error-code-written-with-fraction", Warning, ERROR,
    "An error code should be written as an integer, without a fraction or exponent.",
    "-32700.0 and -3.27e4 are integers in value, so the code is valid, but peers that read numbers by their spelling (a typed parser expecting an integer) reject or misread them. Write the code as plain digits: -32700.",
    bad: r#"{"jsonrpc": "2.0", "error": {"code": -32601.0, "message": "Method not found"}, "id": 1}"#,
    good: r#"{"jsonrpc": "2.0", "error": {"code": -32601, "message": "Method not found"}, "id": 1}"#);

rule!(JsonRpc, ERROR_MESSAGE_NOT_STRING, "error-message-not-string", Error, ERROR,
    "The error object needs a \"message\" that is a string.",
    "The message is a short description of the error, for people. It is required and must be a string; put structured details into \"data\".",
    bad: r#"{"jsonrpc": "2.0", "error": {"code": -32601}, "id": 1}"#,
    good: r#"{"jsonrpc": "2.0", "error": {"code": -32601, "message": "Method not found"}, "id": 1}"#);

rule!(JsonRpc, ERROR_MESSAGE_CONCISE, "error-message-concise", Warning, ERROR,
    "An error message should be one concise sentence.",
    "Keep \"message\" short and on one line; stack traces, lists and long explanations belong in \"data\".",
    bad: "{\"jsonrpc\": \"2.0\", \"error\": {\"code\": -32603, \"message\": \"Internal error\\n  at main.js:1\\n  at run.js:2\"}, \"id\": 1}",
    good: "{\"jsonrpc\": \"2.0\", \"error\": {\"code\": -32603, \"message\": \"Internal error\", \"data\": \"at main.js:1\\n  at run.js:2\"}, \"id\": 1}");

rule!(JsonRpc, ERROR_CODE_RESERVED, "error-code-reserved", Warning, ERROR,
    "Codes from -32768 to -32000 are reserved: use only the predefined ones there.",
    "The specification defines -32700, -32600, -32601, -32602 and -32603, leaves -32099 to -32000 to server implementations, and keeps the rest of -32768 to -32000 for future use. Application errors take codes outside that range.",
    bad: r#"{"jsonrpc": "2.0", "error": {"code": -32500, "message": "Quota exceeded"}, "id": 1}"#,
    good: r#"{"jsonrpc": "2.0", "error": {"code": 4029, "message": "Quota exceeded"}, "id": 1}"#);

// ---- §6 Batch --------------------------------------------------------------------------------

rule!(JsonRpc, BATCH_EMPTY, "batch-empty", Error, BATCH,
    "A batch holds at least one message.",
    "An empty array is not a batch: the server answers it with a single -32600 (Invalid Request) response, not an array.",
    bad: "[]",
    good: r#"[{"jsonrpc": "2.0", "method": "ping", "id": 1}]"#);

rule!(JsonRpc, BATCH_ELEMENT_NOT_OBJECT, "batch-element-not-object", Error, BATCH,
    "Every element of a batch is a request, notification or response object.",
    "The server answers each element that is not an object with its own -32600 (Invalid Request) response: [1, 2, 3] gets three error responses.",
    bad: "[1]",
    good: r#"[{"jsonrpc": "2.0", "method": "ping", "id": 1}]"#);

rule!(JsonRpc, BATCH_NESTED, "batch-nested", Error, BATCH,
    "Batches do not nest.",
    "An array inside a batch is not a message: each element must be an object. Send the inner messages as elements of the one batch.",
    bad: r#"[[{"jsonrpc": "2.0", "method": "ping", "id": 1}]]"#,
    good: r#"[{"jsonrpc": "2.0", "method": "ping", "id": 1}]"#);

rule!(JsonRpc, BATCH_MIXED, "batch-mixes-requests-and-responses", Error, BATCH,
    "A batch is either all requests and notifications, or all responses.",
    "The client sends an array of requests (and notifications); the server answers with an array of responses. An array mixing both directions is neither.",
    bad: r#"[{"jsonrpc": "2.0", "method": "ping", "id": 1}, {"jsonrpc": "2.0", "result": 0, "id": 2}]"#,
    good: r#"[{"jsonrpc": "2.0", "method": "ping", "id": 1}, {"jsonrpc": "2.0", "method": "ping", "id": 2}]"#);

rule!(JsonRpc, BATCH_DUPLICATE_ID, "batch-duplicate-id", Warning, BATCH,
    "The requests of one batch should have different ids.",
    "The server may answer a batch's requests in any order, and the client pairs each response with its request by id: two requests with the same id in one batch get two responses that cannot be told apart.",
    bad: r#"[{"jsonrpc": "2.0", "method": "a", "id": 1}, {"jsonrpc": "2.0", "method": "b", "id": 1}]"#,
    good: r#"[{"jsonrpc": "2.0", "method": "a", "id": 1}, {"jsonrpc": "2.0", "method": "b", "id": 2}]"#);

rule!(JsonRpc, BATCH_REPLY_EMPTY, "batch-reply-empty", Error, BATCH,
    "A server must not answer a batch with an empty array.",
    "When a batch holds only notifications there is nothing to return, and the server returns nothing at all, not [].",
    bad: "--> [{\"jsonrpc\": \"2.0\", \"method\": \"notify_sum\", \"params\": [1, 2]}]\n<-- []",
    good: "--> [{\"jsonrpc\": \"2.0\", \"method\": \"notify_sum\", \"params\": [1, 2]}]\n<-- // nothing is returned for all-notification batches");

rule!(JsonRpc, BATCH_REPLY_MISMATCH, "batch-reply-mismatch", Error, BATCH,
    "A batch reply answers exactly the batch's requests.",
    "The server's array holds one response per request of the batch (in any order) and none for its notifications; elements it could not read are answered with id null.",
    bad: "--> [{\"jsonrpc\": \"2.0\", \"method\": \"a\", \"id\": 1}, {\"jsonrpc\": \"2.0\", \"method\": \"b\", \"id\": 2}]\n<-- [{\"jsonrpc\": \"2.0\", \"result\": 0, \"id\": 1}, {\"jsonrpc\": \"2.0\", \"result\": 0, \"id\": 3}]",
    good: "--> [{\"jsonrpc\": \"2.0\", \"method\": \"a\", \"id\": 1}, {\"jsonrpc\": \"2.0\", \"method\": \"b\", \"id\": 2}]\n<-- [{\"jsonrpc\": \"2.0\", \"result\": 0, \"id\": 2}, {\"jsonrpc\": \"2.0\", \"result\": 0, \"id\": 1}]");

/// Every JSON and JSON-RPC 2.0 rule, in the order of the specification.
pub static RULES: &[&Rule] = &[
    &JSON_SYNTAX,
    &JSON_DUPLICATE_MEMBER,
    &JSON_LONE_SURROGATE,
    &MESSAGE_NOT_OBJECT,
    &JSONRPC_MISSING,
    &JSONRPC_NOT_2_0,
    &KIND_UNKNOWN,
    &METHOD_WITH_RESULT,
    &METHOD_NOT_STRING,
    &METHOD_RPC_RESERVED,
    &PARAMS_NOT_STRUCTURED,
    &ID_WRONG_TYPE,
    &ID_NULL_IN_REQUEST,
    &ID_FRACTIONAL,
    &ID_NEGATIVE_ZERO,
    &ID_BEYOND_SAFE_INTEGER,
    &MEMBER_UNKNOWN,
    &NOTIFICATION_ANSWERED,
    &RESULT_AND_ERROR,
    &RESPONSE_ID_MISSING,
    &RESPONSE_NULL_ID_WITH_RESULT,
    &RESPONSE_UNMATCHED,
    &RESPONSE_NULL_ID_DETECTABLE,
    &REQUEST_UNANSWERED,
    &REQUEST_ID_REUSED,
    &ERROR_NOT_OBJECT,
    &ERROR_CODE_NOT_INTEGER,
    &ERROR_CODE_WRITTEN_WITH_FRACTION,
    &ERROR_MESSAGE_NOT_STRING,
    &ERROR_MESSAGE_CONCISE,
    &ERROR_CODE_RESERVED,
    &BATCH_EMPTY,
    &BATCH_ELEMENT_NOT_OBJECT,
    &BATCH_NESTED,
    &BATCH_MIXED,
    &BATCH_DUPLICATE_ID,
    &BATCH_REPLY_EMPTY,
    &BATCH_REPLY_MISMATCH,
];
