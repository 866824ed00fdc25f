//! The guided path: request → notification → response → error object → batch, then MCP as of
//! 2026-07-28: a request with _meta and server/discover, content types, tool errors, resources and
//! caching, prompts and completion, logging and progress, subscriptions/listen, input-required
//! rounds asking the client's model (sampling) and its user (elicitation), cancellation, and last
//! the handshake of the earlier revisions. Each step explains one idea in a few sentences, gives an example
//! that runs against the in-browser mock server, and asks one quiz question from the bank.

use crate::rpc::{McpVersion, Profile};

/// One step of the path.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Lesson {
    /// Stable id, used in the URL (`#/lessons/<id>`).
    pub id: &'static str,
    pub title: &'static str,
    /// A few short paragraphs, in our words. (This and `example` are the lesson's teaching text:
    /// native only; the page fetches them as data, [`super::text`].)
    #[cfg(not(target_arch = "wasm32"))]
    pub text: &'static [&'static str],
    /// Runs against the mock server: send it and read the replies.
    #[cfg(not(target_arch = "wasm32"))]
    pub example: &'static str,
    pub profile: Profile,
    /// A quiz item id from [`super::quiz::bank`]: it tests this lesson (its broken rules are
    /// among `topics`, and so are its kind and method when it breaks none).
    pub question: &'static str,
    /// What this lesson teaches: rule ids, method names, and kinds (`request`, `notification`,
    /// `response`, `batch`). The rule picker of a lesson's question lists the rules taught so far.
    pub topics: &'static [&'static str],
}

const MCP: Profile = Profile::Mcp(McpVersion::V2026_07_28);

/// The path, in order. A newcomer finishes it in about 40 minutes.
pub static LESSONS: &[Lesson] = &[
    Lesson {
        id: "request",
        title: "A request",
        #[cfg(not(target_arch = "wasm32"))]
        text: &[
            "A JSON-RPC request is one JSON object with four members: \"jsonrpc\": \"2.0\" names the protocol, \"method\" names the procedure to call, \"params\" holds its arguments (an array by position or an object by name), and \"id\" lets the reply find its way back.",
            "Send it: the mock server answers subtract(42, 23) with 19, under the same id.",
            "The specification says MUST for what every message needs (\"jsonrpc\" is exactly \"2.0\"): break a MUST and the message is invalid, an error. It says SHOULD for what is wise but optional (no members it does not name, such as a misspelt \"parms\"): break a SHOULD and the message is still valid, with a warning. The checks, the reference and the quiz mark each rule as one or the other.",
        ],
        #[cfg(not(target_arch = "wasm32"))]
        example: r#"{"jsonrpc": "2.0", "method": "subtract", "params": [42, 23], "id": 1}"#,
        profile: Profile::JsonRpc,
        question: "rule:jsonrpc-not-2-0",
        topics: &["request", "subtract", "jsonrpc-missing", "jsonrpc-not-2-0", "method-not-string", "params-not-structured", "id-wrong-type", "id-null-in-request", "member-unknown"],
    },
    Lesson {
        id: "notification",
        title: "A notification",
        #[cfg(not(target_arch = "wasm32"))]
        text: &[
            "Leave the id out and a request becomes a notification: the client says something and expects nothing back. The server must not reply, not even with an error.",
            "Send it: the log shows the message going out and \"no reply expected\".",
        ],
        #[cfg(not(target_arch = "wasm32"))]
        example: r#"{"jsonrpc": "2.0", "method": "update", "params": [1, 2, 3, 4, 5]}"#,
        profile: Profile::JsonRpc,
        question: "own:update",
        topics: &["notification", "update"],
    },
    Lesson {
        id: "response",
        title: "A response",
        #[cfg(not(target_arch = "wasm32"))]
        text: &[
            "A response carries the request's id and exactly one of \"result\" (success) or \"error\" (failure). Never both, never neither.",
            "Calling by name works too: params as an object whose member names the server expects.",
        ],
        #[cfg(not(target_arch = "wasm32"))]
        example: r#"{"jsonrpc": "2.0", "method": "subtract", "params": {"minuend": 42, "subtrahend": 23}, "id": 4}"#,
        profile: Profile::JsonRpc,
        question: "rule:result-and-error",
        topics: &["response", "result-and-error", "method-result-or-error-required", "response-id-missing", "request-and-response-members"],
    },
    Lesson {
        id: "error",
        title: "The error object",
        #[cfg(not(target_arch = "wasm32"))]
        text: &[
            "When a call fails, \"error\" is an object: an integer \"code\", a short \"message\", and optional \"data\" with details. -32700 means the text was not JSON, -32600 an invalid request, -32601 an unknown method, -32602 wrong params, -32603 an internal error.",
            "Send these: an unknown method, wrong params, and a message that is not JSON. Look at each code and at the ids: null when the server could not read the request's id.",
        ],
        #[cfg(not(target_arch = "wasm32"))]
        example: "{\"jsonrpc\": \"2.0\", \"method\": \"foobar\", \"id\": \"1\"}\n{\"jsonrpc\": \"2.0\", \"method\": \"subtract\", \"params\": [\"42\", 23], \"id\": 2}\n{\"jsonrpc\": \"2.0\", \"method\": \"foobar, \"params\": \"bar\", \"baz]",
        profile: Profile::JsonRpc,
        question: "rule:error-not-object",
        topics: &["response", "error-not-object", "error-code-not-integer", "error-message-not-string", "error-code-reserved", "response-null-id-with-result", "json-syntax"],
    },
    Lesson {
        id: "batch",
        title: "A batch",
        #[cfg(not(target_arch = "wasm32"))]
        text: &[
            "Several messages can travel together as an array. The server answers with an array of the responses, in any order, one per request and none for notifications. An empty array is not a batch, and a batch of notifications gets nothing back at all.",
        ],
        #[cfg(not(target_arch = "wasm32"))]
        example: r#"[{"jsonrpc": "2.0", "method": "sum", "params": [1, 2, 4], "id": "1"}, {"jsonrpc": "2.0", "method": "notify_hello", "params": [7]}, {"jsonrpc": "2.0", "method": "subtract", "params": [42, 23], "id": "2"}, {"foo": "boo"}, {"jsonrpc": "2.0", "method": "get_data", "id": "9"}]"#,
        profile: Profile::JsonRpc,
        question: "rule:batch-empty",
        topics: &["batch", "batch-empty", "batch-element-not-object", "batch-nested", "batch-mixes-requests-and-responses", "batch-duplicate-id", "batch-reply-empty"],
    },
    Lesson {
        id: "mcp",
        title: "MCP: a request with _meta, and server/discover",
        #[cfg(not(target_arch = "wasm32"))]
        text: &[
            "The Model Context Protocol speaks JSON-RPC 2.0 with stricter rules: ids are strings or integers, never null, and each method has required params. Since 2026-07-28 it has no handshake: every request says who is asking in params._meta, the protocol version, the client's capabilities ({} for none) and clientInfo.",
            "server/discover asks what the server supports: its versions, capabilities and info. Then the client lists the tools and calls one. Send the three requests and follow them in the log and the sequence picture.",
        ],
        #[cfg(not(target_arch = "wasm32"))]
        example: "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"server/discover\", \"params\": {\"_meta\": {\"io.modelcontextprotocol/protocolVersion\": \"2026-07-28\", \"io.modelcontextprotocol/clientCapabilities\": {}, \"io.modelcontextprotocol/clientInfo\": {\"name\": \"learner\", \"version\": \"1.0\"}}}}\n{\"jsonrpc\": \"2.0\", \"id\": 2, \"method\": \"tools/list\", \"params\": {\"_meta\": {\"io.modelcontextprotocol/protocolVersion\": \"2026-07-28\", \"io.modelcontextprotocol/clientCapabilities\": {}, \"io.modelcontextprotocol/clientInfo\": {\"name\": \"learner\", \"version\": \"1.0\"}}}}\n{\"jsonrpc\": \"2.0\", \"id\": 3, \"method\": \"tools/call\", \"params\": {\"name\": \"add\", \"arguments\": {\"a\": 2, \"b\": 3}, \"_meta\": {\"io.modelcontextprotocol/protocolVersion\": \"2026-07-28\", \"io.modelcontextprotocol/clientCapabilities\": {}, \"io.modelcontextprotocol/clientInfo\": {\"name\": \"learner\", \"version\": \"1.0\"}}}}",
        profile: MCP,
        question: "rule:mcp-meta-required",
        topics: &["request", "server/discover", "tools/list", "tools/call", "mcp-meta-required", "mcp-meta-client-info", "mcp-id-null", "mcp-request-without-id", "mcp-param-missing"],
    },
    Lesson {
        id: "mcp-content",
        title: "MCP: what a tool returns",
        #[cfg(not(target_arch = "wasm32"))]
        text: &[
            "A tool's result is a list of content blocks, each with a \"type\": text, image and audio (base64 data with a mimeType), a resource embedded whole, or a resource_link the client may read later. One result can mix them. Under 2026-07-28 every result also says resultType \"complete\".",
            "A tool may also declare an outputSchema and return structuredContent that matches it, beside a text version for models that read only text. Send the three calls and open each reply.",
        ],
        #[cfg(not(target_arch = "wasm32"))]
        example: "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"tools/call\", \"params\": {\"name\": \"show_image\", \"arguments\": {}, \"_meta\": {\"io.modelcontextprotocol/protocolVersion\": \"2026-07-28\", \"io.modelcontextprotocol/clientCapabilities\": {}, \"io.modelcontextprotocol/clientInfo\": {\"name\": \"learner\", \"version\": \"1.0\"}}}}\n{\"jsonrpc\": \"2.0\", \"id\": 2, \"method\": \"tools/call\", \"params\": {\"name\": \"mixed_content\", \"arguments\": {}, \"_meta\": {\"io.modelcontextprotocol/protocolVersion\": \"2026-07-28\", \"io.modelcontextprotocol/clientCapabilities\": {}, \"io.modelcontextprotocol/clientInfo\": {\"name\": \"learner\", \"version\": \"1.0\"}}}}\n{\"jsonrpc\": \"2.0\", \"id\": 3, \"method\": \"tools/call\", \"params\": {\"name\": \"add_structured\", \"arguments\": {\"a\": 2, \"b\": 3}, \"_meta\": {\"io.modelcontextprotocol/protocolVersion\": \"2026-07-28\", \"io.modelcontextprotocol/clientCapabilities\": {}, \"io.modelcontextprotocol/clientInfo\": {\"name\": \"learner\", \"version\": \"1.0\"}}}}",
        profile: MCP,
        question: "rule:mcp-result-type-missing",
        topics: &["response", "tools/call", "mcp-result-type-missing"],
    },
    Lesson {
        id: "mcp-tool-errors",
        title: "MCP: isError or a JSON-RPC error",
        #[cfg(not(target_arch = "wasm32"))]
        text: &[
            "Two kinds of failure look alike and are not. When the tool ran and failed (a division by zero, a city that does not exist), the server answers with a result whose \"isError\" is true: the model reads the text and can try again.",
            "When the call itself is wrong (a tool that does not exist, arguments of the wrong shape), the server answers with a JSON-RPC error object, -32602 Invalid params: that is for the client's code, not for the model. Send both and compare.",
        ],
        #[cfg(not(target_arch = "wasm32"))]
        example: "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"tools/call\", \"params\": {\"name\": \"divide\", \"arguments\": {\"a\": 1, \"b\": 0}, \"_meta\": {\"io.modelcontextprotocol/protocolVersion\": \"2026-07-28\", \"io.modelcontextprotocol/clientCapabilities\": {}, \"io.modelcontextprotocol/clientInfo\": {\"name\": \"learner\", \"version\": \"1.0\"}}}}\n{\"jsonrpc\": \"2.0\", \"id\": 2, \"method\": \"tools/call\", \"params\": {\"name\": \"no_such_tool\", \"arguments\": {}, \"_meta\": {\"io.modelcontextprotocol/protocolVersion\": \"2026-07-28\", \"io.modelcontextprotocol/clientCapabilities\": {}, \"io.modelcontextprotocol/clientInfo\": {\"name\": \"learner\", \"version\": \"1.0\"}}}}",
        profile: MCP,
        question: "own:mcp-2026-tool-error",
        topics: &["response", "tools/call"],
    },
    Lesson {
        id: "mcp-resources",
        title: "MCP: resources, templates and caching",
        #[cfg(not(target_arch = "wasm32"))]
        text: &[
            "Resources are what a server lets a client read, each named by a URI: resources/list says what there is, resources/read returns the contents as text or as a base64 \"blob\". A resource template is a URI with a {variable} in it (RFC 6570): mock://error-codes/{code} stands for one resource per error code.",
            "List and read results say how long they stay fresh: ttlMs (milliseconds, 0 for stale at once) and cacheScope (\"public\": a cache may share it across users, \"private\": not). Send the four requests and find both fields in each reply.",
        ],
        #[cfg(not(target_arch = "wasm32"))]
        example: "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"resources/list\", \"params\": {\"_meta\": {\"io.modelcontextprotocol/protocolVersion\": \"2026-07-28\", \"io.modelcontextprotocol/clientCapabilities\": {}, \"io.modelcontextprotocol/clientInfo\": {\"name\": \"learner\", \"version\": \"1.0\"}}}}\n{\"jsonrpc\": \"2.0\", \"id\": 2, \"method\": \"resources/templates/list\", \"params\": {\"_meta\": {\"io.modelcontextprotocol/protocolVersion\": \"2026-07-28\", \"io.modelcontextprotocol/clientCapabilities\": {}, \"io.modelcontextprotocol/clientInfo\": {\"name\": \"learner\", \"version\": \"1.0\"}}}}\n{\"jsonrpc\": \"2.0\", \"id\": 3, \"method\": \"resources/read\", \"params\": {\"uri\": \"mock://error-codes/-32601\", \"_meta\": {\"io.modelcontextprotocol/protocolVersion\": \"2026-07-28\", \"io.modelcontextprotocol/clientCapabilities\": {}, \"io.modelcontextprotocol/clientInfo\": {\"name\": \"learner\", \"version\": \"1.0\"}}}}\n{\"jsonrpc\": \"2.0\", \"id\": 4, \"method\": \"resources/read\", \"params\": {\"uri\": \"mock://logo.png\", \"_meta\": {\"io.modelcontextprotocol/protocolVersion\": \"2026-07-28\", \"io.modelcontextprotocol/clientCapabilities\": {}, \"io.modelcontextprotocol/clientInfo\": {\"name\": \"learner\", \"version\": \"1.0\"}}}}",
        profile: MCP,
        question: "rule:mcp-cache-fields",
        topics: &["request", "resources/list", "resources/templates/list", "resources/read", "mcp-param-missing", "mcp-cache-fields"],
    },
    Lesson {
        id: "mcp-prompts",
        title: "MCP: prompts and completion",
        #[cfg(not(target_arch = "wasm32"))]
        text: &[
            "A prompt is a message template the user picks (a slash command in many clients): prompts/list names them with their arguments, prompts/get fills one in and returns the messages, which may carry images and embedded resources.",
            "completion/complete suggests values while the user types an argument: here the codes that start with \"-326\". Send the three requests.",
        ],
        #[cfg(not(target_arch = "wasm32"))]
        example: "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"prompts/list\", \"params\": {\"_meta\": {\"io.modelcontextprotocol/protocolVersion\": \"2026-07-28\", \"io.modelcontextprotocol/clientCapabilities\": {}, \"io.modelcontextprotocol/clientInfo\": {\"name\": \"learner\", \"version\": \"1.0\"}}}}\n{\"jsonrpc\": \"2.0\", \"id\": 2, \"method\": \"completion/complete\", \"params\": {\"ref\": {\"type\": \"ref/prompt\", \"name\": \"explain-error\"}, \"argument\": {\"name\": \"code\", \"value\": \"-326\"}, \"_meta\": {\"io.modelcontextprotocol/protocolVersion\": \"2026-07-28\", \"io.modelcontextprotocol/clientCapabilities\": {}, \"io.modelcontextprotocol/clientInfo\": {\"name\": \"learner\", \"version\": \"1.0\"}}}}\n{\"jsonrpc\": \"2.0\", \"id\": 3, \"method\": \"prompts/get\", \"params\": {\"name\": \"explain-error\", \"arguments\": {\"code\": \"-32601\"}, \"_meta\": {\"io.modelcontextprotocol/protocolVersion\": \"2026-07-28\", \"io.modelcontextprotocol/clientCapabilities\": {}, \"io.modelcontextprotocol/clientInfo\": {\"name\": \"learner\", \"version\": \"1.0\"}}}}",
        profile: MCP,
        question: "own:mcp-2026-completion",
        topics: &["request", "prompts/list", "prompts/get", "completion/complete"],
    },
    Lesson {
        id: "mcp-progress",
        title: "MCP: logging and progress",
        #[cfg(not(target_arch = "wasm32"))]
        text: &[
            "While it works, a server may send notifications: notifications/message log lines and notifications/progress, the latter only when the request carried a progressToken in its _meta. Both arrive before the result. 2026-07-28 removed logging/setLevel: a request asks for log lines with io.modelcontextprotocol/logLevel in its _meta (that level or more severe).",
            "Notifications have no id and get no reply. Send this and follow the countdown between the request and its result in the sequence picture.",
        ],
        #[cfg(not(target_arch = "wasm32"))]
        example: "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"tools/call\", \"params\": {\"name\": \"countdown\", \"arguments\": {\"n\": 3}, \"_meta\": {\"progressToken\": \"launch\", \"io.modelcontextprotocol/logLevel\": \"info\", \"io.modelcontextprotocol/protocolVersion\": \"2026-07-28\", \"io.modelcontextprotocol/clientCapabilities\": {}, \"io.modelcontextprotocol/clientInfo\": {\"name\": \"learner\", \"version\": \"1.0\"}}}}",
        profile: MCP,
        question: "rule:mcp-notification-with-id",
        topics: &["notification", "notifications/message", "notifications/progress", "mcp-notification-with-id"],
    },
    Lesson {
        id: "mcp-subscriptions",
        title: "MCP: subscriptions/listen",
        #[cfg(not(target_arch = "wasm32"))]
        text: &[
            "A resource can change. Since 2026-07-28 a client hears about it through subscriptions/listen (resources/subscribe is gone): one long-lived request whose params.notifications names what to hear, here resourceSubscriptions for mock://notes. The server acknowledges with notifications/subscriptions/acknowledged and sends no reply: the request stays open.",
            "Add a note with the add_note tool and watch notifications/resources/updated arrive on the subscription before the tool's result; then read the notes. Cancelling the listen request (notifications/cancelled) ends it.",
        ],
        #[cfg(not(target_arch = "wasm32"))]
        example: "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"subscriptions/listen\", \"params\": {\"notifications\": {\"resourceSubscriptions\": [\"mock://notes\"]}, \"_meta\": {\"io.modelcontextprotocol/protocolVersion\": \"2026-07-28\", \"io.modelcontextprotocol/clientCapabilities\": {}, \"io.modelcontextprotocol/clientInfo\": {\"name\": \"learner\", \"version\": \"1.0\"}}}}\n{\"jsonrpc\": \"2.0\", \"id\": 2, \"method\": \"tools/call\", \"params\": {\"name\": \"add_note\", \"arguments\": {\"text\": \"JSON-RPC ids echo exactly\"}, \"_meta\": {\"io.modelcontextprotocol/protocolVersion\": \"2026-07-28\", \"io.modelcontextprotocol/clientCapabilities\": {}, \"io.modelcontextprotocol/clientInfo\": {\"name\": \"learner\", \"version\": \"1.0\"}}}}\n{\"jsonrpc\": \"2.0\", \"id\": 3, \"method\": \"resources/read\", \"params\": {\"uri\": \"mock://notes\", \"_meta\": {\"io.modelcontextprotocol/protocolVersion\": \"2026-07-28\", \"io.modelcontextprotocol/clientCapabilities\": {}, \"io.modelcontextprotocol/clientInfo\": {\"name\": \"learner\", \"version\": \"1.0\"}}}}",
        profile: MCP,
        question: "rule:mcp-method-removed",
        topics: &["notification", "subscriptions/listen", "notifications/subscriptions/acknowledged", "notifications/resources/updated", "mcp-method-removed"],
    },
    Lesson {
        id: "mcp-sampling",
        title: "MCP: the server asks the client's model",
        #[cfg(not(target_arch = "wasm32"))]
        text: &[
            "A client that declares \"sampling\" in its _meta capabilities lets the server ask its language model. Under 2026-07-28 the server does not send a request of its own: it answers the tool call with resultType \"input_required\" and inputRequests, each key a sampling/createMessage to answer, and an opaque requestState when it has something to remember.",
            "Send this: summarize asks. Press \"Answer and retry\": the client sends the same call again under a new id, with inputResponses (an answer per key) and any requestState echoed unchanged, and the tool's result follows.",
        ],
        #[cfg(not(target_arch = "wasm32"))]
        example: "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"tools/call\", \"params\": {\"name\": \"summarize\", \"arguments\": {\"text\": \"JSON-RPC 2.0 is a stateless, light-weight remote procedure call protocol.\"}, \"_meta\": {\"io.modelcontextprotocol/protocolVersion\": \"2026-07-28\", \"io.modelcontextprotocol/clientCapabilities\": {\"sampling\": {}}, \"io.modelcontextprotocol/clientInfo\": {\"name\": \"learner\", \"version\": \"1.0\"}}}}",
        profile: MCP,
        question: "rule:mcp-input-required-shape",
        topics: &["response", "tools/call", "sampling/createMessage", "mcp-input-required-shape", "mcp-input-request-invalid"],
    },
    Lesson {
        id: "mcp-elicitation",
        title: "MCP: the server asks the user",
        #[cfg(not(target_arch = "wasm32"))]
        text: &[
            "With elicitation a server asks the user for information through the client: an elicitation/create input request carries a message and a flat JSON Schema of the fields it wants, with defaults and choices. The user accepts (with the values), declines, or cancels.",
            "The questions write a conversation as a transcript: a line starting --> is what the client sends, <-- what the server sends back (the runs here draw them → and ←).",
            "Send this: ask_name asks for a name and a colour. Answer and retry (the answer accepts with the default name and the first colour): the retry must answer every key and echo any requestState unchanged, and the greeting follows.",
        ],
        #[cfg(not(target_arch = "wasm32"))]
        example: "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"tools/call\", \"params\": {\"name\": \"ask_name\", \"arguments\": {}, \"_meta\": {\"io.modelcontextprotocol/protocolVersion\": \"2026-07-28\", \"io.modelcontextprotocol/clientCapabilities\": {\"elicitation\": {}}, \"io.modelcontextprotocol/clientInfo\": {\"name\": \"learner\", \"version\": \"1.0\"}}}}",
        profile: MCP,
        question: "rule:mcp-retry-missing-responses",
        topics: &["response", "tools/call", "elicitation/create", "mcp-retry-missing-responses", "mcp-request-state-changed", "mcp-input-response-invalid"],
    },
    Lesson {
        id: "mcp-cancellation",
        title: "MCP: cancelling a request",
        #[cfg(not(target_arch = "wasm32"))]
        text: &[
            "Either side may give up on a request it sent: notifications/cancelled names the request's id (and may say why). The receiver stops working on it and sends no reply at all, not even an error.",
            "Send this: the client opens a subscription, then cancels it. The listen request never gets a reply: the subscription is simply over.",
        ],
        #[cfg(not(target_arch = "wasm32"))]
        example: "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"subscriptions/listen\", \"params\": {\"notifications\": {\"resourceSubscriptions\": [\"mock://notes\"]}, \"_meta\": {\"io.modelcontextprotocol/protocolVersion\": \"2026-07-28\", \"io.modelcontextprotocol/clientCapabilities\": {}, \"io.modelcontextprotocol/clientInfo\": {\"name\": \"learner\", \"version\": \"1.0\"}}}}\n{\"jsonrpc\": \"2.0\", \"method\": \"notifications/cancelled\", \"params\": {\"requestId\": 1, \"reason\": \"The user closed the notes\"}}",
        profile: MCP,
        question: "own:mcp-2026-cancel-listen",
        topics: &["notification", "notifications/cancelled"],
    },
    Lesson {
        id: "mcp-versions",
        title: "MCP before 2026-07-28: the handshake",
        #[cfg(not(target_arch = "wasm32"))]
        text: &[
            "Revisions 2024-11-05 to 2025-11-25 start a session with a handshake: the client sends initialize with the newest version it speaks, its capabilities and clientInfo; the server answers with the version it will use and its capabilities; the client acknowledges with the notification notifications/initialized. Only then do other requests follow, and nothing repeats _meta.",
            "What a side did not declare, the other must not use. In these revisions the server sends requests of its own: here summarize sends sampling/createMessage and the tool's result waits. Answer as the client, and the result follows. logging/setLevel and ping live here too.",
            "Either side may give up on a request it sent: the second call here is cancelled with notifications/cancelled, so the server cancels the request it had sent for it in turn. A cancelled request gets no reply at all, not even an error: that one is not answered.",
        ],
        #[cfg(not(target_arch = "wasm32"))]
        example: "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"initialize\", \"params\": {\"protocolVersion\": \"2025-11-25\", \"capabilities\": {\"sampling\": {}}, \"clientInfo\": {\"name\": \"learner\", \"version\": \"1.0\"}}}\n{\"jsonrpc\": \"2.0\", \"method\": \"notifications/initialized\"}\n{\"jsonrpc\": \"2.0\", \"id\": 2, \"method\": \"tools/call\", \"params\": {\"name\": \"summarize\", \"arguments\": {\"text\": \"JSON-RPC 2.0 is a stateless, light-weight remote procedure call protocol.\"}}}\n{\"jsonrpc\": \"2.0\", \"id\": 3, \"method\": \"tools/call\", \"params\": {\"name\": \"summarize\", \"arguments\": {\"text\": \"A long text nobody wants summarized after all.\"}}}\n{\"jsonrpc\": \"2.0\", \"method\": \"notifications/cancelled\", \"params\": {\"requestId\": 3, \"reason\": \"The user pressed Stop\"}}",
        profile: Profile::Mcp(McpVersion::V2025_11_25),
        question: "own:mcp-sampling-from-client",
        topics: &["initialize", "notifications/initialized", "tools/call", "sampling/createMessage", "notifications/cancelled", "mcp-initialize-first", "mcp-request-during-initialization", "mcp-wrong-direction"],
    },
];

/// The rule ids taught by the lessons up to and including the one at `index` (0-based), in
/// catalogue order: what a lesson's question offers to pick from.
pub fn rules_taught(index: usize) -> Vec<&'static str> {
    let taught: Vec<&str> = LESSONS
        .iter()
        .take(index + 1)
        .flat_map(|l| l.topics.iter().copied())
        .collect();
    crate::rpc::catalogue::all()
        .map(|r| r.id)
        .filter(|id| taught.contains(id))
        .collect()
}

/// The lesson with this id.
pub fn lesson(id: &str) -> Option<&'static Lesson> {
    LESSONS.iter().find(|l| l.id == id)
}

/// The note a lesson's run shows under a message that got no reply: what the learner saw happen.
/// `sent` is the message (`request`: it waits for a reply); `run` every message the client sent
/// in the run (a `notifications/cancelled` naming the request's id is why it got none).
pub fn no_reply_note(request: bool, sent: &str, run: &[String]) -> &'static str {
    const NOTHING: &str = "← no reply: nothing is returned for this message";
    let parsed = crate::json::parse_document(sent.as_bytes(), 0).ok();
    let root = parsed.as_ref().map(|(p, _)| &p.root);
    let id = root
        .and_then(|r| r.get("id"))
        .map(|id| crate::json::Json::from_node(id).compact());
    let (Some(root), Some(id), true) = (root, id, request) else {
        return NOTHING;
    };
    let listen =
        root.get("method").and_then(crate::json::Node::as_str) == Some("subscriptions/listen");
    let cancelled = run.iter().any(|m| {
        crate::json::parse_document(m.as_bytes(), 0).is_ok_and(|(p, _)| {
            p.root.get("method").and_then(crate::json::Node::as_str)
                == Some("notifications/cancelled")
                && p.root
                    .get("params")
                    .and_then(|params| params.get("requestId"))
                    .is_some_and(|r| crate::json::Json::from_node(r).compact() == id)
        })
    });
    match (cancelled, listen) {
        (true, true) => "← no reply: the client cancelled this subscription (the notifications/cancelled below), so it ended without one, not even an error: no more notifications come on it",
        (true, false) => "← no reply: the client cancelled this request (the notifications/cancelled below), so the server sends none, not even an error",
        (false, true) => "← no reply: the subscription stays open, and its notifications arrive on it until the client cancels it",
        (false, false) => "← no reply yet: the call waits for the client's answer",
    }
}
