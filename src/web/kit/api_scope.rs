//! Which texts the page gives the API worker to check, and up to what size: read by the page's
//! state (src/web/page/state.rs) as well as the API, so it imports nothing of either.

use crate::rpc::Profile;

/// Whether [`super::more_checks`] may find anything in `text` under `profile` that the page's own check
/// cannot: a document is loaded, or, under an MCP profile, the text names a schema MCP messages
/// carry (a tool's `inputSchema` or `outputSchema`, an elicitation's `requestedSchema`; or holds
/// a `\u` escape, which can spell such a name). Without either the page checks alone and never
/// starts the API worker.
pub fn needs_more_checks(profile: Profile, loaded: bool, text: &str) -> bool {
    loaded
        || (matches!(profile, Profile::Mcp(_))
            && ["inputSchema", "outputSchema", "requestedSchema", "\\u"]
                .iter()
                .any(|name| text.contains(name)))
}

/// The largest text the API checks in the page: `jrpc check`'s default `--max-bytes` (64 MiB),
/// the most the page opens from a file too. A larger text is checked against JSON-RPC alone, and
/// the page says so (src/web/page/api/mod.rs).
pub const MAX_CHECK_BYTES: usize = 64 << 20;
