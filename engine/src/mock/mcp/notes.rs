//! The notes the add_note tool keeps: the resource mock://notes that changes, and each note as a
//! resource of its own.

use crate::json::Json;
use crate::rpc::McpVersion;

use super::era::is_handshake;

use super::MockServer;

/// The resource that changes (the add_note tool).
pub(super) const NOTES_URI: &str = "mock://notes";

/// The notes kept (the oldest go first)…
pub(super) const MAX_NOTES: usize = 20;

/// …and the longest note, in characters.
pub(super) const MAX_NOTE_CHARS: usize = 500;

/// The notes, as mock://notes reads.
pub(super) fn notes_text(notes: &[String]) -> String {
    if notes.is_empty() {
        return "No notes yet: add one with the add_note tool.\n".to_string();
    }
    notes
        .iter()
        .enumerate()
        .map(|(i, note)| format!("{}. {note}\n", i + 1))
        .collect()
}

/// Each note as a resource of its own (`mock://notes/1`, …), listed by the handshake versions
/// (the ones that declare `resources.listChanged`: adding a note changes the list).
pub(super) fn note_resources(server: &MockServer, version: McpVersion) -> Vec<Json> {
    if !is_handshake(version) {
        return Vec::new();
    }
    server
        .notes
        .iter()
        .enumerate()
        .map(|(i, note)| {
            let n = i + 1;
            let mut r = vec![
                ("uri", Json::String(format!("{NOTES_URI}/{n}"))),
                ("name", Json::String(format!("note-{n}"))),
            ];
            if version >= McpVersion::V2025_06_18 {
                r.push(("title", Json::String(format!("Note {n}"))));
            }
            let preview: String = note.chars().take(60).collect();
            r.push(("description", Json::String(preview)));
            r.push(("mimeType", Json::from("text/plain")));
            Json::obj(r)
        })
        .collect()
}

/// `mock://notes/N`: the note's number, when it names one.
pub(super) fn note_number(server: &MockServer, uri: &str) -> Option<usize> {
    let n = uri.strip_prefix(NOTES_URI)?.strip_prefix('/')?;
    let n: usize = n.parse().ok()?;
    (1..=server.notes.len()).contains(&n).then_some(n)
}
