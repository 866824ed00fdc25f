//! jsonrpc-playground's engine: strict JSON with spans → classification → rule violations →
//! mock replies. Pure Rust with no web dependency; the web UI and the CLI are faces over it.

pub use jsonrpc_check::{json, order, rpc};
pub mod client;
pub mod event_stream;
pub mod examples;
pub mod exchange;
pub mod mock;
#[cfg(feature = "openrpc")]
pub mod openrpc;
#[cfg(feature = "probe")]
pub mod probe;
mod reply_bound;
pub mod saved;
pub mod teach;
#[cfg(all(feature = "openrpc", feature = "probe"))]
pub mod tool_schemas;
