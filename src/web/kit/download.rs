//! The log (or any report) as a file the browser downloads.

use std::time::Duration;

use crate::web::kit::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::js_sys;

/// `20260131-120304`: the local time, for file names.
pub(crate) fn file_stamp() -> String {
    let d = js_sys::Date::new_0();
    format!(
        "{:04}{:02}{:02}-{:02}{:02}{:02}",
        d.get_full_year(),
        d.get_month() + 1,
        d.get_date(),
        d.get_hours(),
        d.get_minutes(),
        d.get_seconds()
    )
}

/// Downloads `text` as a file: a Blob, an object URL, a temporary `<a download>`.
pub(crate) fn download(
    name: &str,
    mime: &str,
    text: &str,
) -> Result<(), web_sys::wasm_bindgen::JsValue> {
    let parts = js_sys::Array::of1(&text.into());
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(mime);
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options)?;
    let url = web_sys::Url::create_object_url_with_blob(&blob)?;
    let a: web_sys::HtmlAnchorElement = document().create_element("a")?.unchecked_into();
    a.set_href(&url);
    a.set_download(name);
    a.set_hidden(true);
    document().body().ok_or("no body")?.append_child(&a)?;
    a.click();
    a.remove();
    // Revoking at once can cancel the download in some browsers: give it time.
    set_timeout(
        move || drop(web_sys::Url::revoke_object_url(&url)),
        Duration::from_secs(30),
    );
    Ok(())
}
