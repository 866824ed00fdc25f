//! The conformance suite's input-required fixtures (2026-07-28, SEP-2322): the tools
//! `test_input_required_result_*` and `test_streaming_elicitation`, and the prompt
//! `test_input_required_result_prompt`, with the input requests, keys and texts its scenarios
//! describe (`@modelcontextprotocol/conformance` 0.2.0-alpha.12). Each answers a first call with an
//! input-required result and the retry carrying the answers with its complete result; a missing
//! or unusable answer is asked for again; the tools that keep a `requestState` refuse one that was
//! changed ([`super::super::rounds`]).

use crate::json::{Json, Node};

use super::super::ask::{self, Capability};
use super::super::content::{text_content, tool_error};
use super::super::rounds::{input_required, refuse_breaking_form, retry, InputRequest, Retry};
use super::{content, user, MockServer, Outcome, RpcError};

/// The tools, as `tools/list` names them (none takes arguments).
pub(super) const TOOLS: &[(&str, &str)] = &[
    ("test_input_required_result_elicitation", "Asks the user's name (elicitation/create, key user_name) in an input-required result, then greets them"),
    ("test_input_required_result_sampling", "Asks the client's model the capital of France (sampling/createMessage, key capital_question), then returns its answer"),
    ("test_input_required_result_list_roots", "Asks the client's roots (roots/list, key client_roots), then names them"),
    ("test_input_required_result_request_state", "Asks for a confirmation with a signed requestState; says state-ok when the retry echoes it"),
    ("test_input_required_result_multiple_inputs", "Asks for a name, a greeting and the roots in one input-required result"),
    ("test_input_required_result_multi_round", "Asks for a name, then (a second round, a new requestState) a colour"),
    ("test_input_required_result_tampered_state", "Asks for a confirmation with a signed requestState; a changed state is -32602"),
    ("test_input_required_result_capabilities", "Asks only what the client declared it can answer (sampling, elicitation, roots)"),
    ("test_streaming_elicitation", "Asks the user (elicitation/create) inside its result, never as a request of its own"),
];

/// The prompt that asks first.
pub(super) const PROMPT: (&str, &str) = (
    "test_input_required_result_prompt",
    "Asks what context to use (elicitation/create, key user_context), then gives the prompt",
);

/// A one-field form (`elicitation/create` params).
pub(super) fn form(message: &str, field: &str, kind: &str) -> Json {
    Json::obj([
        ("message", Json::from(message)),
        (
            "requestedSchema",
            Json::obj([
                ("type", Json::from("object")),
                (
                    "properties",
                    Json::obj([(field, Json::obj([("type", Json::from(kind))]))]),
                ),
                ("required", Json::arr([Json::from(field)])),
            ]),
        ),
    ])
}

fn sampling(text: &str, max_tokens: u64) -> Json {
    Json::obj([
        ("messages", Json::arr([user(text_content(text))])),
        ("maxTokens", Json::from(max_tokens)),
    ])
}

/// The value of `field` in an accepted form under `key`, as text.
fn field(retry: &Retry<'_, '_>, key: &str, field: &str) -> Option<String> {
    let (action, content) = ask::elicited(retry.answer(key)?).ok()?;
    if action != "accept" {
        return None;
    }
    ask::form_text(content, field)
}

/// What the model wrote, under `key`.
fn sampled(retry: &Retry<'_, '_>, key: &str) -> Option<String> {
    ask::sampled(retry.answer(key)?).ok().map(|(text, _)| text)
}

/// The roots' URIs (with their names), under `key`.
fn roots(retry: &Retry<'_, '_>, key: &str) -> Option<String> {
    ask::roots(retry.answer(key)?)
        .ok()
        .map(|roots| roots.join(", "))
}

fn name_request(key: &'static str) -> InputRequest {
    InputRequest::new(
        key,
        Capability::Elicitation,
        form("What is your name?", "name", "string"),
    )
}

fn confirm_request() -> InputRequest {
    InputRequest::new(
        "confirm",
        Capability::Elicitation,
        form("Please confirm", "ok", "boolean"),
    )
}

fn step1_request() -> InputRequest {
    InputRequest::new(
        "step1",
        Capability::Elicitation,
        form("Step 1: What is your name?", "name", "string"),
    )
}

fn step2_request() -> InputRequest {
    InputRequest::new(
        "step2",
        Capability::Elicitation,
        form("Step 2: What is your favorite color?", "color", "string"),
    )
}

fn context_request() -> InputRequest {
    InputRequest::new(
        "user_context",
        Capability::Elicitation,
        form("What context should the prompt use?", "context", "string"),
    )
}

/// The forms the tool `name` asks with (its `elicitation/create` requests, by key).
fn forms(name: &str) -> Vec<InputRequest> {
    match name {
        "test_input_required_result_request_state"
        | "test_input_required_result_tampered_state" => vec![confirm_request()],
        "test_input_required_result_multi_round" => vec![step1_request(), step2_request()],
        "test_input_required_result_sampling" | "test_input_required_result_list_roots" => {
            Vec::new()
        }
        _ => vec![name_request("user_name")],
    }
}

/// -32602 when an answer under the key of one of `forms` is an accepted form that breaks the
/// `requestedSchema` asked with (as `ask_name` refuses one), before a tool reads it.
fn refuse_breaking_forms(retry: &Retry<'_, '_>, forms: &[InputRequest]) -> Result<(), RpcError> {
    forms
        .iter()
        .try_for_each(|form| refuse_breaking_form(retry, form))
}

fn roots_request() -> InputRequest {
    InputRequest::new("client_roots", Capability::Roots, Json::Object(Vec::new()))
}

/// -32021 unless the client declared every capability `requests` need.
fn declared(server: &MockServer, requests: &[InputRequest]) -> Result<(), RpcError> {
    match requests
        .iter()
        .find(|r| !server.client_declared(r.capability))
    {
        Some(r) => Err(super::super::ask::missing_capability(r.capability)),
        None => Ok(()),
    }
}

/// `tools/call` of one of [`TOOLS`]; `None` for another tool.
pub(super) fn tools_call(
    server: &mut MockServer,
    name: &str,
    params: Option<&Node<'_>>,
) -> Option<Outcome> {
    TOOLS.iter().find(|t| t.0 == name)?;
    if !server.request.modern {
        return Some(Ok(tool_error(format!(
            "{name} asks the client inside an input-required result, which 2026-07-28 has: call it with the 2026-07-28 _meta envelope"
        ))));
    }
    let binding = format!("tools/call {name}");
    Some(answer(server, name, &binding, params))
}

fn answer(server: &MockServer, name: &str, binding: &str, params: Option<&Node<'_>>) -> Outcome {
    let retry = retry(server, binding, params)?;
    refuse_breaking_forms(&retry, &forms(name))?;
    let ask = |requests: Vec<InputRequest>, state: Option<&str>| -> Outcome {
        declared(server, &requests)?;
        Ok(input_required(server, binding, requests, state))
    };
    let done = |text: String| Ok(content([text_content(text)]));
    match name {
        "test_input_required_result_elicitation" | "test_streaming_elicitation" => {
            match field(&retry, "user_name", "name") {
                Some(name) => done(format!("Hello, {name}!")),
                None => ask(vec![name_request("user_name")], None),
            }
        }
        "test_input_required_result_sampling" => match sampled(&retry, "capital_question") {
            Some(text) => done(format!("The model answered: {text}")),
            None => ask(
                vec![InputRequest::new(
                    "capital_question",
                    Capability::Sampling,
                    sampling("What is the capital of France?", 100),
                )],
                None,
            ),
        },
        "test_input_required_result_list_roots" => match roots(&retry, "client_roots") {
            Some(roots) => done(format!("The client's roots: {roots}")),
            None => ask(vec![roots_request()], None),
        },
        "test_input_required_result_request_state"
        | "test_input_required_result_tampered_state" => {
            let confirmed = field(&retry, "confirm", "ok");
            match (retry.state.as_deref(), confirmed) {
                (Some("awaiting-confirmation"), Some(ok)) => done(format!(
                    "state-ok: the requestState came back unchanged (ok = {ok})"
                )),
                _ => ask(vec![confirm_request()], Some("awaiting-confirmation")),
            }
        }
        "test_input_required_result_multiple_inputs" => {
            let name = field(&retry, "user_name", "name");
            let greeting = sampled(&retry, "greeting");
            let roots = roots(&retry, "client_roots");
            if let (Some("awaiting-all"), Some(name), Some(greeting), Some(roots)) =
                (retry.state.as_deref(), &name, &greeting, &roots)
            {
                return done(format!("{greeting} {name}; your roots: {roots}"));
            }
            let mut requests = Vec::new();
            if name.is_none() {
                requests.push(name_request("user_name"));
            }
            if greeting.is_none() {
                requests.push(InputRequest::new(
                    "greeting",
                    Capability::Sampling,
                    sampling("Generate a greeting", 50),
                ));
            }
            if roots.is_none() {
                requests.push(roots_request());
            }
            if requests.is_empty() {
                // Every answer, but not the state that asked for them: ask all again.
                requests = vec![name_request("user_name")];
            }
            ask(requests, Some("awaiting-all"))
        }
        "test_input_required_result_multi_round" => match retry.state.as_deref() {
            Some(state) if state.starts_with("step2:") => {
                let name = &state["step2:".len()..];
                match field(&retry, "step2", "color") {
                    Some(color) => done(format!("{name}'s favourite colour is {color}.")),
                    None => ask(vec![step2_request()], Some(state)),
                }
            }
            Some("step1") => match field(&retry, "step1", "name") {
                Some(name) => ask(vec![step2_request()], Some(&format!("step2:{name}"))),
                None => ask(vec![step1_request()], Some("step1")),
            },
            _ => ask(vec![step1_request()], Some("step1")),
        },
        _ => {
            // test_input_required_result_capabilities: only what the client can answer.
            let mut requests = Vec::new();
            if server.client_declared(Capability::Sampling) {
                requests.push(InputRequest::new(
                    "capital_question",
                    Capability::Sampling,
                    sampling("What is the capital of France?", 100),
                ));
            }
            if server.client_declared(Capability::Elicitation) {
                requests.push(name_request("user_name"));
            }
            if server.client_declared(Capability::Roots) {
                requests.push(roots_request());
            }
            if requests.is_empty() {
                return Err(super::super::ask::missing_capability(Capability::Sampling));
            }
            let answered: Vec<&str> = requests
                .iter()
                .filter(|r| retry.answer(r.key).is_some())
                .map(|r| r.key)
                .collect();
            if answered.len() == requests.len() {
                return done(format!("Answered: {}", answered.join(", ")));
            }
            ask(requests, None)
        }
    }
}

/// `prompts/get` of [`PROMPT`]: asks the context first.
pub(super) fn prompts_get(server: &MockServer, params: Option<&Node<'_>>) -> Outcome {
    let binding = format!("prompts/get {}", PROMPT.0);
    let retry = retry(server, &binding, params)?;
    refuse_breaking_forms(&retry, &[context_request()])?;
    if !server.request.modern {
        return Err(RpcError::invalid_params([(
            "/params/name",
            format!(
                "{} asks the client inside an input-required result, which 2026-07-28 has",
                PROMPT.0
            ),
        )]));
    }
    match field(&retry, "user_context", "context") {
        Some(context) => Ok(Json::obj([
            ("description", Json::from(PROMPT.1)),
            (
                "messages",
                Json::arr([user(text_content(format!(
                    "A prompt made with the context you gave: {context}"
                )))]),
            ),
        ])),
        None => {
            let requests = vec![context_request()];
            declared(server, &requests)?;
            Ok(input_required(server, &binding, requests, None))
        }
    }
}
