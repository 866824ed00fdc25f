//! MCP tools: every tool called with arguments made from its inputSchema (its result's content
//! blocks checked), and one call with arguments that break the schema.

use serde_json::{json, Value};

use super::listing::{count, list_located, result_members, title, PAGINATION};
use super::{Plan, Record, Runner, Server, Status};
use crate::probe::arguments;
use crate::probe::conversation::Exchange;
use crate::probe::link::{LinkError, ProbeLink};
use crate::probe::rules::{CONTENT_INVALID, INVALID_ARGUMENTS_ACCEPTED, TOOL_HEADER_INVALID};

const TOOLS: &str = "https://modelcontextprotocol.io/specification/2025-11-25/server/tools";

pub async fn tools<L: ProbeLink>(
    runner: &mut Runner<'_, L>,
    plan: &Plan,
    server: &Server,
) -> Result<(), LinkError> {
    if !server.declares("tools") {
        for id in ["tools/list", "tools/call", "tools/call-invalid-arguments"] {
            runner.skip(
                id,
                title(id),
                TOOLS,
                "not declared (no tools capability): skipped",
            );
        }
        return Ok(());
    }
    runner.begin("tools/list", title("tools/list"), PAGINATION);
    let listed = list_located(runner, server, "tools/list", "tools").await?;
    runner.note(count(listed.len(), "tool"));
    // Each tool's x-mcp-header declarations (2026-07-28): the link mirrors a valid tool's
    // arguments into headers; a tool with an invalid one is reported and never called.
    let mut tools = Vec::with_capacity(listed.len());
    for item in listed {
        let name = item.value.get("name").and_then(Value::as_str);
        let declared = match item.value.get("inputSchema") {
            Some(schema) if server.version >= crate::rpc::McpVersion::V2026_07_28 => {
                crate::probe::link::header_params(schema)
            }
            _ => Ok(Vec::new()),
        };
        match (name, declared) {
            (Some(name), Ok(params)) => {
                if !params.is_empty() {
                    runner
                        .conversation
                        .link()
                        .declare_header_params(name, params);
                }
                tools.push(item.value);
            }
            (Some(name), Err((pointer, why))) => {
                let name = crate::probe::link::excerpt(name, 80);
                runner.find(
                    item.entry,
                    &TOOL_HEADER_INVALID,
                    &format!("{}/inputSchema{pointer}", item.pointer),
                    format!("{name}: {why}: not called"),
                );
            }
            (None, _) => tools.push(item.value),
        }
    }

    runner.begin("tools/call", title("tools/call"), TOOLS);
    let mut called = 0;
    for tool in &tools {
        let Some(name) = tool.get("name").and_then(Value::as_str) else {
            continue;
        };
        if plan.skip_tools.iter().any(|s| s == name) {
            runner.note(format!("{name}: skipped (--skip-tool)"));
            continue;
        }
        if needs_task(tool) {
            runner.note(format!(
                "{name}: skipped (runs only as a task: execution.taskSupport \"required\")"
            ));
            continue;
        }
        if called == plan.max_calls {
            runner.note(format!("stopped after {called} calls (--max-calls)"));
            break;
        }
        called += 1;
        let schema = tool.get("inputSchema").cloned().unwrap_or(json!({}));
        // A schema the engine cannot compile is said, not skipped in silence (the arguments are
        // still made from what it names).
        #[cfg(feature = "mcp-schemas")]
        if let Err(why) = crate::openrpc::CompiledSchema::new(&schema)
            .and_then(|compiled| compiled.usable().map_err(|e| e.to_string()))
        {
            runner.note(format!("{name}: its inputSchema cannot be used: {why}"));
        }
        let (args, cut) = arguments::valid(&schema);
        if cut {
            runner.note(format!(
                "{name}: arguments cut to {} bytes (its inputSchema asks for more)",
                arguments::MAX_ARGUMENTS_BYTES
            ));
        }
        let exchange = runner
            .conversation
            .request("tools/call", json!({"name": name, "arguments": args}))
            .await?;
        if exchange.result().is_some() {
            result_members(runner, &exchange, "tools/call", server.version);
            content_blocks(runner, &exchange, "/result/content");
            #[cfg(feature = "mcp-schemas")]
            super::output_schema::structured_content(runner, &exchange, tool, name);
            if exchange.result().and_then(|r| r.get("isError")) == Some(&Value::Bool(true)) {
                runner.note(format!("{name}: isError result"));
            }
        } else if let Some(code) = exchange.error_code() {
            runner.note(format!("{name}: error {code}"));
        } else if exchange.reply.is_none() {
            runner.note(format!("{name}: no reply within the timeout"));
        }
    }
    if tools.is_empty() {
        let check = runner.current();
        check.status = Status::Skipped;
        check.detail = "no tools listed".into();
    }

    runner.begin(
        "tools/call-invalid-arguments",
        title("tools/call-invalid-arguments"),
        TOOLS,
    );
    let target = tools.iter().find_map(|tool| {
        let name = tool.get("name").and_then(Value::as_str)?;
        if plan.skip_tools.iter().any(|s| s == name) || needs_task(tool) {
            return None;
        }
        let (args, how) = arguments::invalid(tool.get("inputSchema")?)?;
        Some((name.to_string(), args, how))
    });
    let Some((name, args, how)) = target else {
        let check = runner.current();
        check.status = Status::Skipped;
        check.detail = "no tool has a required or typed argument".into();
        return Ok(());
    };
    let exchange = runner
        .conversation
        .request("tools/call", json!({"name": name, "arguments": args}))
        .await?;
    let refused = exchange.error_code().is_some()
        || exchange.result().and_then(|r| r.get("isError")) == Some(&Value::Bool(true));
    if refused {
        runner.note(format!("{name} with {how}: refused"));
    } else if exchange.result().is_some() {
        let at = super::blame(&exchange);
        runner.find(
            at,
            &INVALID_ARGUMENTS_ACCEPTED,
            "/result",
            format!("tools/call {name} with {how} succeeded"),
        );
    } else if exchange.reply.is_none() {
        runner.note(format!("{name}: no reply within the timeout"));
    }
    Ok(())
}

/// The content blocks at `pointer` of the reply: objects with a known type and its members.
fn content_blocks(record: &mut Record, exchange: &Exchange, pointer: &str) {
    let at = super::blame(exchange);
    let Some(blocks) = exchange.value().and_then(|v| v.pointer(pointer)) else {
        return;
    };
    let Some(blocks) = blocks.as_array() else {
        record.find(at, &CONTENT_INVALID, pointer, "content is not an array");
        return;
    };
    for (i, block) in blocks.iter().enumerate() {
        let path = format!("{pointer}/{i}");
        let ty = block.get("type").and_then(Value::as_str);
        let needs: &[&str] = match ty {
            Some("text") => &["text"],
            Some("image" | "audio") => &["data", "mimeType"],
            Some("resource_link") => &["uri", "name"],
            Some("resource") => &["resource"],
            Some(other) => {
                record.find(
                    at,
                    &CONTENT_INVALID,
                    &path,
                    format!("content block of unknown type {other:?}"),
                );
                continue;
            }
            None => {
                record.find(
                    at,
                    &CONTENT_INVALID,
                    &path,
                    "content block without a string \"type\"",
                );
                continue;
            }
        };
        for member in needs {
            if block.get(*member).is_none() {
                record.find(
                    at,
                    &CONTENT_INVALID,
                    &path,
                    format!("{} content block without {member:?}", ty.unwrap_or("")),
                );
            }
        }
        if ty == Some("text") && block.get("text").is_some_and(|t| !t.is_string()) {
            record.find(
                at,
                &CONTENT_INVALID,
                &format!("{path}/text"),
                "text content block whose \"text\" is not a string",
            );
        }
    }
}

/// The tool can only be called as a task (2025-11-25 `execution.taskSupport: "required"`), which
/// the probe does not do.
fn needs_task(tool: &Value) -> bool {
    tool.pointer("/execution/taskSupport")
        .and_then(Value::as_str)
        == Some("required")
}
