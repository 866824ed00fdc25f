//! DNS-rebinding protection for `--ws` and `--http` (MCP's transport rules: a server MUST validate
//! the `Origin` of every request, and a local server should answer only to its own name).
//!
//! - `Host`: without `--allow-remote`, only a loopback name or address (`localhost`,
//!   `127.0.0.1`…, `[::1]`, any port) is answered: a page on `evil.example` whose name an attacker
//!   re-pointed at 127.0.0.1 sends `Host: evil.example` and is refused.
//! - `Origin` (sent by browsers, absent from most other clients): accepted when it is a loopback
//!   origin (`http://localhost:8080`, `http://127.0.0.1:5173`, `https://[::1]`…) or one of the
//!   origins given with `--allow-origin` (exactly, e.g. `https://example.github.io`); any other
//!   origin, `null` included, is refused unless given.
//!
//! A refusal is `403` with a JSON-RPC error body saying why (over WebSocket, before the upgrade).

use std::net::IpAddr;

/// Who may talk to the server.
#[derive(Clone, Debug, Default)]
pub struct Guard {
    /// `--allow-remote`: any `Host` is answered.
    pub any_host: bool,
    /// `--allow-origin ORIGIN`, each as given (without a trailing slash).
    pub origins: Vec<String>,
}

impl Guard {
    /// Why a request with these `Host` and `Origin` headers is refused, or `None` when it is not.
    pub fn refuse(&self, host: Option<&str>, origin: Option<&str>) -> Option<String> {
        if !self.any_host {
            match host {
                None => return Some("Forbidden: the request has no Host header".into()),
                Some(host) if !is_loopback_host(host) => {
                    return Some(format!(
                        "Forbidden: Host {host:?} is not this machine's loopback name or address (DNS-rebinding protection; jrpc serve --allow-remote answers any Host)"
                    ))
                }
                Some(_) => {}
            }
        }
        let origin = origin?.trim_end_matches('/');
        if is_loopback_origin(origin)
            || self
                .origins
                .iter()
                .any(|allowed| allowed.trim_end_matches('/').eq_ignore_ascii_case(origin))
        {
            return None;
        }
        Some(format!(
            "Forbidden: Origin {origin:?} may not use this server (DNS-rebinding protection); allow it with jrpc serve --allow-origin {origin}"
        ))
    }
}

/// `localhost`, a loopback IPv4 or `[::1]`, with or without a port.
fn is_loopback_host(host: &str) -> bool {
    let name = match host.strip_prefix('[') {
        // `[::1]:8080` or `[::1]`
        Some(rest) => rest.split(']').next().unwrap_or(""),
        None => host
            .rsplit_once(':')
            .filter(|(_, port)| port.bytes().all(|b| b.is_ascii_digit()))
            .map_or(host, |(name, _)| name),
    };
    name.eq_ignore_ascii_case("localhost")
        || name.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback())
}

/// `http(s)://` followed by a loopback host.
fn is_loopback_origin(origin: &str) -> bool {
    let Some((scheme, rest)) = origin.split_once("://") else {
        return false;
    };
    matches!(scheme.to_ascii_lowercase().as_str(), "http" | "https")
        && !rest.contains('/')
        && is_loopback_host(rest)
}

/// The JSON-RPC error body of a refusal (id null, code -32000: the request was not read).
pub fn body(reason: &str) -> String {
    serde_json::json!({"jsonrpc": "2.0", "error": {"code": -32000, "message": reason}, "id": null})
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loopback_hosts_and_origins_pass_and_others_do_not() {
        let guard = Guard {
            any_host: false,
            origins: vec!["https://example.github.io".into()],
        };
        for host in [
            "localhost",
            "localhost:8765",
            "127.0.0.1:8765",
            "127.1.2.3",
            "[::1]:8765",
            "[::1]",
            "LOCALHOST:1",
        ] {
            assert_eq!(guard.refuse(Some(host), None), None, "{host}");
        }
        for host in [
            "evil.example",
            "evil.example:8765",
            "10.0.0.1:8765",
            "localhost.evil.example",
            "[::2]:1",
        ] {
            assert!(guard.refuse(Some(host), None).is_some(), "{host}");
        }
        assert!(guard.refuse(None, None).is_some());
        for origin in [
            "http://localhost:8080",
            "http://127.0.0.1:5173",
            "https://[::1]",
            "https://example.github.io",
            "https://example.github.io/",
        ] {
            assert_eq!(
                guard.refuse(Some("localhost"), Some(origin)),
                None,
                "{origin}"
            );
        }
        for origin in [
            "https://evil.example",
            "null",
            "http://localhost.evil.example",
            "file://",
            "https://example.github.io.evil",
        ] {
            assert!(
                guard.refuse(Some("localhost"), Some(origin)).is_some(),
                "{origin}"
            );
        }
        let remote = Guard {
            any_host: true,
            origins: vec![],
        };
        assert_eq!(remote.refuse(Some("evil.example"), None), None);
        assert!(remote
            .refuse(Some("evil.example"), Some("https://evil.example"))
            .is_some());
    }
}
