//! A small DOM builder for the teaching views. Those views are mostly static text rebuilt whole
//! when their state changes, so they are made with plain web-sys calls instead of generic view
//! types (which cost the wasm several KB per view). Text always goes in as text nodes, never HTML.

use leptos::prelude::document;

/// An element under construction.
pub struct H(pub web_sys::Element);

/// A new `<tag>`.
pub fn h(tag: &str) -> H {
    H(document().create_element(tag).expect("a valid element name"))
}

impl H {
    /// Sets an attribute.
    pub fn a(self, name: &str, value: &str) -> H {
        let _ = self.0.set_attribute(name, value);
        self
    }

    /// Sets a boolean attribute when `on`.
    pub fn flag(self, name: &str, on: bool) -> H {
        if on {
            let _ = self.0.set_attribute(name, "");
        }
        self
    }

    /// Appends text (a text node).
    pub fn t(self, text: &str) -> H {
        let _ = self.0.append_with_str_1(text);
        self
    }

    /// Appends a child element.
    pub fn c(self, child: H) -> H {
        let _ = self.0.append_with_node_1(&child.0);
        self
    }

    /// Appends a child element when there is one.
    pub fn opt(self, child: Option<H>) -> H {
        match child {
            Some(c) => self.c(c),
            None => self,
        }
    }

    /// Appends every child.
    pub fn cs(mut self, children: impl IntoIterator<Item = H>) -> H {
        for c in children {
            self = self.c(c);
        }
        self
    }
}

/// `<tag>text</tag>`.
pub fn ht(tag: &str, text: &str) -> H {
    h(tag).t(text)
}
