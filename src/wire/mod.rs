//! Every type that crosses between the web app's wasm binaries (the page, the views' module, the
//! workers), one module per crossing: what each side says, typed both ways, as serde JSON. Plain
//! data with no Leptos and no DOM, compiled on every target so that its formats are tested
//! natively (tests/wire.rs). How the messages travel (postMessage, the views' events) is the
//! web app's ports; what they mean is the side's that reads them.
//!
//! - [`envelope`]: the one envelope of every request, answer and event between the page (or
//!   the views' module) and a worker: ids pair answers with requests;
//! - [`views`]: the page and its views loaded later;
//! - [`api`]: the page and the API's worker (an OpenRPC document);
//! - [`probe`]: the Probe and its worker (and the API's worker, under a document);
//! - [`link`]: the page and the live link's worker;
//! - [`check`]: the page and its checking worker;
//! - [`mock`]: the page and the mock's worker (the engine's own messages).

pub mod api;
pub mod check;
pub mod envelope;
pub mod link;
pub mod probe;
pub mod views;

/// The page and the mock's worker: the engine's messages, which its native tests cover.
pub mod mock {
    pub use crate::exchange::mock_worker::{MockAnswer, MockRequest, Record, Session};
}

use std::marker::PhantomData;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::value::RawValue;

/// A `T` as JSON that one side passes on without reading it (the page, between the views' module
/// and the API's worker): typed where it is written and where it is read, raw where it only
/// travels, so that the side in between compiles no reader for it.
pub struct Passed<T> {
    json: Box<RawValue>,
    of: PhantomData<fn() -> T>,
}

impl<T: Serialize> Passed<T> {
    /// `value` as it will travel.
    pub fn new(value: &T) -> serde_json::Result<Passed<T>> {
        Ok(Passed::from_raw(serde_json::value::to_raw_value(value)?))
    }
}

impl<T: DeserializeOwned> Passed<T> {
    /// The value, read where it arrives.
    pub fn read(&self) -> serde_json::Result<T> {
        serde_json::from_str(self.json.get())
    }
}

impl<T> Passed<T> {
    /// JSON text said to be a `T` (read by [`Passed::read`] where it arrives).
    pub fn from_raw(json: Box<RawValue>) -> Passed<T> {
        Passed {
            json,
            of: PhantomData,
        }
    }

    /// The JSON text.
    pub fn json(&self) -> &str {
        self.json.get()
    }
}

impl<T> Clone for Passed<T> {
    fn clone(&self) -> Self {
        Passed::from_raw(self.json.clone())
    }
}

impl<T> std::fmt::Debug for Passed<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.json.get())
    }
}

impl<T> PartialEq for Passed<T> {
    fn eq(&self, other: &Self) -> bool {
        self.json.get() == other.json.get()
    }
}

impl<T> Serialize for Passed<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.json.serialize(serializer)
    }
}

impl<'de, T> Deserialize<'de> for Passed<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Box::<RawValue>::deserialize(deserializer).map(Passed::from_raw)
    }
}
