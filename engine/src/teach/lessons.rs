//! The guided path: request → notification → response → error object → batch → the MCP
//! handshake and a tool call. Each step explains one idea in a few sentences, gives an example
//! that runs against the in-browser mock server, and asks one quiz question from the bank.

use crate::rpc::{McpVersion, Profile};

/// One step of the path.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Lesson {
    /// Stable id, used in the URL (`#/lessons/<id>`).
    pub id: &'static str,
    pub title: &'static str,
    /// A few short paragraphs, in our words.
    pub text: &'static [&'static str],
    /// Runs against the mock server: send it and read the replies.
    pub example: &'static str,
    pub profile: Profile,
    /// A quiz item id from [`super::quiz::bank`].
    pub question: &'static str,
}

const MCP: Profile = Profile::Mcp(McpVersion::V2025_11_25);

/// The path, in order. A newcomer finishes it in about 15 minutes.
pub static LESSONS: &[Lesson] = &[
    Lesson {
        id: "request",
        title: "A request",
        text: &[
            "A JSON-RPC request is one JSON object with four members: \"jsonrpc\": \"2.0\" names the protocol, \"method\" names the procedure to call, \"params\" holds its arguments (an array by position or an object by name), and \"id\" lets the reply find its way back.",
            "Send it: the mock server answers subtract(42, 23) with 19, under the same id.",
        ],
        example: r#"{"jsonrpc": "2.0", "method": "subtract", "params": [42, 23], "id": 1}"#,
        profile: Profile::JsonRpc,
        question: "rule:jsonrpc-not-2-0",
    },
    Lesson {
        id: "notification",
        title: "A notification",
        text: &[
            "Leave the id out and a request becomes a notification: the client says something and expects nothing back. The server must not reply, not even with an error.",
            "Send it: the log shows the message going out and \"no reply expected\".",
        ],
        example: r#"{"jsonrpc": "2.0", "method": "update", "params": [1, 2, 3, 4, 5]}"#,
        profile: Profile::JsonRpc,
        question: "own:update",
    },
    Lesson {
        id: "response",
        title: "A response",
        text: &[
            "A response carries the request's id and exactly one of \"result\" (success) or \"error\" (failure). Never both, never neither.",
            "Calling by name works too: params as an object whose member names the server expects.",
        ],
        example: r#"{"jsonrpc": "2.0", "method": "subtract", "params": {"minuend": 42, "subtrahend": 23}, "id": 4}"#,
        profile: Profile::JsonRpc,
        question: "rule:result-and-error",
    },
    Lesson {
        id: "error",
        title: "The error object",
        text: &[
            "When a call fails, \"error\" is an object: an integer \"code\", a short \"message\", and optional \"data\" with details. -32700 means the text was not JSON, -32600 an invalid request, -32601 an unknown method, -32602 wrong params, -32603 an internal error.",
            "Send these: an unknown method, wrong params, and a message that is not JSON. Look at each code and at the ids: null when the server could not read the request's id.",
        ],
        example: "{\"jsonrpc\": \"2.0\", \"method\": \"foobar\", \"id\": \"1\"}\n{\"jsonrpc\": \"2.0\", \"method\": \"subtract\", \"params\": [\"42\", 23], \"id\": 2}\n{\"jsonrpc\": \"2.0\", \"method\": \"foobar, \"params\": \"bar\", \"baz]",
        profile: Profile::JsonRpc,
        question: "rule:error-not-object",
    },
    Lesson {
        id: "batch",
        title: "A batch",
        text: &[
            "Several messages can travel together as an array. The server answers with an array of the responses, in any order, one per request and none for notifications. An empty array is not a batch, and a batch of notifications gets nothing back at all.",
        ],
        example: r#"[{"jsonrpc": "2.0", "method": "sum", "params": [1, 2, 4], "id": "1"}, {"jsonrpc": "2.0", "method": "notify_hello", "params": [7]}, {"jsonrpc": "2.0", "method": "subtract", "params": [42, 23], "id": "2"}, {"foo": "boo"}, {"jsonrpc": "2.0", "method": "get_data", "id": "9"}]"#,
        profile: Profile::JsonRpc,
        question: "rule:batch-empty",
    },
    Lesson {
        id: "mcp",
        title: "MCP: handshake and a tool call",
        text: &[
            "The Model Context Protocol speaks JSON-RPC 2.0 with stricter rules: ids are strings or integers, never null; each method has required params; and a session starts with initialize, whose result the client acknowledges with the notification notifications/initialized.",
            "Then the client lists the server's tools and calls one. Send the whole flow and follow it in the log and the sequence picture.",
        ],
        example: "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"initialize\", \"params\": {\"protocolVersion\": \"2025-11-25\", \"capabilities\": {}, \"clientInfo\": {\"name\": \"learner\", \"version\": \"1.0\"}}}\n{\"jsonrpc\": \"2.0\", \"method\": \"notifications/initialized\"}\n{\"jsonrpc\": \"2.0\", \"id\": 2, \"method\": \"tools/list\", \"params\": {}}\n{\"jsonrpc\": \"2.0\", \"id\": 3, \"method\": \"tools/call\", \"params\": {\"name\": \"add\", \"arguments\": {\"a\": 2, \"b\": 3}}}",
        profile: MCP,
        question: "own:seed-lab-3",
    },
];

/// The lesson with this id.
pub fn lesson(id: &str) -> Option<&'static Lesson> {
    LESSONS.iter().find(|l| l.id == id)
}
