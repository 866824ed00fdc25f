//! Fetching a text over HTTP(S) with a bound on its size: the page's one reader of fetched
//! texts (an OpenRPC document by URL, `api`; the teaching text, `teaching`).

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
