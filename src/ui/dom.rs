//! Read-only markup built from data with plain DOM calls, in one place.
//!
//! Why: every `view!` tree is its own type, and Leptos compiles build, rebuild and unmount code
//! for each one. For the panes that only *show* data (verdict cards, the log, the sequence
//! picture, reference entries), that code was most of the web build (measured by removing one
//! pane at a time: the editor 30 KB, the log 30 KB, the verdicts 14 KB, gzipped). Here a card
//! is a [`Tag`] value, and one non-generic function turns any `Tag` into elements, so a new pane
//! costs its data, not a new copy of the renderer.
//!
//! The whole page is built this way: Leptos keeps the state (signals, memos, the owner tree that
//! disposes them) and this module keeps the DOM. A control is a [`Tag`] with listeners
//! ([`Tag::on`]); a value shown on the page is bound to its signals with [`bind_text`],
//! [`bind_attr`], [`bind_flag`] or [`bind_value`], each one Leptos effect (syncing the DOM, which
//! is outside the reactive graph, is what effects are for). All bindings share one compiled
//! copy of the effect: a closure is boxed before it reaches Leptos.
//!
//! Rules that keep this safe and simple:
//! - text is only ever set as text (`createTextNode`, `textContent`), attributes with
//!   `setAttribute`: nothing a message holds becomes markup;
//! - a pane owns its host element's children entirely: [`KeyedList`] (or [`replace`]) fills it
//!   from an effect that tracks the data;
//! - interaction inside a list goes through one delegated listener on the host, reading `data-*`
//!   attributes of the clicked element (see [`closest_data`]).

use std::borrow::Cow;
use std::collections::HashMap;
use std::rc::Rc;

use crate::ui::prelude::{on_cleanup, Effect};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{Document, Element, Event, EventTarget};

const SVG_NS: &str = "http://www.w3.org/2000/svg";

/// An event handler (boxed: one compiled listener for every handler).
pub type Handler = Rc<dyn Fn(Event)>;

/// An element to build: tag name, attributes, listeners, children. Boxed: the builder methods
/// take and return it by value, and a pointer is cheaper to move at every call site than the
/// whole description (~1 000 calls build the page).
#[derive(Clone, Default)]
pub struct Tag(Box<TagData>);

#[derive(Clone, Default)]
struct TagData {
    name: &'static str,
    svg: bool,
    attrs: Vec<(&'static str, Text)>,
    on: Vec<(&'static str, Handler)>,
    kids: Vec<Kid>,
}

/// A child: an element to build, text, or a node built already (a component with its bindings).
#[derive(Clone)]
pub enum Kid {
    Tag(Tag),
    Text(Text),
    Node(web_sys::Node),
}

/// Text of an attribute or a text node: a constant is kept as it is (no copy at each call site).
pub type Text = Cow<'static, str>;

/// An HTML element.
pub fn h(name: &'static str) -> Tag {
    Tag(Box::new(TagData {
        name,
        ..TagData::default()
    }))
}

/// An SVG element.
pub fn s(name: &'static str) -> Tag {
    Tag(Box::new(TagData {
        name,
        svg: true,
        ..TagData::default()
    }))
}

impl Tag {
    /// Sets an attribute (text, never markup).
    pub fn attr(mut self, name: &'static str, value: impl Into<Text>) -> Tag {
        self.push_attr(name, value.into());
        self
    }

    #[inline(never)]
    fn push_attr(&mut self, name: &'static str, value: Text) {
        self.0.attrs.push((name, value));
    }

    #[inline(never)]
    fn push_kid(&mut self, kid: Kid) {
        self.0.kids.push(kid);
    }

    pub fn class(self, value: impl Into<Text>) -> Tag {
        self.attr("class", value)
    }

    /// `data-testid`.
    pub fn testid(self, value: &'static str) -> Tag {
        self.attr("data-testid", value)
    }

    /// Appends text.
    pub fn text(mut self, text: impl Into<Text>) -> Tag {
        self.push_kid(Kid::Text(text.into()));
        self
    }

    /// Appends an element.
    pub fn child(mut self, tag: Tag) -> Tag {
        self.push_kid(Kid::Tag(tag));
        self
    }

    /// Appends an element when there is one.
    pub fn child_opt(mut self, tag: Option<Tag>) -> Tag {
        if let Some(tag) = tag {
            self.push_kid(Kid::Tag(tag));
        }
        self
    }

    /// Appends elements.
    pub fn children(mut self, tags: impl IntoIterator<Item = Tag>) -> Tag {
        self.0.kids.extend(tags.into_iter().map(Kid::Tag));
        self
    }

    /// Appends a node that exists already (a component's element, with its bindings).
    pub fn node(mut self, node: impl Into<web_sys::Node>) -> Tag {
        self.push_kid(Kid::Node(node.into()));
        self
    }

    /// Listens to `event` on the element (for a single control; a list delegates to its host).
    pub fn on(mut self, event: &'static str, handler: impl Fn(Event) + 'static) -> Tag {
        self.0.on.push((event, Rc::new(handler)));
        self
    }

    /// The element, built in the page's document.
    pub fn el(&self) -> Element {
        let doc = document();
        match self.build(&doc) {
            Some(el) => el,
            // Only an invalid tag name gets here (ours are constants); a <div> keeps the page up.
            None => doc
                .create_element("div")
                .unwrap_or_else(|_| JsValue::NULL.unchecked_into()),
        }
    }

    /// The element, with its subtree (`None` only if the document refuses the tag name, which
    /// for our constant names it does not).
    pub fn build(&self, doc: &Document) -> Option<Element> {
        let t = &*self.0;
        let el = if t.svg {
            doc.create_element_ns(Some(SVG_NS), t.name)
        } else {
            doc.create_element(t.name)
        };
        let el = el.ok()?;
        for (name, value) in &t.attrs {
            let _ = el.set_attribute(name, value);
        }
        for (event, handler) in &t.on {
            listen_forever(&el, event, handler.clone());
        }
        for kid in &t.kids {
            let node: Option<web_sys::Node> = match kid {
                Kid::Tag(tag) => tag.build(doc).map(Into::into),
                Kid::Text(text) => Some(doc.create_text_node(text).into()),
                Kid::Node(node) => Some(node.clone()),
            };
            if let Some(node) = node {
                let _ = el.append_child(&node);
            }
        }
        Some(el)
    }
}

impl std::fmt::Debug for Tag {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tag")
            .field("name", &self.0.name)
            .field("attrs", &self.0.attrs)
            .field("kids", &self.0.kids.len())
            .finish()
    }
}

pub(crate) fn document() -> Document {
    crate::ui::prelude::document()
}

/// Listens to `event` on an element of the page for as long as the element lives.
pub fn listen_el(el: &EventTarget, event: &'static str, handler: impl Fn(Event) + 'static) {
    listen_forever(el, event, Rc::new(handler));
}

/// Adds a listener that lives as long as the element (the closure is handed to JavaScript).
fn listen_forever(target: &EventTarget, event: &str, handler: Handler) {
    let closure = Closure::<dyn Fn(Event)>::new(move |ev: Event| handler(ev));
    let _ = target.add_event_listener_with_callback(event, closure.as_ref().unchecked_ref());
    closure.forget();
}

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

/// Runs `f` now and again whenever a signal it read changes (one Leptos effect; every binding
/// shares its compiled code because `f` is boxed).
pub fn effect(f: impl Fn() + 'static) {
    let f: Box<dyn Fn()> = Box::new(f);
    Effect::new(move |_| f());
}

/// Keeps `el`'s text equal to `text()`.
pub fn bind_text(el: &Element, text: impl Fn() -> String + 'static) {
    let el = el.clone();
    effect(move || {
        let new = text();
        if el.text_content().as_deref() != Some(new.as_str()) {
            el.set_text_content(Some(&new));
        }
    });
}

/// Keeps attribute `name` of `el` equal to `value()` (absent when `None`).
pub fn bind_attr(el: &Element, name: &'static str, value: impl Fn() -> Option<String> + 'static) {
    let el = el.clone();
    effect(move || {
        let _ = match value() {
            Some(v) => el.set_attribute(name, &v),
            None => el.remove_attribute(name),
        };
    });
}

/// Keeps boolean attribute `name` (`hidden`, `disabled`, `aria-…` flags) present when `on()`.
pub fn bind_flag(el: &Element, name: &'static str, on: impl Fn() -> bool + 'static) {
    bind_attr(el, name, move || on().then(String::new));
}

/// Keeps class `name` on `el` when `on()`.
pub fn bind_class(el: &Element, name: &'static str, on: impl Fn() -> bool + 'static) {
    let el = el.clone();
    effect(move || {
        let _ = el.class_list().toggle_with_force(name, on());
    });
}

/// A string property of a DOM object (`value`, `key`, …).
pub fn prop(obj: &JsValue, name: &str) -> Option<String> {
    js_sys::Reflect::get(obj, &JsValue::from_str(name))
        .ok()?
        .as_string()
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

/// Replaces every child of `host` with `tags`.
pub fn replace(host: &Element, tags: impl IntoIterator<Item = Tag>) {
    host.set_text_content(None);
    let doc = document();
    for el in tags.into_iter().filter_map(|tag| tag.build(&doc)) {
        let _ = host.append_child(&el);
    }
}

/// The children of a host, keyed: an item whose key is still present keeps its element (same key,
/// same content: callers give a new key when the content changes), new keys are built, gone ones
/// removed, and the order follows the items. Keys must be unique.
///
/// An edit usually changes a few items in the middle of a long list (the lines around the
/// caret), so only the stretch between the unchanged head and the unchanged tail is touched: the
/// DOM work is proportional to what changed, the rest is comparing keys.
#[derive(Default)]
pub struct KeyedList {
    by_key: HashMap<u64, Element>,
    order: Vec<u64>,
}

impl KeyedList {
    /// Brings `host`'s children in line with `items` (`key`, how to build it when new).
    pub fn patch<'a, T: 'a>(
        &mut self,
        host: &Element,
        items: impl IntoIterator<Item = &'a T>,
        key: impl Fn(&T) -> u64,
        build: impl Fn(&T) -> Tag,
    ) {
        let items: Vec<&T> = items.into_iter().collect();
        let keys: Vec<u64> = items.iter().map(|t| key(t)).collect();
        self.patch_keys(host, keys, &|i| build(items[i]));
    }

    /// The work of [`KeyedList::patch`], compiled once: `build(i)` builds the item at `i`.
    fn patch_keys(&mut self, host: &Element, keys: Vec<u64>, build: &dyn Fn(usize) -> Tag) {
        let old = std::mem::take(&mut self.order);
        let head = old.iter().zip(&keys).take_while(|(a, b)| a == b).count();
        let room = old.len().min(keys.len()) - head;
        let tail = old
            .iter()
            .rev()
            .zip(keys.iter().rev())
            .take(room)
            .take_while(|(a, b)| a == b)
            .count();
        let (old_mid, new_mid) = (&old[head..old.len() - tail], head..keys.len() - tail);
        // Keys are unique and the head and tail are common to both lists, so the new middle is
        // made of the old middle's elements and new ones: take the old middle out of the map,
        // reuse what comes back, remove what is left over.
        let mut spare: HashMap<u64, Element> = HashMap::new();
        for k in old_mid {
            if let Some(el) = self.by_key.remove(k) {
                spare.insert(*k, el);
            }
        }
        // What the new middle reuses; the rest of the old middle leaves the page first, so the
        // nodes left between head and tail are exactly the reused ones.
        let mut reuse: HashMap<u64, Element> = HashMap::new();
        for &k in &keys[new_mid.clone()] {
            if let Some(el) = spare.remove(&k) {
                reuse.insert(k, el);
            }
        }
        for el in spare.values() {
            el.remove();
        }
        // Then the middle, in order: an element already where it belongs stays (a sliding window
        // of the log moves nothing), any other is inserted at that place.
        let mut next: Option<web_sys::Node> = match head {
            0 => host.first_child(),
            _ => self
                .by_key
                .get(&keys[head - 1])
                .and_then(|e| e.next_sibling()),
        };
        let doc = document();
        let mut order = Vec::with_capacity(keys.len());
        order.extend_from_slice(&keys[..head]);
        for i in new_mid {
            let k = keys[i];
            let el = match reuse.remove(&k) {
                Some(el) => el,
                None => match build(i).build(&doc) {
                    Some(el) => el,
                    None => continue,
                },
            };
            self.by_key.insert(k, el.clone());
            let node: &web_sys::Node = &el;
            if next.as_ref() == Some(node) {
                next = el.next_sibling();
            } else {
                let _ = host.insert_before(&el, next.as_ref());
            }
            order.push(k);
        }
        order.extend_from_slice(&keys[keys.len() - tail..]);
        self.order = order;
    }
}
