//! The web app (wasm32 only), organised by where its code runs:
//! - [`page`]: the page's own wasm (the `jsonrpc-playground` binary), what the first load carries;
//! - [`views`]: the views loaded later (the `later-views` module: the teaching views, the Probe,
//!   the API panel's body, the log's rows), mounted into the page's hosts;
//! - [`workers`]: the workers' mains (the `mock-worker`, `mcp-mock-worker`, `link-worker`,
//!   `probe-worker` and `api-worker` binaries), and the check the page's own wasm runs in its
//!   checking worker;
//! - [`kit`]: what more than one of them uses (the Leptos prelude, the JavaScript interop, the
//!   ports, the engine's verdict as the page shows it).
//!
//! What crosses between them is [`crate::wire`]'s, nothing else: `page`, `views` and `workers`
//! never use each other, which scripts/module-cycles.mjs checks with any circle:
//! Apart (scripts/module-cycles.mjs): page, views, workers.
//! The JavaScript beside them (`js/`): the views' loader (boot.js), the workers' loader
//! (worker-boot.js), the checking worker (check-worker.js) and the service worker (sw.js).

pub mod kit;
pub mod page;
pub mod views;
pub mod workers;
