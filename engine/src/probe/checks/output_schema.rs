//! A tool's `structuredContent` against its `outputSchema` (MCP 2025-06-18 on), checked by the
//! JSON Schema engine the OpenRPC validator uses (boon; feature `mcp-schemas`: `jrpc probe`, and
//! the page's Probe, whose `probe-worker` binary is built with it).

use serde_json::Value;

use super::{blame, Record, MAX_FINDINGS_PER_CHECK};
use crate::openrpc::schema_errors;
use crate::probe::conversation::Exchange;
use crate::probe::rules::STRUCTURED_CONTENT_INVALID;

/// Checks the result of calling `tool` (named `name`): when the tool declares an `outputSchema`
/// and the result is not an error, `structuredContent` must be there and conform to it.
pub(super) fn structured_content(
    record: &mut Record,
    exchange: &Exchange,
    tool: &Value,
    name: &str,
) {
    let (Some(schema), Some(result)) = (tool.get("outputSchema"), exchange.result()) else {
        return;
    };
    // An error result owes no structured content.
    if result.get("isError") == Some(&Value::Bool(true)) {
        return;
    }
    let at = blame(exchange);
    let Some(content) = result.get("structuredContent") else {
        record.find(
            at,
            &STRUCTURED_CONTENT_INVALID,
            "/result",
            format!("{name} declares an outputSchema, and its result has no structuredContent"),
        );
        return;
    };
    match schema_errors(schema, content) {
        Err(why) => record.note(format!("{name}: its outputSchema cannot be used: {why}")),
        Ok(errors) => {
            for e in errors.into_iter().take(MAX_FINDINGS_PER_CHECK) {
                let schema_at = if e.schema.is_empty() {
                    "/".to_string()
                } else {
                    e.schema
                };
                record.find(
                    at,
                    &STRUCTURED_CONTENT_INVALID,
                    &format!("/result/structuredContent{}", e.instance),
                    format!(
                        "{name}: structuredContent{} breaks its outputSchema: {} (outputSchema {schema_at})",
                        e.instance, e.message
                    ),
                );
            }
        }
    }
}
