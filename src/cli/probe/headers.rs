//! The headers the user adds to every HTTP request and WebSocket handshake of the probe
//! (`--header NAME:VALUE`, and the token of [`TOKEN_VARIABLE`] as `Authorization: Bearer`). Their
//! values are secrets as far as the probe knows: they are marked sensitive, never printed (a
//! message names the header and says `…`), and never written to a transcript (which holds bodies
//! only).

use std::ffi::OsString;

use hyper::header::{HeaderName, HeaderValue, AUTHORIZATION};

/// The environment variable whose value is sent as `Authorization: Bearer VALUE`.
pub const TOKEN_VARIABLE: &str = "JRPC_BEARER_TOKEN";

/// The most `--header` options, and the longest `NAME:VALUE` (a header a server would take).
const MAX_HEADERS: usize = 64;
const MAX_HEADER_LENGTH: usize = 8 * 1024;

/// The added headers, in the order given.
#[derive(Clone, Debug, Default)]
pub struct Headers(Vec<(HeaderName, HeaderValue)>);

impl Headers {
    /// Reads the `--header` options and the token variable's value (`token`). Err: which option is
    /// wrong and why, its value never repeated.
    pub fn from_args(given: &[String], token: Option<OsString>) -> Result<Headers, String> {
        if given.len() > MAX_HEADERS {
            return Err(format!("at most {MAX_HEADERS} --header options"));
        }
        let mut headers = Vec::new();
        for (n, text) in given.iter().enumerate() {
            let at = n + 1;
            if text.len() > MAX_HEADER_LENGTH {
                return Err(format!(
                    "--header #{at} is longer than {MAX_HEADER_LENGTH} bytes"
                ));
            }
            let Some((name, value)) = text.split_once(':') else {
                return Err(format!(
                    "--header #{at} has no ':' (give NAME:VALUE, e.g. 'X-Api-Key: …')"
                ));
            };
            let name = HeaderName::from_bytes(name.trim().as_bytes()).map_err(|_| {
                format!(
                    "--header #{at}: {:?} is not a header name (letters, digits and !#$%&'*+-.^_`|~)",
                    super::super::diagnostic::printable(name.trim())
                )
            })?;
            let mut value = HeaderValue::from_str(value.trim()).map_err(|_| {
                format!(
                    "--header {name}: the value (not shown) is not a header value: visible ASCII and spaces only"
                )
            })?;
            value.set_sensitive(true);
            headers.push((name, value));
        }
        if let Some(token) = token {
            let named = headers.iter().any(|(name, _)| name == AUTHORIZATION);
            let token = token
                .into_string()
                .map_err(|_| format!("{TOKEN_VARIABLE} (not shown) is not UTF-8"))?;
            let token = token.trim();
            if !token.is_empty() && !named {
                let mut value = HeaderValue::from_str(&format!("Bearer {token}")).map_err(|_| {
                    format!("{TOKEN_VARIABLE} (not shown) is not a header value: visible ASCII only")
                })?;
                value.set_sensitive(true);
                headers.push((AUTHORIZATION, value));
            }
        }
        Ok(Headers(headers))
    }

    pub fn iter(&self) -> impl Iterator<Item = &(HeaderName, HeaderValue)> {
        self.0.iter()
    }

    /// An `Authorization` header is among them (the user authorizes: the probe does not).
    pub fn authorizes(&self) -> bool {
        self.0.iter().any(|(name, _)| name == AUTHORIZATION)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_are_read_and_bad_ones_refused_without_their_value() {
        let given = ["X-Api-Key: s3cret".to_string(), "x-b:c:d".to_string()];
        let headers = Headers::from_args(&given, None).unwrap();
        let read: Vec<_> = headers
            .iter()
            .map(|(n, v)| {
                (
                    n.as_str().to_string(),
                    v.to_str().unwrap().to_string(),
                    v.is_sensitive(),
                )
            })
            .collect();
        assert_eq!(
            read,
            [
                ("x-api-key".into(), "s3cret".into(), true),
                ("x-b".into(), "c:d".into(), true)
            ]
        );
        let e = Headers::from_args(&["X-Key: s3cret\u{1}".into()], None).unwrap_err();
        assert!(e.contains("x-key") && !e.contains("s3cret"), "{e}");
        let e = Headers::from_args(&["no colon s3cret".into()], None).unwrap_err();
        assert!(e.contains("#1") && !e.contains("s3cret"), "{e}");
        assert!(Headers::from_args(&["bad name: x".into()], None).is_err());
    }

    #[test]
    fn the_token_variable_is_a_bearer_authorization_unless_one_is_given() {
        let headers = Headers::from_args(&[], Some("t0ken".into())).unwrap();
        let (name, value) = headers.iter().next().unwrap();
        assert_eq!(
            (name, value.to_str().unwrap()),
            (&AUTHORIZATION, "Bearer t0ken")
        );
        assert!(headers.authorizes());
        let headers =
            Headers::from_args(&["Authorization: Basic x".into()], Some("t0ken".into())).unwrap();
        assert_eq!(headers.iter().count(), 1);
        let e = Headers::from_args(&[], Some("t0\nken".into())).unwrap_err();
        assert!(!e.contains("t0"), "{e}");
    }
}
