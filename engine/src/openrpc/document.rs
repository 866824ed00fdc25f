//! An OpenRPC document, loaded: read by the strict parser (every value keeps its span), checked
//! against the OpenRPC meta-schema, its `$ref`s to `#/…` followed (a dangling one or a cycle is a
//! located error), its methods indexed and every param's and result's schema compiled by `boon`.

use std::collections::{HashMap, HashSet};

use serde_json::{Map, Number, Value};

use crate::json::{escape_token, parse_document, LineIndex, Node, Span, Value as Tree};
use crate::rpc::openrpc::{
    OPENRPC_DOCUMENT_INVALID, OPENRPC_EXAMPLE_INVALID, OPENRPC_METHOD_DUPLICATE,
    OPENRPC_REFERENCE_CYCLE, OPENRPC_REFERENCE_UNRESOLVED, OPENRPC_RESULT_REQUIRED,
    OPENRPC_VERSION_UNKNOWN,
};
use crate::rpc::rules::JSON_SYNTAX;
use crate::rpc::{DocumentSpot, Rule, Violation};

use super::cost::{unfragment, CostModel, TooCostly};
use super::nearest::{Nearest, Suggestions};

/// The base URI the document is known by inside the schema engine: a schema at pointer P is
/// compiled as `urn:openrpc#P`, so `$ref`s between the document's schemas resolve in place.
const BASE: &str = "urn:openrpc";
/// The OpenRPC meta-schema (tests/data/openrpc/README.md says how it differs from upstream's).
const META_SCHEMA: &str = include_str!("meta-schema.json");
const META_BASE: &str = "urn:openrpc-meta-schema";
/// The largest document read (the Starknet API is 141 KB; Ethereum's ~400 KB).
pub const MAX_DOCUMENT_BYTES: usize = 16 << 20;
/// The most methods a document may have, and the most params and results (content descriptors)
/// it may have together: each compiled schema holds kilobytes, so a 16 MiB document of tiny
/// methods would otherwise hold gigabytes.
pub const MAX_METHODS: usize = 10_000;
pub const MAX_DESCRIPTORS: usize = 20_000;
/// The most `$ref`s followed in one chain before it is called a cycle.
const MAX_CHAIN: usize = 64;
/// The versions of the specification a document may follow: those the official 1.3 meta-schema
/// lists (open-rpc/spec `spec/1.3/schema.json`, `properties.openrpc.enum`).
const KNOWN_VERSIONS: [&str; 26] = [
    "1.3.2",
    "1.3.1",
    "1.3.0",
    "1.2.6",
    "1.2.5",
    "1.2.4",
    "1.2.3",
    "1.2.2",
    "1.2.1",
    "1.2.0",
    "1.1.12",
    "1.1.11",
    "1.1.10",
    "1.1.9",
    "1.1.8",
    "1.1.7",
    "1.1.6",
    "1.1.5",
    "1.1.4",
    "1.1.3",
    "1.1.2",
    "1.1.1",
    "1.1.0",
    "1.0.0",
    "1.0.0-rc0",
    "1.0.0-rc1",
];

/// How a method takes its params (`paramStructure`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParamStructure {
    ByName,
    ByPosition,
    Either,
}

/// A param or a result: a content descriptor, its `$ref`s followed.
#[derive(Clone, Debug)]
pub struct Param {
    pub name: String,
    pub required: bool,
    /// Where the descriptor is in the document (after its `$ref`s).
    pub pointer: String,
    /// Where its schema is (the descriptor's pointer + `/schema`).
    pub schema_pointer: String,
    pub(crate) schema: boon::SchemaIndex,
    /// Its schema in the document's [`CostModel`].
    pub(crate) cost: Option<u32>,
}

/// An example pairing of a method: its params' values and its result's, `$ref`s followed.
#[derive(Clone, Debug)]
pub struct Example {
    pub name: String,
    /// `(param name, value)` in the order the pairing lists them.
    pub params: Vec<(String, Value)>,
    pub result: Option<Value>,
}

/// A method of the document.
#[derive(Clone, Debug)]
pub struct Method {
    pub name: String,
    /// Where the method object is (after its `$ref`s), e.g. `/methods/3`.
    pub pointer: String,
    pub param_structure: ParamStructure,
    pub params: Vec<Param>,
    /// `None`: the method is a notification (OpenRPC 1.3: no result).
    pub result: Option<Param>,
    /// The codes of the errors it declares.
    pub errors: Vec<i64>,
    pub examples: Vec<Example>,
}

/// A loaded, checked document.
pub struct OpenRpc {
    value: Value,
    /// The span of every value, found by JSON pointer.
    spans: SpanIndex,
    src: Vec<u8>,
    lines: LineIndex,
    methods: Vec<Method>,
    by_name: HashMap<String, usize>,
    /// The method names by length, for [`OpenRpc::nearest`].
    names: super::nearest::NameIndex,
    schemas: boon::Schemas,
    /// What checking a value against each param's or result's schema costs, bounded first.
    cost: CostModel,
    /// What loading found wrong that does not keep the document from being used (examples that
    /// break their own schemas), located in the document.
    warnings: Vec<Violation>,
}

impl std::fmt::Debug for OpenRpc {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OpenRpc")
            .field("methods", &self.methods.len())
            .finish()
    }
}

/// One error of a value against a schema.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SchemaError {
    /// Where in the value (a JSON pointer from the value).
    pub instance: String,
    /// Where the failing (sub)schema is in the document.
    pub schema: String,
    pub message: String,
}

/// Refuses every URL: a document's schemas are read from the document alone, never fetched.
struct NoLoader;

impl boon::UrlLoader for NoLoader {
    fn load(&self, url: &str) -> Result<Value, Box<dyn std::error::Error>> {
        Err(format!("{url} is outside the document, and nothing is fetched").into())
    }
}

/// The span of every value of a document, found by JSON pointer: a tree of the document's shape,
/// so its memory follows the document's size whatever its depth and the length of its keys
/// (a pointer string per value would hold depth × key length per value).
#[derive(Debug, Default)]
struct SpanIndex {
    /// In document order; the root first.
    entries: Vec<SpanEntry>,
}

#[derive(Debug)]
struct SpanEntry {
    span: Span,
    below: Below,
}

#[derive(Debug)]
enum Below {
    Nothing,
    /// An array's items' entries, in order.
    Items(Box<[u32]>),
    /// An object's members' entries by name (sorted; of a name given twice, the last).
    Members(Box<[(Box<str>, u32)]>),
}

impl SpanIndex {
    fn new(root: &Node<'_>) -> SpanIndex {
        let mut index = SpanIndex::default();
        index.add(root);
        index
    }

    fn add(&mut self, node: &Node<'_>) -> u32 {
        let at = self.entries.len();
        self.entries.push(SpanEntry {
            span: node.span,
            below: Below::Nothing,
        });
        let below = match &node.value {
            Tree::Array(items) => Below::Items(items.iter().map(|item| self.add(item)).collect()),
            Tree::Object(members) => {
                let mut by_name: std::collections::BTreeMap<Box<str>, u32> =
                    std::collections::BTreeMap::new();
                for m in members.iter() {
                    let entry = self.add(&m.value);
                    by_name.insert(Box::from(m.key.as_ref()), entry);
                }
                Below::Members(by_name.into_iter().collect())
            }
            _ => Below::Nothing,
        };
        self.entries[at].below = below;
        at as u32
    }

    /// The span of the value at `pointer`, or of its nearest ancestor that exists.
    fn span(&self, pointer: &str) -> Span {
        let Some(root) = self.entries.first() else {
            return Span::new(0, 0);
        };
        if pointer.is_empty() {
            return root.span;
        }
        let Some(rest) = pointer.strip_prefix('/') else {
            return Span::new(0, 0);
        };
        let mut at = root;
        for token in rest.split('/') {
            let next = match &at.below {
                Below::Items(items) => token
                    .parse::<usize>()
                    .ok()
                    .and_then(|i| items.get(i).copied()),
                Below::Members(members) => {
                    let name = token.replace("~1", "/").replace("~0", "~");
                    members
                        .binary_search_by(|(k, _)| k.as_ref().cmp(name.as_str()))
                        .ok()
                        .map(|i| members[i].1)
                }
                Below::Nothing => None,
            };
            match next.and_then(|i| self.entries.get(i as usize)) {
                Some(entry) => at = entry,
                None => break,
            }
        }
        at.span
    }

    /// The bytes it holds (its entries and the member names they keep).
    #[cfg(test)]
    fn held_bytes(&self) -> usize {
        let names: usize = self
            .entries
            .iter()
            .map(|e| match &e.below {
                Below::Members(members) => members
                    .iter()
                    .map(|(k, _)| k.len() + std::mem::size_of::<(Box<str>, u32)>())
                    .sum(),
                Below::Items(items) => items.len() * 4,
                Below::Nothing => 0,
            })
            .sum();
        self.entries.len() * std::mem::size_of::<SpanEntry>() + names
    }
}

/// The JSON value of a tree.
fn to_value(node: &Node<'_>) -> Value {
    match &node.value {
        Tree::Null => Value::Null,
        Tree::Bool(b) => Value::Bool(*b),
        Tree::Number(text) => text
            .parse::<Number>()
            .ok()
            .or_else(|| text.parse::<f64>().ok().and_then(Number::from_f64))
            .map_or(Value::Null, Value::Number),
        Tree::String(s) => Value::String(s.to_string()),
        Tree::Array(items) => Value::Array(items.iter().map(to_value).collect()),
        Tree::Object(members) => {
            let mut out = Map::new();
            for m in members.iter() {
                out.insert(m.key.to_string(), to_value(&m.value));
            }
            Value::Object(out)
        }
    }
}

/// The JSON value of a message's node (for checking it against a schema).
pub(crate) fn value_of(node: &Node<'_>) -> Value {
    to_value(node)
}

/// `pointer` as a URI fragment (RFC 3986: characters outside the fragment set percent-encoded).
fn fragment(pointer: &str) -> String {
    let mut out = String::with_capacity(pointer.len());
    for b in pointer.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/!$&'()*+,;=:@".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// The (sub)schema location boon names, as a pointer into the document (or into a standalone
/// schema: [`schema_errors`]); `None`: elsewhere.
fn schema_location(url: &str) -> Option<String> {
    url.strip_prefix(BASE)
        .or_else(|| url.strip_prefix(STANDALONE_BASE))
        .and_then(|rest| rest.strip_prefix('#'))
        .map(unfragment)
}

/// The base URI a standalone schema is known by inside the schema engine.
const STANDALONE_BASE: &str = "urn:schema";

/// The errors of `instance` against a schema of its own, outside any document: an MCP tool's
/// `inputSchema` or `outputSchema`, JSON Schema 2020-12 unless its `$schema` names another
/// draft; nothing is fetched (a `$ref` outside the schema makes it unusable). Err: the schema
/// cannot be used, and why.
pub fn schema_errors(schema: &Value, instance: &Value) -> Result<Vec<SchemaError>, String> {
    CompiledSchema::new(schema)?
        .errors(instance)
        .map_err(|e| e.to_string())
}

/// `errors` with those at the same place in the value merged into one ("…; or …": the branches
/// of a `oneOf` or `anyOf` fail at one place), in their first order.
pub fn by_place(errors: Vec<SchemaError>) -> Vec<SchemaError> {
    let mut merged: Vec<SchemaError> = Vec::new();
    // Each place's index in `merged`: one look-up per error, whatever their number.
    let mut index_of: HashMap<String, usize> = HashMap::new();
    for e in errors {
        match index_of.get(&e.instance) {
            Some(&i) => {
                let o = &mut merged[i];
                o.message.push_str("; or ");
                o.message.push_str(&e.message);
            }
            None => {
                index_of.insert(e.instance.clone(), merged.len());
                merged.push(e);
            }
        }
    }
    merged
}

/// A schema of its own (as [`schema_errors`] takes it), compiled once to check many values.
pub struct CompiledSchema {
    schemas: boon::Schemas,
    index: boon::SchemaIndex,
    cost: CostModel,
    cost_root: u32,
}

impl std::fmt::Debug for CompiledSchema {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("CompiledSchema")
    }
}

impl CompiledSchema {
    /// Compiles `schema` (2020-12 unless its `$schema` names another draft; nothing fetched).
    /// Err: it cannot be used, and why.
    pub fn new(schema: &Value) -> Result<CompiledSchema, String> {
        let mut compiler = boon::Compiler::new();
        compiler.use_loader(Box::new(NoLoader));
        compiler.set_default_draft(boon::Draft::V2020_12);
        if let Some((pointer, why)) = super::cost::oversized_pattern(schema) {
            return Err(format!("{why} (at {pointer})"));
        }
        let mut schemas = boon::Schemas::new();
        let index = compiler
            .add_resource(STANDALONE_BASE, schema.clone())
            .and_then(|()| compiler.compile(STANDALONE_BASE, &mut schemas))
            .map_err(|e| e.to_string())?;
        let (cost, cost_root) = CostModel::standalone(schema, STANDALONE_BASE);
        Ok(CompiledSchema {
            schemas,
            index,
            cost,
            cost_root,
        })
    }

    /// Err when no value can be checked against it within the cost budget (its `$ref`s fan out
    /// or loop at one place, or one cannot be followed).
    pub fn usable(&self) -> Result<(), TooCostly> {
        self.cost.usable(self.cost_root)
    }

    /// The errors of `instance` against it; Err, and boon never asked, when checking it would pass
    /// the cost budget ([`super::cost::MAX_SCHEMA_STEPS`]).
    pub fn errors(&self, instance: &Value) -> Result<Vec<SchemaError>, TooCostly> {
        self.cost.check(self.cost_root, instance)?;
        Ok(match self.schemas.validate(instance, self.index) {
            Err(e) => collect_leaves(&e),
            Ok(()) => Vec::new(),
        })
    }
}

/// The most errors of one value collected from boon's error tree (the cost budget bounds the
/// tree; this bounds what is copied out of it).
const MAX_SCHEMA_ERRORS: usize = 10_000;

/// The leaves of boon's error tree ([`leaves`]); when there are more than [`MAX_SCHEMA_ERRORS`],
/// a last error at the value says how many.
fn collect_leaves(e: &boon::ValidationError<'_, '_>) -> Vec<SchemaError> {
    let mut out = Vec::new();
    leaves(e, &mut out);
    if out.len() >= MAX_SCHEMA_ERRORS {
        fn count(e: &boon::ValidationError<'_, '_>) -> usize {
            if e.causes.is_empty() {
                1
            } else {
                e.causes.iter().map(count).sum()
            }
        }
        out.push(SchemaError {
            instance: String::new(),
            schema: String::new(),
            message: format!(
                "{} errors in all; the first {MAX_SCHEMA_ERRORS} are listed",
                count(e)
            ),
        });
    }
    out
}

/// Every leaf of boon's error tree: the errors that name one keyword at one place, each once
/// (in their first order), at most [`MAX_SCHEMA_ERRORS`], added to `out`.
fn leaves(e: &boon::ValidationError<'_, '_>, out: &mut Vec<SchemaError>) {
    leaves_with(e, out, false);
}

/// [`leaves`]; with `at_members`, a member `additionalProperties` refuses is an error of its own
/// at the member (not one at the object holding it).
fn leaves_with(e: &boon::ValidationError<'_, '_>, out: &mut Vec<SchemaError>, at_members: bool) {
    let mut all = Vec::new();
    every_leaf(e, &mut all, at_members);
    // Repeats dropped by a set of those seen, not by a search of the list per leaf.
    let first: Vec<bool> = {
        let mut seen: HashSet<&SchemaError> = HashSet::with_capacity(all.len());
        all.iter().map(|found| seen.insert(found)).collect()
    };
    out.extend(
        all.into_iter()
            .zip(first)
            .filter_map(|(found, first)| first.then_some(found)),
    );
}

fn every_leaf(e: &boon::ValidationError<'_, '_>, out: &mut Vec<SchemaError>, at_members: bool) {
    if out.len() >= MAX_SCHEMA_ERRORS {
        return;
    }
    if let (true, true, boon::ErrorKind::AdditionalProperties { got }) =
        (at_members, e.causes.is_empty(), &e.kind)
    {
        let schema = schema_location(e.schema_url).unwrap_or_else(|| e.schema_url.to_string());
        let schema = if schema.ends_with("/additionalProperties") {
            schema
        } else {
            format!("{schema}/additionalProperties")
        };
        for name in got {
            out.push(SchemaError {
                instance: format!("{}/{}", e.instance_location, escape_token(name)),
                schema: schema.clone(),
                message: format!("unknown member \"{name}\": this object allows no other members"),
            });
        }
        return;
    }
    if e.causes.is_empty() {
        out.push(SchemaError {
            instance: e.instance_location.to_string(),
            schema: schema_location(e.schema_url).unwrap_or_else(|| e.schema_url.to_string()),
            message: e.kind.to_string(),
        });
    }
    for c in &e.causes {
        every_leaf(c, out, at_members);
    }
}

/// The node at `pointer` (relative to `node`), if there is one.
pub(crate) fn node_at<'n, 'a>(node: &'n Node<'a>, pointer: &str) -> Option<&'n Node<'a>> {
    let mut at = node;
    if pointer.is_empty() {
        return Some(at);
    }
    for token in pointer.strip_prefix('/')?.split('/') {
        let token = token.replace("~1", "/").replace("~0", "~");
        at = match &at.value {
            Tree::Object(_) => at.get(&token)?,
            Tree::Array(items) => items.get(token.parse::<usize>().ok()?)?,
            _ => return None,
        };
    }
    Some(at)
}

fn violation(rule: &'static Rule, pointer: &str, span: Span, message: String) -> Violation {
    Violation::new(rule, pointer.to_string(), span, message)
}

/// What loading found wrong: located in the document's text.
#[derive(Debug)]
pub struct LoadError {
    pub violations: Vec<Violation>,
}

impl OpenRpc {
    /// Reads, checks and indexes a document. Every problem is a violation located in `src`.
    pub fn load(src: &[u8]) -> Result<OpenRpc, LoadError> {
        let fail = |v: Vec<Violation>| Err(LoadError { violations: v });
        if src.len() > MAX_DOCUMENT_BYTES {
            return fail(vec![violation(
                &OPENRPC_DOCUMENT_INVALID,
                "",
                Span::new(0, 0),
                format!(
                    "the document is {} bytes; at most {MAX_DOCUMENT_BYTES} are read",
                    src.len()
                ),
            )]);
        }
        let (parsed, end) = match parse_document(src, 0) {
            Ok(done) => done,
            Err(e) => return fail(vec![violation(&JSON_SYNTAX, "", e.span, e.message)]),
        };
        if let Some(extra) = src[end..].iter().position(|b| !b.is_ascii_whitespace()) {
            let at = end + extra;
            return fail(vec![violation(
                &JSON_SYNTAX,
                "",
                Span::new(at, src.len()),
                "a document is one JSON value; more text follows it".into(),
            )]);
        }
        let spans = SpanIndex::new(&parsed.root);
        let value = to_value(&parsed.root);
        let mut doc = OpenRpc {
            value,
            spans,
            src: src.to_vec(),
            lines: LineIndex::new(src),
            methods: Vec::new(),
            by_name: HashMap::new(),
            names: super::nearest::NameIndex::default(),
            schemas: boon::Schemas::new(),
            cost: CostModel::default(),
            warnings: Vec::new(),
        };
        // Before the meta-schema reads the document: its work and memory follow the methods.
        let count = doc
            .value
            .get("methods")
            .and_then(Value::as_array)
            .map_or(0, Vec::len);
        if count > MAX_METHODS {
            let pointer = format!("/methods/{MAX_METHODS}");
            return fail(vec![violation(
                &OPENRPC_DOCUMENT_INVALID,
                &pointer,
                doc.span(&pointer),
                format!("the document has {count} methods; at most {MAX_METHODS} are read"),
            )]);
        }
        // Before the meta-schema reads them: its `format: regex` parses every pattern.
        if let Some((pointer, why)) = super::cost::oversized_pattern(&doc.value) {
            return fail(vec![violation(
                &OPENRPC_DOCUMENT_INVALID,
                &pointer,
                doc.span(&pointer),
                format!("the document's schemas cannot be used: {why}"),
            )]);
        }
        // Every problem of the document's shape and references at once (in the text's order),
        // not the first kind found.
        let mut found = doc.version_errors();
        // An unknown version is said once, by its own rule (not the meta-schema's pattern too).
        let version_said = !found.is_empty();
        found.extend(
            doc.meta_schema_errors()
                .into_iter()
                .filter(|v| !(version_said && &*v.path == "/openrpc")),
        );
        found.extend(doc.reference_errors());
        if !found.is_empty() {
            found.sort_by_key(|v| v.span.start);
            return fail(found);
        }
        let found = doc.index();
        if !found.is_empty() {
            return fail(found);
        }
        Ok(doc)
    }

    /// The span of the value at `pointer`, or of its nearest ancestor that exists.
    pub fn span(&self, pointer: &str) -> Span {
        self.spans.span(pointer)
    }

    /// The place of `pointer` as a pointer with its line and column.
    pub fn spot(&self, pointer: &str) -> DocumentSpot {
        let at = self.lines.position(&self.src, self.span(pointer).start);
        DocumentSpot {
            pointer: pointer.to_string(),
            line: at.line,
            column: at.column,
        }
    }

    /// The value at `pointer`, its `$ref`s to `#/…` followed (the loader made sure they
    /// resolve), with the pointer it was found at.
    pub fn resolved(&self, pointer: &str) -> Option<(&Value, String)> {
        let at = self.resolve(pointer).ok()?;
        Some((self.value.pointer(&at)?, at))
    }

    /// The document as JSON (what `rpc.discover` returns).
    pub fn value(&self) -> &Value {
        &self.value
    }

    pub fn methods(&self) -> &[Method] {
        &self.methods
    }

    /// What loading found wrong that does not keep the document from being used (an example
    /// that breaks its own schemas), located in the document.
    pub fn warnings(&self) -> &[Violation] {
        &self.warnings
    }

    /// `openrpc` names no released version of the specification (the meta-schema checks its type).
    fn version_errors(&self) -> Vec<Violation> {
        match self.value.get("openrpc").and_then(Value::as_str) {
            Some(version) if !KNOWN_VERSIONS.contains(&version) => vec![violation(
                &OPENRPC_VERSION_UNKNOWN,
                "/openrpc",
                self.span("/openrpc"),
                format!(
                    "\"{version}\" is not a released version of the OpenRPC specification (known: 1.0.0-rc0 to 1.3.2)"
                ),
            )],
            _ => Vec::new(),
        }
    }

    /// The document follows a version before 1.3, where every method has a result.
    fn result_required(&self) -> bool {
        self.value
            .get("openrpc")
            .and_then(Value::as_str)
            .is_some_and(|v| {
                v.starts_with("1.0.") || v.starts_with("1.1.") || v.starts_with("1.2.")
            })
    }

    /// The position of the method of this name in [`Self::methods`].
    pub fn method_index(&self, name: &str) -> Option<usize> {
        self.by_name.get(name).copied()
    }

    pub fn method(&self, name: &str) -> Option<&Method> {
        self.by_name.get(name).map(|&i| &self.methods[i])
    }

    /// The document's method names closest to `name` (a typo's likely meaning), at most three,
    /// looked for within what `budget` (one input's) has left.
    pub fn nearest(&self, name: &str, budget: &mut Nearest) -> Suggestions<'_> {
        budget.find(name, &self.names, |i| self.methods[i].name.as_str())
    }

    /// The errors of `instance` against a param's or result's schema; Err, and boon never asked,
    /// when checking it would pass the cost budget ([`super::cost::MAX_SCHEMA_STEPS`]).
    pub fn schema_errors(
        &self,
        param: &Param,
        instance: &Value,
    ) -> Result<Vec<SchemaError>, TooCostly> {
        if let Some(root) = param.cost {
            self.cost.check(root, instance)?;
        }
        Ok(match self.schemas.validate(instance, param.schema) {
            Err(e) => collect_leaves(&e),
            Ok(()) => Vec::new(),
        })
    }

    fn meta_schema_errors(&self) -> Vec<Violation> {
        let meta: Value = match serde_json::from_str(META_SCHEMA) {
            Ok(v) => v,
            Err(e) => {
                return vec![violation(
                    &OPENRPC_DOCUMENT_INVALID,
                    "",
                    Span::new(0, 0),
                    format!("the meta-schema could not be read: {e}"),
                )]
            }
        };
        let mut compiler = boon::Compiler::new();
        compiler.use_loader(Box::new(NoLoader));
        let mut schemas = boon::Schemas::new();
        let index = compiler
            .add_resource(META_BASE, meta)
            .and_then(|()| compiler.compile(META_BASE, &mut schemas));
        let index = match index {
            Ok(i) => i,
            Err(e) => {
                return vec![violation(
                    &OPENRPC_DOCUMENT_INVALID,
                    "",
                    Span::new(0, 0),
                    format!("the meta-schema could not be compiled: {e}"),
                )]
            }
        };
        let mut found = Vec::new();
        if let Err(e) = schemas.validate(&self.value, index) {
            leaves_with(&e, &mut found, true);
        }
        // An object without `$ref` is not meant as a Reference Object: that branch of a "this or
        // a reference" oneOf says nothing about it (it would call every member unknown).
        found.retain(|e| {
            if !e.schema.contains("/definitions/referenceObject") {
                return true;
            }
            let object = match e.schema.ends_with("/additionalProperties") {
                true => e.instance.rsplit_once('/').map_or("", |(parent, _)| parent),
                false => e.instance.as_str(),
            };
            self.value
                .pointer(object)
                .is_none_or(|v| !v.is_object() || v.get("$ref").is_some())
        });
        // One finding per place, and none above another: the meta-schema's oneOf (a reference or
        // a descriptor) gives an error per branch, and the deepest place is what to fix.
        // A place has an error below it when it is a proper prefix (up to a `/`) of another's:
        // every such prefix in a set, each place's own in another (no search per error).
        let above_another: HashSet<&str> = found
            .iter()
            .flat_map(|e| {
                let place = e.instance.as_str();
                place
                    .match_indices('/')
                    .map(move |(slash, _)| &place[..slash])
            })
            .collect();
        let mut named: HashSet<&str> = HashSet::new();
        let mut out: Vec<Violation> = Vec::new();
        // The document read again only when an unknown member is to be located at its key, once
        // for all of them; each object's keys indexed once.
        let mut parsed = None;
        let mut keys_of: HashMap<String, HashMap<String, Span>> = HashMap::new();
        let mut key_span = |pointer: &str| -> Option<Span> {
            let (parent, token) = pointer.rsplit_once('/')?;
            if !keys_of.contains_key(parent) {
                let root = parsed
                    .get_or_insert_with(|| parse_document(&self.src, 0).ok().map(|(p, _)| p))
                    .as_ref()?;
                let keys = match node_at(&root.root, parent).map(|n| &n.value) {
                    Some(Tree::Object(members)) => members
                        .iter()
                        .map(|m| (escape_token(&m.key), m.key_span))
                        .collect(),
                    _ => HashMap::new(),
                };
                keys_of.insert(parent.to_string(), keys);
            }
            keys_of.get(parent)?.get(token).copied()
        };
        for e in &found {
            if above_another.contains(e.instance.as_str()) || !named.insert(&e.instance) {
                continue;
            }
            let keyword = e.schema.rsplit('/').next().unwrap_or_default().to_string();
            // The object the failing part of the meta-schema describes: the section cited.
            let section = e
                .schema
                .split("/definitions/")
                .nth(1)
                .and_then(|rest| rest.split('/').next())
                .and_then(crate::rpc::openrpc::section_of_definition);
            let span = match keyword.as_str() {
                "additionalProperties" => {
                    key_span(&e.instance).unwrap_or_else(|| self.span(&e.instance))
                }
                _ => self.span(&e.instance),
            };
            let mut found = violation(
                &OPENRPC_DOCUMENT_INVALID,
                &e.instance,
                span,
                format!("{} (meta-schema: {keyword})", e.message),
            );
            if let Some(section) = section {
                found.place = Some(Box::new(crate::rpc::DocumentPlace {
                    section: Some(section),
                    ..Default::default()
                }));
            }
            out.push(found);
        }
        out.sort_by_key(|v| v.span.start);
        out
    }

    /// Follows `$ref`s from `pointer` until a value that is not a reference. Err: the pointer of
    /// the `$ref` that fails and why.
    fn resolve(&self, pointer: &str) -> Result<String, (String, &'static Rule, String)> {
        let mut at = pointer.to_string();
        let mut seen = vec![at.clone()];
        for _ in 0..MAX_CHAIN {
            let Some(target) = self
                .value
                .pointer(&at)
                .and_then(|v| v.get("$ref"))
                .and_then(Value::as_str)
            else {
                return Ok(at);
            };
            let here = format!("{at}/$ref");
            let Some(next) = target.strip_prefix('#') else {
                return Err((here, &OPENRPC_REFERENCE_UNRESOLVED, format!("\"{target}\" is outside the document; only references into it (#/…) are followed")));
            };
            let next = unfragment(next);
            if self.value.pointer(&next).is_none() {
                return Err((
                    here,
                    &OPENRPC_REFERENCE_UNRESOLVED,
                    format!("\"{target}\" points at nothing in the document"),
                ));
            }
            if let Some(start) = seen.iter().position(|p| *p == next) {
                // Said once per cycle, whichever of its $refs the walk came in by: at the $ref of
                // its first member in pointer order, the cycle listed from there.
                let cycle = &seen[start..];
                let first = cycle
                    .iter()
                    .enumerate()
                    .min_by(|a, b| a.1.cmp(b.1))
                    .map_or(0, |(i, _)| i);
                let mut round: Vec<&str> = cycle[first..]
                    .iter()
                    .chain(&cycle[..first])
                    .map(String::as_str)
                    .collect();
                let from = round[0].to_string();
                round.push(&from);
                let target = self
                    .value
                    .pointer(&from)
                    .and_then(|v| v.get("$ref"))
                    .and_then(Value::as_str)
                    .unwrap_or(target);
                return Err((
                    format!("{from}/$ref"),
                    &OPENRPC_REFERENCE_CYCLE,
                    format!(
                        "\"{target}\" leads back to itself through $refs only: {}",
                        round.join(" → ")
                    ),
                ));
            }
            seen.push(next.clone());
            at = next;
        }
        Err((
            format!("{at}/$ref"),
            &OPENRPC_REFERENCE_CYCLE,
            format!("more than {MAX_CHAIN} $refs in a row"),
        ))
    }

    /// Every `$ref` of the document that points at nothing, outside it, or round in a circle.
    fn reference_errors(&self) -> Vec<Violation> {
        let mut refs = Vec::new();
        let mut pointer = String::new();
        collect_refs(&self.value, &mut pointer, &mut refs);
        let mut out: Vec<Violation> = Vec::new();
        let mut named: HashSet<String> = HashSet::new();
        for at in refs {
            if let Err((here, rule, message)) = self.resolve(&at) {
                if !named.contains(&here) {
                    out.push(violation(rule, &here, self.span(&here), message));
                    named.insert(here);
                }
            }
        }
        out
    }

    fn content_descriptor(
        &self,
        pointer: &str,
        compiler: &mut boon::Compiler,
        schemas: &mut boon::Schemas,
        out: &mut Vec<Violation>,
    ) -> Option<Param> {
        let at = self.resolve(pointer).ok()?;
        let cd = self.value.pointer(&at)?;
        let schema_pointer = format!("{at}/schema");
        let schema =
            match compiler.compile(&format!("{BASE}#{}", fragment(&schema_pointer)), schemas) {
                Ok(i) => i,
                Err(e) => {
                    out.push(violation(
                        &OPENRPC_DOCUMENT_INVALID,
                        &schema_pointer,
                        self.span(&schema_pointer),
                        format!("the schema cannot be used: {e}"),
                    ));
                    return None;
                }
            };
        Some(Param {
            name: cd
                .get("name")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_string(),
            required: cd.get("required").and_then(Value::as_bool).unwrap_or(false),
            pointer: at,
            schema_pointer,
            schema,
            cost: None,
        })
    }

    /// The example value at `pointer` (an Example Object or a reference to one).
    fn example_value(&self, pointer: &str) -> Option<(String, Value)> {
        let at = self.resolve(pointer).ok()?;
        let example = self.value.pointer(&at)?;
        let name = example
            .get("name")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string();
        Some((name, example.get("value")?.clone()))
    }

    fn index(&mut self) -> Vec<Violation> {
        let mut compiler = boon::Compiler::new();
        compiler.use_loader(Box::new(NoLoader));
        compiler.set_default_draft(boon::Draft::V7);
        let mut out = Vec::new();
        if let Err(e) = compiler.add_resource(BASE, self.value.clone()) {
            out.push(violation(
                &OPENRPC_DOCUMENT_INVALID,
                "",
                Span::new(0, 0),
                format!("the document's schemas cannot be used: {e}"),
            ));
            return out;
        }
        let mut schemas = boon::Schemas::new();
        let count = self
            .value
            .get("methods")
            .and_then(Value::as_array)
            .map_or(0, Vec::len);
        let mut descriptors = 0usize;
        let mut methods = Vec::with_capacity(count);
        for i in 0..count {
            let Ok(at) = self.resolve(&format!("/methods/{i}")) else {
                continue;
            };
            let Some(m) = self.value.pointer(&at) else {
                continue;
            };
            let name = m
                .get("name")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_string();
            if m.get("result").is_none() && self.result_required() {
                out.push(violation(
                    &OPENRPC_RESULT_REQUIRED,
                    &at,
                    self.span(&at),
                    format!(
                        "\"{name}\" has no result; OpenRPC {} requires one (1.3 made it optional: a notification)",
                        self.value.get("openrpc").and_then(Value::as_str).unwrap_or_default()
                    ),
                ));
            }
            let param_structure = match m.get("paramStructure").and_then(Value::as_str) {
                Some("by-name") => ParamStructure::ByName,
                Some("by-position") => ParamStructure::ByPosition,
                _ => ParamStructure::Either,
            };
            let n = m
                .get("params")
                .and_then(Value::as_array)
                .map_or(0, Vec::len);
            descriptors += n + usize::from(m.get("result").is_some());
            if descriptors > MAX_DESCRIPTORS {
                out.push(violation(
                    &OPENRPC_DOCUMENT_INVALID,
                    &at,
                    self.span(&at),
                    format!("the methods up to this one have more than {MAX_DESCRIPTORS} params and results together, the most read"),
                ));
                return out;
            }
            let params = (0..n)
                .filter_map(|j| {
                    self.content_descriptor(
                        &format!("{at}/params/{j}"),
                        &mut compiler,
                        &mut schemas,
                        &mut out,
                    )
                })
                .collect();
            let result = m.get("result").and_then(|_| {
                self.content_descriptor(
                    &format!("{at}/result"),
                    &mut compiler,
                    &mut schemas,
                    &mut out,
                )
            });
            let e = m
                .get("errors")
                .and_then(Value::as_array)
                .map_or(0, Vec::len);
            let errors = (0..e)
                .filter_map(|j| self.resolve(&format!("{at}/errors/{j}")).ok())
                .filter_map(|p| self.value.pointer(&p)?.get("code")?.as_i64())
                .collect();
            let x = m
                .get("examples")
                .and_then(Value::as_array)
                .map_or(0, Vec::len);
            let examples = (0..x)
                .filter_map(|j| {
                    let p = self.resolve(&format!("{at}/examples/{j}")).ok()?;
                    let pairing = self.value.pointer(&p)?;
                    let k = pairing
                        .get("params")
                        .and_then(Value::as_array)
                        .map_or(0, Vec::len);
                    Some(Example {
                        name: pairing
                            .get("name")
                            .and_then(Value::as_str)
                            .unwrap_or_default()
                            .to_string(),
                        params: (0..k)
                            .filter_map(|q| self.example_value(&format!("{p}/params/{q}")))
                            .collect(),
                        result: pairing
                            .get("result")
                            .and_then(|_| self.example_value(&format!("{p}/result")))
                            .map(|(_, v)| v),
                    })
                })
                .collect();
            methods.push(Method {
                name,
                pointer: at,
                param_structure,
                params,
                result,
                errors,
                examples,
            });
        }
        for (i, m) in methods.iter().enumerate() {
            match self.by_name.get(&m.name) {
                Some(&first) => {
                    let at = format!("{}/name", m.pointer);
                    out.push(violation(
                        &OPENRPC_METHOD_DUPLICATE,
                        &at,
                        self.span(&at),
                        format!(
                            "a second method named \"{}\" (the first is {}): method names are unique",
                            m.name, methods[first].pointer
                        ),
                    ));
                }
                None => {
                    self.by_name.insert(m.name.clone(), i);
                }
            }
        }
        self.names = super::nearest::NameIndex::new(methods.iter().map(|m| m.name.as_str()));
        let roots: Vec<&str> = methods
            .iter()
            .flat_map(|m| m.params.iter().chain(&m.result))
            .map(|p| p.schema_pointer.as_str())
            .collect();
        let (cost, cost_roots) = CostModel::new(&self.value, &[BASE], &roots);
        let mut cost_roots = cost_roots.into_iter();
        for p in methods
            .iter_mut()
            .flat_map(|m| m.params.iter_mut().chain(&mut m.result))
        {
            p.cost = cost_roots.next().flatten();
        }
        self.cost = cost;
        self.warnings = self.example_errors(&methods, &schemas);
        self.methods = methods;
        self.schemas = schemas;
        out
    }

    /// Every example param and result that breaks its method's schema (a param matched by name),
    /// and every example param the method has no param of that name for.
    fn example_errors(&self, methods: &[Method], schemas: &boon::Schemas) -> Vec<Violation> {
        let mut out = Vec::new();
        let against = |param: &Param, value: &Value, at: &str, what: &str| {
            let mut errors = Vec::new();
            if let Err(e) = schemas.validate(value, param.schema) {
                leaves(&e, &mut errors);
            }
            by_place(errors)
                .into_iter()
                .map(|e| {
                    let pointer = format!("{at}{}", e.instance);
                    violation(
                        &OPENRPC_EXAMPLE_INVALID,
                        &pointer,
                        self.span(&pointer),
                        format!("{what}: {} (schema {})", e.message, e.schema),
                    )
                })
                .collect::<Vec<_>>()
        };
        for m in methods {
            let by_name: HashMap<&str, &Param> =
                m.params.iter().map(|p| (p.name.as_str(), p)).collect();
            let count = self
                .value
                .pointer(&format!("{}/examples", m.pointer))
                .and_then(Value::as_array)
                .map_or(0, Vec::len);
            for j in 0..count {
                let Ok(pairing) = self.resolve(&format!("{}/examples/{j}", m.pointer)) else {
                    continue;
                };
                let Some(example) = self.value.pointer(&pairing) else {
                    continue;
                };
                let name = example
                    .get("name")
                    .and_then(Value::as_str)
                    .unwrap_or_default();
                let k = example
                    .get("params")
                    .and_then(Value::as_array)
                    .map_or(0, Vec::len);
                // (where, its name, its value) of each example param.
                let given: Vec<(String, &str, &Value)> = (0..k)
                    .filter_map(|q| {
                        let at = self.resolve(&format!("{pairing}/params/{q}")).ok()?;
                        let param = self.value.pointer(&at)?;
                        let name = param
                            .get("name")
                            .and_then(Value::as_str)
                            .unwrap_or_default();
                        Some((at, name, param.get("value")?))
                    })
                    .collect();
                // By name when the method takes them by name or the example names its params;
                // else (an example's own names, e.g. "integerTwo") by position.
                let named = m.param_structure == ParamStructure::ByName
                    || given.iter().all(|(_, n, _)| by_name.contains_key(n));
                for (q, (at, param_name, value)) in given.iter().enumerate() {
                    let param = if named {
                        by_name.get(param_name).copied()
                    } else {
                        m.params.get(q)
                    };
                    match param {
                        Some(p) => out.extend(against(
                            p,
                            value,
                            &format!("{at}/value"),
                            &format!("example \"{name}\" of \"{}\", param \"{}\"", m.name, p.name),
                        )),
                        None => {
                            let here = if named {
                                format!("{at}/name")
                            } else {
                                at.clone()
                            };
                            out.push(violation(
                                &OPENRPC_EXAMPLE_INVALID,
                                &here,
                                self.span(&here),
                                format!(
                                    "example \"{name}\" of \"{}\" gives a param \"{param_name}\" the method does not have (its params: {})",
                                    m.name,
                                    m.params.iter().map(|p| p.name.as_str()).collect::<Vec<_>>().join(", ")
                                ),
                            ));
                        }
                    }
                }
                let (Some(result), Some(_)) = (&m.result, example.get("result")) else {
                    continue;
                };
                let Ok(at) = self.resolve(&format!("{pairing}/result")) else {
                    continue;
                };
                if let Some(value) = self.value.pointer(&at).and_then(|r| r.get("value")) {
                    out.extend(against(
                        result,
                        value,
                        &format!("{at}/value"),
                        &format!("example \"{name}\" of \"{}\", result", m.name),
                    ));
                }
            }
        }
        out
    }
}

/// The pointer of every object holding a string `$ref`.
fn collect_refs(value: &Value, pointer: &mut String, out: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            if map.get("$ref").is_some_and(Value::is_string) {
                out.push(pointer.clone());
            }
            for (k, v) in map {
                let len = pointer.len();
                pointer.push('/');
                pointer.push_str(&escape_token(k));
                collect_refs(v, pointer, out);
                pointer.truncate(len);
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                let len = pointer.len();
                pointer.push('/');
                pointer.push_str(&i.to_string());
                collect_refs(v, pointer, out);
                pointer.truncate(len);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `depth` objects nested, each the one member of its parent under a name of `key_bytes`
    /// letters.
    fn deep_long_keys(depth: usize, key_bytes: usize) -> String {
        let key = "k".repeat(key_bytes);
        let mut src = String::new();
        for _ in 0..depth {
            src.push_str(&format!("{{\"{key}\": "));
        }
        src.push('1');
        src.push_str(&"}".repeat(depth));
        src
    }

    #[test]
    fn the_span_index_holds_memory_in_proportion_to_the_document() {
        let held = |depth: usize| {
            let src = deep_long_keys(depth, 2000);
            let (parsed, _) = parse_document(src.as_bytes(), 0).unwrap();
            let index = SpanIndex::new(&parsed.root);
            // The deepest value is still found by its pointer.
            let pointer = format!("/{}", "k".repeat(2000)).repeat(depth);
            assert_eq!(index.span(&pointer).start, src.len() - depth - 1);
            (index.held_bytes(), src.len())
        };
        let (small, small_src) = held(50);
        let (large, large_src) = held(400);
        // 8 times the document: about 8 times the memory (a pointer per value held 64 times).
        assert!(
            large * small_src < 2 * small * large_src,
            "{small} -> {large}"
        );
        assert!(large < 2 * large_src, "{large} bytes held for {large_src}");
    }
}
