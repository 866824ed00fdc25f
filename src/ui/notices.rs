//! Notices to the user (share link errors, storage problems).

use leptos::prelude::*;

/// The list of notices.
#[component]
pub fn Notices() -> impl IntoView {}
