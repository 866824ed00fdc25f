//! The engine's hot path: strict JSON with spans → classification → rule violations. Runs on
//! every keystroke, so the web build compiles this crate for speed and the rest of the engine
//! (`jsonrpc-engine`: mock replies, the log model, teaching) for size. Pure Rust, no web
//! dependency; `jsonrpc-engine` re-exports it, so paths stay `jsonrpc_engine::json`, `…::rpc`.

/// Strict JSON with spans: the `jsonrpc-json` crate (its own crate so the web build can give the
/// parser, the hottest code, an opt-level of its own).
pub use jsonrpc_json as json;
/// Sorting by integer keys, compiled once (it lives with the parser, which sorts too).
pub use jsonrpc_json::order;
pub mod rpc;
