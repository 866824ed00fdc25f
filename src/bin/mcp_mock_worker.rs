//! The page's mock server under MCP: `mock-worker`'s main (src/bin/mock_worker.rs), built by
//! Trunk with the `mcp-schemas` feature (index.html), so that it checks a tools/call's arguments
//! against the tool's inputSchema as `jrpc serve` does. On native it only says where to look.

#[path = "mock_worker.rs"]
mod mock_worker;

fn main() -> impl std::process::Termination {
    mock_worker::main()
}
