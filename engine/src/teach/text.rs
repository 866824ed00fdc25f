//! The teaching text: what the page's first view (the editor and its verdict cards: a rule's id,
//! section and link, and the violation's own message) does not show. Each rule's requirement in
//! one line (its summary), explanation and broken and fixed examples (and an OpenRPC rule's example
//! document), each lesson's paragraphs and example, and the quiz's own items.
//!
//! One source of truth: the catalogue entries ([`crate::rpc::catalogue`]), [`super::lessons`] and
//! [`super::quiz`] hold the text in the native build (`jrpc`, the tests), which
//! [`Teaching::builtin`] collects. The page's wasm leaves it out (those fields and items are
//! `cfg(not(target_arch = "wasm32"))`) and fetches `teaching.json` (this folder:
//! [`Teaching::to_json`] of the built-in text; a test fails when it is stale) on the first open of
//! the reference, the lessons or the quiz, and reads it with [`Teaching::from_json`], which checks
//! that every rule and lesson has its text.

use crate::json::Node;
use crate::rpc::McpVersion;

/// The most the page reads of a teaching file (today's is ~70 KB).
pub const TEACHING_MAX_BYTES: usize = 1 << 20;

/// The path of the data file, from the repository's root (the web build copies it into dist).
pub const TEACHING_FILE: &str = "engine/src/teach/teaching.json";

/// A rule's teaching text.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(not(target_arch = "wasm32"), derive(serde::Serialize))]
pub struct RuleText {
    /// The catalogue entry's id.
    pub id: String,
    /// The requirement in one line, in our words.
    pub summary: String,
    /// Why it matters and how to fix it, in our words.
    pub explanation: String,
    /// A minimal input that breaks this rule and no other.
    pub bad: String,
    /// The same input fixed: it breaks no rule.
    pub good: String,
    /// OpenRPC rules only: the document the examples are checked under (empty for the rules about
    /// a document itself, whose `bad` and `good` are documents).
    #[cfg_attr(
        not(target_arch = "wasm32"),
        serde(skip_serializing_if = "String::is_empty")
    )]
    pub document: String,
}

/// A lesson's teaching text.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(not(target_arch = "wasm32"), derive(serde::Serialize))]
pub struct LessonText {
    /// The lesson's id ([`super::lessons::Lesson::id`]).
    pub id: String,
    /// A few short paragraphs.
    pub text: Vec<String>,
    /// The example it runs against the mock server.
    pub example: String,
}

/// One of the quiz's own items ([`super::quiz::bank`]: `own:<name>`).
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(not(target_arch = "wasm32"), derive(serde::Serialize))]
pub struct QuizText {
    pub name: String,
    pub text: String,
    /// The MCP version it is checked under; `None`: JSON-RPC.
    #[cfg_attr(
        not(target_arch = "wasm32"),
        serde(
            skip_serializing_if = "Option::is_none",
            serialize_with = "version_text"
        )
    )]
    pub version: Option<McpVersion>,
}

#[cfg(not(target_arch = "wasm32"))]
fn version_text<S: serde::Serializer>(v: &Option<McpVersion>, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(v.map_or("", McpVersion::as_str))
}

/// All the teaching text: the rules in catalogue order (JSON-RPC's, MCP's, then OpenRPC's), the
/// lessons in path order, the quiz's own items.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(not(target_arch = "wasm32"), derive(serde::Serialize))]
pub struct Teaching {
    pub rules: Vec<RuleText>,
    pub lessons: Vec<LessonText>,
    /// The quiz's own items, beside those made of the rules' examples.
    pub quiz: Vec<QuizText>,
}

impl Teaching {
    /// The text of the rule `id`.
    pub fn rule(&self, id: &str) -> Option<&RuleText> {
        self.rules.iter().find(|r| r.id == id)
    }

    /// The requirement of the rule `id` in one line (empty for an id the text does not hold).
    pub fn summary(&self, id: &str) -> &str {
        self.rule(id).map_or("", |r| r.summary.as_str())
    }

    /// The text of the lesson `id`.
    pub fn lesson(&self, id: &str) -> Option<&LessonText> {
        self.lessons.iter().find(|l| l.id == id)
    }

    /// Reads a teaching file: JSON of this shape, at most [`TEACHING_MAX_BYTES`], with the text
    /// of every rule of the catalogue and every lesson (a file of another version says so).
    pub fn from_json(json: &str) -> Result<Teaching, String> {
        if json.len() > TEACHING_MAX_BYTES {
            return Err(format!(
                "the teaching text is {} bytes, over the {TEACHING_MAX_BYTES} bytes read",
                json.len()
            ));
        }
        let teaching = read(json)?;
        let rules = crate::rpc::catalogue::all().chain(crate::rpc::catalogue::openrpc());
        for rule in rules {
            if teaching.rule(rule.id).is_none() {
                return Err(format!(
                    "the teaching text has no entry for the rule {} (a file of another version?)",
                    rule.id
                ));
            }
        }
        for lesson in super::lessons::LESSONS {
            if teaching.lesson(lesson.id).is_none() {
                return Err(format!(
                    "the teaching text has no entry for the lesson {} (a file of another version?)",
                    lesson.id
                ));
            }
        }
        Ok(teaching)
    }

    /// The teaching file's text (pretty JSON, one entry per rule and lesson, ending in a newline).
    #[cfg(not(target_arch = "wasm32"))]
    pub fn to_json(&self) -> String {
        let mut json = serde_json::to_string_pretty(self).unwrap_or_default();
        json.push('\n');
        json
    }

    /// The text compiled into the native build (collected once from the catalogue and lessons).
    #[cfg(not(target_arch = "wasm32"))]
    pub fn builtin() -> &'static Teaching {
        static BUILTIN: std::sync::OnceLock<Teaching> = std::sync::OnceLock::new();
        BUILTIN.get_or_init(|| {
            let rules = crate::rpc::catalogue::all().chain(crate::rpc::catalogue::openrpc());
            Teaching {
                rules: rules
                    .map(|r| RuleText {
                        id: r.id.to_string(),
                        summary: r.summary.to_string(),
                        explanation: r.explanation.to_string(),
                        bad: r.bad.to_string(),
                        good: r.good.to_string(),
                        document: r.example_document.to_string(),
                    })
                    .collect(),
                lessons: super::lessons::LESSONS
                    .iter()
                    .map(|l| LessonText {
                        id: l.id.to_string(),
                        text: l.text.iter().map(|p| p.to_string()).collect(),
                        example: l.example.to_string(),
                    })
                    .collect(),
                quiz: QUIZ_OWN_ITEMS
                    .iter()
                    .map(|&(name, text, version)| QuizText {
                        name: name.to_string(),
                        text: text.to_string(),
                        version,
                    })
                    .collect(),
            }
        })
    }
}

/// The file's entries, read with the engine's own JSON parser (already in the page: a serde
/// reader for these types costs the page's wasm more; docs/size-rules.md, 8).
fn read(json: &str) -> Result<Teaching, String> {
    let (parsed, _) = crate::json::parse_document(json.as_bytes(), 0)
        .map_err(|e| format!("the teaching text is not JSON: {e}"))?;
    let list = |name: &str| {
        parsed
            .root
            .get(name)
            .and_then(Node::as_array)
            .ok_or(format!("the teaching text has no array \"{name}\""))
    };
    let text = |entry: &Node, at: &str, name: &str| {
        entry
            .get(name)
            .and_then(Node::as_str)
            .map(str::to_string)
            .ok_or(format!("the teaching text's {at} has no string \"{name}\""))
    };
    let mut teaching = Teaching::default();
    for (i, r) in list("rules")?.iter().enumerate() {
        let at = format!("rules[{i}]");
        teaching.rules.push(RuleText {
            id: text(r, &at, "id")?,
            summary: text(r, &at, "summary")?,
            explanation: text(r, &at, "explanation")?,
            bad: text(r, &at, "bad")?,
            good: text(r, &at, "good")?,
            document: r
                .get("document")
                .map_or(Ok(String::new()), |_| text(r, &at, "document"))?,
        });
    }
    for (i, l) in list("lessons")?.iter().enumerate() {
        let at = format!("lessons[{i}]");
        let paragraphs = l.get("text").and_then(Node::as_array);
        let paragraphs =
            paragraphs.ok_or(format!("the teaching text's {at} has no array \"text\""))?;
        teaching.lessons.push(LessonText {
            id: text(l, &at, "id")?,
            text: paragraphs
                .iter()
                .map(|p| p.as_str().map(str::to_string))
                .collect::<Option<_>>()
                .ok_or(format!("the teaching text's {at}.text holds a non-string"))?,
            example: text(l, &at, "example")?,
        });
    }
    for (i, q) in list("quiz")?.iter().enumerate() {
        let at = format!("quiz[{i}]");
        let version = match q.get("version") {
            None => None,
            Some(v) => Some(
                v.as_str()
                    .and_then(|v| v.parse::<McpVersion>().ok())
                    .ok_or(format!("the teaching text's {at} names no MCP version"))?,
            ),
        };
        teaching.quiz.push(QuizText {
            name: text(q, &at, "name")?,
            text: text(q, &at, "text")?,
            version,
        });
    }
    Ok(teaching)
}

/// Items of our own: valid messages of every kind and MCP messages worth knowing.
/// Our own items: name, text, the MCP version they are checked under (`None`: JSON-RPC). Part
/// of the teaching text: native only, the page reads them from the teaching file.
#[cfg(not(target_arch = "wasm32"))]
pub(crate) const QUIZ_OWN_ITEMS: &[(&str, &str, Option<McpVersion>)] = &[
    (
        "subtract",
        r#"{"jsonrpc": "2.0", "method": "subtract", "params": [42, 23], "id": 1}"#,
        None,
    ),
    (
        "update",
        r#"{"jsonrpc": "2.0", "method": "update", "params": [1, 2, 3, 4, 5]}"#,
        None,
    ),
    (
        "result",
        r#"{"jsonrpc": "2.0", "result": 19, "id": 1}"#,
        None,
    ),
    (
        "method-not-found",
        r#"{"jsonrpc": "2.0", "error": {"code": -32601, "message": "Method not found"}, "id": "1"}"#,
        None,
    ),
    (
        "parse-error-reply",
        r#"{"jsonrpc": "2.0", "error": {"code": -32700, "message": "Parse error"}, "id": null}"#,
        None,
    ),
    (
        "batch",
        r#"[{"jsonrpc": "2.0", "method": "sum", "params": [1, 2, 4], "id": "1"}, {"jsonrpc": "2.0", "method": "notify_hello", "params": [7]}]"#,
        None,
    ),
    (
        "by-name",
        r#"{"jsonrpc": "2.0", "method": "subtract", "params": {"subtrahend": 23, "minuend": 42}, "id": 3}"#,
        None,
    ),
    (
        "no-params",
        r#"{"jsonrpc": "2.0", "method": "get_data", "id": "9"}"#,
        None,
    ),
    (
        "string-one",
        r#"{"jsonrpc": "2.0", "method": "sum", "params": [1], "id": "1"}"#,
        None,
    ),
    (
        "spec-invalid-request",
        r#"{"jsonrpc": "2.0", "method": 1, "params": "bar"}"#,
        None,
    ),
    (
        "one-point-oh",
        r#"{"method": "echo", "params": ["Hello JSON-RPC"], "id": 1}"#,
        None,
    ),
    (
        "mcp-tools-list",
        r#"{"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}"#,
        Some(McpVersion::V2025_11_25),
    ),
    (
        "mcp-tools-call",
        r#"{"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "add", "arguments": {"a": 2, "b": 3}}}"#,
        Some(McpVersion::V2025_11_25),
    ),
    (
        "mcp-tool-result",
        r#"{"jsonrpc": "2.0", "id": 2, "result": {"content": [{"type": "text", "text": "5"}]}}"#,
        Some(McpVersion::V2025_11_25),
    ),
    (
        "mcp-initialized",
        r#"{"jsonrpc": "2.0", "method": "notifications/initialized"}"#,
        Some(McpVersion::V2025_11_25),
    ),
    // The four messages of the seed article's "Spot the Invalid Messages" lab.
    (
        "seed-lab-1",
        r#"{"jsonrpc": "2.0", "method": "tools/list", "params": {}}"#,
        Some(McpVersion::V2025_11_25),
    ),
    (
        "seed-lab-2",
        r#"{"jsonrpc": "1.0", "id": 2, "method": "tools/list", "params": {}}"#,
        Some(McpVersion::V2025_11_25),
    ),
    (
        "seed-lab-3",
        r#"{"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"arguments": {"a": 2, "b": 3}}}"#,
        Some(McpVersion::V2025_11_25),
    ),
    (
        "seed-lab-4",
        r#"{"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"name": "add", "arguments": {"a": 2, "b": 3}}}"#,
        Some(McpVersion::V2025_11_25),
    ),
    (
        "mcp-progress-with-id",
        r#"{"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": "t", "progress": 50}, "id": 1}"#,
        Some(McpVersion::V2025_11_25),
    ),
    (
        "mcp-tool-error",
        r#"{"jsonrpc": "2.0", "id": 5, "result": {"content": [{"type": "text", "text": "Cannot divide by zero"}], "isError": true}}"#,
        Some(McpVersion::V2025_11_25),
    ),
    (
        "mcp-completion",
        r#"{"jsonrpc": "2.0", "id": 6, "method": "completion/complete", "params": {"ref": {"type": "ref/prompt", "name": "explain-error"}, "argument": {"name": "code", "value": "-326"}}}"#,
        Some(McpVersion::V2025_11_25),
    ),
    (
        "mcp-progress",
        r#"{"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": "launch", "progress": 1, "total": 3}}"#,
        Some(McpVersion::V2025_11_25),
    ),
    (
        "mcp-resource-updated",
        r#"{"jsonrpc": "2.0", "method": "notifications/resources/updated", "params": {"uri": "mock://notes"}}"#,
        Some(McpVersion::V2025_11_25),
    ),
    (
        "mcp-elicitation-result",
        r#"{"jsonrpc": "2.0", "id": "mock-1", "result": {"action": "accept", "content": {"name": "Ada", "colour": "green"}}}"#,
        Some(McpVersion::V2025_11_25),
    ),
    (
        "mcp-read-no-uri",
        r#"{"jsonrpc": "2.0", "id": 3, "method": "resources/read", "params": {}}"#,
        Some(McpVersion::V2025_11_25),
    ),
    (
        "mcp-sampling-from-client",
        "--> {\"jsonrpc\": \"2.0\", \"id\": 7, \"method\": \"sampling/createMessage\", \"params\": {\"messages\": [{\"role\": \"user\", \"content\": {\"type\": \"text\", \"text\": \"Summarize this\"}}], \"maxTokens\": 100}}",
        Some(McpVersion::V2025_11_25),
    ),
    (
        "mcp-cancelled",
        r#"{"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 2, "reason": "The user pressed Stop"}}"#,
        Some(McpVersion::V2025_11_25),
    ),
    // 2026-07-28: the lessons' questions in the current revision.
    (
        "mcp-2026-tool-error",
        r#"{"jsonrpc": "2.0", "id": 5, "result": {"resultType": "complete", "content": [{"type": "text", "text": "Cannot divide by zero"}], "isError": true}}"#,
        Some(McpVersion::V2026_07_28),
    ),
    (
        "mcp-2026-completion",
        r#"{"jsonrpc": "2.0", "id": 6, "method": "completion/complete", "params": {"ref": {"type": "ref/prompt", "name": "explain-error"}, "argument": {"name": "code", "value": "-326"}, "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}, "io.modelcontextprotocol/clientInfo": {"name": "learner", "version": "1.0"}}}}"#,
        Some(McpVersion::V2026_07_28),
    ),
    (
        "mcp-2026-cancel-listen",
        r#"{"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 1, "reason": "The user closed the notes"}}"#,
        Some(McpVersion::V2026_07_28),
    ),
];

#[cfg(test)]
mod tests {
    use super::*;

    /// The committed file (what the page fetches).
    const COMMITTED: &str = include_str!("teaching.json");

    #[test]
    fn the_committed_teaching_file_is_the_built_in_text() {
        let now = Teaching::builtin().to_json();
        if now != COMMITTED && std::env::var_os("JRPC_WRITE_TEACHING").is_some() {
            let path = concat!(env!("CARGO_MANIFEST_DIR"), "/src/teach/teaching.json");
            std::fs::write(path, &now).expect("write teaching.json");
            return;
        }
        assert!(
            now == COMMITTED,
            "{TEACHING_FILE} is stale: regenerate it with \
             `JRPC_WRITE_TEACHING=1 cargo test --locked -p jsonrpc-engine teaching_file`"
        );
    }

    #[test]
    fn the_teaching_file_reads_back_as_the_built_in_text() {
        assert_eq!(
            Teaching::from_json(COMMITTED).as_ref(),
            Ok(Teaching::builtin())
        );
    }

    #[test]
    fn a_teaching_file_without_a_rule_is_refused_naming_it() {
        let mut t = Teaching::builtin().clone();
        let gone = t.rules.remove(3).id;
        let why = Teaching::from_json(&t.to_json()).unwrap_err();
        assert!(why.contains(&format!("rule {gone}")), "{why}");
    }

    #[test]
    fn a_teaching_file_without_a_lesson_is_refused_naming_it() {
        let mut t = Teaching::builtin().clone();
        let gone = t.lessons.pop().unwrap().id;
        let why = Teaching::from_json(&t.to_json()).unwrap_err();
        assert!(why.contains(&format!("lesson {gone}")), "{why}");
    }

    #[test]
    fn a_teaching_file_that_is_not_json_is_refused_with_its_place() {
        let why = Teaching::from_json("{\"rules\": [}").unwrap_err();
        assert!(why.contains("(byte 11)"), "{why}");
    }

    #[test]
    fn a_teaching_entry_without_a_field_is_refused_naming_its_place() {
        let json = Teaching::builtin()
            .to_json()
            .replacen("\"bad\":", "\"worse\":", 1);
        let why = Teaching::from_json(&json).unwrap_err();
        assert!(why.contains("rules[0] has no string \"bad\""), "{why}");
    }

    #[test]
    fn a_teaching_file_over_the_limit_is_refused_unread() {
        let big = " ".repeat(TEACHING_MAX_BYTES + 1);
        let why = Teaching::from_json(&big).unwrap_err();
        assert!(why.contains("over the"), "{why}");
    }
}
