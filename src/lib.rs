//! jsonrpc-playground's engine: strict JSON with spans → classification → rule violations →
//! mock replies. Pure Rust: the web app (`web`, wasm32 only) and the CLI (`cli`, native only) are
//! thin faces over it.

pub use jsonrpc_engine::openrpc;
pub use jsonrpc_engine::tool_schemas;
pub use jsonrpc_engine::{
    client, event_stream, examples, exchange, json, mock, order, probe, rpc, saved, teach,
};
/// What crosses between the web app's wasm binaries (compiled everywhere: its formats are tested
/// natively).
pub mod wire;

#[cfg(target_arch = "wasm32")]
pub mod web;

#[cfg(not(target_arch = "wasm32"))]
pub mod cli;
