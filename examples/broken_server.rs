//! A deliberately broken MCP server for `jrpc probe`'s tests: a small, correct stdio MCP server
//! (newline-delimited JSON-RPC) into which `--defect NAME` plants one mistake (repeatable).
//! Test-only code (a cargo example): nothing of it ships.
//!
//! ```text
//! cargo build --examples
//! target/debug/examples/broken_server [--defect NAME]...
//! ```
//!
//! Without a defect it speaks MCP 2024-11-05 … 2025-11-25 correctly: `initialize` (tools and
//! prompts declared), `ping`, `tools/list` and `tools/call` (one tool, `add`, numbers `a` and `b`),
//! `prompts/list` and `prompts/get` (one prompt, `greet`, argument `name`), -32601 for any other
//! method, -32700 / -32600 with id null for unreadable or invalid input, no answer to
//! notifications, a batch refused with one -32600 (it has batches only in 2025-03-26).
//!
//! Defects:
//! - `wrong-id`: `ping` is answered with the id as a string (`7` → `"7"`);
//! - `result-and-error`: `ping` is answered with a result and an error;
//! - `notification-answered`: every notification gets an error reply with id null;
//! - `undeclared-capability`: prompts are served but not declared;
//! - `invalid-tool-result`: `tools/call` returns a text content block without `text`;
//! - `wrong-version`: `initialize` answers protocolVersion `"1.0"`;
//! - `parse-error-id`: unparseable input gets -32600 with id 1 (not -32700 with id null);
//! - `batch-answered`: a batch is answered with a batch whatever the version;
//! - `unknown-method-result`: an unknown method gets an empty result, not -32601;
//! - `invalid-arguments-accepted`: `tools/call add` without its numbers succeeds (0);
//! - `tool-without-schema`: `tools/list` lists `add` without its inputSchema;
//! - `tool-description-number`: `tools/list` gives `add` a number as its description;
//! - `tool-schema-unusable`: `add`'s inputSchema gives `b` the type `"nmuber"` (no JSON Schema).

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    server::main()
}

#[cfg(target_arch = "wasm32")]
fn main() {}

#[cfg(not(target_arch = "wasm32"))]
mod server {
    use std::io::{self, BufRead, Write};
    use std::process::ExitCode;

    use serde_json::{json, Value};

    const DEFECTS: [&str; 13] = [
        "wrong-id",
        "result-and-error",
        "notification-answered",
        "undeclared-capability",
        "invalid-tool-result",
        "wrong-version",
        "parse-error-id",
        "batch-answered",
        "unknown-method-result",
        "invalid-arguments-accepted",
        "tool-without-schema",
        "tool-description-number",
        "tool-schema-unusable",
    ];
    const VERSIONS: [&str; 4] = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"];

    struct Server {
        defects: Vec<String>,
        version: &'static str,
    }

    pub fn main() -> ExitCode {
        let mut defects = Vec::new();
        let mut args = std::env::args().skip(1);
        while let Some(flag) = args.next() {
            match (flag.as_str(), args.next()) {
                ("--defect", Some(name)) if DEFECTS.contains(&name.as_str()) => defects.push(name),
                _ => {
                    eprintln!(
                        "usage: broken_server [--defect NAME]...\ndefects: {}",
                        DEFECTS.join(", ")
                    );
                    return ExitCode::from(2);
                }
            }
        }
        let mut server = Server {
            defects,
            version: "2025-11-25",
        };
        let stdin = io::stdin();
        let mut out = io::stdout().lock();
        for line in stdin.lock().lines() {
            let Ok(line) = line else { break };
            if line.trim().is_empty() {
                continue;
            }
            for reply in server.handle(&line) {
                if writeln!(out, "{reply}").and_then(|()| out.flush()).is_err() {
                    return ExitCode::SUCCESS;
                }
            }
        }
        ExitCode::SUCCESS
    }

    fn error(id: &Value, code: i64, message: &str) -> Value {
        json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
    }

    fn success(id: &Value, result: Value) -> Value {
        json!({"jsonrpc": "2.0", "id": id, "result": result})
    }

    impl Server {
        fn has(&self, defect: &str) -> bool {
            self.defects.iter().any(|d| d == defect)
        }

        /// The replies to one line.
        fn handle(&mut self, line: &str) -> Vec<Value> {
            let Ok(value) = serde_json::from_str::<Value>(line) else {
                return vec![if self.has("parse-error-id") {
                    error(&json!(1), -32600, "Invalid Request")
                } else {
                    error(&Value::Null, -32700, "Parse error")
                }];
            };
            match value {
                Value::Array(items) if items.is_empty() => {
                    vec![error(&Value::Null, -32600, "Invalid Request")]
                }
                Value::Array(items) => {
                    if self.version != "2025-03-26" && !self.has("batch-answered") {
                        return vec![error(
                            &Value::Null,
                            -32600,
                            "Invalid Request: this version has no batches",
                        )];
                    }
                    let replies: Vec<Value> =
                        items.iter().filter_map(|m| self.message(m)).collect();
                    if replies.is_empty() {
                        Vec::new()
                    } else {
                        vec![Value::Array(replies)]
                    }
                }
                message => self.message(&message).into_iter().collect(),
            }
        }

        fn message(&mut self, message: &Value) -> Option<Value> {
            let id = message.get("id");
            let valid = message.get("jsonrpc") == Some(&json!("2.0"))
                && message.get("method").is_some_and(Value::is_string)
                && message
                    .get("params")
                    .is_none_or(|p| p.is_object() || p.is_array())
                && id.is_none_or(|i| i.is_string() || i.is_number());
            if !valid {
                // Responses (to requests we never send) are ignored.
                if message.get("result").is_some() || message.get("error").is_some() {
                    return None;
                }
                return Some(error(&Value::Null, -32600, "Invalid Request"));
            }
            let method = message["method"].as_str().unwrap_or_default();
            let params = message.get("params").cloned().unwrap_or(json!({}));
            let Some(id) = id else {
                return self
                    .has("notification-answered")
                    .then(|| error(&Value::Null, -32601, "Method not found"));
            };
            Some(self.request(id, method, &params))
        }

        fn request(&mut self, id: &Value, method: &str, params: &Value) -> Value {
            match method {
                "initialize" => {
                    let asked = params
                        .get("protocolVersion")
                        .and_then(Value::as_str)
                        .unwrap_or("");
                    self.version = VERSIONS
                        .iter()
                        .copied()
                        .find(|v| *v == asked)
                        .unwrap_or("2025-11-25");
                    let mut capabilities = json!({"tools": {}, "prompts": {}});
                    if self.has("undeclared-capability") {
                        capabilities = json!({"tools": {}});
                    }
                    let version = if self.has("wrong-version") {
                        "1.0"
                    } else {
                        self.version
                    };
                    success(
                        id,
                        json!({
                            "protocolVersion": version,
                            "capabilities": capabilities,
                            "serverInfo": {"name": "broken_server", "version": "1.0.0"}
                        }),
                    )
                }
                "ping" if self.has("wrong-id") => success(&json!(id.to_string()), json!({})),
                "ping" if self.has("result-and-error") => {
                    json!({"jsonrpc": "2.0", "id": id, "result": {}, "error": {"code": -32603, "message": "Internal error"}})
                }
                "ping" => success(id, json!({})),
                "tools/list" => {
                    let mut add = json!({
                        "name": "add",
                        "description": "a + b",
                        "inputSchema": {"type": "object", "properties": {"a": {"type": "number"}, "b": {"type": "number"}}, "required": ["a", "b"]}
                    });
                    if self.has("tool-without-schema") {
                        add.as_object_mut().map(|a| a.remove("inputSchema"));
                    }
                    if self.has("tool-description-number") {
                        add["description"] = json!(2);
                    }
                    if self.has("tool-schema-unusable") {
                        add["inputSchema"]["properties"]["b"]["type"] = json!("nmuber");
                    }
                    success(id, json!({"tools": [add]}))
                }
                "tools/call" => self.call(id, params),
                "prompts/list" => success(
                    id,
                    json!({"prompts": [{"name": "greet", "arguments": [{"name": "name", "required": true}]}]}),
                ),
                "prompts/get" if params.get("name") == Some(&json!("greet")) => {
                    let name = params
                        .pointer("/arguments/name")
                        .and_then(Value::as_str)
                        .unwrap_or("you");
                    success(
                        id,
                        json!({"messages": [{"role": "user", "content": {"type": "text", "text": format!("Hello, {name}!")}}]}),
                    )
                }
                "prompts/get" => error(id, -32602, "Unknown prompt"),
                _ if self.has("unknown-method-result") => success(id, json!({})),
                _ => error(id, -32601, "Method not found"),
            }
        }

        fn call(&self, id: &Value, params: &Value) -> Value {
            if params.get("name") != Some(&json!("add")) {
                return error(id, -32602, "Unknown tool");
            }
            let number = |name: &str| {
                params
                    .pointer(&format!("/arguments/{name}"))
                    .and_then(Value::as_f64)
            };
            let sum = match (number("a"), number("b")) {
                (Some(a), Some(b)) => a + b,
                _ if self.has("invalid-arguments-accepted") => 0.0,
                _ => {
                    return success(
                        id,
                        json!({"content": [{"type": "text", "text": "a and b must be numbers"}], "isError": true}),
                    )
                }
            };
            if self.has("invalid-tool-result") {
                return success(id, json!({"content": [{"type": "text"}]}));
            }
            success(
                id,
                json!({"content": [{"type": "text", "text": sum.to_string()}]}),
            )
        }
    }
}
