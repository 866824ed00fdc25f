//! Read-only markup built from data with plain DOM calls, in one place.
//!
//! Why: every `view!` tree is its own type, and Leptos compiles build, rebuild and unmount code
//! for each one. For the panes that only *show* data (verdict cards, the log, the sequence
//! picture, reference entries), that code was most of the web build (measured by removing one
//! pane at a time: the editor 30 KB, the log 30 KB, the verdicts 14 KB, gzipped). Here a card
//! is a [`Tag`] value, and one non-generic function turns any `Tag` into elements, so a new pane
//! costs its data, not a new copy of the renderer.
//!
//! Rules that keep this safe and simple:
//! - text is only ever set as text (`createTextNode`), attributes with `setAttribute`: nothing a
//!   message holds becomes markup;
//! - a pane owns its host element's children entirely: Leptos renders the host, [`KeyedList`]
//!   (or [`replace`]) fills it from an effect that tracks the data (syncing the DOM outside the
//!   Leptos tree is what effects are for);
//! - interaction goes through one delegated listener on the host, reading `data-*` attributes of
//!   the clicked element (see [`closest_data`]).

use std::collections::HashMap;

use wasm_bindgen::JsCast;
use web_sys::{Document, Element};

const SVG_NS: &str = "http://www.w3.org/2000/svg";

/// An element to build: tag name, attributes, children.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tag {
    name: &'static str,
    svg: bool,
    attrs: Vec<(&'static str, String)>,
    kids: Vec<Kid>,
}

/// A child: an element or text.
#[derive(Clone, Debug, PartialEq)]
pub enum Kid {
    Tag(Tag),
    Text(String),
}

/// An HTML element.
pub fn h(name: &'static str) -> Tag {
    Tag { name, ..Tag::default() }
}

/// An SVG element.
pub fn s(name: &'static str) -> Tag {
    Tag { name, svg: true, ..Tag::default() }
}

impl Tag {
    /// Sets an attribute (text, never markup).
    pub fn attr(mut self, name: &'static str, value: impl Into<String>) -> Tag {
        self.attrs.push((name, value.into()));
        self
    }

    /// Sets an attribute when `value` is `Some`.
    pub fn attr_opt(self, name: &'static str, value: Option<impl Into<String>>) -> Tag {
        match value {
            Some(v) => self.attr(name, v),
            None => self,
        }
    }

    pub fn class(self, value: impl Into<String>) -> Tag {
        self.attr("class", value)
    }

    /// `data-testid`.
    pub fn testid(self, value: &'static str) -> Tag {
        self.attr("data-testid", value)
    }

    /// Appends text.
    pub fn text(mut self, text: impl Into<String>) -> Tag {
        self.kids.push(Kid::Text(text.into()));
        self
    }

    /// Appends an element.
    pub fn child(mut self, tag: Tag) -> Tag {
        self.kids.push(Kid::Tag(tag));
        self
    }

    /// Appends an element when there is one.
    pub fn child_opt(mut self, tag: Option<Tag>) -> Tag {
        if let Some(tag) = tag {
            self.kids.push(Kid::Tag(tag));
        }
        self
    }

    /// Appends elements.
    pub fn children(mut self, tags: impl IntoIterator<Item = Tag>) -> Tag {
        self.kids.extend(tags.into_iter().map(Kid::Tag));
        self
    }

    /// The element, with its subtree (`None` only if the document refuses the tag name, which
    /// for our constant names it does not).
    pub fn build(&self, doc: &Document) -> Option<Element> {
        let el = if self.svg { doc.create_element_ns(Some(SVG_NS), self.name) } else { doc.create_element(self.name) };
        let el = el.ok()?;
        for (name, value) in &self.attrs {
            let _ = el.set_attribute(name, value);
        }
        for kid in &self.kids {
            let node: Option<web_sys::Node> = match kid {
                Kid::Tag(tag) => tag.build(doc).map(Into::into),
                Kid::Text(text) => Some(doc.create_text_node(text).into()),
            };
            if let Some(node) = node {
                let _ = el.append_child(&node);
            }
        }
        Some(el)
    }
}

fn document() -> Document {
    leptos::prelude::document()
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
/// removed, and the order follows the items.
#[derive(Default)]
pub struct KeyedList {
    by_key: HashMap<u64, Element>,
    order: Vec<u64>,
}

impl KeyedList {
    /// Brings `host`'s children in line with `items` (`key`, how to build it when new).
    pub fn patch<'a, T: 'a>(&mut self, host: &Element, items: impl IntoIterator<Item = &'a T>, key: impl Fn(&T) -> u64, build: impl Fn(&T) -> Tag) {
        let doc = document();
        let mut next: HashMap<u64, Element> = HashMap::new();
        let mut order = Vec::new();
        for item in items {
            let k = key(item);
            if next.contains_key(&k) {
                continue;
            }
            let Some(el) = self.by_key.remove(&k).or_else(|| build(item).build(&doc)) else { continue };
            next.insert(k, el);
            order.push(k);
        }
        for (_, gone) in self.by_key.drain() {
            gone.remove();
        }
        // Place in order: walk the wanted order, inserting where the current child differs.
        let mut cursor = host.first_element_child();
        for k in &order {
            let el = &next[k];
            match &cursor {
                Some(c) if c == el => cursor = c.next_element_sibling(),
                _ => {
                    let _ = host.insert_before(el, cursor.as_ref().map(|c| c.unchecked_ref::<web_sys::Node>()));
                }
            }
        }
        self.by_key = next;
        self.order = order;
    }

    /// How many items are shown.
    pub fn len(&self) -> usize {
        self.order.len()
    }

    pub fn is_empty(&self) -> bool {
        self.order.is_empty()
    }
}

/// For a delegated event: the nearest element (from the event's target up) that has attribute
/// `name`, with its value. Stops at `host` (exclusive of anything outside it).
pub fn closest_data(ev: &web_sys::Event, name: &str) -> Option<(Element, String)> {
    let target: Element = ev.target()?.dyn_into().ok()?;
    let el = target.closest(&format!("[{name}]")).ok().flatten()?;
    let value = el.get_attribute(name)?;
    Some((el, value))
}
