//! The engine's hot path: strict JSON with spans → classification → rule violations. Runs on
//! every keystroke, so the web build compiles this crate for speed and the rest of the engine
//! (`jsonrpc-engine`: mock replies, the log model, teaching) for size. Pure Rust, no web
//! dependency; `jsonrpc-engine` re-exports it, so paths stay `jsonrpc_engine::json`, `…::rpc`.

pub mod json;
pub mod order;
pub mod rpc;
