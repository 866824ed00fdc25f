//! The examples' texts ([`crate::examples`]), which the page's wasm leaves out: it lists the
//! examples from the engine's menu at once, and fetches the library file as data on the first
//! pick from the Examples menu, then keeps it for the page's life (the service worker precaches
//! the file after start, so examples load offline afterwards: src/web/js/sw.js). Size rule 15 of
//! docs/size-rules.md.
//!
//! The file is named in `<meta name="app-entry">` (`data-lazy-examples`, Trunk.toml) with its
//! Subresource Integrity hash in `data-examples-integrity` (release builds: scripts/post-build.mjs
//! gives it a hashed name and writes the hash), like the teaching text (`super::super::teaching`).

use std::cell::OnceCell;

use crate::examples::{parse, Example, LIBRARY_MAX_BYTES};

thread_local! {
    /// The examples, once read (leaked once: they live as long as the page).
    static LOADED: OnceCell<&'static [Example]> = const { OnceCell::new() };
}

/// Reads `text` (the library file) as the page's examples and keeps them (the first library
/// read stays).
pub fn install(text: &str) -> Result<&'static [Example], String> {
    if let Some(loaded) = LOADED.with(|cell| cell.get().copied()) {
        return Ok(loaded);
    }
    let text: &'static str = Box::leak(text.to_owned().into_boxed_str());
    let examples = parse(text).map_err(|e| {
        format!(
            "the examples file is not readable (line {}: {})",
            e.line, e.message
        )
    })?;
    let examples: &'static [Example] = Box::leak(examples.into_boxed_slice());
    Ok(LOADED.with(|cell| *cell.get_or_init(|| examples)))
}

/// The example `id`, fetching the library first if it is not loaded yet; why it is not there,
/// in words, otherwise.
pub async fn example(id: &str) -> Result<&'static Example, String> {
    let examples = match LOADED.with(|cell| cell.get().copied()) {
        Some(examples) => examples,
        None => {
            let text = crate::web::kit::fetch::entry_file(
                "data-lazy-examples",
                "data-examples-integrity",
                LIBRARY_MAX_BYTES,
            )
            .await?;
            install(&text)?
        }
    };
    examples
        .iter()
        .find(|e| e.id == id)
        .ok_or_else(|| format!("the examples file has no example {id}"))
}
