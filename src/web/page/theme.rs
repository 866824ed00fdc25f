//! Light and dark: follows the system (`prefers-color-scheme`) until the user picks one with the
//! toggle (system → light → dark → system). The choice is kept in localStorage and shown as
//! `data-theme="light"|"dark"` on `<html>` (absent: follow the system); style/app.css maps it to
//! `color-scheme`, and every colour is a `light-dark()` variable, so the page is already right
//! before the app starts.

use crate::web::kit::prelude::*;

/// localStorage key of the user's choice (absent: follow the system).
const KEY: &str = "jrpc.theme";

/// The user's choice.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Theme {
    #[default]
    System,
    Light,
    Dark,
}

impl Theme {
    /// The next choice of the toggle.
    pub fn next(self) -> Theme {
        match self {
            Theme::System => Theme::Light,
            Theme::Light => Theme::Dark,
            Theme::Dark => Theme::System,
        }
    }

    /// The `data-theme` value (`None`: no attribute, the system decides).
    pub fn attribute(self) -> Option<&'static str> {
        match self {
            Theme::System => None,
            Theme::Light => Some("light"),
            Theme::Dark => Some("dark"),
        }
    }

    /// Its name: `system`, `light` or `dark`.
    pub fn as_str(self) -> &'static str {
        match self {
            Theme::System => "system",
            Theme::Light => "light",
            Theme::Dark => "dark",
        }
    }

    fn from_attribute(s: &str) -> Theme {
        match s {
            "light" => Theme::Light,
            "dark" => Theme::Dark,
            _ => Theme::System,
        }
    }
}

/// The saved choice (system when none, or when storage is unavailable).
pub fn saved_theme() -> Theme {
    crate::web::kit::storage::load(KEY)
        .ok()
        .flatten()
        .map_or(Theme::System, |v| Theme::from_attribute(&v))
}

/// Shows `theme` on `<html>` and keeps it for the next visit.
pub fn apply_theme(theme: Theme) {
    if let Some(html) = document().document_element() {
        let _ = match theme.attribute() {
            Some(value) => html.set_attribute("data-theme", value),
            None => html.remove_attribute("data-theme"),
        };
    }
    // Losing the theme choice to a full storage is harmless: the next visit follows the system.
    let _ = crate::web::kit::storage::save(KEY, theme.attribute());
}

/// Switches between the system's theme, light and dark (`data-testid="theme"`).
#[component]
pub fn ThemeToggle() -> impl IntoView {
    let theme = RwSignal::new(saved_theme());
    // Syncs the outside (the <html> attribute, localStorage) with the choice.
    Effect::new(move |_| apply_theme(theme.get()));
    let title = move || {
        let t = theme.get();
        format!(
            "Colour theme: {} (click for {})",
            t.as_str(),
            t.next().as_str()
        )
    };
    view! {
        <button
            type="button"
            class="theme-toggle"
            data-testid="theme"
            data-theme-choice=move || theme.get().as_str()
            title=title
            on:click=move |_| theme.update(|t| *t = t.next())
        >
            "Theme: "
            {move || theme.get().as_str()}
        </button>
    }
}
