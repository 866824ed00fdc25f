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

/// `<name>text</name>`.
pub fn ht(name: &'static str, text: impl Into<String>) -> Tag {
    h(name).text(text)
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

    /// Sets a boolean attribute (present, empty) when `on`.
    pub fn flag(self, name: &'static str, on: bool) -> Tag {
        if on {
            self.attr(name, "")
        } else {
            self
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
    pub fn patch<'a, T: 'a>(&mut self, host: &Element, items: impl IntoIterator<Item = &'a T>, key: impl Fn(&T) -> u64, build: impl Fn(&T) -> Tag) {
        let items: Vec<&T> = items.into_iter().collect();
        let keys: Vec<u64> = items.iter().map(|t| key(t)).collect();
        self.patch_keys(host, keys, &|i| build(items[i]));
    }

    /// The work of [`KeyedList::patch`], compiled once: `build(i)` builds the item at `i`.
    fn patch_keys(&mut self, host: &Element, keys: Vec<u64>, build: &dyn Fn(usize) -> Tag) {
        let old = std::mem::take(&mut self.order);
        let head = old.iter().zip(&keys).take_while(|(a, b)| a == b).count();
        let room = old.len().min(keys.len()) - head;
        let tail = old.iter().rev().zip(keys.iter().rev()).take(room).take_while(|(a, b)| a == b).count();
        let (old_mid, new_mid) = (&old[head..old.len() - tail], head..keys.len() - tail);
        let mut kept: Vec<u64> = keys[new_mid.clone()].to_vec();
        kept.sort_unstable();
        for k in old_mid {
            if kept.binary_search(k).is_err() {
                if let Some(el) = self.by_key.remove(k) {
                    el.remove();
                }
            }
        }
        // Everything of the middle goes, in order, before the first element of the tail.
        let anchor: Option<web_sys::Node> = (tail > 0).then(|| self.by_key.get(&old[old.len() - tail]).map(|e| e.clone().into())).flatten();
        let doc = document();
        let mut order = Vec::with_capacity(keys.len());
        order.extend_from_slice(&keys[..head]);
        for i in new_mid {
            let k = keys[i];
            let el = match self.by_key.get(&k) {
                Some(el) => el.clone(),
                None => match build(i).build(&doc) {
                    Some(el) => {
                        self.by_key.insert(k, el.clone());
                        el
                    }
                    None => continue,
                },
            };
            let _ = host.insert_before(&el, anchor.as_ref());
            order.push(k);
        }
        order.extend_from_slice(&keys[keys.len() - tail..]);
        self.order = order;
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
