//! The friendly prompts: their catalogue and `prompts/get`.

use crate::json::{escape_token, Json, Node};
use crate::rpc::errors::{self, INVALID_PARAMS};
use crate::rpc::McpVersion;

use super::super::content::{media_content, text_content, PNG_1X1};
use super::super::params::{required_str, unknown};
use super::resources::embedded_readme;
use super::{describe, Outcome, RpcError};

pub(super) struct PromptArg {
    pub(super) name: &'static str,
    pub(super) description: &'static str,
    pub(super) required: bool,
}

pub(super) struct Prompt {
    pub(super) name: &'static str,
    pub(super) title: &'static str,
    pub(super) description: &'static str,
    pub(super) args: &'static [PromptArg],
}

pub(super) static PROMPTS: &[Prompt] = &[
    Prompt {
        name: "explain-error",
        title: "Explain a JSON-RPC error",
        description: "Ask for an explanation of a JSON-RPC error code and how to fix its cause.",
        args: &[PromptArg {
            name: "code",
            description: "The error code, e.g. -32601",
            required: true,
        }],
    },
    Prompt {
        name: "write-request",
        title: "Write a JSON-RPC request",
        description: "Ask for a JSON-RPC 2.0 request calling a method.",
        args: &[
            PromptArg {
                name: "method",
                description: "The method to call",
                required: true,
            },
            PromptArg {
                name: "params",
                description: "The parameters, as JSON (optional)",
                required: false,
            },
        ],
    },
    Prompt {
        name: "review-readme",
        title: "Review the readme",
        description: "A prompt that carries a resource: the text asks, the readme comes embedded.",
        args: &[],
    },
    Prompt {
        name: "describe-image",
        title: "Describe an image",
        description: "A prompt that carries an image: the text asks, a PNG comes as image content.",
        args: &[],
    },
];

impl Prompt {
    pub(super) fn to_json(&self, version: McpVersion) -> Json {
        let arguments = self.args.iter().map(|a| {
            Json::obj([
                ("name", Json::from(a.name)),
                ("description", Json::from(a.description)),
                ("required", Json::Bool(a.required)),
            ])
        });
        let mut p = vec![("name", Json::from(self.name))];
        if version >= McpVersion::V2025_06_18 {
            p.push(("title", Json::from(self.title)));
        }
        p.push(("description", Json::from(self.description)));
        p.push(("arguments", Json::arr(arguments)));
        Json::obj(p)
    }
}

pub(super) fn prompts_get(params: Option<&Node<'_>>) -> Outcome {
    let name = required_str(params, "name", "the prompt to get")?;
    let Some(prompt) = PROMPTS.iter().find(|p| p.name == name) else {
        let known: Vec<&str> = PROMPTS.iter().map(|p| p.name).collect();
        return Err(unknown("prompt", name, &known));
    };
    let arguments = params.and_then(|p| p.get("arguments"));
    let mut values: Vec<Option<&str>> = Vec::new();
    let mut missing = Vec::new();
    for arg in prompt.args {
        match arguments.and_then(|a| a.get(arg.name)) {
            Some(v) => match v.as_str() {
                Some(s) => values.push(Some(s)),
                None => {
                    return Err(RpcError::invalid_params([(
                        format!("/params/arguments/{}", escape_token(arg.name)),
                        format!("prompt arguments are strings, found {}", describe(v)),
                    )]))
                }
            },
            None if arg.required => {
                missing.push(arg.name);
                values.push(None);
            }
            None => values.push(None),
        }
    }
    if !missing.is_empty() {
        let at = if arguments.is_some() {
            "/params/arguments"
        } else {
            "/params"
        };
        return Err(RpcError::new(
            INVALID_PARAMS,
            format!("Missing required argument: {}", missing.join(", ")),
        )
        .with_errors(missing.iter().map(|m| {
            (
                at.to_string(),
                format!("the required argument \"{m}\" is missing"),
            )
        })));
    }
    let user = |content: Json| Json::obj([("role", Json::from("user")), ("content", content)]);
    let carried = match prompt.name {
        "review-readme" => Some((
            "Review this server's readme: is anything unclear?",
            embedded_readme(),
        )),
        "describe-image" => Some((
            "What is in this image?",
            media_content("image", PNG_1X1, "image/png"),
        )),
        _ => None,
    };
    if let Some((ask, content)) = carried {
        return Ok(Json::obj([
            ("description", Json::from(prompt.description)),
            (
                "messages",
                Json::arr([user(text_content(ask)), user(content)]),
            ),
        ]));
    }
    let text = match prompt.name {
        "explain-error" => explain_error(values[0].unwrap_or_default()),
        _ => {
            let method = values[0].unwrap_or_default();
            match values.get(1).copied().flatten() {
                Some(params) => format!("Write a JSON-RPC 2.0 request that calls the method \"{method}\" with these params: {params}"),
                None => format!("Write a JSON-RPC 2.0 request that calls the method \"{method}\"."),
            }
        }
    };
    Ok(Json::obj([
        ("description", Json::from(prompt.description)),
        (
            "messages",
            Json::arr([Json::obj([
                ("role", Json::from("user")),
                ("content", text_content(text)),
            ])]),
        ),
    ]))
}

pub(super) fn explain_error(code: &str) -> String {
    let known = match code.trim().parse::<i64>() {
        Ok(n) => match errors::predefined(n) {
            Some(c) => format!(" ({} in the specification: {})", c.message, c.meaning),
            None if errors::SERVER_ERRORS.contains(&n) => {
                " (a server error: the range -32099..-32000 is left to implementations)".into()
            }
            None if errors::RESERVED.contains(&n) => {
                " (reserved by the specification for future use)".into()
            }
            None => " (an application-defined code)".into(),
        },
        Err(_) => String::new(),
    };
    format!("Explain the JSON-RPC 2.0 error code {code}{known}: what does it mean, and how do I fix the request that caused it?")
}
