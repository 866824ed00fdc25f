//! Share links: the editor text and profile, compressed into the URL fragment.

use leptos::prelude::*;

use super::AppState;

/// Copies a link holding the editor's text and profile (`data-testid="share"`).
#[component]
pub fn ShareButton() -> impl IntoView {}

/// Opens the share link in the URL fragment, if there is one.
pub fn restore_from_fragment(_state: AppState) {}
