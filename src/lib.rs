//! jsonrpc-playground's engine: strict JSON with spans → classification → rule violations →
//! mock replies. Pure Rust: the web UI (`ui`, wasm32 only) and the CLI (`cli`, native only) are
//! thin faces over it.

#[cfg(not(target_arch = "wasm32"))]
pub use jsonrpc_engine::openrpc;
#[cfg(not(target_arch = "wasm32"))]
pub use jsonrpc_engine::tool_schemas;
pub use jsonrpc_engine::{
    client, event_stream, examples, exchange, json, mock, order, probe, rpc, saved, teach,
};
#[cfg(target_arch = "wasm32")]
pub mod ui;

#[cfg(not(target_arch = "wasm32"))]
pub mod cli;
