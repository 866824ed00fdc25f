//! The examples library (`data-testid="examples"`).

use leptos::prelude::*;

/// Browse and load an example into the editor, with its profile.
#[component]
pub fn ExamplesMenu() -> impl IntoView {}
