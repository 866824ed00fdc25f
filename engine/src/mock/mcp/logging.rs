//! Logging (`notifications/message` at the level `logging/setLevel` allows) and progress
//! (`notifications/progress`), which tools send while they run.

use crate::json::{Json, Node};

use super::lifecycle::SERVER_NAME;
use super::{MockServer, Outcome, RpcError};

/// The log levels of MCP (RFC 5424's, least severe first).
pub(super) const LOG_LEVELS: [&str; 8] = [
    "debug",
    "info",
    "notice",
    "warning",
    "error",
    "critical",
    "alert",
    "emergency",
];

impl MockServer {
    /// Sends a `notifications/message` log line at `level` (one of [`LOG_LEVELS`]) unless the
    /// client asked for more severe ones only (`logging/setLevel`).
    pub(in crate::mock) fn log(&mut self, level: &str, data: Json) {
        let index = LOG_LEVELS.iter().position(|l| *l == level).unwrap_or(0);
        // A 2026-07-28 request asks for log lines in its own `_meta` (none without it); a
        // session of the handshake versions with `logging/setLevel`.
        let least = if self.request.modern {
            match self.request.log_level {
                Some(least) => Some(least),
                None => return,
            }
        } else {
            self.log_level
        };
        if least.is_some_and(|least| index < least) {
            return;
        }
        self.notify(
            "notifications/message",
            Json::obj([
                ("level", Json::from(level)),
                ("logger", Json::from(SERVER_NAME)),
                ("data", data),
            ]),
        );
    }

    /// Sends `notifications/progress` for `token` (the request's `_meta.progressToken`).
    pub(in crate::mock) fn progress(
        &mut self,
        token: &Node<'_>,
        progress: u64,
        total: u64,
        message: &str,
    ) {
        self.notify(
            "notifications/progress",
            Json::obj([
                ("progressToken", Json::from_node(token)),
                ("progress", Json::from(progress)),
                ("total", Json::from(total)),
                ("message", Json::from(message)),
            ]),
        );
    }
}

/// `logging/setLevel`: the least severe level the client wants to hear about from now on.
pub(super) fn set_level(server: &mut MockServer, params: Option<&Node<'_>>) -> Outcome {
    let level = params.and_then(|p| p.get("level")).and_then(Node::as_str);
    match level.and_then(|l| LOG_LEVELS.iter().position(|known| *known == l)) {
        Some(index) => {
            server.log_level = Some(index);
            Ok(Json::Object(Vec::new()))
        }
        None => Err(RpcError::invalid_params([(
            "/params/level".to_string(),
            format!("level must be one of {}", LOG_LEVELS.join(", ")),
        )])),
    }
}
