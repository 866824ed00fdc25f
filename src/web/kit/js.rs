//! What the UI needs from JavaScript that neither Leptos nor web-sys gives in one call: listeners
//! on objects outside the view tree (the window, the document, a worker), reflected properties
//! of plain objects, and strings into wasm memory without wasm-bindgen's character-by-character
//! copy. No markup is built here (views are Leptos components).

use crate::web::kit::prelude::on_cleanup;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{js_sys, Event, EventTarget};

/// Listens to `event` on a target that outlives the page's reactive owner (the window, the
/// document): the listener is removed when the owner is cleaned up.
pub fn listen(target: &EventTarget, event: &'static str, handler: impl Fn(Event) + 'static) {
    let closure = Closure::<dyn Fn(Event)>::new(handler);
    let _ = target.add_event_listener_with_callback(event, closure.as_ref().unchecked_ref());
    // The owner's cleanup must be Send; the page is single-threaded, SendWrapper says so.
    let held = send_wrapper::SendWrapper::new((target.clone(), closure));
    on_cleanup(move || {
        let (target, closure) = held.take();
        let _ = target.remove_event_listener_with_callback(event, closure.as_ref().unchecked_ref());
    });
}

/// Sets a property of a DOM object.
pub fn set_prop(obj: &JsValue, name: &str, value: &JsValue) {
    let _ = js_sys::Reflect::set(obj, &JsValue::from_str(name), value);
}

#[wasm_bindgen::prelude::wasm_bindgen]
extern "C" {
    /// The browser's `TextEncoder` (declared here to pass a `JsString` without a copy).
    #[wasm_bindgen(js_name = TextEncoder)]
    type Utf8Encoder;
    #[wasm_bindgen(constructor, js_class = "TextEncoder")]
    fn new() -> Utf8Encoder;
    #[wasm_bindgen(method, js_name = encodeInto)]
    fn encode_into(
        this: &Utf8Encoder,
        source: &js_sys::JsString,
        destination: &js_sys::Uint8Array,
    ) -> JsValue;
}

/// A JavaScript string as UTF-8, written straight into wasm memory by the browser's
/// `TextEncoder.encodeInto` (wasm-bindgen's own copy goes character by character in JavaScript:
/// 1.4 ms for 1 MB against ~0.2 ms). Lone surrogates become U+FFFD, as with wasm-bindgen.
pub fn utf8_of(s: &js_sys::JsString) -> String {
    thread_local! {
        static ENCODER: Utf8Encoder = Utf8Encoder::new();
    }
    let mut rest = s.clone();
    // One byte per UTF-16 unit is exact for ASCII; anything else grows the buffer and goes on.
    let mut buf: Vec<u8> = Vec::with_capacity(rest.length() as usize);
    loop {
        let spare = buf.capacity() - buf.len();
        // SAFETY: the view covers only the vector's spare capacity, nothing allocates in wasm
        // memory while it is alive (the encoder writes, then it is dropped), and `set_len` counts
        // only the bytes the encoder reports written (whole UTF-8 characters).
        let view =
            unsafe { js_sys::Uint8Array::view_mut_raw(buf.as_mut_ptr().add(buf.len()), spare) };
        let done = ENCODER.with(|e| e.encode_into(&rest, &view));
        drop(view);
        let count = |name: &str| {
            js_sys::Reflect::get(&done, &JsValue::from_str(name))
                .ok()
                .and_then(|v| v.as_f64())
                .unwrap_or(0.0) as usize
        };
        let (read, written) = (count("read"), count("written"));
        unsafe { buf.set_len(buf.len() + written.min(spare)) };
        let left = rest.length() as usize;
        if read >= left {
            break;
        }
        rest = rest.slice(read as u32, left as u32);
        buf.reserve((left - read) * 3);
    }
    // SAFETY: `encodeInto` writes UTF-8 only (the Encoding Standard: a lone surrogate becomes
    // U+FFFD) and whole characters only, and `buf` holds nothing else. Validating 1 MB again here
    // cost a third of the copy in the browser benchmark.
    unsafe { String::from_utf8_unchecked(buf) }
}

/// The `value` of an input, select or textarea, as UTF-8 through [`utf8_of`].
pub fn value_of(el: &JsValue) -> String {
    match js_sys::Reflect::get(el, &JsValue::from_str("value"))
        .ok()
        .and_then(|v| v.dyn_into::<js_sys::JsString>().ok())
    {
        Some(s) => utf8_of(&s),
        None => String::new(),
    }
}

/// Reads `reader` chunk by chunk as the stream delivers, handing each chunk to `take`, until the
/// stream ends (`Ok`) or `take` returns false (the read is then cancelled, also `Ok`). `Err`: the
/// stream's error. (`take` is a `dyn`: one compiled copy serves every reader; docs/size-rules.md,
/// 5.)
pub(crate) async fn read_stream(
    reader: &web_sys::ReadableStreamDefaultReader,
    take: &mut dyn FnMut(&[u8]) -> bool,
) -> Result<(), JsValue> {
    loop {
        let chunk = js_sys::futures::JsFuture::from(reader.read()).await?;
        if js_sys::Reflect::get(&chunk, &"done".into())?.is_truthy() {
            return Ok(());
        }
        let value: js_sys::Uint8Array =
            js_sys::Reflect::get(&chunk, &"value".into())?.unchecked_into();
        if !take(&value.to_vec()) {
            let _ = reader.cancel();
            return Ok(());
        }
    }
}

/// Listens to `event` on `target` for as long as the page lives (a worker the page keeps).
pub fn listen_forever(target: &EventTarget, event: &str, handler: impl Fn(Event) + 'static) {
    let closure = Closure::<dyn Fn(Event)>::new(handler);
    let _ = target.add_event_listener_with_callback(event, closure.as_ref().unchecked_ref());
    closure.forget();
}

/// Runs `f` once the browser has painted the next frame: on a timer queued from that frame's
/// animation callback, so after its style, layout and paint (an animation callback alone runs
/// before them). For work the first view does not show: the page's start paints sooner. `dyn`:
/// one compiled copy for every caller (docs/size-rules.md, 5).
pub(crate) fn after_next_paint(f: Box<dyn FnOnce()>) {
    leptos::prelude::request_animation_frame(move || {
        leptos::prelude::set_timeout(f, std::time::Duration::ZERO)
    });
}

/// Scrolls `el` into view, and every scrolling box around it: `block` "center" puts it in the
/// middle (so what is above it, a server's question, and below it stay in sight), "nearest"
/// scrolls as little as shows it (`scrollIntoView({block})`).
pub(crate) fn scroll_to(el: &web_sys::Element, block: &str) {
    let options = js_sys::Object::new();
    set_prop(&options, "block", &block.into());
    let scroll = js_sys::Reflect::get(el, &"scrollIntoView".into())
        .ok()
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok());
    if let Some(scroll) = scroll {
        let _ = scroll.call1(el, &options);
    }
}

/// Scrolls to and focuses the first element under `root` matching `selector` (after a view is
/// built, or a question answered).
pub(crate) fn focus_within(root: &web_sys::Element, selector: &str) {
    if let Some(el) = root.query_selector(selector).ok().flatten() {
        el.scroll_into_view();
        if let Ok(el) = el.dyn_into::<web_sys::HtmlElement>() {
            let _ = el.focus();
        }
    }
}

/// Scrolls to and focuses the element `node` holds, if any (none once its view is gone: called
/// on a later frame, the view may have been left meanwhile).
pub(crate) fn focus_node<E>(node: leptos::prelude::NodeRef<E>)
where
    E: leptos::html::ElementType,
    E::Output: wasm_bindgen::JsCast + Clone + 'static,
{
    use leptos::prelude::GetUntracked;
    if let Some(el) = node.try_get_untracked().flatten() {
        let el: &web_sys::HtmlElement = el.unchecked_ref();
        el.scroll_into_view();
        let _ = el.focus();
    }
}

/// The UTF-16 offset of byte `byte` of `text` (clamped to the text and to a character start).
pub(crate) fn byte_to_utf16(text: &str, byte: usize) -> u32 {
    let mut byte = byte.min(text.len());
    while !text.is_char_boundary(byte) {
        byte -= 1;
    }
    let head = &text[..byte];
    if head.is_ascii() {
        return byte as u32;
    }
    head.chars().map(char::len_utf16).sum::<usize>() as u32
}

/// The byte offset of UTF-16 offset `units` of `text` (clamped; inside a surrogate pair: the
/// character's start).
pub(crate) fn utf16_to_byte(text: &str, units: u32) -> usize {
    let units = units as usize;
    if text.len() >= units && text.as_bytes()[..units].is_ascii() {
        return units;
    }
    let mut seen = 0;
    for (i, c) in text.char_indices() {
        if seen >= units {
            return i;
        }
        seen += c.len_utf16();
        if seen > units {
            return i;
        }
    }
    text.len()
}

/// The absolute URLs of the files `<meta name="app-entry">` names in the attributes `names`
/// (Trunk.toml `pattern_script`: a worker's loader, glue and wasm); `None` if one is missing.
pub fn entry_files<const N: usize>(names: [&str; N]) -> Option<[String; N]> {
    let document = leptos::prelude::document();
    let meta = document
        .query_selector("meta[name=app-entry]")
        .ok()
        .flatten()?;
    let base = document.base_uri().ok().flatten()?;
    let mut out: [String; N] = std::array::from_fn(|_| String::new());
    for (slot, name) in out.iter_mut().zip(names) {
        let path = meta.get_attribute(name)?;
        *slot = web_sys::Url::new_with_base(&path, &base).ok()?.href();
    }
    Some(out)
}

/// A JavaScript exception or rejection in words (`TypeError: Failed to fetch`, a thrown string),
/// the one way the UI turns a `JsValue` error into text.
pub fn js_error_text(e: &wasm_bindgen::JsValue) -> String {
    use wasm_bindgen::JsCast;
    if let Some(e) = e.dyn_ref::<web_sys::DomException>() {
        return format!("{}: {}", e.name(), e.message());
    }
    if let Some(e) = e.dyn_ref::<web_sys::js_sys::Error>() {
        return format!("{}: {}", String::from(e.name()), String::from(e.message()));
    }
    e.as_string().unwrap_or_else(|| "unknown error".into())
}

/// Milliseconds from the browser's monotonic clock.
pub fn now_ms() -> f64 {
    leptos::prelude::window()
        .performance()
        .map_or(0.0, |p| p.now())
}
