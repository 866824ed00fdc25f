//! The bound on what every mock server of the engine answers (the spec's §7 mock, the MCP mock,
//! an OpenRPC document's mock), on every transport: below both the mocks, so that each keeps it
//! without using the other.

/// The largest reply a mock builds, what it sends on its own while answering included.
pub const MAX_REPLY: usize = 16 * 1024 * 1024;
/// The error a reply past [`MAX_REPLY`] is replaced with (a server error: the range
/// -32099..-32000 is left to implementations).
pub const REPLY_TOO_LARGE: i64 = -32010;
