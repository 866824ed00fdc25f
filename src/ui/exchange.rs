//! Send to the in-browser mock server, the log and the sequence picture.

use leptos::prelude::*;

/// Sends each document of the editor to the mock server (`data-testid="send"`, Ctrl+Enter).
#[component]
pub fn SendButton() -> impl IntoView {}

/// The log of messages in both directions, with pairing, and the sequence picture (`data-testid="log"`).
#[component]
pub fn LogPane() -> impl IntoView {}
