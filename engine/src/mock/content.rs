//! The pieces of results every catalogue builds: content blocks (text, image, audio), a tool's
//! failure, a completion, and the media they carry.

use crate::json::Json;

/// A `completion/complete` result holding all of `values`.
pub(super) fn completion(values: Vec<Json>) -> Json {
    let total = values.len();
    Json::obj([(
        "completion",
        Json::obj([
            ("values", Json::Array(values)),
            ("total", Json::from(total as u64)),
            ("hasMore", Json::Bool(false)),
        ]),
    )])
}

/// A 1×1 PNG, base64 (image content).
pub(super) const PNG_1X1: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

/// Four samples of silence, 8-bit mono WAV at 8 kHz, base64 (audio content).
pub(super) const WAV_SILENCE: &str =
    "UklGRigAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YQQAAACAgICA";

pub(super) fn text_content(text: impl Into<String>) -> Json {
    Json::obj([
        ("type", Json::from("text")),
        ("text", Json::String(text.into())),
    ])
}

/// A tool's failure, reported in its result so that the model sees it.
pub(super) fn tool_error(text: impl Into<String>) -> Json {
    Json::obj([
        ("content", Json::arr([text_content(text)])),
        ("isError", Json::Bool(true)),
    ])
}

/// Content that is not text: an image or audio clip (base64 with its MIME type).
pub(super) fn media_content(kind: &str, data: &str, mime: &str) -> Json {
    Json::obj([
        ("type", Json::from(kind)),
        ("data", Json::from(data)),
        ("mimeType", Json::from(mime)),
    ])
}
