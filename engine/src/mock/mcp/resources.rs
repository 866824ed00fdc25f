//! The friendly resources: their catalogue, the error-code template, `resources/read` and the
//! handshake versions' `resources/subscribe`.

use crate::json::{Json, Node};
use crate::rpc::errors;
use crate::rpc::McpVersion;

use super::super::content::PNG_1X1;
use super::super::params::{required_str, resource_not_found};
use super::lifecycle::{INSTRUCTIONS, SERVER_NAME};
use super::notes::{note_number, notes_text, NOTES_URI};
use super::{MockServer, Outcome};

/// The resource mock://readme inside a result.
pub(super) fn embedded_readme() -> Json {
    let readme = &RESOURCES[0];
    Json::obj([
        ("type", Json::from("resource")),
        (
            "resource",
            Json::obj([
                ("uri", Json::from(readme.uri)),
                ("mimeType", Json::from(readme.mime_type)),
                ("text", Json::String(readme.text())),
            ]),
        ),
    ])
}

pub(super) struct Resource {
    pub(super) uri: &'static str,
    pub(super) name: &'static str,
    pub(super) title: &'static str,
    pub(super) description: &'static str,
    pub(super) mime_type: &'static str,
}

pub(super) static RESOURCES: &[Resource] = &[
    Resource {
        uri: "mock://readme",
        name: "readme",
        title: "About this server",
        description: "What the mock server offers and how to try it.",
        mime_type: "text/markdown",
    },
    Resource {
        uri: "mock://error-codes",
        name: "error-codes",
        title: "JSON-RPC 2.0 error codes",
        description: "The predefined error codes of JSON-RPC 2.0 §5.1 and what they mean.",
        mime_type: "text/plain",
    },
    Resource {
        uri: "mock://logo.png",
        name: "logo",
        title: "A tiny logo",
        description: "A binary resource: a 1×1 PNG, read as base64 in \"blob\" (not \"text\").",
        mime_type: "image/png",
    },
    Resource {
        uri: NOTES_URI,
        name: "notes",
        title: "Notes",
        description: "The notes the add_note tool keeps: it changes, so a client subscribed to it (resources/subscribe) hears notifications/resources/updated.",
        mime_type: "text/plain",
    },
];

/// `resources/subscribe` (`on`) and `resources/unsubscribe` of a resource the server has; an
/// unknown one is -32002. Unsubscribing from what was not subscribed changes nothing.
pub(super) fn subscribe(server: &mut MockServer, params: Option<&Node<'_>>, on: bool) -> Outcome {
    let uri = required_str(params, "uri", "the resource")?;
    if resources_read(server, params).is_err() {
        return Err(resource_not_found(uri));
    }
    let known = server.subscriptions.iter().position(|u| u == uri);
    match (on, known) {
        (true, None) => server.subscriptions.push(uri.to_string()),
        (false, Some(index)) => {
            server.subscriptions.remove(index);
        }
        _ => {}
    }
    Ok(Json::Object(Vec::new()))
}

impl Resource {
    pub(super) fn to_json(&self, version: McpVersion) -> Json {
        let mut r = vec![
            ("uri", Json::from(self.uri)),
            ("name", Json::from(self.name)),
        ];
        if version >= McpVersion::V2025_06_18 {
            r.push(("title", Json::from(self.title)));
        }
        r.push(("description", Json::from(self.description)));
        r.push(("mimeType", Json::from(self.mime_type)));
        Json::obj(r)
    }

    pub(super) fn text(&self) -> String {
        match self.name {
            "readme" => format!(
                "# {SERVER_NAME}\n\n{INSTRUCTIONS}\n\nTry: echo '{{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":{{}}}}' | jrpc serve\n"
            ),
            _ => {
                let mut text = String::new();
                for code in errors::PREDEFINED {
                    text.push_str(&format!("{} {}: {}\n", code.code, code.message, code.meaning));
                }
                text.push_str("-32099..-32000 Server error: reserved for implementation-defined server errors\n");
                text
            }
        }
    }
}

/// The one resource template: each predefined error code on its own, `mock://error-codes/{code}`.
pub(super) const ERROR_CODE_TEMPLATE: &str = "mock://error-codes/{code}";

pub(super) fn error_code_template(version: McpVersion) -> Json {
    let mut t = vec![
        ("uriTemplate", Json::from(ERROR_CODE_TEMPLATE)),
        ("name", Json::from("error-code")),
    ];
    if version >= McpVersion::V2025_06_18 {
        t.push(("title", Json::from("One JSON-RPC 2.0 error code")));
    }
    t.push((
        "description",
        Json::from("A predefined error code of JSON-RPC 2.0 §5.1: its message and what it means."),
    ));
    t.push(("mimeType", Json::from("text/plain")));
    Json::obj(t)
}

/// The codes `{code}` of [`ERROR_CODE_TEMPLATE`] takes.
pub(super) fn error_code_values() -> impl Iterator<Item = String> {
    errors::PREDEFINED.iter().map(|c| c.code.to_string())
}

pub(super) fn resources_read(server: &MockServer, params: Option<&Node<'_>>) -> Outcome {
    let uri = required_str(params, "uri", "the resource to read")?;
    let templated = uri
        .strip_prefix("mock://error-codes/")
        .and_then(|code| code.parse::<i64>().ok())
        .and_then(errors::predefined);
    if let Some(code) = templated {
        return Ok(Json::obj([(
            "contents",
            Json::arr([Json::obj([
                ("uri", Json::from(uri)),
                ("mimeType", Json::from("text/plain")),
                (
                    "text",
                    Json::String(format!(
                        "{} {}: {}\n",
                        code.code, code.message, code.meaning
                    )),
                ),
            ])]),
        )]));
    }
    if let Some(n) = note_number(server, uri) {
        return Ok(Json::obj([(
            "contents",
            Json::arr([Json::obj([
                ("uri", Json::from(uri)),
                ("mimeType", Json::from("text/plain")),
                ("text", Json::String(server.notes[n - 1].clone())),
            ])]),
        )]));
    }
    let Some(resource) = RESOURCES.iter().find(|r| r.uri == uri) else {
        return Err(resource_not_found(uri));
    };
    // Binary contents travel as base64 in "blob"; text in "text".
    let body = if resource.mime_type == "image/png" {
        ("blob", Json::from(PNG_1X1))
    } else if resource.uri == NOTES_URI {
        ("text", Json::String(notes_text(&server.notes)))
    } else {
        ("text", Json::String(resource.text()))
    };
    Ok(Json::obj([(
        "contents",
        Json::arr([Json::obj([
            ("uri", Json::from(resource.uri)),
            ("mimeType", Json::from(resource.mime_type)),
            body,
        ])]),
    )]))
}
