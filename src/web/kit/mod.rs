//! What the page, the views' module and the workers share: the Leptos prelude, the JavaScript
//! interop no crate gives, the ports (a worker loaded on first use, the views' events), the
//! engine's verdict as the page and the views show it, and the words for the log and the link.

pub mod analysis;
pub mod api_scope;
pub mod download;
pub mod fetch;
pub mod files;
pub mod js;
pub mod lazy_worker;
pub mod link_words;
pub mod log_words;
pub mod mock_client;
pub mod notice;
pub mod prelude;
pub mod storage;
pub mod teaching;
pub mod views_port;
