//! The page's OpenRPC API (#26): an OpenRPC document loaded (checked against the meta-schema),
//! the editor's messages checked under it, the mock serving it, and its reference. Everything
//! crosses as serde JSON ([`ApiRequest`] in, [`ApiAnswer`] out, through [`answer_json`]), so the
//! same code runs wherever the page puts it: the API worker (src/bin/api_worker.rs) keeps the
//! JSON Schema engine out of the page's first load.

use std::cell::RefCell;

use serde_json::{json, Value};

use crate::openrpc::{self, Method, OpenRpc, ParamStructure};
use crate::rpc::{Profile, Report};
use crate::saved::profile_from_str;
use crate::web::kit::analysis::Analysis;
use crate::wire::api::{
    ApiAnswer, ApiRequest, DescriptorReference, DocumentError, ErrorReference, ExampleReference,
    LoadedReference, MethodReference, Reference,
};

thread_local! {
    /// The document loaded, if any (one per page: the worker's state).
    static LOADED: RefCell<Option<OpenRpc>> = const { RefCell::new(None) };
}

/// Answers `request` (an [`ApiRequest`] as JSON) with an [`ApiAnswer`] as JSON.
pub fn answer_json(request: &str) -> String {
    let answer = match serde_json::from_str::<ApiRequest>(request) {
        Ok(request) => answer(request),
        Err(e) => ApiAnswer::Failed {
            error: format!("the request is not readable: {e}"),
        },
    };
    serde_json::to_string(&answer).unwrap_or_default()
}

/// Answers one request.
pub fn answer(request: ApiRequest) -> ApiAnswer {
    match request {
        ApiRequest::Load { text } => match OpenRpc::load(text.as_bytes()) {
            Ok(doc) => match LoadedReference::new(&reference(&doc)) {
                Ok(reference) => {
                    LOADED.with(|l| *l.borrow_mut() = Some(doc));
                    ApiAnswer::Loaded { reference }
                }
                Err(e) => ApiAnswer::Failed {
                    error: format!("the document's reference could not be written ({e})"),
                },
            },
            Err(e) => ApiAnswer::Refused {
                errors: located(&text, &e),
            },
        },
        ApiRequest::Unload => {
            LOADED.with(|l| *l.borrow_mut() = None);
            ApiAnswer::Unloaded
        }
        ApiRequest::Check { fp, text, profile } => {
            let profile = profile_from_str(&profile).unwrap_or(Profile::JsonRpc);
            let analysis = LOADED.with(|l| {
                let loaded = l.borrow();
                Analysis::run_with(&text, profile, None, js_sys::Date::now, |report| {
                    more_checks(profile, loaded.as_ref(), text.as_bytes(), report)
                })
                .encode()
            });
            ApiAnswer::Checked { fp, analysis }
        }
        ApiRequest::Mock { message } => LOADED.with(|l| match l.borrow().as_ref() {
            Some(doc) => ApiAnswer::Replied {
                reply: openrpc::mock::reply(doc, message.as_bytes()),
            },
            None => no_document(),
        }),
        ApiRequest::Probe { probe, document } => match probe.read() {
            Ok(probe) => {
                crate::web::workers::probe::api_side::start(probe, document);
                ApiAnswer::Probing
            }
            Err(e) => ApiAnswer::Failed {
                error: format!("the probe's request could not be read ({e})"),
            },
        },
        ApiRequest::ProbeCancel => {
            crate::web::workers::probe::api_side::cancel();
            ApiAnswer::Probing
        }
    }
}

/// The checks `jrpc check` adds to JSON-RPC's, in its order (src/cli/check.rs): the MCP schemas
/// under an MCP profile, then the API document's, if any.
pub fn more_checks(profile: Profile, doc: Option<&OpenRpc>, src: &[u8], report: &mut Report) {
    if matches!(profile, Profile::Mcp(_)) {
        crate::tool_schemas::check(src, report);
    }
    if let Some(doc) = doc {
        openrpc::check(doc, src, report);
    }
}

fn no_document() -> ApiAnswer {
    ApiAnswer::Failed {
        error: "no OpenRPC document is loaded".into(),
    }
}

/// The load errors of `text`, each with its line and column.
fn located(text: &str, e: &openrpc::LoadError) -> Vec<DocumentError> {
    let lines = crate::json::LineIndex::new(text.as_bytes());
    e.violations
        .iter()
        .map(|v| {
            let at = lines.position(text.as_bytes(), v.span.start);
            DocumentError {
                rule: v.rule.id.to_string(),
                message: v.message.as_str().to_string(),
                pointer: v.path.as_str().to_string(),
                line: at.line,
                column: at.column,
            }
        })
        .collect()
}

fn text_at(value: &Value, key: &str) -> Option<String> {
    value.get(key).and_then(Value::as_str).map(str::to_string)
}

/// The reference of a loaded document.
pub fn reference(doc: &OpenRpc) -> Reference {
    let info = doc.value().get("info").cloned().unwrap_or(Value::Null);
    Reference {
        title: text_at(&info, "title").unwrap_or_default(),
        version: text_at(&info, "version").unwrap_or_default(),
        description: text_at(&info, "description"),
        methods: doc
            .methods()
            .iter()
            .map(|m| method_reference(doc, m))
            .collect(),
    }
}

fn method_reference(doc: &OpenRpc, method: &Method) -> MethodReference {
    let object = doc
        .value()
        .pointer(&method.pointer)
        .cloned()
        .unwrap_or(Value::Null);
    let descriptor = |pointer: &str, name: &str, required: bool, schema_pointer: &str| {
        let summary = doc
            .value()
            .pointer(pointer)
            .and_then(|d| text_at(d, "summary").or_else(|| text_at(d, "description")));
        let schema = doc
            .resolved(schema_pointer)
            .map_or(Value::Null, |(s, _)| s.clone());
        DescriptorReference {
            name: name.to_string(),
            required,
            summary,
            kind: kind_of(doc, &schema, 0),
            schema: serde_json::to_string_pretty(&schema).unwrap_or_default(),
        }
    };
    let errors = object
        .get("errors")
        .and_then(Value::as_array)
        .map_or(0, Vec::len);
    let errors = (0..errors)
        .filter_map(|i| {
            let (e, _) = doc.resolved(&format!("{}/errors/{i}", method.pointer))?;
            Some(ErrorReference {
                code: e.get("code")?.as_i64()?,
                message: text_at(e, "message").unwrap_or_default(),
            })
        })
        .collect();
    let mut examples: Vec<ExampleReference> = method
        .examples
        .iter()
        .map(|example| {
            let params = match method.param_structure {
                ParamStructure::ByName => Value::Object(example.params.iter().cloned().collect()),
                _ => Value::Array(example.params.iter().map(|(_, v)| v.clone()).collect()),
            };
            ExampleReference {
                name: example.name.clone(),
                call: call_text(&method.name, params),
                result: example
                    .result
                    .as_ref()
                    .map(|r| serde_json::to_string_pretty(r).unwrap_or_default()),
            }
        })
        .collect();
    if examples.is_empty() {
        examples.push(ExampleReference {
            name: "generated from the params' schemas".into(),
            call: call_text(&method.name, openrpc::mock::generated_params(doc, method)),
            result: None,
        });
    }
    MethodReference {
        name: method.name.clone(),
        summary: text_at(&object, "summary"),
        description: text_at(&object, "description"),
        param_structure: match method.param_structure {
            ParamStructure::ByName => "by-name",
            ParamStructure::ByPosition => "by-position",
            ParamStructure::Either => "either",
        }
        .into(),
        params: method
            .params
            .iter()
            .map(|p| descriptor(&p.pointer, &p.name, p.required, &p.schema_pointer))
            .collect(),
        result: method
            .result
            .as_ref()
            .map(|r| descriptor(&r.pointer, &r.name, true, &r.schema_pointer)),
        errors,
        examples,
    }
}

/// A request of `method` with `params`, as one line.
fn call_text(method: &str, params: Value) -> String {
    json!({"jsonrpc": "2.0", "method": method, "params": params, "id": 1}).to_string()
}

/// A schema in a few words: `integer`, `array of string`, `object (name, tag)`, `one of 2`.
fn kind_of(doc: &OpenRpc, schema: &Value, depth: usize) -> String {
    let schema = match schema.get("$ref").and_then(Value::as_str) {
        Some(r) if depth < 4 => match r.strip_prefix('#').and_then(|p| doc.resolved(p)) {
            Some((s, _)) => s,
            None => return r.to_string(),
        },
        _ => schema,
    };
    let Some(object) = schema.as_object() else {
        return if schema == &Value::Bool(true) {
            "anything".into()
        } else {
            "nothing".into()
        };
    };
    for key in ["oneOf", "anyOf", "allOf"] {
        if let Some(branches) = object.get(key).and_then(Value::as_array) {
            let words = match key {
                "oneOf" => "one of",
                "anyOf" => "any of",
                _ => "all of",
            };
            if depth < 2 {
                let parts: Vec<String> = branches
                    .iter()
                    .take(4)
                    .map(|b| kind_of(doc, b, depth + 1))
                    .collect();
                return format!("{words}: {}", parts.join(" | "));
            }
            return format!("{words} {}", branches.len());
        }
    }
    let types = match object.get("type") {
        Some(Value::String(t)) => t.clone(),
        Some(Value::Array(ts)) => ts
            .iter()
            .filter_map(Value::as_str)
            .collect::<Vec<_>>()
            .join(" or "),
        _ if object.contains_key("properties") => "object".into(),
        _ if object.contains_key("enum") => "one of the listed values".into(),
        _ => "anything".into(),
    };
    match types.as_str() {
        "array" if depth < 3 => match object.get("items") {
            Some(items) => format!("array of {}", kind_of(doc, items, depth + 1)),
            None => types,
        },
        "object" => match object.get("properties").and_then(Value::as_object) {
            Some(props) if !props.is_empty() => {
                let names: Vec<&str> = props.keys().take(6).map(String::as_str).collect();
                let more = if props.len() > 6 { ", …" } else { "" };
                format!("object ({}{more})", names.join(", "))
            }
            _ => types,
        },
        _ => types,
    }
}

/// The API worker's main (the `api-worker` binary, once its loader has loaded it): answers each
/// request (an [`ApiRequest`]) with an [`ApiAnswer`]; a probe's events come as the worker's
/// events.
pub fn start_worker() {
    crate::web::workers::port::serve(|request| {
        if let Some(id) = request.id {
            crate::web::workers::port::answer_text(id, &answer_json(request.body));
        }
    });
}
