//! MCP authorization for the HTTP link: on a 401 (or a 403 `insufficient_scope`) the probe
//! discovers the protected resource's metadata and its authorization server's, gets a client
//! identity (pre-registered, a Client ID Metadata Document, or dynamic registration), runs the
//! authorization code flow with PKCE S256 and `resource`, and retries with the token; later 401s
//! refresh it. The checks of each step are the engine's ([`crate::probe::auth`]); here are the
//! requests and the loopback redirect listener.
//!
//! The requests are written here over the link's own hyper client and TLS (rustls with the
//! system's roots) rather than with the `oauth2` crate: its HTTP clients are reqwest, ureq or curl
//! (another HTTP stack and TLS configuration beside the probe's), and it does neither the
//! metadata discovery, the registration nor the RFC 9207 checks, whose raw responses the probe
//! must judge and report anyway; PKCE and the form encoding are a few lines of the engine's.
//!
//! Budgets: each request [`MAX_AUTH_BODY`] bytes and the link's `--timeout`; at most
//! [`MAX_AUTHORIZATIONS`] authorizations per probe (then the server's refusal stands); the person
//! authorizing in a browser has until `--total-timeout`. Secrets (tokens, the client secret, the
//! code) are never printed: a step says what it got, not the value.

use std::time::Duration;

use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper::header::{self, HeaderMap, HeaderValue};
use hyper::{Method, Request, Uri};
use hyper_util::rt::TokioIo;
use serde_json::{json, Value};

use super::tls::{self, Endpoint};
use crate::probe::auth::{self, ResourceMetadata, ServerMetadata, Step, Tokens};
use crate::probe::rules::{
    OAUTH_AUTHORIZATION_REFUSED, OAUTH_CHALLENGE_INVALID, OAUTH_REGISTRATION_FAILED,
    OAUTH_SERVER_METADATA_INVALID, OAUTH_TOKEN_REFUSED,
};
use crate::probe::LinkError;

/// The largest body read from an authorization request's answer.
pub const MAX_AUTH_BODY: usize = 1024 * 1024;
/// The most authorizations (the first, step-ups, after a refused refresh) in one probe.
pub const MAX_AUTHORIZATIONS: usize = 3;
/// How long the probe waits for the browser's redirect when the person must authorize.
const BROWSER_WAIT: Duration = Duration::from_secs(600);

const MCP_AUTH: &str =
    "https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization";

/// The user's client identity (`--client-id`, `--client-secret`, `--client-metadata-url`).
#[derive(Clone, Debug, Default)]
pub struct ClientOptions {
    pub client_id: Option<String>,
    pub client_secret: Option<String>,
    /// A Client ID Metadata Document URL, used as client_id when the server supports them.
    pub metadata_url: Option<String>,
}

/// The client identity in use.
#[derive(Clone)]
struct Client {
    id: String,
    secret: Option<String>,
    /// none, client_secret_basic or client_secret_post.
    method: String,
}

/// What the probe learned and holds.
struct Session {
    resource: ResourceMetadata,
    server: ServerMetadata,
    client: Client,
    redirect_uri: String,
    listener: tokio::net::TcpListener,
    scopes: Vec<String>,
    tokens: Option<Tokens>,
}

/// The authorization state of one HTTP link.
pub struct Authorizer {
    options: ClientOptions,
    server_url: String,
    timeout: Duration,
    session: Option<Session>,
    authorizations: usize,
    /// Every step so far, for the report.
    pub steps: Vec<Step>,
}

impl Authorizer {
    pub fn new(options: ClientOptions, server_url: String, timeout: Duration) -> Authorizer {
        Authorizer {
            options,
            server_url,
            timeout,
            session: None,
            authorizations: 0,
            steps: Vec::new(),
        }
    }

    /// The MCP server answered `status` (401 or 403) with `challenge` (its WWW-Authenticate):
    /// the access token to retry with, or None when the refusal stands (a 403 that asks for no
    /// scope). Err: a step failed, or the authorizations are spent (its words say which, and
    /// why).
    pub async fn refused(
        &mut self,
        status: u16,
        challenge: Option<&str>,
    ) -> Result<Option<String>, LinkError> {
        let challenge = challenge.map(auth::parse_challenge).unwrap_or_default();
        let step_up = status == 403;
        if step_up && challenge.param("error") != Some("insufficient_scope") {
            return Ok(None);
        }
        if self.authorizations == MAX_AUTHORIZATIONS {
            return Err(self.failed(
                "auth/retry-limit",
                "The server accepts the token it asked for",
                &OAUTH_TOKEN_REFUSED,
                format!("HTTP {status} again after {MAX_AUTHORIZATIONS} authorizations: stopped"),
            ));
        }
        // A 401 with a refresh token: refresh first.
        if !step_up {
            if let Some(token) = self.refresh().await {
                return Ok(Some(token));
            }
        }
        self.authorizations += 1;
        // A 401 once authorized: the token was refused, and the server may have moved to another
        // authorization server (its metadata says which): discovered again, registered again.
        if !step_up {
            self.session = None;
        }
        if self.session.is_none() {
            let session = self.discover(&challenge).await?;
            self.session = Some(session);
        }
        self.authorize(challenge.param("scope")).await.map(Some)
    }

    /// A failed step: recorded, and the link's error.
    fn failed(
        &mut self,
        id: &'static str,
        title: &'static str,
        rule: &'static crate::rpc::catalogue::Rule,
        why: String,
    ) -> LinkError {
        let step = Step::fail(id, title, rule, &why);
        let said = format!("authorization failed at {id}: {}", step.detail);
        self.steps.push(step);
        LinkError(said)
    }

    /// The protected resource metadata, the authorization server's, and a client identity.
    async fn discover(&mut self, challenge: &auth::Challenge) -> Result<Session, LinkError> {
        const PRM: (&str, &str) = (
            "auth/protected-resource-metadata",
            "Protected resource metadata (RFC 9728) found and valid",
        );
        // Without a challenge the well-known URLs are looked at (MCP's fallback); another scheme
        // is not MCP authorization.
        if !challenge.scheme.is_empty() && challenge.scheme != "bearer" {
            return Err(self.failed(
                PRM.0,
                PRM.1,
                &OAUTH_CHALLENGE_INVALID,
                format!(
                    "the 401's WWW-Authenticate asks for {:?}, not Bearer (MCP authorization): give the credentials with --header 'Authorization: …'",
                    challenge.scheme
                ),
            ));
        }
        let urls = match challenge.param("resource_metadata") {
            Some(url) => vec![url.to_string()],
            None => auth::resource_metadata_urls(&self.server_url),
        };
        let mut tried = Vec::new();
        let mut resource = None;
        for url in &urls {
            match self.get_json(url).await {
                Ok(doc) => match auth::check_resource_metadata(&doc, &self.server_url) {
                    Ok(found) => {
                        resource = Some((found, url.clone()));
                        break;
                    }
                    Err((rule, why)) => {
                        return Err(self.failed(PRM.0, PRM.1, rule, format!("{url}: {why}")))
                    }
                },
                Err(why) => tried.push(format!("{url}: {why}")),
            }
        }
        let Some((resource, at)) = resource else {
            return Err(self.failed(
                PRM.0,
                PRM.1,
                &OAUTH_CHALLENGE_INVALID,
                format!("not found ({})", tried.join("; ")),
            ));
        };
        self.steps.push(Step::pass(
            PRM.0,
            PRM.1,
            MCP_AUTH,
            format!(
                "{at}{}: resource {}, authorization server {}",
                if challenge.param("resource_metadata").is_some() {
                    " (named by WWW-Authenticate)"
                } else if challenge.scheme.is_empty() {
                    " (the 401 had no WWW-Authenticate: found at a well-known URL)"
                } else {
                    ""
                },
                resource.resource,
                resource.authorization_servers[0]
            ),
        ));
        const ASM: (&str, &str) = (
            "auth/authorization-server-metadata",
            "Authorization server metadata (RFC 8414 / OpenID Connect) found and valid",
        );
        let issuer = resource.authorization_servers[0].clone();
        let mut tried = Vec::new();
        let mut server = None;
        for url in auth::server_metadata_urls(&issuer) {
            match self.get_json(&url).await {
                Ok(doc) => match auth::check_server_metadata(&doc, &issuer) {
                    Ok(found) => {
                        server = Some((found, url));
                        break;
                    }
                    Err((rule, why)) => {
                        return Err(self.failed(ASM.0, ASM.1, rule, format!("{url}: {why}")))
                    }
                },
                Err(why) => tried.push(format!("{url}: {why}")),
            }
        }
        let Some((server, at)) = server else {
            return Err(self.failed(
                ASM.0,
                ASM.1,
                &OAUTH_SERVER_METADATA_INVALID,
                format!("not found for issuer {issuer} ({})", tried.join("; ")),
            ));
        };
        self.steps.push(Step::pass(
            ASM.0,
            ASM.1,
            MCP_AUTH,
            format!(
                "{at}: issuer {issuer} matches; PKCE S256 supported{}",
                if server.iss_parameter_supported {
                    "; sends iss (RFC 9207)"
                } else {
                    ""
                }
            ),
        ));
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .map_err(|e| LinkError(format!("cannot listen for the authorization redirect: {e}")))?;
        let port = listener
            .local_addr()
            .map_err(|e| LinkError(format!("cannot listen for the authorization redirect: {e}")))?
            .port();
        let redirect_uri = format!("http://127.0.0.1:{port}/callback");
        let client = self.client(&server, &redirect_uri).await?;
        Ok(Session {
            resource,
            server,
            client,
            redirect_uri,
            listener,
            scopes: Vec::new(),
            tokens: None,
        })
    }

    /// The client identity: pre-registered, a Client ID Metadata Document, or registered now.
    async fn client(
        &mut self,
        server: &ServerMetadata,
        redirect_uri: &str,
    ) -> Result<Client, LinkError> {
        const REG: (&str, &str) = ("auth/client", "A client identity (pre-registered, Client ID Metadata Document, or registration RFC 7591)");
        let methods = server
            .token_endpoint_auth_methods_supported
            .clone()
            .unwrap_or_default();
        let supports = |m: &str| methods.iter().any(|s| s == m);
        if let Some(id) = self.options.client_id.clone() {
            let secret = self.options.client_secret.clone();
            let method = match &secret {
                None => "none",
                Some(_) if supports("client_secret_basic") || methods.is_empty() => {
                    "client_secret_basic"
                }
                Some(_) => "client_secret_post",
            };
            self.steps.push(Step::pass(REG.0, REG.1, MCP_AUTH, format!("pre-registered client {id:?} (--client-id), token endpoint authentication {method}")));
            return Ok(Client {
                id,
                secret,
                method: method.into(),
            });
        }
        if let (true, Some(url)) = (
            server.client_id_metadata_document_supported,
            self.options.metadata_url.clone(),
        ) {
            self.steps.push(Step::pass(
                REG.0,
                REG.1,
                MCP_AUTH,
                format!(
                    "Client ID Metadata Document {url} as client_id (the server supports them)"
                ),
            ));
            return Ok(Client {
                id: url,
                secret: None,
                method: "none".into(),
            });
        }
        let Some(endpoint) = server.registration_endpoint.clone() else {
            return Err(self.failed(REG.0, REG.1, &OAUTH_REGISTRATION_FAILED, "no registration_endpoint, no Client ID Metadata Document support (or no --client-metadata-url), and no --client-id: no client identity".into()));
        };
        let asked = if supports("none") || methods.is_empty() {
            "none"
        } else if supports("client_secret_basic") {
            "client_secret_basic"
        } else {
            "client_secret_post"
        };
        let body = json!({
            "client_name": "jrpc probe",
            "redirect_uris": [redirect_uri],
            "grant_types": ["authorization_code", "refresh_token"],
            "response_types": ["code"],
            "token_endpoint_auth_method": asked,
            "application_type": "native",
        });
        let answer = self
            .send(
                Method::POST,
                &endpoint,
                &[],
                Some(("application/json", body.to_string().into_bytes())),
            )
            .await;
        let (status, _, bytes) = match answer {
            Ok(answer) => answer,
            Err(why) => {
                return Err(self.failed(
                    REG.0,
                    REG.1,
                    &OAUTH_REGISTRATION_FAILED,
                    format!("{endpoint}: {why}"),
                ))
            }
        };
        let doc: Option<Value> = serde_json::from_slice(&bytes).ok();
        let id = doc
            .as_ref()
            .and_then(|d| d.get("client_id"))
            .and_then(Value::as_str);
        let (201 | 200, Some(id)) = (status, id) else {
            let error = doc
                .as_ref()
                .and_then(|d| d.get("error"))
                .and_then(Value::as_str)
                .map(|e| format!(", error {:?}", crate::probe::link::excerpt(e, 80)))
                .unwrap_or_default();
            return Err(self.failed(REG.0, REG.1, &OAUTH_REGISTRATION_FAILED, format!("{endpoint} answered HTTP {status}{error}, without a client_id in a JSON object (RFC 7591 §3.2.1: 201 with client_id)")));
        };
        let secret = doc
            .as_ref()
            .and_then(|d| d.get("client_secret"))
            .and_then(Value::as_str)
            .map(str::to_string);
        let method = doc
            .as_ref()
            .and_then(|d| d.get("token_endpoint_auth_method"))
            .and_then(Value::as_str)
            .map(str::to_string)
            .unwrap_or_else(|| match &secret {
                None => "none".into(),
                Some(_) if asked == "none" => "client_secret_basic".into(),
                Some(_) => asked.into(),
            });
        let note = if status == 200 {
            " (HTTP 200: RFC 7591 says 201)"
        } else {
            ""
        };
        self.steps.push(Step::pass(REG.0, REG.1, MCP_AUTH, format!("registered at {endpoint}{note}: client {id:?}, token endpoint authentication {method}{}", if secret.is_some() { ", with a secret (not shown)" } else { "" })));
        Ok(Client {
            id: id.to_string(),
            secret,
            method,
        })
    }

    /// The authorization code flow with PKCE and `resource`; the scopes from `challenged`, else
    /// the resource's scopes_supported, joined with those asked before.
    async fn authorize(&mut self, challenged: Option<&str>) -> Result<String, LinkError> {
        const AUTHZ: (&str, &str) = ("auth/authorization", "Authorization code with PKCE S256 and resource (RFC 8707); state and iss (RFC 9207) checked");
        const TOKEN: (&str, &str) = (
            "auth/token",
            "Token request with the code verifier and resource; a Bearer token in a valid response",
        );
        let Some(session) = self.session.as_mut() else {
            return Err(LinkError("authorization without discovery".into()));
        };
        let scopes = auth::choose_scopes(
            challenged,
            &session.resource,
            &session.server,
            &session.scopes,
        );
        session.scopes = scopes.clone();
        let mut random = [0u8; 48];
        getrandom::fill(&mut random)
            .map_err(|e| LinkError(format!("no random bytes for PKCE: {e}")))?;
        let mut verifier_bytes = [0u8; 32];
        verifier_bytes.copy_from_slice(&random[..32]);
        let (verifier, challenge) = auth::pkce(&verifier_bytes);
        let state = auth::pkce(&{
            let mut b = [0u8; 32];
            b[..16].copy_from_slice(&random[32..]);
            b
        })
        .1;
        let scope = scopes.join(" ");
        let mut query = vec![
            ("response_type", "code"),
            ("client_id", session.client.id.as_str()),
            ("redirect_uri", session.redirect_uri.as_str()),
            ("code_challenge", challenge.as_str()),
            ("code_challenge_method", "S256"),
            ("state", state.as_str()),
            ("resource", session.resource.resource.as_str()),
        ];
        if !scope.is_empty() {
            query.push(("scope", scope.as_str()));
        }
        let endpoint = session.server.authorization_endpoint.clone();
        let separator = if endpoint.contains('?') { '&' } else { '?' };
        let url = format!("{endpoint}{separator}{}", auth::form(&query));
        let redirect_uri = session.redirect_uri.clone();
        // Non-interactive when the server redirects at once; else the person authorizes in a
        // browser and the loopback listener receives the redirect.
        let (how, pairs) = match self.send(Method::GET, &url, &[], None).await {
            Ok((status, headers, _)) if (300..400).contains(&status) => {
                let location = headers
                    .get(header::LOCATION)
                    .and_then(|v| v.to_str().ok())
                    .unwrap_or("")
                    .to_string();
                match location.strip_prefix(&redirect_uri) {
                    Some(rest) => (
                        "redirected at once",
                        auth::parse_query(rest.trim_start_matches('?')),
                    ),
                    None => self.browser(&url).await?,
                }
            }
            Ok(_) => self.browser(&url).await?,
            Err(why) => {
                return Err(self.failed(
                    AUTHZ.0,
                    AUTHZ.1,
                    &OAUTH_AUTHORIZATION_REFUSED,
                    format!("{endpoint}: {why}"),
                ))
            }
        };
        let Some(session) = self.session.as_ref() else {
            return Err(LinkError("authorization without discovery".into()));
        };
        let code = match auth::check_authorization_response(&pairs, &state, &session.server) {
            Ok(code) => code,
            Err((rule, why)) => return Err(self.failed(AUTHZ.0, AUTHZ.1, rule, why)),
        };
        let scope_said = if scope.is_empty() {
            "no scope".to_string()
        } else {
            format!("scope {scope:?}")
        };
        let iss_said = if pairs.iter().any(|(k, _)| k == "iss") {
            "iss matches the issuer"
        } else {
            "no iss (not advertised)"
        };
        self.steps.push(Step::pass(
            AUTHZ.0,
            AUTHZ.1,
            MCP_AUTH,
            format!(
                "{how}; {scope_said}; resource {}; state matches; {iss_said}",
                session.resource.resource
            ),
        ));
        let session = self.session.as_ref().expect("checked above");
        let mut form = vec![
            ("grant_type", "authorization_code".to_string()),
            ("code", code),
            ("redirect_uri", session.redirect_uri.clone()),
            ("code_verifier", verifier),
            ("resource", session.resource.resource.clone()),
        ];
        let tokens = self.token_request(&mut form).await;
        match tokens {
            Ok(tokens) => {
                let said = format!(
                    "a Bearer access token (not shown){}{}",
                    tokens
                        .expires_in
                        .map(|s| format!(", expires in {s} s"))
                        .unwrap_or_default(),
                    if tokens.refresh_token.is_some() {
                        ", and a refresh token"
                    } else {
                        ""
                    }
                );
                self.steps
                    .push(Step::pass(TOKEN.0, TOKEN.1, MCP_AUTH, said));
                let access = tokens.access_token.clone();
                if let Some(session) = self.session.as_mut() {
                    session.tokens = Some(tokens);
                }
                Ok(access)
            }
            Err((rule, why)) => Err(self.failed(TOKEN.0, TOKEN.1, rule, why)),
        }
    }

    /// POSTs the token request `form` with the client's authentication.
    async fn token_request(
        &mut self,
        form: &mut Vec<(&'static str, String)>,
    ) -> Result<Tokens, (&'static crate::rpc::catalogue::Rule, String)> {
        use crate::probe::rules::OAUTH_TOKEN_RESPONSE_INVALID;
        let Some(session) = self.session.as_ref() else {
            return Err((&OAUTH_TOKEN_RESPONSE_INVALID, "no session".into()));
        };
        let client = session.client.clone();
        let endpoint = session.server.token_endpoint.clone();
        let mut headers = Vec::new();
        match (client.method.as_str(), &client.secret) {
            ("client_secret_basic", Some(secret)) => {
                headers.push(("authorization", auth::basic_credentials(&client.id, secret)));
            }
            ("client_secret_post", Some(secret)) => {
                form.push(("client_id", client.id.clone()));
                form.push(("client_secret", secret.clone()));
            }
            _ => form.push(("client_id", client.id.clone())),
        }
        let pairs: Vec<(&str, &str)> = form.iter().map(|(k, v)| (*k, v.as_str())).collect();
        let body = auth::form(&pairs).into_bytes();
        match self
            .send(
                Method::POST,
                &endpoint,
                &headers,
                Some(("application/x-www-form-urlencoded", body)),
            )
            .await
        {
            Ok((status, _, bytes)) => auth::check_token_response(status, &bytes),
            Err(why) => Err((&OAUTH_TOKEN_RESPONSE_INVALID, format!("{endpoint}: {why}"))),
        }
    }

    /// A refreshed access token, when there is a refresh token and the server gives one.
    async fn refresh(&mut self) -> Option<String> {
        let refresh_token = self
            .session
            .as_ref()?
            .tokens
            .as_ref()?
            .refresh_token
            .clone()?;
        let resource = self.session.as_ref()?.resource.resource.clone();
        let mut form = vec![
            ("grant_type", "refresh_token".to_string()),
            ("refresh_token", refresh_token),
            ("resource", resource),
        ];
        const REFRESH: (&str, &str) = (
            "auth/refresh",
            "The access token refreshed with the refresh token",
        );
        match self.token_request(&mut form).await {
            Ok(tokens) => {
                self.steps.push(Step::pass(
                    REFRESH.0,
                    REFRESH.1,
                    MCP_AUTH,
                    "a new access token (not shown)".into(),
                ));
                let access = tokens.access_token.clone();
                let session = self.session.as_mut()?;
                let kept = session
                    .tokens
                    .as_ref()
                    .and_then(|t| t.refresh_token.clone());
                session.tokens = Some(Tokens {
                    refresh_token: tokens.refresh_token.or(kept),
                    ..tokens
                });
                Some(access)
            }
            Err((_, why)) => {
                // Not a failure of the server's: the token may have been revoked; authorize again.
                self.steps.push(Step::pass(
                    REFRESH.0,
                    REFRESH.1,
                    MCP_AUTH,
                    format!("refused ({why}): authorizing again"),
                ));
                if let Some(tokens) = self.session.as_mut().and_then(|s| s.tokens.as_mut()) {
                    tokens.refresh_token = None;
                }
                None
            }
        }
    }

    /// The person authorizes in a browser: the URL printed, the redirect awaited on the loopback
    /// listener.
    async fn browser(
        &mut self,
        url: &str,
    ) -> Result<(&'static str, Vec<(String, String)>), LinkError> {
        eprintln!("jrpc probe: authorize in a browser: {url}");
        let Some(session) = self.session.as_ref() else {
            return Err(LinkError("authorization without discovery".into()));
        };
        let wait = async {
            loop {
                let (mut stream, _) = session.listener.accept().await.map_err(|e| e.to_string())?;
                let mut head = Vec::new();
                let mut buf = [0u8; 2048];
                use tokio::io::{AsyncReadExt, AsyncWriteExt};
                while !head.windows(4).any(|w| w == b"\r\n\r\n") && head.len() < 16 * 1024 {
                    match stream.read(&mut buf).await {
                        Ok(0) | Err(_) => break,
                        Ok(n) => head.extend_from_slice(&buf[..n]),
                    }
                }
                let line = String::from_utf8_lossy(&head)
                    .lines()
                    .next()
                    .unwrap_or("")
                    .to_string();
                let target = line.split(' ').nth(1).unwrap_or("");
                let Some(query) = target.strip_prefix("/callback?") else {
                    let _ = stream.write_all(b"HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\nconnection: close\r\n\r\n").await;
                    continue;
                };
                let page = "jrpc probe: authorization received; you may close this page.";
                let _ = stream
                    .write_all(format!("HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{page}", page.len()).as_bytes())
                    .await;
                return Ok::<_, String>(auth::parse_query(query));
            }
        };
        match tokio::time::timeout(BROWSER_WAIT, wait).await {
            Ok(Ok(pairs)) => Ok(("authorized in the browser", pairs)),
            Ok(Err(e)) => Err(LinkError(format!(
                "the authorization redirect listener failed: {e}"
            ))),
            Err(_) => Err(LinkError(format!(
                "no authorization redirect within {} s",
                BROWSER_WAIT.as_secs()
            ))),
        }
    }

    /// GETs `url` as JSON: Err says the status or why it is not JSON.
    async fn get_json(&self, url: &str) -> Result<Value, String> {
        let (status, _, body) = self
            .send(
                Method::GET,
                url,
                &[("accept", "application/json".into())],
                None,
            )
            .await?;
        if status != 200 {
            return Err(format!("HTTP {status}"));
        }
        serde_json::from_slice(&body).map_err(|e| format!("not JSON ({e})"))
    }

    /// One request: its status, headers and body (at most [`MAX_AUTH_BODY`] bytes), all within
    /// the link's timeout. Redirects are not followed.
    async fn send(
        &self,
        method: Method,
        url: &str,
        headers: &[(&str, String)],
        body: Option<(&str, Vec<u8>)>,
    ) -> Result<(u16, HeaderMap, Vec<u8>), String> {
        let uri: Uri = url.parse().map_err(|e| format!("not a URL ({e})"))?;
        let tls = match uri.scheme_str() {
            Some("https") => true,
            Some("http") => false,
            _ => return Err("not an http(s) URL".into()),
        };
        let host = uri.host().ok_or("no host")?.to_string();
        let port = uri.port_u16().unwrap_or(if tls { 443 } else { 80 });
        let authority = uri.authority().map_or(host.clone(), |a| a.to_string());
        let path = uri.path_and_query().map_or("/", |p| p.as_str()).to_string();
        let mut builder = Request::builder()
            .method(method)
            .uri(path)
            .header(header::HOST, authority);
        for (name, value) in headers {
            let mut value = HeaderValue::from_str(value)
                .map_err(|_| format!("a {name} header it cannot carry"))?;
            value.set_sensitive(true);
            builder = builder.header(*name, value);
        }
        let bytes = match body {
            Some((content_type, bytes)) => {
                builder = builder.header(header::CONTENT_TYPE, content_type);
                bytes
            }
            None => Vec::new(),
        };
        let request = builder
            .body(Full::new(Bytes::from(bytes)))
            .map_err(|e| format!("cannot build the request: {e}"))?;
        let exchange = async {
            let to = Endpoint {
                url,
                host: &host,
                port,
                tls,
            };
            let stream = tls::connect(&to, self.timeout).await.map_err(|e| e.0)?;
            let (mut sender, connection) =
                hyper::client::conn::http1::handshake(TokioIo::new(stream))
                    .await
                    .map_err(|e| format!("HTTP handshake failed: {e}"))?;
            tokio::spawn(connection);
            let response = sender
                .send_request(request)
                .await
                .map_err(|e| format!("the request failed: {e}"))?;
            let status = response.status().as_u16();
            let headers = response.headers().clone();
            let mut body = response.into_body();
            let mut read = Vec::new();
            while let Some(frame) = body.frame().await {
                let frame = frame.map_err(|e| format!("reading the answer failed: {e}"))?;
                if let Some(data) = frame.data_ref() {
                    read.extend_from_slice(data);
                    if read.len() > MAX_AUTH_BODY {
                        return Err(format!("the answer is larger than {MAX_AUTH_BODY} bytes"));
                    }
                }
            }
            Ok((status, headers, read))
        };
        tokio::time::timeout(self.timeout, exchange)
            .await
            .map_err(|_| format!("no whole answer within {:?}", self.timeout))?
    }
}
