//! The OpenRPC document a command is given (`--openrpc FILE|URL`): read from a file, or fetched
//! over the probe's HTTP link, and loaded, or why not said on standard error with each finding's
//! line and column. Here, below the probe and beside its link, so that `check`, `serve`, `tap`
//! and the probe read a document alike without using each other.

use std::io::Read;
use std::time::Duration;

use super::{link, target};
use crate::cli::diagnostic;
use crate::json::LineIndex;
use crate::openrpc::{OpenRpc, MAX_DOCUMENT_BYTES};

/// How long fetching an OpenRPC document by URL may take: connecting, asking and reading it all.
const FETCH_TIMEOUT: Duration = Duration::from_secs(30);

/// Fetches the OpenRPC document at `url` (`--openrpc https://…`): at most 16 MiB within
/// [`FETCH_TIMEOUT`], over TLS checked as the probe's. Err: why not, in words.
pub(crate) fn fetch(url: &str) -> Result<Vec<u8>, String> {
    let uri = match target::parse(Some(url), &[])? {
        target::Target::Http(uri) => uri,
        _ => return Err("only http:// and https:// URLs are fetched".into()),
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the async runtime: {e}"))?;
    runtime
        .block_on(link::get(uri, FETCH_TIMEOUT))
        .map_err(|e| e.0)
}

/// Reads and loads `--openrpc DOC` for a command that serves or watches (`jrpc tap`): when the
/// document cannot be used, says why on standard error, one line per finding with its line and
/// column, and gives `None`.
pub(crate) fn open(command: &str, name: &str) -> Option<OpenRpc> {
    let shown = diagnostic::printable(name);
    if is_url(name) {
        return match fetch(name) {
            Ok(src) => load_or_say(command, &shown, &src),
            Err(why) => {
                let why = diagnostic::printable(&why);
                eprintln!("jrpc {command}: cannot fetch the OpenRPC document {shown}: {why}");
                None
            }
        };
    }
    let src = match std::fs::File::open(name).and_then(|f| {
        let mut src = Vec::new();
        f.take(MAX_DOCUMENT_BYTES as u64 + 1)
            .read_to_end(&mut src)
            .map(|_| src)
    }) {
        Ok(src) => src,
        Err(e) => {
            eprintln!("jrpc {command}: cannot read the OpenRPC document {shown}: {e}");
            return None;
        }
    };
    load_or_say(command, &shown, &src)
}

/// `--openrpc DOC` names a document to fetch (`http://…`, `https://…`) rather than a file.
pub(crate) fn is_url(name: &str) -> bool {
    let lower = name.get(..8).unwrap_or(name).to_ascii_lowercase();
    lower.starts_with("http://") || lower.starts_with("https://")
}

/// Loads the document `src` read from `shown`, or says on standard error why it cannot be used,
/// one line per finding with its line and column (and its warnings, when it can be used).
fn load_or_say(command: &str, shown: &str, src: &[u8]) -> Option<OpenRpc> {
    let say = |violations: &[crate::rpc::Violation]| {
        let lines = LineIndex::new(src);
        for v in violations {
            let at = lines.position(src, v.span.start);
            let path = if v.path.is_empty() { "/" } else { &v.path };
            eprintln!(
                "{shown}:{}:{}: {}[{}]: {} (at {})",
                at.line,
                at.column,
                v.severity.as_str(),
                v.rule.id,
                diagnostic::printable(&v.message),
                diagnostic::printable(path)
            );
        }
    };
    match OpenRpc::load(src) {
        Ok(doc) => {
            // Examples that break their own schemas: the document is used, and told.
            if !doc.warnings().is_empty() {
                eprintln!("jrpc {command}: the OpenRPC document {shown} has warnings:");
                say(doc.warnings());
            }
            Some(doc)
        }
        Err(e) => {
            eprintln!("jrpc {command}: the OpenRPC document {shown} cannot be used:");
            say(&e.violations);
            None
        }
    }
}
