//! What the friendly tools that ask the client send (`summarize`: a sampling request;
//! `ask_name`: an elicitation form) and how they read the answer.

use crate::json::{Json, Node};
use crate::rpc::McpVersion;

use super::super::ask;
use super::super::content::{text_content, tool_error};

/// The key of the one input request of the friendly tools' input-required results (2026-07-28).
pub(super) const ANSWER_KEY: &str = "answer";

/// `summarize`'s request to the client's model.
pub(super) fn summary_request(text: &str) -> Json {
    Json::obj([
        (
            "messages",
            Json::arr([Json::obj([
                ("role", Json::from("user")),
                (
                    "content",
                    text_content(format!("Summarize this text in one sentence:\n\n{text}")),
                ),
            ])]),
        ),
        (
            "systemPrompt",
            Json::from("You write one-sentence summaries."),
        ),
        ("maxTokens", Json::from(100u64)),
    ])
}

/// `summarize`'s result: what the client's model wrote.
pub(super) fn summary(result: &Node<'_>) -> Json {
    match ask::sampled(result) {
        Ok((text, model)) => Json::obj([(
            "content",
            Json::arr([text_content(format!("Summary by {model}: {text}"))]),
        )]),
        Err(problem) => tool_error(problem),
    }
}

/// `ask_name`'s form: a name (with a default from 2025-11-25, the version that allows one) and
/// a colour to choose (titled choices from 2025-11-25, `enum` with `enumNames` before).
pub(super) fn name_form(version: McpVersion) -> Json {
    let mut name = vec![
        ("type", Json::from("string")),
        ("title", Json::from("Your name")),
        (
            "description",
            Json::from("What should the server call you?"),
        ),
        ("minLength", Json::from(1u64)),
    ];
    const COLOURS: [(&str, &str); 3] = [("red", "Red"), ("green", "Green"), ("blue", "Blue")];
    let mut colour = vec![
        ("type", Json::from("string")),
        ("title", Json::from("Favourite colour")),
    ];
    if version >= McpVersion::V2025_11_25 {
        name.push(("default", Json::from("Ada")));
        colour.push((
            "oneOf",
            Json::arr(COLOURS.iter().map(|(value, title)| {
                Json::obj([("const", Json::from(*value)), ("title", Json::from(*title))])
            })),
        ));
        colour.push(("default", Json::from("blue")));
    } else {
        colour.push(("enum", Json::arr(COLOURS.iter().map(|c| Json::from(c.0)))));
        colour.push((
            "enumNames",
            Json::arr(COLOURS.iter().map(|c| Json::from(c.1))),
        ));
    }
    Json::obj([
        ("message", Json::from("What should I call you?")),
        (
            "requestedSchema",
            Json::obj([
                ("type", Json::from("object")),
                (
                    "properties",
                    Json::obj([("name", Json::obj(name)), ("colour", Json::obj(colour))]),
                ),
                ("required", Json::arr([Json::from("name")])),
            ]),
        ),
    ])
}

/// `ask_name`'s result: a greeting, or what the user did instead of answering.
pub(super) fn greeting(result: &Node<'_>) -> Json {
    let (action, content) = match ask::elicited(result) {
        Ok(answer) => answer,
        Err(problem) => return tool_error(problem),
    };
    let text = match action {
        "accept" => match (
            ask::form_text(content, "name"),
            ask::form_text(content, "colour"),
        ) {
            (Some(name), Some(colour)) => {
                format!("Hello, {name}! Your favourite colour is {colour}.")
            }
            (Some(name), None) => format!("Hello, {name}!"),
            (None, _) => return tool_error(
                "the form was accepted without the required field \"name\" (at /result/content)",
            ),
        },
        "decline" => "You declined to give your name. Hello anyway, stranger!".to_string(),
        _ => "You dismissed the question: no name, no greeting.".to_string(),
    };
    Json::obj([("content", Json::arr([text_content(text)]))])
}

/// `list_roots`' result: the roots the client named (a tool error when its answer holds none
/// that can be read).
pub(super) fn roots_named(result: &Node<'_>) -> Json {
    match ask::roots(result) {
        Ok(roots) if roots.is_empty() => Json::obj([(
            "content",
            Json::arr([text_content("The client has no roots to show.")]),
        )]),
        Ok(roots) => Json::obj([(
            "content",
            Json::arr([text_content(format!(
                "The client's roots: {}",
                roots.join(", ")
            ))]),
        )]),
        Err(problem) => tool_error(problem),
    }
}
