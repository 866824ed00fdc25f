//! MCP authorization as the probe performs it over HTTP (the pure part: the CLI's link does the
//! requests): the `WWW-Authenticate` challenge read, the protected resource metadata (RFC 9728) and
//! authorization server metadata (RFC 8414, OpenID Connect Discovery) looked for where the
//! specification says and checked against their MUSTs, PKCE S256 (RFC 7636), the authorization
//! request with `resource` (RFC 8707), the authorization response's `state` and `iss` (RFC 9207)
//! and the token response (OAuth 2.1 §3.2.3). Every step becomes a check of the probe's report
//! ([`Step`]); a step that breaks a MUST names its rule ([`crate::probe::rules`], the `oauth-`
//! family). Secrets (tokens, client secrets, codes) never enter a step's words.
//! <https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization>

use serde_json::Value;

use crate::rpc::catalogue::Rule;

/// One step of the authorization, as the report shows it: a check that passed or failed.
#[derive(Clone, Debug)]
pub struct Step {
    /// `auth/protected-resource-metadata`, `auth/token`, …
    pub id: &'static str,
    pub title: &'static str,
    pub spec: &'static str,
    /// What it saw; a failed step names its rule first.
    pub detail: String,
    pub failed: bool,
}

impl Step {
    pub fn pass(id: &'static str, title: &'static str, spec: &'static str, detail: String) -> Step {
        Step {
            id,
            title,
            spec,
            detail,
            failed: false,
        }
    }

    pub fn fail(
        id: &'static str,
        title: &'static str,
        rule: &'static Rule,
        detail: impl AsRef<str>,
    ) -> Step {
        Step {
            id,
            title,
            spec: rule.section.url,
            detail: format!("{}: {}", rule.id, detail.as_ref()),
            failed: true,
        }
    }
}

/// A `WWW-Authenticate` challenge's parameters (`Bearer k="v", …`), names in lower case.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Challenge {
    pub scheme: String,
    pub params: Vec<(String, String)>,
}

impl Challenge {
    pub fn param(&self, name: &str) -> Option<&str> {
        self.params
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// The longest `WWW-Authenticate` value read (a longer one is cut there).
pub const MAX_CHALLENGE: usize = 8 * 1024;

/// Reads a `WWW-Authenticate` header value: its first challenge (RFC 9110 §11.6.1), quoted
/// strings unescaped. Cut at [`MAX_CHALLENGE`] bytes.
pub fn parse_challenge(header: &str) -> Challenge {
    let mut text = header;
    if text.len() > MAX_CHALLENGE {
        let mut end = MAX_CHALLENGE;
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        text = &text[..end];
    }
    let text = text.trim_start();
    let scheme_end = text.find([' ', ',']).unwrap_or(text.len());
    let scheme = text[..scheme_end].to_ascii_lowercase();
    let mut rest = text[scheme_end..].chars().peekable();
    let mut params = Vec::new();
    loop {
        while rest.peek().is_some_and(|c| *c == ' ' || *c == ',') {
            rest.next();
        }
        let mut name = String::new();
        while let Some(c) = rest.peek().copied() {
            if c == '=' || c == ' ' || c == ',' {
                break;
            }
            name.push(c);
            rest.next();
        }
        if name.is_empty() {
            break;
        }
        while rest.peek() == Some(&' ') {
            rest.next();
        }
        if rest.peek() != Some(&'=') {
            // Another scheme begins (or a token68): the first challenge ends here.
            break;
        }
        rest.next();
        while rest.peek() == Some(&' ') {
            rest.next();
        }
        let mut value = String::new();
        if rest.peek() == Some(&'"') {
            rest.next();
            while let Some(c) = rest.next() {
                match c {
                    '\\' => value.extend(rest.next()),
                    '"' => break,
                    c => value.push(c),
                }
            }
        } else {
            while let Some(c) = rest.peek().copied() {
                if c == ',' || c == ' ' {
                    break;
                }
                value.push(c);
                rest.next();
            }
        }
        params.push((name.to_ascii_lowercase(), value));
    }
    Challenge { scheme, params }
}

/// `url` split as (`scheme://authority`, path without its query or fragment). None: not an
/// absolute http(s) URL.
pub fn split_url(url: &str) -> Option<(&str, &str)> {
    let (scheme, rest) = url.split_once("://")?;
    if !scheme.eq_ignore_ascii_case("http") && !scheme.eq_ignore_ascii_case("https") {
        return None;
    }
    let authority_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    if authority_end == 0 {
        return None;
    }
    let origin = &url[..scheme.len() + 3 + authority_end];
    let after = &rest[authority_end..];
    let path_end = after.find(['?', '#']).unwrap_or(after.len());
    Some((origin, &after[..path_end]))
}

/// Where the protected resource metadata of the MCP server at `server_url` is looked for when the
/// challenge names none: path-based first, then at the root (RFC 9728 §3.1; MCP's order).
pub fn resource_metadata_urls(server_url: &str) -> Vec<String> {
    let Some((origin, path)) = split_url(server_url) else {
        return Vec::new();
    };
    let path = path.trim_end_matches('/');
    let mut urls = Vec::new();
    if !path.is_empty() {
        urls.push(format!(
            "{origin}/.well-known/oauth-protected-resource{path}"
        ));
    }
    urls.push(format!("{origin}/.well-known/oauth-protected-resource"));
    urls
}

/// Where the metadata of the authorization server `issuer` is looked for, in MCP's order: RFC 8414
/// (the well-known suffix inserted before the issuer's path), then OpenID Connect Discovery
/// (inserted, then appended to the path).
pub fn server_metadata_urls(issuer: &str) -> Vec<String> {
    let Some((origin, path)) = split_url(issuer) else {
        return Vec::new();
    };
    let path = path.trim_end_matches('/');
    if path.is_empty() {
        vec![
            format!("{origin}/.well-known/oauth-authorization-server"),
            format!("{origin}/.well-known/openid-configuration"),
        ]
    } else {
        vec![
            format!("{origin}/.well-known/oauth-authorization-server{path}"),
            format!("{origin}/.well-known/openid-configuration{path}"),
            format!("{origin}{path}/.well-known/openid-configuration"),
        ]
    }
}

/// What the protected resource metadata says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResourceMetadata {
    /// `resource`, exactly as published (sent as RFC 8707's `resource`).
    pub resource: String,
    pub authorization_servers: Vec<String>,
    pub scopes_supported: Option<Vec<String>>,
}

/// Checks the protected resource metadata `doc` fetched for the MCP server at `server_url`:
/// a JSON object whose `resource` is an http(s) URL without a fragment that the server's URL is
/// (or lies under: same origin, a path prefix at a segment boundary), with at least one
/// authorization server. Err: why not, with its rule.
pub fn check_resource_metadata(
    doc: &Value,
    server_url: &str,
) -> Result<ResourceMetadata, (&'static Rule, String)> {
    use crate::probe::rules::{OAUTH_RESOURCE_METADATA_INVALID, OAUTH_RESOURCE_MISMATCH};
    let bad = |why: String| Err((&OAUTH_RESOURCE_METADATA_INVALID, why));
    let Some(object) = doc.as_object() else {
        return bad("not a JSON object".into());
    };
    let Some(resource) = object.get("resource").and_then(Value::as_str) else {
        return bad("no string \"resource\" (REQUIRED)".into());
    };
    if !matches_resource(server_url, resource) {
        return Err((
            &OAUTH_RESOURCE_MISMATCH,
            format!(
                "\"resource\" {:?} is not this server's URL {server_url:?} (nor a prefix of it): the token would be for another resource",
                super::excerpt::excerpt(resource, 120)
            ),
        ));
    }
    let servers: Vec<String> = object
        .get("authorization_servers")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .filter(|s| split_url(s).is_some())
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default();
    if servers.is_empty() {
        return bad("no \"authorization_servers\" URL (MCP: at least one is REQUIRED)".into());
    }
    let scopes_supported = strings(object.get("scopes_supported"));
    Ok(ResourceMetadata {
        resource: resource.to_string(),
        authorization_servers: servers,
        scopes_supported,
    })
}

/// The MCP server at `server_url` is the `resource` (RFC 8707 canonical URI), or lies under it.
pub fn matches_resource(server_url: &str, resource: &str) -> bool {
    let (Some((server_origin, server_path)), Some((origin, path))) =
        (split_url(server_url), split_url(resource))
    else {
        return false;
    };
    if resource.contains('#') || !server_origin.eq_ignore_ascii_case(origin) {
        return false;
    }
    let path = path.trim_end_matches('/');
    let server_path = server_path.trim_end_matches('/');
    server_path == path
        || (server_path.starts_with(path) && server_path[path.len()..].starts_with('/'))
}

fn strings(value: Option<&Value>) -> Option<Vec<String>> {
    value.and_then(Value::as_array).map(|a| {
        a.iter()
            .filter_map(Value::as_str)
            .map(str::to_string)
            .collect()
    })
}

/// What the authorization server metadata says (what the probe uses of it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServerMetadata {
    pub issuer: String,
    pub authorization_endpoint: String,
    pub token_endpoint: String,
    pub registration_endpoint: Option<String>,
    pub scopes_supported: Option<Vec<String>>,
    pub grant_types_supported: Option<Vec<String>>,
    pub token_endpoint_auth_methods_supported: Option<Vec<String>>,
    /// RFC 9207: the server says it sends `iss` in its authorization responses.
    pub iss_parameter_supported: bool,
    pub client_id_metadata_document_supported: bool,
}

/// Checks the authorization server metadata `doc` fetched for `issuer`: a JSON object whose
/// `issuer` is exactly `issuer` (RFC 8414 §3.3: else it MUST NOT be used), with the authorization
/// and token endpoints, and S256 among `code_challenge_methods_supported` (MCP: without it the
/// client MUST refuse to proceed). Err: why not, with its rule.
pub fn check_server_metadata(
    doc: &Value,
    issuer: &str,
) -> Result<ServerMetadata, (&'static Rule, String)> {
    use crate::probe::rules::{
        OAUTH_ISSUER_MISMATCH, OAUTH_PKCE_UNSUPPORTED, OAUTH_SERVER_METADATA_INVALID,
    };
    let bad = |why: String| Err((&OAUTH_SERVER_METADATA_INVALID, why));
    let Some(object) = doc.as_object() else {
        return bad("not a JSON object".into());
    };
    match object.get("issuer").and_then(Value::as_str) {
        None => return bad("no string \"issuer\" (REQUIRED)".into()),
        Some(said) if said != issuer => {
            return Err((
                &OAUTH_ISSUER_MISMATCH,
                format!(
                    "\"issuer\" is {:?}, not {issuer:?} (the issuer the metadata was fetched for): not used",
                    super::excerpt::excerpt(said, 120)
                ),
            ))
        }
        Some(_) => {}
    }
    let endpoint = |name: &str| {
        object
            .get(name)
            .and_then(Value::as_str)
            .filter(|url| split_url(url).is_some())
            .map(str::to_string)
    };
    let Some(authorization_endpoint) = endpoint("authorization_endpoint") else {
        return bad("no http(s) \"authorization_endpoint\"".into());
    };
    let Some(token_endpoint) = endpoint("token_endpoint") else {
        return bad("no http(s) \"token_endpoint\"".into());
    };
    let methods = strings(object.get("code_challenge_methods_supported"));
    if !methods
        .as_ref()
        .is_some_and(|m| m.iter().any(|m| m == "S256"))
    {
        return Err((
            &OAUTH_PKCE_UNSUPPORTED,
            match methods {
                None => "no \"code_challenge_methods_supported\": PKCE support is not shown, and an MCP client must refuse to proceed".into(),
                Some(m) => format!("\"code_challenge_methods_supported\" is {m:?}, without S256"),
            },
        ));
    }
    Ok(ServerMetadata {
        issuer: issuer.to_string(),
        authorization_endpoint,
        token_endpoint,
        registration_endpoint: endpoint("registration_endpoint"),
        scopes_supported: strings(object.get("scopes_supported")),
        grant_types_supported: strings(object.get("grant_types_supported")),
        token_endpoint_auth_methods_supported: strings(
            object.get("token_endpoint_auth_methods_supported"),
        ),
        iss_parameter_supported: object.get("authorization_response_iss_parameter_supported")
            == Some(&Value::Bool(true)),
        client_id_metadata_document_supported: object.get("client_id_metadata_document_supported")
            == Some(&Value::Bool(true)),
    })
}

/// The scopes to ask for: the challenge's `scope`, else the resource's `scopes_supported`, else
/// none; with `offline_access` added when the authorization server lists it (and refresh
/// tokens); joined with what was asked before (a step-up keeps what it had).
pub fn choose_scopes(
    challenge: Option<&str>,
    resource: &ResourceMetadata,
    server: &ServerMetadata,
    before: &[String],
) -> Vec<String> {
    let mut scopes: Vec<String> = before.to_vec();
    let chosen: Vec<String> = match challenge {
        Some(s) if !s.trim().is_empty() => s.split_whitespace().map(str::to_string).collect(),
        _ => resource.scopes_supported.clone().unwrap_or_default(),
    };
    for scope in chosen {
        if !scopes.contains(&scope) {
            scopes.push(scope);
        }
    }
    let offline = server
        .scopes_supported
        .as_ref()
        .is_some_and(|s| s.iter().any(|s| s == "offline_access"))
        && server
            .grant_types_supported
            .as_ref()
            .is_none_or(|g| g.iter().any(|g| g == "refresh_token"));
    if offline && !scopes.is_empty() && !scopes.iter().any(|s| s == "offline_access") {
        scopes.push("offline_access".into());
    }
    scopes
}

/// PKCE S256 from 32 random bytes: (code_verifier, code_challenge), both base64url unpadded.
pub fn pkce(random: &[u8; 32]) -> (String, String) {
    use base64::Engine;
    use sha2::Digest;
    let engine = base64::engine::general_purpose::URL_SAFE_NO_PAD;
    let verifier = engine.encode(random);
    let challenge = engine.encode(sha2::Sha256::digest(verifier.as_bytes()));
    (verifier, challenge)
}

/// The `Authorization` value of `client_secret_basic` (RFC 6749 §2.3.1: each part form-encoded,
/// then Base64).
pub fn basic_credentials(client_id: &str, client_secret: &str) -> String {
    use base64::Engine;
    let pair = format!(
        "{}:{}",
        percent_encode(client_id),
        percent_encode(client_secret)
    );
    format!(
        "Basic {}",
        base64::engine::general_purpose::STANDARD.encode(pair)
    )
}

/// `text` percent-encoded for a query or a form (everything but RFC 3986's unreserved).
pub fn percent_encode(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// `pairs` as `application/x-www-form-urlencoded` (also a query string).
pub fn form(pairs: &[(&str, &str)]) -> String {
    pairs
        .iter()
        .map(|(k, v)| format!("{}={}", percent_encode(k), percent_encode(v)))
        .collect::<Vec<_>>()
        .join("&")
}

/// A query string (or form body) read into its pairs, `+` and `%XX` decoded.
pub fn parse_query(query: &str) -> Vec<(String, String)> {
    fn decode(text: &str) -> String {
        let bytes = text.as_bytes();
        let mut out = Vec::with_capacity(bytes.len());
        let mut i = 0;
        while i < bytes.len() {
            match bytes[i] {
                b'+' => out.push(b' '),
                b'%' if i + 2 < bytes.len() => {
                    let hex = |b: u8| (b as char).to_digit(16);
                    match (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                        (Some(high), Some(low)) => {
                            out.push((high * 16 + low) as u8);
                            i += 2;
                        }
                        _ => out.push(b'%'),
                    }
                }
                b => out.push(b),
            }
            i += 1;
        }
        String::from_utf8_lossy(&out).into_owned()
    }
    query
        .split('&')
        .filter(|p| !p.is_empty())
        .map(|p| {
            let (k, v) = p.split_once('=').unwrap_or((p, ""));
            (decode(k), decode(v))
        })
        .collect()
}

/// Checks an authorization response (the redirect's query, `pairs`): an `error` is said; the
/// `state` is the one sent; `iss` (RFC 9207) is compared with the issuer by simple string
/// comparison when present, and required when the server said it sends it. Ok: the code.
pub fn check_authorization_response(
    pairs: &[(String, String)],
    state: &str,
    server: &ServerMetadata,
) -> Result<String, (&'static Rule, String)> {
    use crate::probe::rules::{
        OAUTH_AUTHORIZATION_REFUSED, OAUTH_ISS_MISMATCH, OAUTH_STATE_MISMATCH,
    };
    let get = |name: &str| {
        pairs
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    };
    if let Some(error) = get("error") {
        let description = get("error_description").unwrap_or("");
        return Err((
            &OAUTH_AUTHORIZATION_REFUSED,
            format!(
                "the authorization server answered error {:?} {:?}",
                super::excerpt::excerpt(error, 80),
                super::excerpt::excerpt(description, 200)
            ),
        ));
    }
    match get("iss") {
        Some(iss) if iss != server.issuer => {
            return Err((
                &OAUTH_ISS_MISMATCH,
                format!(
                    "iss is {:?}, not the issuer {:?} (compared as strings, RFC 9207 §2.4): the response may come from another server; refused",
                    super::excerpt::excerpt(iss, 120),
                    server.issuer
                ),
            ))
        }
        None if server.iss_parameter_supported => {
            return Err((
                &OAUTH_ISS_MISMATCH,
                "no iss, though the metadata says authorization_response_iss_parameter_supported: refused (RFC 9207 §2.4)".to_string(),
            ))
        }
        _ => {}
    }
    if get("state") != Some(state) {
        return Err((
            &OAUTH_STATE_MISMATCH,
            "the state is not the one sent: refused".to_string(),
        ));
    }
    match get("code") {
        Some(code) if !code.is_empty() => Ok(code.to_string()),
        _ => Err((
            &OAUTH_AUTHORIZATION_REFUSED,
            "no code in the authorization response".to_string(),
        )),
    }
}

/// What a token response gave.
#[derive(Clone, PartialEq, Eq)]
pub struct Tokens {
    pub access_token: String,
    pub refresh_token: Option<String>,
    pub expires_in: Option<u64>,
    pub scope: Option<String>,
}

impl std::fmt::Debug for Tokens {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tokens")
            .field("access_token", &"…")
            .field("refresh_token", &self.refresh_token.as_ref().map(|_| "…"))
            .field("expires_in", &self.expires_in)
            .field("scope", &self.scope)
            .finish()
    }
}

/// Checks a token endpoint's answer (HTTP `status`, its body): 200 with a JSON object holding a
/// string `access_token` and `token_type` Bearer (OAuth 2.1 §3.2.3); an error response's `error`
/// and `error_description` are said (never anything else of the body).
pub fn check_token_response(status: u16, body: &[u8]) -> Result<Tokens, (&'static Rule, String)> {
    use crate::probe::rules::OAUTH_TOKEN_RESPONSE_INVALID;
    let doc: Option<Value> = serde_json::from_slice(body).ok();
    if status != 200 {
        let said = doc
            .as_ref()
            .and_then(|d| d.get("error"))
            .and_then(Value::as_str)
            .map(|e| {
                let description = doc
                    .as_ref()
                    .and_then(|d| d.get("error_description"))
                    .and_then(Value::as_str)
                    .unwrap_or("");
                format!(
                    ": error {:?} {:?}",
                    super::excerpt::excerpt(e, 80),
                    super::excerpt::excerpt(description, 200)
                )
            })
            .unwrap_or_default();
        return Err((
            &OAUTH_TOKEN_RESPONSE_INVALID,
            format!("the token endpoint answered HTTP {status}{said}"),
        ));
    }
    let bad = |why: &str| Err((&OAUTH_TOKEN_RESPONSE_INVALID, why.to_string()));
    let Some(object) = doc.as_ref().and_then(Value::as_object) else {
        return bad("the token response is not a JSON object");
    };
    let Some(access_token) = object.get("access_token").and_then(Value::as_str) else {
        return bad("no string \"access_token\" (REQUIRED)");
    };
    match object.get("token_type").and_then(Value::as_str) {
        Some(t) if t.eq_ignore_ascii_case("bearer") => {}
        Some(_) => return bad("\"token_type\" is not Bearer (the only type the probe uses)"),
        None => return bad("no string \"token_type\" (REQUIRED)"),
    }
    Ok(Tokens {
        access_token: access_token.to_string(),
        refresh_token: object
            .get("refresh_token")
            .and_then(Value::as_str)
            .map(str::to_string),
        expires_in: object.get("expires_in").and_then(Value::as_u64),
        scope: object
            .get("scope")
            .and_then(Value::as_str)
            .map(str::to_string),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_authorization_rules_are_a_family_with_references() {
        let rules = crate::probe::rules::AUTH_RULES;
        for (i, rule) in rules.iter().enumerate() {
            assert!(rule.id.starts_with("oauth-"), "{}", rule.id);
            assert!(rule.section.url.starts_with("https://"), "{}", rule.id);
            assert!(!rule.summary.is_empty() && !rule.explanation.is_empty());
            assert!(
                rules[..i].iter().all(|r| r.id != rule.id),
                "{} twice",
                rule.id
            );
        }
    }

    #[test]
    fn a_bearer_challenge_is_read() {
        let c = parse_challenge(
            r#"Bearer error="insufficient_scope", scope="mcp:basic mcp:write", resource_metadata="http://h:1/.well-known/oauth-protected-resource/mcp", error_description="a \"b\"""#,
        );
        assert_eq!(c.scheme, "bearer");
        assert_eq!(c.param("error"), Some("insufficient_scope"));
        assert_eq!(c.param("scope"), Some("mcp:basic mcp:write"));
        assert_eq!(
            c.param("resource_metadata"),
            Some("http://h:1/.well-known/oauth-protected-resource/mcp")
        );
        assert_eq!(c.param("error_description"), Some("a \"b\""));
        assert_eq!(parse_challenge("Bearer").param("scope"), None);
        assert_eq!(
            parse_challenge("Bearer realm=x, Basic").param("realm"),
            Some("x")
        );
    }

    #[test]
    fn metadata_is_looked_for_where_the_rfcs_say() {
        assert_eq!(
            resource_metadata_urls("http://h:1/mcp?x=1"),
            [
                "http://h:1/.well-known/oauth-protected-resource/mcp",
                "http://h:1/.well-known/oauth-protected-resource"
            ]
        );
        assert_eq!(
            server_metadata_urls("https://as.example/tenant1"),
            [
                "https://as.example/.well-known/oauth-authorization-server/tenant1",
                "https://as.example/.well-known/openid-configuration/tenant1",
                "https://as.example/tenant1/.well-known/openid-configuration"
            ]
        );
        assert_eq!(server_metadata_urls("http://as").len(), 2);
    }

    #[test]
    fn resource_metadata_is_checked() {
        let doc = json!({"resource": "http://h:1/mcp", "authorization_servers": ["http://as:2"], "scopes_supported": ["a"]});
        let prm = check_resource_metadata(&doc, "http://h:1/mcp").unwrap();
        assert_eq!(prm.authorization_servers, ["http://as:2"]);
        assert!(check_resource_metadata(
            &json!({"resource": "http://h:1", "authorization_servers": ["http://as"]}),
            "http://h:1/mcp"
        )
        .is_ok());
        let (rule, _) = check_resource_metadata(
            &json!({"resource": "http://evil/mcp", "authorization_servers": ["http://as"]}),
            "http://h:1/mcp",
        )
        .unwrap_err();
        assert_eq!(rule.id, "oauth-resource-mismatch");
        let (rule, _) = check_resource_metadata(
            &json!({"resource": "http://h:1/mcpx", "authorization_servers": ["http://as"]}),
            "http://h:1/mcp",
        )
        .unwrap_err();
        assert_eq!(rule.id, "oauth-resource-mismatch");
        let (rule, _) =
            check_resource_metadata(&json!({"resource": "http://h:1/mcp"}), "http://h:1/mcp")
                .unwrap_err();
        assert_eq!(rule.id, "oauth-resource-metadata-invalid");
    }

    #[test]
    fn server_metadata_is_checked_issuer_first() {
        let doc = json!({"issuer": "http://as", "authorization_endpoint": "http://as/a", "token_endpoint": "http://as/t", "code_challenge_methods_supported": ["S256"], "authorization_response_iss_parameter_supported": true});
        let meta = check_server_metadata(&doc, "http://as").unwrap();
        assert!(meta.iss_parameter_supported);
        assert_eq!(
            check_server_metadata(&doc, "http://as/").unwrap_err().0.id,
            "oauth-issuer-mismatch"
        );
        let mut no_pkce = doc.clone();
        no_pkce
            .as_object_mut()
            .unwrap()
            .remove("code_challenge_methods_supported");
        assert_eq!(
            check_server_metadata(&no_pkce, "http://as")
                .unwrap_err()
                .0
                .id,
            "oauth-pkce-unsupported"
        );
    }

    #[test]
    fn the_authorization_response_is_checked_state_and_iss() {
        let meta = ServerMetadata {
            issuer: "http://as".into(),
            authorization_endpoint: String::new(),
            token_endpoint: String::new(),
            registration_endpoint: None,
            scopes_supported: None,
            grant_types_supported: None,
            token_endpoint_auth_methods_supported: None,
            iss_parameter_supported: true,
            client_id_metadata_document_supported: false,
        };
        let q = |s: &str| parse_query(s);
        assert_eq!(
            check_authorization_response(&q("code=c1&state=s&iss=http%3A%2F%2Fas"), "s", &meta)
                .unwrap(),
            "c1"
        );
        assert_eq!(
            check_authorization_response(&q("code=c1&state=s&iss=http%3A%2F%2Fas%2F"), "s", &meta)
                .unwrap_err()
                .0
                .id,
            "oauth-iss-mismatch"
        );
        assert_eq!(
            check_authorization_response(&q("code=c1&state=s"), "s", &meta)
                .unwrap_err()
                .0
                .id,
            "oauth-iss-mismatch"
        );
        assert_eq!(
            check_authorization_response(&q("code=c1&state=x&iss=http://as"), "s", &meta)
                .unwrap_err()
                .0
                .id,
            "oauth-state-mismatch"
        );
        let unadvertised = ServerMetadata {
            iss_parameter_supported: false,
            ..meta
        };
        assert!(check_authorization_response(&q("code=c1&state=s"), "s", &unadvertised).is_ok());
        assert!(check_authorization_response(
            &q("code=c1&state=s&iss=https://evil"),
            "s",
            &unadvertised
        )
        .is_err());
    }

    #[test]
    fn pkce_and_forms() {
        // RFC 7636 appendix B.
        let random: [u8; 32] = [
            116, 24, 223, 180, 151, 153, 224, 37, 79, 250, 96, 125, 216, 173, 187, 186, 22, 212,
            37, 77, 105, 214, 191, 240, 91, 88, 5, 88, 83, 132, 141, 121,
        ];
        let (verifier, challenge) = pkce(&random);
        assert_eq!(verifier, "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk");
        assert_eq!(challenge, "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM");
        assert_eq!(form(&[("a b", "c&d=é")]), "a%20b=c%26d%3D%C3%A9");
        assert_eq!(
            parse_query("a+b=c%26d%3D%C3%A9&x"),
            [("a b".into(), "c&d=é".into()), ("x".into(), String::new())]
        );
    }

    #[test]
    fn token_responses_are_checked_and_never_shown() {
        let ok = check_token_response(
            200,
            br#"{"access_token":"secret-at","token_type":"bearer","refresh_token":"secret-rt"}"#,
        )
        .unwrap();
        assert_eq!(ok.access_token, "secret-at");
        assert!(!format!("{ok:?}").contains("secret"));
        let (_, why) =
            check_token_response(400, br#"{"error":"invalid_grant","access_token":"secret"}"#)
                .unwrap_err();
        assert!(
            why.contains("invalid_grant") && !why.contains("secret"),
            "{why}"
        );
        assert!(check_token_response(200, br#"{"access_token":"x","token_type":"DPoP"}"#).is_err());
    }
}
