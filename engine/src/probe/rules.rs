//! The probe's own rules: what a server owes in behaviour, which no single message shows (an
//! unknown method answered -32601, a tool refusing bad arguments). Same shape as the engine's
//! catalogue entries, so their findings are ordinary [`crate::rpc::Violation`]s; every message's
//! own rules stay the engine's.

use crate::rpc::catalogue::{Rule, Scope, Section, Severity};
use crate::rpc::mcp::rules::{LIFECYCLE, SCHEMA};
use crate::rpc::rules::{ERROR, RESPONSE};

const TOOLS: Section = Section {
    name: "MCP 2025-11-25 tools",
    title: "Error handling",
    url: "https://modelcontextprotocol.io/specification/2025-11-25/server/tools#error-handling",
};
const CAPABILITIES: Section = Section {
    name: "MCP 2025-11-25 lifecycle",
    title: "Capability negotiation",
    url: "https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle#capability-negotiation",
};
const VERSION_NEGOTIATION: Section = Section {
    name: "MCP 2025-11-25 lifecycle",
    title: "Version negotiation",
    url: "https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle#version-negotiation",
};

macro_rules! probe_rule {
    ($name:ident, $id:literal, $severity:ident, $scope:ident, $section:expr, $summary:literal, $explanation:literal) => {
        pub static $name: Rule = Rule {
            id: $id,
            severity: Severity::$severity,
            scope: Scope::$scope,
            section: $section,
            #[cfg(not(target_arch = "wasm32"))]
            summary: $summary,
            #[cfg(not(target_arch = "wasm32"))]
            explanation: $explanation,
            #[cfg(not(target_arch = "wasm32"))]
            bad: "",
            #[cfg(not(target_arch = "wasm32"))]
            good: "",
            example_version: None,
            #[cfg(not(target_arch = "wasm32"))]
            example_document: "",
        };
    };
}

probe_rule!(UNKNOWN_METHOD_CODE, "unknown-method-code", Error, JsonRpc, ERROR,
    "A call of a method the server does not have is answered with error -32601.",
    "-32601 (Method not found) tells the client the method does not exist or is not available; another code, or a result, hides that.");

probe_rule!(
    PARSE_ERROR_CODE,
    "parse-error-code",
    Error,
    JsonRpc,
    ERROR,
    "Input that is not JSON is answered with error -32700.",
    "-32700 (Parse error) says the server could not read the text as JSON."
);

probe_rule!(
    INVALID_REQUEST_CODE,
    "invalid-request-code",
    Error,
    JsonRpc,
    ERROR,
    "JSON that is not a valid Request object is answered with error -32600.",
    "-32600 (Invalid Request) says the JSON was read but is not a request."
);

probe_rule!(UNREADABLE_ID_NOT_NULL, "unreadable-request-id-not-null", Error, JsonRpc, RESPONSE,
    "The reply to a request whose id could not be read has id null.",
    "When the server cannot read the request (a parse error, an invalid request) it cannot know its id, and the specification says the reply's id is then null.");

probe_rule!(RESULT_MEMBER_MISSING, "mcp-result-member-missing", Error, Mcp, SCHEMA,
    "A result has every member the MCP schema requires for its method, and so does each listed item.",
    "Clients read the required members of each result (tools for tools/list, content for tools/call, contents for resources/read, messages for prompts/get) and of each listed tool (name, an object inputSchema), resource (uri, name), template (uriTemplate, name) and prompt (name); without one the SDKs reject the reply.");

probe_rule!(RESULT_MEMBER_TYPE, "mcp-result-member-type", Error, Mcp, SCHEMA,
    "Each member of a result has the JSON type the MCP schema of the version gives it, and so does each member of a listed item.",
    "The schema types every member a client reads: a tool's name is a string and its inputSchema an object, a resource's uri a string, a list an array, isError a boolean. A value of another type (a number for a name, an object for a list) breaks the SDKs that read it.");

probe_rule!(CONTENT_INVALID, "mcp-content-invalid", Error, Mcp, SCHEMA,
    "Each content block of a result is an object with a known \"type\" and that type's members.",
    "A text block has a string \"text\", an image or audio block \"data\" and \"mimeType\", a resource link \"uri\" and \"name\", an embedded resource \"resource\". Clients render blocks by their type.");

probe_rule!(VERSION_NOT_SUPPORTED, "mcp-protocol-version-unsupported", Error, Mcp, VERSION_NEGOTIATION,
    "initialize is answered with the requested protocol version, or another published one the server supports.",
    "If the server supports the client's version it answers with that version; otherwise with another version it supports (the latest). A version that is not an MCP protocol version (or none) leaves the client nothing to speak.");

probe_rule!(
    INITIALIZE_RESULT_INVALID,
    "mcp-initialize-result-invalid",
    Error,
    Mcp,
    LIFECYCLE,
    "The initialize result carries protocolVersion, capabilities (an object) and serverInfo.",
    "The client learns from it which version to speak and which features the server offers."
);

probe_rule!(CAPABILITY_UNDECLARED, "mcp-capability-undeclared", Warning, Mcp, CAPABILITIES,
    "A server that serves a feature's methods declares that capability in its initialize result.",
    "Clients call only what the server declared (tools, resources, prompts, logging, completions): a feature served but not declared is never used.");

probe_rule!(INVALID_ARGUMENTS_ACCEPTED, "mcp-tool-invalid-arguments-accepted", Warning, Mcp, TOOLS,
    "A tool call whose arguments break the tool's inputSchema is refused: error -32602, or a result with isError true.",
    "Servers must validate tool inputs; a call that misses a required argument or gives one of the wrong type should not succeed as if it were right.");

const OUTPUT_SCHEMA: Section = Section {
    name: "MCP 2025-11-25 tools",
    title: "Output schema",
    url: "https://modelcontextprotocol.io/specification/2025-11-25/server/tools#output-schema",
};

probe_rule!(STRUCTURED_CONTENT_INVALID, "mcp-structured-content-invalid", Error, Mcp, OUTPUT_SCHEMA,
    "A tool that declares an outputSchema returns structuredContent that conforms to it.",
    "Servers must provide structured results that conform to a tool's outputSchema, and clients validate them against it: a missing structuredContent, or one the schema refuses (checked by the boon JSON Schema engine), breaks clients that read it.");

const INPUT_SCHEMA: Section = Section {
    name: "MCP 2025-11-25 tools",
    title: "Tool",
    url: "https://modelcontextprotocol.io/specification/2025-11-25/server/tools#tool",
};

// Raised by `jrpc check`/`jrpc tap` and the page's API worker (`crate::tool_schemas`), not by the probe.
probe_rule!(TOOL_ARGUMENTS_INVALID, "mcp-tool-arguments-invalid", Error, Mcp, INPUT_SCHEMA,
    "A tools/call's arguments conform to the inputSchema the tool declared in tools/list.",
    "A tool's inputSchema is the JSON Schema its arguments must meet: the server validates them and refuses a call that breaks it, so a client sending such arguments gets an error instead of a result. Fix the argument the finding points at (checked by the boon JSON Schema engine).");

const ELICITATION: Section = Section {
    name: "MCP 2026-07-28 client features",
    title: "Elicitation",
    url: "https://modelcontextprotocol.io/specification/2026-07-28/client/elicitation",
};

const JSON_SCHEMA: Section = Section {
    name: "MCP 2025-11-25 base protocol",
    title: "JSON Schema usage",
    url: "https://modelcontextprotocol.io/specification/2025-11-25/basic#json-schema-usage",
};

/// A 2026-07-28 `tools/call` of `ask` (id 1) answered by an input-required result asking `q`
/// for an integer age, then the retry (id 2) answering it with the content `$content`.
#[cfg(not(target_arch = "wasm32"))] // examples only (teaching text)
macro_rules! elicitation_round {
    ($content:literal) => {
        concat!(
            "--> {\"jsonrpc\": \"2.0\", \"method\": \"tools/call\", \"params\": {\"_meta\": {\"io.modelcontextprotocol/protocolVersion\": \"2026-07-28\", \"io.modelcontextprotocol/clientCapabilities\": {\"elicitation\": {}}, \"io.modelcontextprotocol/clientInfo\": {\"name\": \"c\", \"version\": \"1\"}}, \"name\": \"ask\"}, \"id\": 1}\n",
            "<-- {\"jsonrpc\": \"2.0\", \"result\": {\"resultType\": \"input_required\", \"inputRequests\": {\"q\": {\"method\": \"elicitation/create\", \"params\": {\"message\": \"Your age?\", \"requestedSchema\": {\"type\": \"object\", \"properties\": {\"age\": {\"type\": \"integer\", \"minimum\": 0}}, \"required\": [\"age\"]}}}}, \"requestState\": \"s1\"}, \"id\": 1}\n",
            "--> {\"jsonrpc\": \"2.0\", \"method\": \"tools/call\", \"params\": {\"_meta\": {\"io.modelcontextprotocol/protocolVersion\": \"2026-07-28\", \"io.modelcontextprotocol/clientCapabilities\": {\"elicitation\": {}}, \"io.modelcontextprotocol/clientInfo\": {\"name\": \"c\", \"version\": \"1\"}}, \"name\": \"ask\", \"inputResponses\": {\"q\": {\"action\": \"accept\", \"content\": ",
            $content,
            "}}, \"requestState\": \"s1\"}, \"id\": 2}\n",
            "<-- {\"jsonrpc\": \"2.0\", \"result\": {\"resultType\": \"complete\", \"content\": []}, \"id\": 2}"
        )
    };
}

/// A tools/list (id 1) answered with one tool whose inputSchema is `$schema`.
#[cfg(not(target_arch = "wasm32"))] // examples only (teaching text)
macro_rules! listed_tool {
    ($schema:literal) => {
        concat!(
            "--> {\"jsonrpc\": \"2.0\", \"method\": \"tools/list\", \"id\": 1}\n",
            "<-- {\"jsonrpc\": \"2.0\", \"result\": {\"tools\": [{\"name\": \"add\", \"inputSchema\": ",
            $schema,
            "}]}, \"id\": 1}"
        )
    };
}

// Raised by `jrpc check`/`jrpc tap` and the page's API worker (`crate::tool_schemas`); its examples are
// checked by tests/mcp_tool_schemas.rs the way `jrpc check` checks.
pub static ELICITATION_ANSWER_INVALID: Rule = Rule {
    id: "mcp-elicitation-answer-invalid",
    severity: Severity::Error,
    scope: Scope::Mcp,
    section: ELICITATION,
    #[cfg(not(target_arch = "wasm32"))]
    summary: "An accepted elicitation's content conforms to the requestedSchema it answers.",
    #[cfg(not(target_arch = "wasm32"))]
    explanation: "The server asked for a form shaped by requestedSchema (in an input-required result's inputRequests, or an elicitation/create request before 2026-07-28); an accepted answer's content must meet it: every required field, each of the type, range, length and choices the schema gives. Servers validate it and refuse or ask again (checked by the boon JSON Schema engine).",
    #[cfg(not(target_arch = "wasm32"))]
    bad: elicitation_round!("{\"age\": \"ten\"}"),
    #[cfg(not(target_arch = "wasm32"))]
    good: elicitation_round!("{\"age\": 10}"),
    example_version: Some(crate::rpc::McpVersion::V2026_07_28),
    #[cfg(not(target_arch = "wasm32"))]
    example_document: "",
};

pub static SCHEMA_UNUSABLE: Rule = Rule {
    id: "mcp-schema-unusable",
    severity: Severity::Warning,
    scope: Scope::Mcp,
    section: JSON_SCHEMA,
    #[cfg(not(target_arch = "wasm32"))]
    summary: "A tool's inputSchema and outputSchema, and an elicitation's requestedSchema, are JSON Schemas a validator can use.",
    #[cfg(not(target_arch = "wasm32"))]
    explanation: "MCP's schemas are JSON Schema (2020-12 unless $schema names another draft). One that does not compile (an unknown type, a keyword of the wrong kind, a $ref to nowhere) cannot check anything, so clients and servers either reject the tool or skip validation; one larger than 64 KB or nested deeper than 64 levels, one too costly to check (its $refs fan out past 4,194,304 steps at one place, or a value makes the check pass them: not judged), and tools' schemas past 4 MiB together are not checked here. Fix the schema at the place the finding names.",
    #[cfg(not(target_arch = "wasm32"))]
    bad: listed_tool!("{\"type\": \"object\", \"properties\": {\"a\": {\"type\": \"integr\"}}}"),
    #[cfg(not(target_arch = "wasm32"))]
    good: listed_tool!("{\"type\": \"object\", \"properties\": {\"a\": {\"type\": \"integer\"}}}"),
    example_version: None,
    #[cfg(not(target_arch = "wasm32"))]
    example_document: "",
};

const HEADER_VALIDATION: Section = Section {
    name: "MCP 2026-07-28 Streamable HTTP",
    title: "Server validation of request headers",
    url: "https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http#server-validation",
};

probe_rule!(HEADER_MISMATCH_ACCEPTED, "mcp-header-mismatch-accepted", Warning, Mcp, HEADER_VALIDATION,
    "A 2026-07-28 server over Streamable HTTP refuses a request whose Mcp-Method header names another method than its body: HTTP 400 with error -32020.",
    "Gateways and load balancers route by the Mcp-Method and Mcp-Name headers without reading the body; a server that serves the body's method anyway lets the two disagree, so what was routed and checked is not what ran.");

const CUSTOM_HEADERS: Section = Section {
    name: "MCP 2026-07-28 Streamable HTTP",
    title: "Custom headers from tool parameters",
    url: "https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http#custom-headers-from-tool-parameters",
};

probe_rule!(TOOL_HEADER_INVALID, "mcp-tool-header-invalid", Error, Mcp, CUSTOM_HEADERS,
    "Each x-mcp-header in a tool's inputSchema is a non-empty header name (visible ASCII, no space, colon or other separator), unique ignoring case, on a string, integer or boolean property.",
    "A 2026-07-28 client mirrors each argument a tool marks with x-mcp-header into an Mcp-Param-{name} header; a declaration that cannot be a header name, that two properties share, or that sits on a number, object, array or null property cannot be mirrored, and clients must exclude such a tool: it is never called.");

const AUTHORIZATION: Section = Section {
    name: "MCP 2025-11-25 authorization",
    title: "Authorization server discovery",
    url: "https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization#authorization-server-discovery",
};
const RFC_9728: Section = Section {
    name: "RFC 9728",
    title: "Protected resource metadata validation",
    url: "https://www.rfc-editor.org/rfc/rfc9728.html#section-3.3",
};
const RFC_8414: Section = Section {
    name: "RFC 8414",
    title: "Authorization server metadata validation",
    url: "https://www.rfc-editor.org/rfc/rfc8414.html#section-3.3",
};
const PKCE: Section = Section {
    name: "MCP 2025-11-25 authorization",
    title: "Authorization code protection",
    url: "https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization#authorization-code-protection",
};
const RFC_9207: Section = Section {
    name: "RFC 9207",
    title: "Authorization server issuer identification",
    url: "https://www.rfc-editor.org/rfc/rfc9207.html#section-2.4",
};
const OAUTH_RESPONSE: Section = Section {
    name: "OAuth 2.1",
    title: "Authorization response",
    url: "https://www.ietf.org/archive/id/draft-ietf-oauth-v2-1-13.html#section-4.1.2",
};
const OAUTH_TOKEN: Section = Section {
    name: "OAuth 2.1",
    title: "Token response",
    url: "https://www.ietf.org/archive/id/draft-ietf-oauth-v2-1-13.html#section-3.2.3",
};
const REGISTRATION: Section = Section {
    name: "RFC 7591",
    title: "Client registration response",
    url: "https://www.rfc-editor.org/rfc/rfc7591.html#section-3.2.1",
};
const CHALLENGE: Section = Section {
    name: "MCP 2025-11-25 authorization",
    title: "Protected resource metadata discovery requirements",
    url: "https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization#protected-resource-metadata-discovery-requirements",
};

probe_rule!(OAUTH_CHALLENGE_INVALID, "oauth-challenge-invalid", Error, Mcp, CHALLENGE,
    "A protected MCP server answers an unauthorized request with 401 and a Bearer WWW-Authenticate challenge, and serves its protected resource metadata (named by resource_metadata, or at the well-known URLs).",
    "The client learns from the challenge and the metadata where to get a token; without them it cannot authorize.");
probe_rule!(OAUTH_RESOURCE_METADATA_INVALID, "oauth-resource-metadata-invalid", Error, Mcp, RFC_9728,
    "The protected resource metadata is a JSON object with a string resource and at least one authorization server.",
    "RFC 9728 makes resource REQUIRED; MCP requires authorization_servers to hold at least one authorization server the client can use.");
probe_rule!(OAUTH_RESOURCE_MISMATCH, "oauth-resource-mismatch", Error, Mcp, RFC_9728,
    "The protected resource metadata's resource is the MCP server's URL (or a prefix of it).",
    "RFC 9728 §3.3: a resource that is not the URL the metadata was looked up for MUST NOT be used; a token obtained for it would be for another resource (token misuse).");
probe_rule!(OAUTH_SERVER_METADATA_INVALID, "oauth-server-metadata-invalid", Error, Mcp, AUTHORIZATION,
    "The authorization server metadata is found at the RFC 8414 or OpenID Connect well-known URL, and is a JSON object with issuer, authorization_endpoint and token_endpoint.",
    "MCP clients look for the metadata in a fixed order and need these members to run the authorization code flow.");
probe_rule!(OAUTH_ISSUER_MISMATCH, "oauth-issuer-mismatch", Error, Mcp, RFC_8414,
    "The authorization server metadata's issuer is exactly the issuer it was fetched for.",
    "RFC 8414 §3.3: metadata whose issuer differs MUST NOT be used (it may be an attacker's, naming its own endpoints).");
probe_rule!(OAUTH_PKCE_UNSUPPORTED, "oauth-pkce-unsupported", Error, Mcp, PKCE,
    "The authorization server metadata lists S256 in code_challenge_methods_supported.",
    "MCP clients MUST use PKCE with S256 and MUST refuse to proceed when the metadata does not show PKCE support.");
probe_rule!(OAUTH_REGISTRATION_FAILED, "oauth-registration-failed", Error, Mcp, REGISTRATION,
    "Dynamic client registration answers 201 with a JSON object holding a client_id (or the client is pre-registered, or uses a Client ID Metadata Document).",
    "Without a client identity the client cannot ask for authorization.");
probe_rule!(OAUTH_AUTHORIZATION_REFUSED, "oauth-authorization-refused", Error, Mcp, OAUTH_RESPONSE,
    "The authorization endpoint redirects back with a code (or the user authorizes in the browser).",
    "The authorization response carries the code the token request exchanges; an error response says why the server refused.");
probe_rule!(
    OAUTH_STATE_MISMATCH,
    "oauth-state-mismatch",
    Error,
    Mcp,
    OAUTH_RESPONSE,
    "The authorization response carries the state the request sent.",
    "A response with another state was not asked for by this client (CSRF): it is refused."
);
probe_rule!(OAUTH_ISS_MISMATCH, "oauth-iss-mismatch", Error, Mcp, RFC_9207,
    "An authorization response's iss is exactly the authorization server's issuer, and is present when the metadata says it is sent.",
    "RFC 9207 §2.4: the client compares iss with the issuer by simple string comparison and refuses a mismatch, or a missing iss when authorization_response_iss_parameter_supported is true (mix-up attacks).");
probe_rule!(OAUTH_TOKEN_RESPONSE_INVALID, "oauth-token-response-invalid", Error, Mcp, OAUTH_TOKEN,
    "The token endpoint answers 200 with a JSON object holding access_token and token_type Bearer.",
    "The access token is what the client sends to the MCP server; an error response says why the request was refused.");
probe_rule!(OAUTH_TOKEN_REFUSED, "oauth-token-refused", Error, Mcp, AUTHORIZATION,
    "The MCP server accepts the access token the authorization server issued for it, or asks for more scope (403 insufficient_scope) a bounded number of times.",
    "A server that keeps refusing fresh tokens cannot be used; the client stops after a few authorizations.");

/// The authorization rules (`jrpc probe` over HTTP, [`crate::probe::auth`]).
pub static AUTH_RULES: &[&Rule] = &[
    &OAUTH_CHALLENGE_INVALID,
    &OAUTH_RESOURCE_METADATA_INVALID,
    &OAUTH_RESOURCE_MISMATCH,
    &OAUTH_SERVER_METADATA_INVALID,
    &OAUTH_ISSUER_MISMATCH,
    &OAUTH_PKCE_UNSUPPORTED,
    &OAUTH_REGISTRATION_FAILED,
    &OAUTH_AUTHORIZATION_REFUSED,
    &OAUTH_STATE_MISMATCH,
    &OAUTH_ISS_MISMATCH,
    &OAUTH_TOKEN_RESPONSE_INVALID,
    &OAUTH_TOKEN_REFUSED,
];

/// The rules the native schema checks raise with examples of their own ([`crate::tool_schemas`]).
pub static SCHEMA_RULES: &[&Rule] = &[&ELICITATION_ANSWER_INVALID, &SCHEMA_UNUSABLE];
