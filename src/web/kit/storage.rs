//! The browser's storage, the one way the page reaches it: localStorage (drafts, the theme, the
//! quiz's and lessons' progress) and sessionStorage (a tab's draft id). A browser that allows no
//! storage here (a privacy mode, a sandboxed frame) is `None`/`Err`, never a panic.

use crate::web::kit::prelude::*;

/// localStorage, when the browser allows it here.
pub(crate) fn local() -> Option<web_sys::Storage> {
    window().local_storage().ok().flatten()
}

/// sessionStorage (per tab, kept across a reload of that tab), when the browser allows it here.
pub(crate) fn session() -> Option<web_sys::Storage> {
    window().session_storage().ok().flatten()
}

/// The value saved in localStorage under `key`: `Ok(None)` when there is none, `Err` when the
/// browser allows no storage here or refuses to read it.
pub(crate) fn load(key: &str) -> Result<Option<String>, String> {
    local()
        .ok_or_else(|| "no localStorage".to_string())?
        .get_item(key)
        .map_err(|e| crate::web::kit::js::js_error_text(&e))
}

/// Saves `value` in localStorage under `key` (`None` removes it). `Err`: why not (no storage,
/// storage full), in words.
pub(crate) fn save(key: &str, value: Option<&str>) -> Result<(), String> {
    let storage = local().ok_or_else(|| "no localStorage".to_string())?;
    match value {
        Some(value) => storage.set_item(key, value),
        None => storage.remove_item(key),
    }
    .map_err(|e| crate::web::kit::js::js_error_text(&e))
}
