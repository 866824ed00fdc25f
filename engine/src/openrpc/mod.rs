//! OpenRPC (<https://spec.open-rpc.org/>): a document describing a JSON-RPC API (its methods,
//! params and results with JSON Schemas, errors, examples) drives the validator. `document`
//! loads and checks the document itself; `messages` checks messages against it. Schemas are
//! checked by `boon` (docs/json-schema-engine.md says why that crate).

pub(crate) mod cost;
pub(crate) mod document;
pub(crate) mod messages;
pub mod mock;
pub mod nearest;

pub use cost::{TooCostly, MAX_SCHEMA_STEPS};
pub use document::{
    by_place, schema_errors, CompiledSchema, Example, LoadError, Method, OpenRpc, Param,
    ParamStructure, SchemaError, MAX_DOCUMENT_BYTES,
};
pub use messages::{check, Pairing};

use crate::rpc::{Profile, Report};

/// Checks `src` (one message, a stream or a transcript) under `profile` and then against `doc`.
pub fn check_messages(doc: &OpenRpc, src: &[u8], profile: Profile) -> Report {
    let mut report = crate::rpc::check(src, profile);
    check(doc, src, &mut report);
    report
}
