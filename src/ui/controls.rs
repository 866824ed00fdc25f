//! Controls over the editor's text: the profile switch, format and minify.

use leptos::prelude::*;

/// JSON-RPC 2.0 or MCP with its protocol version (`data-testid="profile"`).
#[component]
pub fn ProfileSelect() -> impl IntoView {}

/// Format (pretty) and minify, undoable with the browser's undo (`data-testid="format"`).
#[component]
pub fn FormatButtons() -> impl IntoView {}
