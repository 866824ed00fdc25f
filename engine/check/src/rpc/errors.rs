//! The error codes of JSON-RPC 2.0 §5.1, as a table.

/// One predefined error code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ErrorCode {
    pub code: i64,
    /// The message the specification gives it.
    pub message: &'static str,
    /// What it means, in our words.
    pub meaning: &'static str,
}

pub const PARSE_ERROR: i64 = -32700;
pub const INVALID_REQUEST: i64 = -32600;
pub const METHOD_NOT_FOUND: i64 = -32601;
pub const INVALID_PARAMS: i64 = -32602;
pub const INTERNAL_ERROR: i64 = -32603;

/// The codes §5.1 defines.
pub static PREDEFINED: &[ErrorCode] = &[
    ErrorCode {
        code: PARSE_ERROR,
        message: "Parse error",
        meaning: "the server received text that is not JSON",
    },
    ErrorCode {
        code: INVALID_REQUEST,
        message: "Invalid Request",
        meaning: "the JSON is not a valid Request object",
    },
    ErrorCode {
        code: METHOD_NOT_FOUND,
        message: "Method not found",
        meaning: "no such method, or it is not available",
    },
    ErrorCode {
        code: INVALID_PARAMS,
        message: "Invalid params",
        meaning: "the method's parameters are wrong",
    },
    ErrorCode {
        code: INTERNAL_ERROR,
        message: "Internal error",
        meaning: "the server failed inside",
    },
];

/// The whole range reserved by the specification.
pub const RESERVED: std::ops::RangeInclusive<i64> = -32768..=-32000;
/// The part of it left to implementations for server errors.
pub const SERVER_ERRORS: std::ops::RangeInclusive<i64> = -32099..=-32000;

/// The predefined code, if `code` is one.
pub fn predefined(code: i64) -> Option<&'static ErrorCode> {
    PREDEFINED.iter().find(|c| c.code == code)
}

/// True for a code inside the reserved range that the specification neither defines nor leaves
/// to servers: reserved for future use.
pub fn is_reserved_unassigned(code: i64) -> bool {
    RESERVED.contains(&code) && !SERVER_ERRORS.contains(&code) && predefined(code).is_none()
}
