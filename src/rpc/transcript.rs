//! Conversation checks for transcripts (`-->` / `<--`): pairing of responses with requests.

use crate::json::Stream;

use super::{mcp, Document, Profile};

pub(super) fn check(stream: &Stream<'_>, documents: &mut [Document], profile: Profile) {
    if let Profile::Mcp(version) = profile {
        mcp::check_transcript(stream, documents, version);
    }
}
