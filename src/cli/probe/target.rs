//! What `jrpc probe` talks to: a command it starts (stdio), a Streamable HTTP / JSON-RPC-over-HTTP
//! endpoint, or a WebSocket endpoint.

use std::fmt;

/// The server under test.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    /// A program started by the probe, spoken to on its stdin/stdout (one message per line).
    Spawn { program: String, args: Vec<String> },
    /// `http(s)://HOST:PORT/PATH`: each message is a POST.
    Http(hyper::Uri),
    /// `ws(s)://HOST:PORT/PATH`: each message is a text frame.
    Ws(String),
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Target::Spawn { program, args } => {
                write!(f, "{program}")?;
                for arg in args {
                    write!(f, " {arg}")?;
                }
                Ok(())
            }
            Target::Http(uri) => write!(f, "{uri}"),
            Target::Ws(url) => f.write_str(url),
        }
    }
}

/// The target named by the command line: a URL, or the command after `--` (exactly one of them).
pub fn parse(url: Option<&str>, command: &[String]) -> Result<Target, String> {
    match (url, command.split_first()) {
        (Some(_), Some(_)) => {
            Err("give either a URL or a command after --, not both".to_string())
        }
        (None, None) => Err(
            "nothing to probe: give an http(s):// or ws(s):// URL, or a command after -- (jrpc probe -- CMD ARGS…)"
                .to_string(),
        ),
        (None, Some((program, args))) => Ok(Target::Spawn {
            program: program.clone(),
            args: args.to_vec(),
        }),
        (Some(url), None) => parse_url(url),
    }
}

fn parse_url(url: &str) -> Result<Target, String> {
    let (scheme, _) = url
        .split_once("://")
        .ok_or_else(|| format!("{url:?} is not a URL (http://HOST:PORT/PATH or ws://HOST:PORT/PATH); to start a program, put it after --"))?;
    match scheme.to_ascii_lowercase().as_str() {
        "http" | "https" => {
            let uri: hyper::Uri = url
                .parse()
                .map_err(|e| format!("{url:?} is not a valid URL: {e}"))?;
            if uri.host().is_none_or(str::is_empty) {
                return Err(format!("{url:?} has no host"));
            }
            Ok(Target::Http(uri))
        }
        "ws" | "wss" => {
            let uri: hyper::Uri = url
                .parse()
                .map_err(|e| format!("{url:?} is not a valid URL: {e}"))?;
            if uri.host().is_none_or(str::is_empty) {
                return Err(format!("{url:?} has no host"));
            }
            Ok(Target::Ws(url.to_string()))
        }
        other => Err(format!(
            "unsupported scheme {other:?}: use http(s):// or ws(s)://, or a command after --"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_and_commands_name_their_transport() {
        assert!(matches!(
            parse(Some("http://127.0.0.1:1/mcp"), &[]),
            Ok(Target::Http(_))
        ));
        assert!(matches!(
            parse(Some("ws://127.0.0.1:1"), &[]),
            Ok(Target::Ws(_))
        ));
        assert!(matches!(
            parse(Some("https://example.com/mcp"), &[]),
            Ok(Target::Http(_))
        ));
        assert!(matches!(
            parse(Some("wss://example.com"), &[]),
            Ok(Target::Ws(_))
        ));
        assert_eq!(
            parse(None, &["srv".into(), "-v".into()]),
            Ok(Target::Spawn {
                program: "srv".into(),
                args: vec!["-v".into()]
            })
        );
    }

    #[test]
    fn bad_targets_say_why() {
        for (url, says) in [
            ("ftp://x", "unsupported scheme"),
            ("localhost:8080", "not a URL"),
            ("http://", "not a valid URL"),
        ] {
            let e = parse(Some(url), &[]).unwrap_err();
            assert!(e.contains(says), "{url}: {e}");
        }
        assert!(parse(None, &[]).unwrap_err().contains("nothing to probe"));
        assert!(parse(Some("ws://a"), &["x".into()])
            .unwrap_err()
            .contains("not both"));
    }
}
