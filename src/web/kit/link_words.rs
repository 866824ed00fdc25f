//! The live link's words: what a typed URL or header line is wrong with, why a connection or a
//! POST failed (in terms a user can act on), and how a binary frame or a reply reads in the log.

use crate::web::kit::prelude::*;

/// Which transport a URL asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Transport {
    Ws,
    Http,
}

use crate::web::kit::log_words::BINARY_PREFIX;

/// The transport a URL asks for, or why it cannot be used from this page.
pub fn check_url(url: &str) -> Result<Transport, String> {
    if url.is_empty() {
        return Err("Enter an endpoint URL, e.g. ws://127.0.0.1:8765 (jrpc serve --ws 127.0.0.1:8765) or http://127.0.0.1:8766.".into());
    }
    let parsed = web_sys::Url::new(url)
        .map_err(|_| format!("“{url}” is not a URL: write it whole, e.g. ws://127.0.0.1:8765/."))?;
    let scheme = parsed.protocol();
    let transport = match scheme.as_str() {
        "ws:" | "wss:" => Transport::Ws,
        "http:" | "https:" => Transport::Http,
        other => return Err(format!("The scheme {other} is not one the link speaks: use ws://, wss://, http:// or https://.")),
    };
    let page_secure = window().location().protocol().is_ok_and(|p| p == "https:");
    let host = parsed.hostname();
    let local = matches!(host.as_str(), "localhost" | "127.0.0.1" | "[::1]")
        || host.ends_with(".localhost");
    if page_secure && (scheme == "ws:" || scheme == "http:") && !local {
        return Err(format!(
            "This page was loaded over HTTPS, and browsers block {scheme}// connections from it (mixed content). \
             Use {}// on the server, or open the playground over http://.",
            if scheme == "ws:" { "wss:" } else { "https:" }
        ));
    }
    Ok(transport)
}

/// `Name: value` lines (blank lines skipped), or the first line that is not one.
pub fn parse_headers(text: &str) -> Result<Vec<(String, String)>, String> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let Some((name, value)) = line.split_once(':') else {
            return Err(format!(
                "HTTP headers, line {}: “{line}” has no colon; write Name: value.",
                n + 1
            ));
        };
        let name = name.trim();
        if name.is_empty()
            || !name
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b))
        {
            return Err(format!(
                "HTTP headers, line {}: “{name}” is not a header name.",
                n + 1
            ));
        }
        out.push((name.to_string(), value.trim().to_string()));
    }
    Ok(out)
}

pub fn explain_open_error(url: &str, error: &str) -> String {
    // js_error writes a DOMException as "<name>: <message>".
    if error.starts_with("SecurityError") {
        format!("the browser refused to open {url} ({error}): from an HTTPS page only wss:// is allowed (mixed content), and some ports are blocked.")
    } else {
        format!("the browser could not open {url}: {error}")
    }
}

pub fn explain_fetch_error(url: &str, error: &str) -> String {
    format!(
        "the POST to {url} failed before any reply ({error}). Either nothing listens there (the connection was refused), or the \
         server does not allow this page's origin (CORS: it must answer the preflight with Access-Control-Allow-Origin and allow \
         the Content-Type, Accept, Mcp-Session-Id and any header you added). The browser console names the exact cause."
    )
}

/// The log text of a binary frame: its size and its first bytes in hex.
pub fn binary_text(bytes: &[u8]) -> String {
    const SHOWN: usize = 32;
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut s = format!("{BINARY_PREFIX}{} bytes:", bytes.len());
    for b in bytes.iter().take(SHOWN) {
        s.push(' ');
        s.push(char::from(HEX[usize::from(b >> 4)]));
        s.push(char::from(HEX[usize::from(b & 15)]));
    }
    if bytes.len() > SHOWN {
        s.push_str(" …");
    }
    s
}

/// A response to a server's request with id `id` (its exact text), for the editor.
pub fn reply_text(id: &str) -> String {
    format!("{{\"jsonrpc\": \"2.0\", \"id\": {id}, \"result\": {{}}}}")
}
