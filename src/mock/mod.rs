//! The mock server: answers the specification's examples and an MCP server's methods.
