//! The workers' mains: each worker binary (src/bin/) starts one, and each speaks through
//! [`port`] (the one envelope, [`crate::wire::envelope`]). Nothing here touches the page's DOM
//! or Leptos.
//! - [`mock`]: the page's mock server (`mock-worker`, `mcp-mock-worker`);
//! - [`link`]: the live link's connection (`link-worker`);
//! - [`probe`]: the Probe (`probe-worker`), over a connection of its own;
//! - [`api`]: an OpenRPC document's checks, mock, reference and probe (`api-worker`);
//! - [`check`]: a large text checked off the page's main thread (the page's own wasm, in
//!   src/web/js/check-worker.js).

pub mod api;
pub mod check;
pub mod link;
pub mod mock;
pub mod port;
pub mod probe;
