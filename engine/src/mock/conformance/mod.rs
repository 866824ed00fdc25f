//! The official MCP conformance suite's fixtures (`jrpc serve --fixtures conformance`): the tools,
//! resources and prompts its server scenarios call by name (`test_simple_text`,
//! `test://static-text`, `test_prompt_with_arguments`, …), with the content each scenario's
//! description asks for (`@modelcontextprotocol/conformance` 0.1.16, read from its scenario texts).
//! The lifecycle, params checking and version shapes are the mock's own (`super::mcp`, which
//! picks this catalogue); only the catalogue differs. It builds on the shared pieces below both
//! (`super::content`, `super::params`, `super::ask`), never on `mcp` itself.
//!
//! The logging and progress tools send their notifications before the result (the transports
//! send [`MockServer::take_outgoing`] first: over HTTP the POST's reply becomes an SSE stream).
//! The sampling and elicitation tools (`test_sampling`, `test_elicitation`,
//! `test_elicitation_sep1034_defaults`, `test_elicitation_sep1330_enums`) ask the client
//! ([`super::ask`]) and answer with what it said. The 2026-07-28 fixtures are apart:
//! [`input_required`] (input-required results) and [`tasks`] (the Tasks extension's tools).

mod input_required;
#[cfg(feature = "tasks")]
mod tasks;

use crate::json::{Json, Node};
use crate::rpc::errors::METHOD_NOT_FOUND;

use super::ask::{self, Capability};
use super::content::{completion, media_content, text_content, tool_error, PNG_1X1, WAV_SILENCE};
use super::params::{required_str, resource_not_found, unknown, HeaderParam};
use super::{MockServer, Outcome, RpcError};

/// What this catalogue answers differently from the friendly one (the lifecycle, ping and
/// logging are the mock's own): `None` for any other method.
pub(super) fn serve(
    server: &mut MockServer,
    method: &str,
    params: Option<&Node<'_>>,
) -> Option<Outcome> {
    const METHODS: &[&str] = &[
        "tools/list",
        "tools/call",
        "resources/list",
        "resources/templates/list",
        "resources/read",
        "resources/subscribe",
        "resources/unsubscribe",
        "prompts/list",
        "prompts/get",
        "completion/complete",
    ];
    METHODS
        .contains(&method)
        .then(|| answer(server, method, params))
}

fn answer(server: &mut MockServer, method: &str, params: Option<&Node<'_>>) -> Outcome {
    match method {
        "tools/list" => Ok(tools_list()),
        "tools/call" => {
            let name = required_str(params, "name", "the tool to call")?;
            #[cfg(feature = "mcp-schemas")]
            if let Some(refused) = super::input_schema::listed_tool(&tools_list(), name)
                .and_then(|tool| super::input_schema::refused(tool, params))
            {
                return Ok(refused);
            }
            input_required::tools_call(server, name, params)
                .or_else(|| task_tools_call(server, name, params))
                .or_else(|| tools_call(server, name, params))
                .unwrap_or_else(|| Err(unknown("tool", name, &tool_names())))
        }
        "resources/list" => Ok(resources_list()),
        "resources/templates/list" => Ok(templates_list()),
        "resources/read" => {
            let uri = required_str(params, "uri", "the resource to read")?;
            read(uri).ok_or_else(|| resource_not_found(uri))
        }
        // Subscriptions are declared by this set only (its resources never change, so no update
        // is ever sent; the suite checks the requests are accepted).
        "resources/subscribe" | "resources/unsubscribe" => {
            required_str(params, "uri", "the resource")?;
            Ok(Json::Object(Vec::new()))
        }
        "prompts/list" => Ok(prompts_list()),
        "prompts/get" => {
            let name = required_str(params, "name", "the prompt to get")?;
            if name == input_required::PROMPT.0 {
                return input_required::prompts_get(server, params);
            }
            prompts_get(name, params.and_then(|p| p.get("arguments")))
                .unwrap_or_else(|| Err(unknown("prompt", name, &prompt_names())))
        }
        "completion/complete" => Ok(completion(
            complete(params).into_iter().map(Json::String).collect(),
        )),
        _ => Err(RpcError::new(METHOD_NOT_FOUND, "Method not found")),
    }
}

/// The tools, as `tools/list` names them: name, description, the arguments it requires.
const TOOLS: &[(&str, &str, &[&str])] = &[
    ("test_simple_text", "Returns simple text content", &[]),
    ("test_image_content", "Returns image content (a PNG)", &[]),
    ("test_audio_content", "Returns audio content (a WAV)", &[]),
    (
        "test_embedded_resource",
        "Returns an embedded resource",
        &[],
    ),
    (
        "test_multiple_content_types",
        "Returns text, an image and an embedded resource",
        &[],
    ),
    (
        "test_tool_with_logging",
        "Sends three log lines (notifications/message) while it runs",
        &[],
    ),
    (
        "test_tool_with_progress",
        "Reports progress 0, 50, 100 of 100 (when the call has a progressToken)",
        &[],
    ),
    (
        "test_error_handling",
        "Always fails with isError: true",
        &[],
    ),
    (
        "test_sampling",
        "Asks the client's model (sampling/createMessage) and returns its answer",
        &["prompt"],
    ),
    (
        "test_elicitation",
        "Asks the user for a username and an email (elicitation/create)",
        &["message"],
    ),
    (
        "test_elicitation_sep1034_defaults",
        "Asks the user for a form whose every field has a default (SEP-1034)",
        &[],
    ),
    (
        "test_elicitation_sep1330_enums",
        "Asks the user to choose from the five kinds of enum (SEP-1330)",
        &[],
    ),
    (
        "test_logging_tool",
        "Sends three log lines (notifications/message) while it runs; under 2026-07-28 only when the request's _meta asks for a log level",
        &[],
    ),
    (
        "test_missing_capability",
        "Needs the client's sampling capability: a client that did not declare it gets -32021 (MissingRequiredClientCapability)",
        &[],
    ),
];

/// The tool whose `inputSchema` uses JSON Schema 2020-12 beyond a flat object (`$schema`,
/// `$defs` with an `$anchor`, `$ref`, `allOf`/`anyOf`, `if`/`then`/`else`,
/// `additionalProperties`), listed as written (SEP-1613, SEP-2106): the suite's
/// json-schema-2020-12 fixture.
const JSON_SCHEMA_2020_12_TOOL: &str = "json_schema_2020_12_tool";
const JSON_SCHEMA_2020_12_INPUT: &str = r##"{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","$defs":{"address":{"$anchor":"addressDef","type":"object","properties":{"street":{"type":"string"},"city":{"type":"string"}}}},"properties":{"name":{"type":"string"},"address":{"$ref":"#/$defs/address"},"contactMethod":{"type":"string","enum":["phone","email"]},"phone":{"type":"string"},"email":{"type":"string"}},"allOf":[{"anyOf":[{"required":["phone"]},{"required":["email"]}]}],"if":{"properties":{"contactMethod":{"const":"phone"}},"required":["contactMethod"]},"then":{"required":["phone"]},"else":{"required":["email"]},"additionalProperties":false}"##;

/// The tool whose argument `region` is mirrored into the `Mcp-Param-Region` header (SEP-2243).
const HEADER_TOOL: &str = "test_header_param";
const HEADER_TOOL_PARAMS: &[HeaderParam] = &[HeaderParam {
    argument: "region",
    header: "Region",
}];

/// The arguments tool `name` mirrors into `Mcp-Param-*` headers.
pub(super) fn header_params(name: &str) -> &'static [HeaderParam] {
    if name == HEADER_TOOL {
        HEADER_TOOL_PARAMS
    } else {
        &[]
    }
}

fn header_tool() -> Json {
    let string = |description: &str, header: Option<&str>| {
        let mut property = vec![
            ("type", Json::from("string")),
            ("description", Json::from(description)),
        ];
        if let Some(header) = header {
            property.push(("x-mcp-header", Json::from(header)));
        }
        Json::obj(property)
    };
    Json::obj([
        ("name", Json::from(HEADER_TOOL)),
        (
            "description",
            Json::from("Echoes its region, which an HTTP client mirrors into the Mcp-Param-Region header (x-mcp-header)"),
        ),
        (
            "inputSchema",
            Json::obj([
                ("type", Json::from("object")),
                (
                    "properties",
                    Json::obj([
                        ("region", string("Where to run", Some(HEADER_TOOL_PARAMS[0].header))),
                        ("query", string("What to run", None)),
                    ]),
                ),
                ("required", Json::arr([Json::from("region")])),
            ]),
        ),
    ])
}

fn json_schema_2020_12_tool() -> Json {
    let schema = crate::json::parse_document(JSON_SCHEMA_2020_12_INPUT.as_bytes(), 0)
        .map(|(parsed, _)| Json::from_node(&parsed.root))
        .unwrap_or(Json::Null);
    Json::obj([
        ("name", Json::from(JSON_SCHEMA_2020_12_TOOL)),
        (
            "description",
            Json::from("Tool with JSON Schema 2020-12 features"),
        ),
        ("inputSchema", schema),
    ])
}

/// `tools/list`.
pub(super) fn tools_list() -> Json {
    let mut tools: Vec<Json> = TOOLS
        .iter()
        .copied()
        .chain(
            input_required::TOOLS
                .iter()
                .map(|(n, d)| (*n, *d, &[] as &[&str])),
        )
        .map(|(name, description, required)| {
            let properties = required
                .iter()
                .map(|arg| (*arg, Json::obj([("type", Json::from("string"))])));
            Json::obj([
                ("name", Json::from(name)),
                ("description", Json::from(description)),
                (
                    "inputSchema",
                    Json::obj([
                        ("type", Json::from("object")),
                        ("properties", Json::obj(properties)),
                        (
                            "required",
                            Json::arr(required.iter().map(|a| Json::from(*a))),
                        ),
                    ]),
                ),
            ])
        })
        .collect();
    tools.extend(task_tools());
    tools.push(json_schema_2020_12_tool());
    tools.push(header_tool());
    Json::obj([("tools", Json::Array(tools))])
}

/// The task tools ([`tasks`], with the `tasks` feature), as `tools/list` lists them.
#[cfg(feature = "tasks")]
fn task_tools() -> Vec<Json> {
    tasks::TOOLS
        .iter()
        .map(|(name, description, strings, numbers)| {
            let properties = strings
                .iter()
                .map(|arg| (*arg, "string"))
                .chain(numbers.iter().map(|arg| (*arg, "number")))
                .map(|(arg, kind)| (arg, Json::obj([("type", Json::from(kind))])));
            Json::obj([
                ("name", Json::from(*name)),
                ("description", Json::from(*description)),
                (
                    "inputSchema",
                    Json::obj([
                        ("type", Json::from("object")),
                        ("properties", Json::obj(properties)),
                    ]),
                ),
            ])
        })
        .collect()
}

#[cfg(feature = "tasks")]
fn task_tool_names() -> impl Iterator<Item = &'static str> {
    tasks::TOOLS.iter().map(|t| t.0)
}

#[cfg(feature = "tasks")]
fn task_tools_call(
    server: &mut MockServer,
    name: &str,
    params: Option<&Node<'_>>,
) -> Option<Outcome> {
    tasks::tools_call(server, name, params)
}

/// Without the `tasks` feature (the web build) there are no task tools.
#[cfg(not(feature = "tasks"))]
fn task_tools() -> Vec<Json> {
    Vec::new()
}

#[cfg(not(feature = "tasks"))]
fn task_tool_names() -> impl Iterator<Item = &'static str> {
    std::iter::empty()
}

#[cfg(not(feature = "tasks"))]
fn task_tools_call(_: &mut MockServer, _: &str, _: Option<&Node<'_>>) -> Option<Outcome> {
    None
}

fn content(items: impl IntoIterator<Item = Json>) -> Json {
    Json::obj([("content", Json::arr(items))])
}

fn embedded(uri: &str, mime: &str, text: &str) -> Json {
    Json::obj([
        ("type", Json::from("resource")),
        (
            "resource",
            Json::obj([
                ("uri", Json::from(uri)),
                ("mimeType", Json::from(mime)),
                ("text", Json::from(text)),
            ]),
        ),
    ])
}

/// `tools/call` of `name` (the request's `params`); `None` for a tool this set does not have.
/// The logging and progress tools send their notifications into the server's outbox.
pub(super) fn tools_call(
    server: &mut MockServer,
    name: &str,
    params: Option<&Node<'_>>,
) -> Option<Outcome> {
    let result = match name {
        "test_simple_text" => {
            content([text_content("This is a simple text response for testing.")])
        }
        "test_image_content" => content([media_content("image", PNG_1X1, "image/png")]),
        "test_audio_content" => content([media_content("audio", WAV_SILENCE, "audio/wav")]),
        "test_embedded_resource" => content([embedded(
            "test://embedded-resource",
            "text/plain",
            "This is an embedded resource content.",
        )]),
        "test_multiple_content_types" => content([
            text_content("Multiple content types test:"),
            media_content("image", PNG_1X1, "image/png"),
            embedded(
                "test://mixed-content-resource",
                "application/json",
                r#"{"test":"data","value":123}"#,
            ),
        ]),
        HEADER_TOOL => content([text_content(format!(
            "Region: {}",
            required_argument(params, "region")
        ))]),
        JSON_SCHEMA_2020_12_TOOL => content([text_content(
            "The arguments were read; the schema is what this tool shows.",
        )]),
        "test_missing_capability" => {
            if !server.client_declared(Capability::Sampling) {
                return Some(Err(ask::missing_capability(Capability::Sampling)));
            }
            content([text_content(
                "The client declared the sampling capability this tool needs.",
            )])
        }
        "test_tool_with_logging" | "test_logging_tool" => {
            for line in [
                "Tool execution started",
                "Tool processing data",
                "Tool execution completed",
            ] {
                server.log("info", Json::from(line));
            }
            content([text_content("Tool with logging executed")])
        }
        "test_tool_with_progress" => {
            let token = params
                .and_then(|p| p.get("_meta"))
                .and_then(|m| m.get("progressToken"));
            if let Some(token) = token {
                for (done, message) in [(0, "started"), (50, "halfway"), (100, "done")] {
                    server.progress(token, done, 100, message);
                }
            }
            content([text_content("Tool with progress executed")])
        }
        "test_error_handling" => tool_error("This tool intentionally returns an error for testing"),
        "test_sampling" => {
            let prompt = required_argument(params, "prompt");
            let request = Json::obj([
                (
                    "messages",
                    Json::arr([Json::obj([
                        ("role", Json::from("user")),
                        ("content", text_content(prompt)),
                    ])]),
                ),
                ("maxTokens", Json::from(100u64)),
            ]);
            server.ask(Capability::Sampling, request, sampled)
        }
        "test_elicitation" => {
            let message = required_argument(params, "message");
            let string = |description: &str| {
                Json::obj([
                    ("type", Json::from("string")),
                    ("description", Json::from(description)),
                ])
            };
            let form = form(
                message,
                vec![
                    ("username", string("User's response")),
                    ("email", string("User's email address")),
                ],
                &["username", "email"],
            );
            server.ask(Capability::Elicitation, form, user_response)
        }
        "test_elicitation_sep1034_defaults" => {
            let field = |kind: &str, description: &str, default: Json| {
                Json::obj([
                    ("type", Json::from(kind)),
                    ("description", Json::from(description)),
                    ("default", default),
                ])
            };
            let mut status = field("string", "User status", Json::from("active"));
            status.set(
                "enum",
                Json::arr(["active", "inactive", "pending"].map(Json::from)),
            );
            let form = form(
                "Test client default value handling - please accept with defaults",
                vec![
                    ("name", field("string", "User name", Json::from("John Doe"))),
                    ("age", field("integer", "User age", Json::from(30u64))),
                    (
                        "score",
                        field("number", "User score", Json::Number("95.5".into())),
                    ),
                    ("status", status),
                    (
                        "verified",
                        field("boolean", "Verification status", Json::Bool(true)),
                    ),
                ],
                &[],
            );
            server.ask(Capability::Elicitation, form, completed)
        }
        "test_elicitation_sep1330_enums" => {
            let strings = |values: &[&str]| Json::arr(values.iter().map(|v| Json::from(*v)));
            let titled = |options: &[(&str, &str)]| {
                Json::arr(options.iter().map(|(value, title)| {
                    Json::obj([("const", Json::from(*value)), ("title", Json::from(*title))])
                }))
            };
            let options = ["option1", "option2", "option3"];
            let form = form(
                "Test enum schema variants (SEP-1330)",
                vec![
                    (
                        "untitledSingle",
                        Json::obj([("type", Json::from("string")), ("enum", strings(&options))]),
                    ),
                    (
                        "titledSingle",
                        Json::obj([
                            ("type", Json::from("string")),
                            (
                                "oneOf",
                                titled(&[
                                    ("value1", "First Option"),
                                    ("value2", "Second Option"),
                                    ("value3", "Third Option"),
                                ]),
                            ),
                        ]),
                    ),
                    (
                        "legacyEnum",
                        Json::obj([
                            ("type", Json::from("string")),
                            ("enum", strings(&["opt1", "opt2", "opt3"])),
                            (
                                "enumNames",
                                strings(&["Option One", "Option Two", "Option Three"]),
                            ),
                        ]),
                    ),
                    (
                        "untitledMulti",
                        Json::obj([
                            ("type", Json::from("array")),
                            (
                                "items",
                                Json::obj([
                                    ("type", Json::from("string")),
                                    ("enum", strings(&options)),
                                ]),
                            ),
                        ]),
                    ),
                    (
                        "titledMulti",
                        Json::obj([
                            ("type", Json::from("array")),
                            (
                                "items",
                                Json::obj([(
                                    "anyOf",
                                    titled(&[
                                        ("value1", "First Choice"),
                                        ("value2", "Second Choice"),
                                        ("value3", "Third Choice"),
                                    ]),
                                )]),
                            ),
                        ]),
                    ),
                ],
                &[],
            );
            server.ask(Capability::Elicitation, form, completed)
        }
        _ => return None,
    };
    Some(Ok(result))
}

/// A string argument of the call (the suite always sends it; an absent one reads as empty).
fn required_argument<'n>(params: Option<&'n Node<'_>>, name: &str) -> &'n str {
    params
        .and_then(|p| p.get("arguments"))
        .and_then(|a| a.get(name))
        .and_then(Node::as_str)
        .unwrap_or_default()
}

/// `elicitation/create`'s params: `message` and a flat form of `fields`, `required` among them.
fn form(message: &str, fields: Vec<(&str, Json)>, required: &[&str]) -> Json {
    Json::obj([
        ("message", Json::from(message)),
        (
            "requestedSchema",
            Json::obj([
                ("type", Json::from("object")),
                ("properties", Json::obj(fields)),
                (
                    "required",
                    Json::arr(required.iter().map(|r| Json::from(*r))),
                ),
            ]),
        ),
    ])
}

/// `test_sampling`'s result: `LLM response: <what the model wrote>`.
fn sampled(result: &Node<'_>) -> Json {
    match ask::sampled(result) {
        Ok((text, _model)) => content([text_content(format!("LLM response: {text}"))]),
        Err(problem) => tool_error(problem),
    }
}

/// `test_elicitation`'s result: `User response: action=…, content={…}`.
fn user_response(result: &Node<'_>) -> Json {
    match ask::elicitation_outcome(result) {
        Ok(outcome) => content([text_content(format!("User response: {outcome}"))]),
        Err(problem) => tool_error(problem),
    }
}

/// The SEP-1034 and SEP-1330 tools' result: `Elicitation completed: action=…, content={…}`.
fn completed(result: &Node<'_>) -> Json {
    match ask::elicitation_outcome(result) {
        Ok(outcome) => content([text_content(format!("Elicitation completed: {outcome}"))]),
        Err(problem) => tool_error(problem),
    }
}

/// The tools' names (for [`unknown`]).
pub(super) fn tool_names() -> Vec<&'static str> {
    TOOLS
        .iter()
        .map(|t| t.0)
        .chain(input_required::TOOLS.iter().map(|t| t.0))
        .chain(task_tool_names())
        .chain([JSON_SCHEMA_2020_12_TOOL, HEADER_TOOL])
        .collect()
}

/// `resources/list`: the direct resources (the template is listed apart).
pub(super) fn resources_list() -> Json {
    let resource = |uri: &str, name: &str, description: &str, mime: &str| {
        Json::obj([
            ("uri", Json::from(uri)),
            ("name", Json::from(name)),
            ("description", Json::from(description)),
            ("mimeType", Json::from(mime)),
        ])
    };
    Json::obj([(
        "resources",
        Json::arr([
            resource(
                "test://static-text",
                "static-text",
                "A static text resource",
                "text/plain",
            ),
            resource(
                "test://static-binary",
                "static-binary",
                "A static binary resource (a PNG)",
                "image/png",
            ),
            resource(
                "test://watched-resource",
                "watched-resource",
                "A resource to subscribe to",
                "text/plain",
            ),
        ]),
    )])
}

/// `resources/templates/list`.
pub(super) fn templates_list() -> Json {
    Json::obj([(
        "resourceTemplates",
        Json::arr([Json::obj([
            ("uriTemplate", Json::from("test://template/{id}/data")),
            ("name", Json::from("template-data")),
            ("description", Json::from("Data for any id")),
            ("mimeType", Json::from("application/json")),
        ])]),
    )])
}

/// `resources/read` of `uri`; `None` when there is no such resource.
pub(super) fn read(uri: &str) -> Option<Json> {
    let one = |fields: Vec<(&str, Json)>| Json::obj([("contents", Json::arr([Json::obj(fields)]))]);
    match uri {
        "test://static-text" => Some(one(vec![
            ("uri", Json::from(uri)),
            ("mimeType", Json::from("text/plain")),
            (
                "text",
                Json::from("This is the content of the static text resource."),
            ),
        ])),
        "test://static-binary" => Some(one(vec![
            ("uri", Json::from(uri)),
            ("mimeType", Json::from("image/png")),
            ("blob", Json::from(PNG_1X1)),
        ])),
        "test://watched-resource" => Some(one(vec![
            ("uri", Json::from(uri)),
            ("mimeType", Json::from("text/plain")),
            ("text", Json::from("A resource to subscribe to.")),
        ])),
        _ => {
            let id = uri
                .strip_prefix("test://template/")?
                .strip_suffix("/data")
                .filter(|id| !id.is_empty() && !id.contains('/'))?;
            let data = Json::obj([
                ("id", Json::from(id)),
                ("templateTest", Json::Bool(true)),
                ("data", Json::String(format!("Data for ID: {id}"))),
            ]);
            Some(one(vec![
                ("uri", Json::from(uri)),
                ("mimeType", Json::from("application/json")),
                ("text", Json::String(data.compact())),
            ]))
        }
    }
}

/// The prompts: name, description, arguments (all required).
const PROMPTS: &[(&str, &str, &[&str])] = &[
    (
        "test_simple_prompt",
        "A simple prompt without arguments",
        &[],
    ),
    (
        "test_prompt_with_arguments",
        "A prompt with two arguments",
        &["arg1", "arg2"],
    ),
    (
        "test_prompt_with_embedded_resource",
        "A prompt that embeds a resource",
        &["resourceUri"],
    ),
    ("test_prompt_with_image", "A prompt with an image", &[]),
];

/// `prompts/list`.
pub(super) fn prompts_list() -> Json {
    Json::obj([(
        "prompts",
        Json::arr(
            PROMPTS
                .iter()
                .copied()
                .chain([(
                    input_required::PROMPT.0,
                    input_required::PROMPT.1,
                    &[] as &[&str],
                )])
                .map(|(name, description, args)| {
                    Json::obj([
                        ("name", Json::from(name)),
                        ("description", Json::from(description)),
                        (
                            "arguments",
                            Json::arr(args.iter().map(|a| {
                                Json::obj([
                                    ("name", Json::from(*a)),
                                    ("required", Json::Bool(true)),
                                ])
                            })),
                        ),
                    ])
                }),
        ),
    )])
}

fn user(content: Json) -> Json {
    Json::obj([("role", Json::from("user")), ("content", content)])
}

/// `prompts/get` of `name` with `arguments`; `None` for a prompt this set does not have.
pub(super) fn prompts_get(name: &str, arguments: Option<&Node<'_>>) -> Option<Outcome> {
    let (_, _, required) = PROMPTS.iter().find(|p| p.0 == name)?;
    let arg = |n: &str| arguments.and_then(|a| a.get(n)).and_then(Node::as_str);
    if let Some(missing) = required.iter().find(|a| arg(a).is_none()) {
        return Some(Err(RpcError::invalid_params([(
            format!("/params/arguments/{missing}"),
            format!("the prompt {name} needs the string argument {missing}"),
        )])));
    }
    let messages = match name {
        "test_simple_prompt" => vec![user(text_content("This is a simple prompt for testing."))],
        "test_prompt_with_arguments" => vec![user(text_content(format!(
            "Prompt with arguments: arg1='{}', arg2='{}'",
            arg("arg1").unwrap_or_default(),
            arg("arg2").unwrap_or_default()
        )))],
        "test_prompt_with_embedded_resource" => vec![
            user(embedded(
                arg("resourceUri").unwrap_or_default(),
                "text/plain",
                "Embedded resource content for testing.",
            )),
            user(text_content("Please process the embedded resource above.")),
        ],
        _ => vec![
            user(media_content("image", PNG_1X1, "image/png")),
            user(text_content("Please analyze the image above.")),
        ],
    };
    Some(Ok(Json::obj([("messages", Json::Array(messages))])))
}

/// The prompts' names (for [`unknown`]).
pub(super) fn prompt_names() -> Vec<&'static str> {
    PROMPTS
        .iter()
        .map(|p| p.0)
        .chain([input_required::PROMPT.0])
        .collect()
}

/// `completion/complete`: values for `test_prompt_with_arguments`' arguments (what was typed,
/// completed with a suffix), nothing for anything else.
pub(super) fn complete(params: Option<&Node<'_>>) -> Vec<String> {
    let prompt = params
        .and_then(|p| p.get("ref"))
        .and_then(|r| r.get("name"))
        .and_then(Node::as_str);
    let typed = params
        .and_then(|p| p.get("argument"))
        .and_then(|a| a.get("value"))
        .and_then(Node::as_str)
        .unwrap_or_default();
    if prompt != Some("test_prompt_with_arguments") {
        return Vec::new();
    }
    ["Value", "Result"]
        .iter()
        .map(|suffix| format!("{typed}{suffix}"))
        .collect()
}
