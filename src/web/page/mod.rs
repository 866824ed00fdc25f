//! The page: what the first load carries and runs on the main thread (the `jsonrpc-playground`
//! binary). [`app`] is the top (the `App` component); below it, one owner per file:
//! - `playground` (the editor, the verdicts, the controls, the examples, Send, Open file), the
//!   view the page opens on;
//! - `exchange` (the log and its pane), `link` (the live link's page side and panel, the Probe's
//!   fold), `api` (the API document's state, panel and runner), `log_rows` (the host of the
//!   log's rows): shared by the views;
//! - `router` (the URL fragment, the nav, the teaching views' host), `state` (the signals every
//!   part shares), `checking` (large texts checked off the main thread);
//! - services: `persist`, `share`, `theme`, `notices`: drafts, share links, light/dark,
//!   messages to the user.
//!
//! The views loaded later are [`crate::web::views`]'s, mounted into the page's hosts; what the
//! page and they say crosses as [`crate::wire::views`].

pub(crate) mod api;
pub mod app;
pub mod bench;
pub(crate) mod checking;
pub(crate) mod exchange;
pub(crate) mod link;
pub(crate) mod log_rows;
pub(crate) mod module_host;
pub(crate) mod notices;
pub(crate) mod persist;
pub(crate) mod playground;
pub(crate) mod probe_host;
pub(crate) mod router;
pub(crate) mod share;
pub(crate) mod state;
pub(crate) mod theme;

pub use app::{mount, App, Mounted, SAMPLE};
/// The examples' texts, which the page fetches on the first pick (tests install them directly).
pub use playground::library::install as install_examples;
pub use state::{use_app, AppState, Notice};
