//! Input-required results (MCP 2026-07-28, SEP-2322: multi round-trip requests). Where a
//! handshake-era server sends the client a request of its own and waits ([`super::ask`]), a
//! 2026-07-28 server answers at once with `resultType: "input_required"`: `inputRequests` (each
//! key a request for the client: `elicitation/create`, `sampling/createMessage`, `roots/list`)
//! and, when it has something to remember, an opaque `requestState`. The client retries the same
//! request with `inputResponses` (the answers by key) and the state echoed unchanged; the server
//! answers from them, asks again, or completes.
//!
//! The server keeps nothing between rounds: what it needs comes back in `requestState`, which it
//! signs (HMAC-SHA-256 under the key its transport gives, [`MockServer::set_state_key`]) and binds
//! to the request it belongs to, so a state that was changed, or made by another server or for
//! another request, is refused with -32602. Answers are read and checked by key: a missing or
//! unusable one is asked for again, keys never asked for are ignored.
//! <https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr>

use hmac::{Hmac, Mac};
use sha2::Sha256;

use crate::json::{Json, Node};

use super::ask::{missing_capability, Capability, Finish};
use super::{describe, MockServer, RpcError};

/// The length of a state key (HMAC-SHA-256's block is longer; any length works, 32 bytes is the
/// hash's own strength).
pub const STATE_KEY_BYTES: usize = 32;

/// One request for the client inside an input-required result.
pub(super) struct InputRequest {
    pub(super) key: &'static str,
    pub(super) capability: Capability,
    pub(super) params: Json,
}

impl InputRequest {
    pub(super) fn new(key: &'static str, capability: Capability, params: Json) -> Self {
        InputRequest {
            key,
            capability,
            params,
        }
    }
}

/// An input-required result asking `requests`, with `state` (signed) when there is one.
pub(super) fn input_required(
    server: &MockServer,
    binding: &str,
    requests: Vec<InputRequest>,
    state: Option<&str>,
) -> Json {
    let input_requests = requests.into_iter().map(|r| {
        (
            r.key,
            Json::obj([
                ("method", Json::from(r.capability.method())),
                ("params", r.params),
            ]),
        )
    });
    let mut result = vec![
        ("resultType", Json::from("input_required")),
        ("inputRequests", Json::obj(input_requests)),
    ];
    if let Some(state) = state {
        result.push(("requestState", Json::String(server.sign(binding, state))));
    }
    Json::obj(result)
}

/// What a retried request brought: its answers (an object, by key) and the state it echoed,
/// verified.
pub(super) struct Retry<'n, 'a> {
    responses: Option<&'n Node<'a>>,
    /// The echoed state's payload, when the request carried a valid one (the friendly tools
    /// keep none).
    #[cfg_attr(not(feature = "conformance"), allow(dead_code))]
    pub(super) state: Option<String>,
}

impl<'n, 'a> Retry<'n, 'a> {
    /// The answer under `key`, if the client gave one.
    pub(super) fn answer(&self, key: &str) -> Option<&'n Node<'a>> {
        self.responses?.get(key)
    }
}

/// Reads `inputResponses` and `requestState` from a request's `params`, for the request bound as
/// `binding`. `Err`: -32602 for `inputResponses` that is not an object, or a `requestState` that
/// fails its check (changed, another server's, another request's).
pub(super) fn retry<'n, 'a>(
    server: &MockServer,
    binding: &str,
    params: Option<&'n Node<'a>>,
) -> Result<Retry<'n, 'a>, RpcError> {
    let responses = params.and_then(|p| p.get("inputResponses"));
    if let Some(r) = responses.filter(|r| !r.is_object()) {
        return Err(RpcError::invalid_params([(
            "/params/inputResponses",
            format!(
                "\"inputResponses\" must be an object of the answers by the keys of inputRequests, found {}",
                describe(r)
            ),
        )]));
    }
    let state = match params.and_then(|p| p.get("requestState")) {
        None => None,
        Some(node) => {
            let verified = node.as_str().and_then(|s| server.verify(binding, s));
            match verified {
                Some(payload) => Some(payload),
                None => {
                    return Err(RpcError::invalid_params([(
                        "/params/requestState",
                        "\"requestState\" failed its integrity check: echo the state of this server's last input-required result for this request, unchanged",
                    )]))
                }
            }
        }
    };
    Ok(Retry { responses, state })
}

type HmacSha256 = Hmac<Sha256>;

impl MockServer {
    /// Sets the key that signs `requestState` (a transport gives each server of a process the same
    /// random key, so that a state survives the stateless requests of 2026-07-28; without one the
    /// key is all zeros: still checked against changes, not secret).
    pub fn set_state_key(&mut self, key: [u8; STATE_KEY_BYTES]) {
        self.state_key = key;
    }

    fn mac(&self, binding: &str, payload: &str) -> HmacSha256 {
        let mut mac =
            HmacSha256::new_from_slice(&self.state_key).expect("HMAC takes any key length");
        mac.update(binding.as_bytes());
        mac.update(&[0]);
        mac.update(payload.as_bytes());
        mac
    }

    /// `payload.MAC` (the MAC in hex, over the binding and the payload).
    fn sign(&self, binding: &str, payload: &str) -> String {
        let tag = self.mac(binding, payload).finalize().into_bytes();
        let hex: String = tag.iter().map(|b| format!("{b:02x}")).collect();
        format!("{payload}.{hex}")
    }

    /// The payload of `state` when its MAC is right for `binding`, written as [`Self::sign`]
    /// writes it (lower-case hex: a state with the MAC's letters in upper case was changed).
    fn verify(&self, binding: &str, state: &str) -> Option<String> {
        let (payload, hex) = state.rsplit_once('.')?;
        let lower_hex = |b: u8| b.is_ascii_digit() || (b'a'..=b'f').contains(&b);
        if hex.len() != 64 || !hex.bytes().all(lower_hex) {
            return None;
        }
        let tag: Vec<u8> = (0..32)
            .map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16))
            .collect::<Result<_, _>>()
            .ok()?;
        self.mac(binding, payload)
            .verify_slice(&tag)
            .ok()
            .map(|()| payload.to_string())
    }
}

/// -32602 when the retry's answer to `request` (an `elicitation/create`) is an accepted form that
/// breaks the `requestedSchema` it was asked with. With the tool schemas (feature `mcp-schemas`:
/// `jrpc serve`, the page's MCP mock) only; without them, the tool reads what it can. Any other
/// request, or no answer to it, passes.
pub(super) fn refuse_breaking_form(
    retry: &Retry<'_, '_>,
    request: &InputRequest,
) -> Result<(), RpcError> {
    #[cfg(feature = "mcp-schemas")]
    if let Some(answer) = retry
        .answer(request.key)
        .filter(|_| request.capability == super::ask::Capability::Elicitation)
    {
        let asked = super::input_schema::serde_of(&request.params);
        let problems = super::input_schema::answer_problems(&asked, answer);
        if !problems.is_empty() {
            let at = format!("/params/inputResponses/{}/content", request.key);
            return Err(RpcError::invalid_params(
                problems.into_iter().map(|(p, m)| (format!("{at}{p}"), m)),
            ));
        }
    }
    #[cfg(not(feature = "mcp-schemas"))]
    let _ = (retry, request);
    Ok(())
}

/// A request that needs one answer (the friendly tools): with a usable answer under
/// `request.key`, `finish` makes the result; otherwise an input-required result asks for it
/// (-32021 when the client did not declare the capability it needs).
pub(super) fn ask_once(
    server: &MockServer,
    binding: &str,
    params: Option<&Node<'_>>,
    request: InputRequest,
    finish: Finish,
) -> Result<Json, RpcError> {
    let retry = retry(server, binding, params)?;
    refuse_breaking_form(&retry, &request)?;
    let usable = |answer: &Node<'_>| {
        let result = finish(answer);
        (result.get("isError") != Some(&Json::Bool(true))).then_some(result)
    };
    if let Some(result) = retry.answer(request.key).and_then(usable) {
        return Ok(result);
    }
    if !server.client_declared(request.capability) {
        return Err(missing_capability(request.capability));
    }
    Ok(input_required(server, binding, vec![request], None))
}
