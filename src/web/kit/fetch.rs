//! Fetching a text over HTTP(S) with a bound on its size: the page's one reader of fetched
//! texts (an OpenRPC document by URL, `api`; the build's data files named in
//! `<meta name="app-entry">`: the teaching text, `teaching`, and the examples' texts,
//! `playground::library`).

/// The body of `request`'s answer as text: an HTTP error status, a declared length over `max`
/// bytes, or a body over `max` bytes is an error in words.
pub(crate) async fn text(
    request: gloo_net::http::RequestBuilder,
    max: usize,
) -> Result<String, String> {
    let response = request.send().await.map_err(|e| e.to_string())?;
    if !response.ok() {
        return Err(format!(
            "HTTP {} {}",
            response.status(),
            response.status_text()
        ));
    }
    let declared = response
        .headers()
        .get("content-length")
        .and_then(|n| n.parse::<usize>().ok());
    if declared.is_some_and(|n| n > max) {
        return Err(format!("it is larger than {max} bytes"));
    }
    let text = response.text().await.map_err(|e| e.to_string())?;
    if text.len() > max {
        return Err(format!("it is larger than {max} bytes"));
    }
    Ok(text)
}

/// The text of the build's data file named in `<meta name="app-entry">`'s attribute `name`,
/// checked against the Subresource Integrity hash in its attribute `integrity` when the build
/// wrote one (release builds: scripts/post-build.mjs) and against `max` bytes.
pub(crate) async fn entry_file(
    name: &'static str,
    integrity: &'static str,
    max: usize,
) -> Result<String, String> {
    let [url] = crate::web::kit::js::entry_files([name])
        .ok_or_else(|| format!("the page names no such file ({name})"))?;
    let hash = leptos::prelude::document()
        .query_selector("meta[name=app-entry]")
        .ok()
        .flatten()
        .and_then(|meta| meta.get_attribute(integrity));
    let mut request = gloo_net::http::Request::get(&url);
    if let Some(hash) = &hash {
        request = request.integrity(hash);
    }
    text(request, max).await
}
