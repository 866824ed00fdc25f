//! Peer text cut short for a message: what the probe's checks and its links quote of a reply.

/// `text` cut to `max` characters for a message (with "…" when cut).
pub fn excerpt(text: &str, max: usize) -> String {
    let mut chars = text.chars();
    let head: String = chars.by_ref().take(max).collect();
    if chars.next().is_some() {
        format!("{head}…")
    } else {
        head
    }
}
