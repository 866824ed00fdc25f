//! What checking a value against a schema costs, bounded before `boon` is asked.
//!
//! boon has no step limit: a small schema whose `$ref`s fan out (`L_i = allOf[L_(i-1), L_(i-1)]`)
//! applies 2^n subschemas at one place of the value, and a failing value builds an error tree as
//! large. So each schema is read once into a [`CostModel`]: the subschemas it can apply, in place
//! (`$ref`, `$dynamicRef`, `$recursiveRef`, `allOf`, `anyOf`, `oneOf`, `not`, `if`/`then`/`else`,
//! `dependentSchemas`, `dependencies`) and below (`properties`, `patternProperties`,
//! `additionalProperties`, `unevaluatedProperties`, `propertyNames`, `prefixItems`, `items`,
//! `additionalItems`, `contains`, `unevaluatedItems`). Before a value is validated, the value is
//! walked with the model: at each place, how many applications boon can make there (every branch
//! counted, as if none short-circuits), each weighed by what one costs there (the members or
//! items it loops over, the string bytes a `pattern` or length reads, its own keywords' size, the
//! chain of applications boon walks to find a cycle, the place's depth an error copies). When the
//! sum passes [`MAX_SCHEMA_STEPS`] the walk stops at once and the value is not judged
//! ([`TooCostly`]); otherwise boon runs, and its work and its error tree stay within a constant
//! factor of the sum.
//!
//! An upper bound: a `patternProperties` schema counts for every member (its pattern is not
//! matched here), a `$dynamicRef` for every schema with its anchor. A loop of `$ref`s at one
//! place, or a `$ref` the model cannot follow (into an embedded `$id` resource), makes every value
//! too costly: such a schema is said unusable where it is compiled.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};

use serde_json::Value;

/// The most steps one value's check may take (applications of subschemas, each weighed as above).
pub const MAX_SCHEMA_STEPS: u64 = 1 << 22;

/// A check refused before it ran: checking the value would cost more than [`MAX_SCHEMA_STEPS`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TooCostly {
    /// Why, in a clause: "it takes more than 4194304 steps …".
    pub why: String,
}

impl std::fmt::Display for TooCostly {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "schema too costly to check, not judged: {}", self.why)
    }
}

fn too_many_steps() -> TooCostly {
    TooCostly {
        why: format!(
            "checking this value takes more than {MAX_SCHEMA_STEPS} steps (subschemas applied at each place of the value), the most spent on one value"
        ),
    }
}

/// The longest `pattern` (or `patternProperties` name) compiled, in bytes: the regex engine's
/// parse of a pattern takes memory in proportion to its text (a pattern of a million
/// alternatives, over a gigabyte) before its compiled-size limit applies.
pub const MAX_PATTERN_BYTES: usize = 16 * 1024;
/// The most pattern text one document (or schema) compiles, in bytes.
pub const MAX_PATTERNS_BYTES: usize = 256 * 1024;

/// The first pattern of `doc` longer than [`MAX_PATTERN_BYTES`], or the one at which the patterns
/// pass [`MAX_PATTERNS_BYTES`] together: its JSON pointer and why it is refused.
pub fn oversized_pattern(doc: &Value) -> Option<(String, String)> {
    fn walk<'v>(
        value: &'v Value,
        path: &mut Vec<std::borrow::Cow<'v, str>>,
        total: &mut usize,
    ) -> Option<(String, String)> {
        match value {
            Value::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    path.push(i.to_string().into());
                    let found = walk(item, path, total);
                    path.pop();
                    if found.is_some() {
                        return found;
                    }
                }
                None
            }
            Value::Object(members) => {
                let mut texts: Vec<(&str, &str)> = Vec::new();
                if let Some(Value::String(p)) = members.get("pattern") {
                    texts.push(("pattern", p));
                }
                if let Some(Value::Object(map)) = members.get("patternProperties") {
                    texts.extend(map.keys().map(|k| ("patternProperties", k.as_str())));
                }
                for (keyword, text) in texts {
                    *total += text.len();
                    if text.len() > MAX_PATTERN_BYTES || *total > MAX_PATTERNS_BYTES {
                        let mut pointer = String::new();
                        for token in path.iter().map(|t| t.as_ref()).chain([keyword]) {
                            pointer.push('/');
                            pointer.push_str(&token.replace('~', "~0").replace('/', "~1"));
                        }
                        let why = if text.len() > MAX_PATTERN_BYTES {
                            format!("a pattern of {} bytes is too large to compile (at most {MAX_PATTERN_BYTES})", text.len())
                        } else {
                            format!("the patterns pass {MAX_PATTERNS_BYTES} bytes together, the most compiled")
                        };
                        return Some((pointer, why));
                    }
                }
                for (key, v) in members {
                    if DATA_KEYWORDS.contains(&key.as_str()) {
                        continue;
                    }
                    path.push(key.as_str().into());
                    let found = walk(v, path, total);
                    path.pop();
                    if found.is_some() {
                        return found;
                    }
                }
                None
            }
            _ => None,
        }
    }
    walk(doc, &mut Vec::new(), &mut 0)
}

/// Why a schema can never be checked here, whatever the value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Unusable {
    /// Its `$ref`s (or `allOf`…) lead back to a schema at the same place of the value.
    Loop,
    /// A `$ref` this model cannot follow.
    Unfollowed,
}

impl Unusable {
    fn why(self) -> TooCostly {
        TooCostly {
            why: match self {
                Unusable::Loop => "its $refs loop back to a schema at one place of the value, so no value can be checked".into(),
                Unusable::Unfollowed => "a $ref it holds points outside what the cost check follows (an embedded $id resource or another document), so its cost cannot be bounded".into(),
            },
        }
    }
}

/// One subschema: what applying it costs itself and what it applies.
#[derive(Debug, Default)]
struct Node {
    /// Its own keywords' size (`required`, `enum`, `const`, `type` …), in JSON values.
    own: u64,
    /// Applied at the same place.
    in_place: Vec<u32>,
    /// Applied to the member of this name.
    properties: HashMap<String, u32>,
    /// Applied to every member (`patternProperties` counted as matching every name).
    every_member: Vec<u32>,
    /// Applied to every member's name (as a string).
    property_names: Vec<u32>,
    /// Applied to the item at its position.
    prefix: Vec<u32>,
    /// Applied to every item.
    every_item: Vec<u32>,
    /// How many patterns its `patternProperties` matches each member name against.
    patterns: u64,
    /// A `pattern`, length, `format` or content keyword reads a string whole.
    reads_strings: bool,
    unique_items: bool,
    unusable: Option<Unusable>,
    /// Its position in a depth-first post-order of the in-place edges: a schema comes after every
    /// schema it applies in place.
    post: u32,
}

/// The subschemas of one schema document, as [`check`](CostModel::check) walks them.
#[derive(Debug, Default)]
pub struct CostModel {
    nodes: Vec<Node>,
    /// Per node: the most applications it makes at one place (itself included), saturating.
    fan_out: Vec<u64>,
}

/// Keywords whose values are data, not schemas: `$id`s and anchors inside them are not looked at.
const DATA_KEYWORDS: [&str; 4] = ["const", "enum", "examples", "default"];

/// The number of JSON values in `value` (itself included), saturating.
fn size(value: &Value) -> u64 {
    match value {
        Value::Array(items) => items.iter().fold(1u64, |n, v| n.saturating_add(size(v))),
        Value::Object(members) => members
            .values()
            .fold(1u64, |n, v| n.saturating_add(size(v))),
        _ => 1,
    }
}

/// The anchors of a document: by name, the schemas with that `$anchor` (or draft-07 `$id: "#…"`);
/// the schemas of each `$dynamicAnchor` name; those with `$recursiveAnchor: true`; and whether a
/// schema below the root has an `$id` of its own (a resource the model does not follow).
#[derive(Default)]
struct Anchors<'v> {
    named: HashMap<&'v str, &'v Value>,
    dynamic: HashMap<&'v str, Vec<&'v Value>>,
    recursive: Vec<&'v Value>,
    embedded_ids: bool,
    /// Draft 4 names an `$id` `id`.
    draft4: bool,
}

fn collect_anchors<'v>(value: &'v Value, root: bool, out: &mut Anchors<'v>) {
    match value {
        Value::Object(members) => {
            for key in ["$id", "id"].iter().take(if out.draft4 { 2 } else { 1 }) {
                if let Some(Value::String(id)) = members.get(*key) {
                    if let Some(name) = id.strip_prefix('#') {
                        out.named.insert(name, value);
                    } else if !root {
                        out.embedded_ids = true;
                    }
                }
            }
            if let Some(Value::String(name)) = members.get("$anchor") {
                out.named.insert(name, value);
            }
            if let Some(Value::String(name)) = members.get("$dynamicAnchor") {
                out.named.insert(name, value);
                out.dynamic.entry(name).or_default().push(value);
            }
            if members.get("$recursiveAnchor") == Some(&Value::Bool(true)) {
                out.recursive.push(value);
            }
            for (key, v) in members {
                if !DATA_KEYWORDS.contains(&key.as_str()) {
                    collect_anchors(v, false, out);
                }
            }
        }
        Value::Array(items) => {
            for v in items {
                collect_anchors(v, false, out);
            }
        }
        _ => {}
    }
}

/// Builds a [`CostModel`] over one document.
struct Builder<'v> {
    doc: &'v Value,
    /// The URIs a `$ref` may name the document by (before its `#`).
    names: Vec<String>,
    anchors: Anchors<'v>,
    ids: HashMap<*const Value, u32>,
    queue: Vec<(&'v Value, u32)>,
    nodes: Vec<Node>,
}

impl<'v> Builder<'v> {
    fn id(&mut self, schema: &'v Value) -> u32 {
        let key = schema as *const Value;
        if let Some(&id) = self.ids.get(&key) {
            return id;
        }
        let id = self.nodes.len() as u32;
        self.nodes.push(Node::default());
        self.ids.insert(key, id);
        self.queue.push((schema, id));
        id
    }

    /// The schema a `$ref` names, if the model follows it.
    fn target(&self, reference: &str) -> Option<&'v Value> {
        let (document, fragment) = reference.split_once('#').unwrap_or((reference, ""));
        if !document.is_empty() && !self.names.iter().any(|n| n == document) {
            return None;
        }
        if fragment.is_empty() {
            return Some(self.doc);
        }
        if fragment.starts_with('/') {
            return self.doc.pointer(&unfragment(fragment));
        }
        self.anchors
            .named
            .get(unfragment(fragment).as_str())
            .copied()
    }

    fn read(&mut self, schema: &'v Value, id: u32) {
        let Value::Object(members) = schema else {
            self.nodes[id as usize].own = 1;
            return;
        };
        let mut node = Node {
            own: 1,
            ..Node::default()
        };
        let mut unfollowed = false;
        for (key, value) in members {
            match (key.as_str(), value) {
                ("$ref", Value::String(r)) => match self.target(r) {
                    Some(t) => node.in_place.push(self.id(t)),
                    None => unfollowed = true,
                },
                ("$dynamicRef", Value::String(r)) => {
                    match self.target(r) {
                        Some(t) => node.in_place.push(self.id(t)),
                        None => unfollowed = true,
                    }
                    let name = r.rsplit_once('#').map_or("", |(_, f)| f);
                    let named = self.anchors.dynamic.get(name).cloned().unwrap_or_default();
                    for t in named {
                        node.in_place.push(self.id(t));
                    }
                }
                ("$recursiveRef", Value::String(r)) => {
                    match self.target(r) {
                        Some(t) => node.in_place.push(self.id(t)),
                        None => unfollowed = true,
                    }
                    for t in self.anchors.recursive.clone() {
                        node.in_place.push(self.id(t));
                    }
                }
                ("allOf" | "anyOf" | "oneOf", Value::Array(items)) => {
                    for item in items {
                        node.in_place.push(self.id(item));
                    }
                }
                ("not" | "if" | "then" | "else", _) => node.in_place.push(self.id(value)),
                ("dependentSchemas" | "dependencies", Value::Object(map)) => {
                    for v in map.values() {
                        if v.is_object() || v.is_boolean() {
                            node.in_place.push(self.id(v));
                        } else {
                            node.own = node.own.saturating_add(size(v));
                        }
                    }
                }
                ("properties", Value::Object(map)) => {
                    for (name, v) in map {
                        let t = self.id(v);
                        node.properties.insert(name.clone(), t);
                    }
                }
                ("patternProperties", Value::Object(map)) => {
                    node.patterns = map.len() as u64;
                    for v in map.values() {
                        node.every_member.push(self.id(v));
                    }
                }
                ("additionalProperties" | "unevaluatedProperties", _) => {
                    node.every_member.push(self.id(value))
                }
                ("propertyNames", _) => node.property_names.push(self.id(value)),
                ("prefixItems" | "items", Value::Array(items)) => {
                    for item in items {
                        node.prefix.push(self.id(item));
                    }
                }
                ("items" | "additionalItems" | "contains" | "unevaluatedItems", _) => {
                    node.every_item.push(self.id(value))
                }
                (
                    "pattern" | "minLength" | "maxLength" | "format" | "contentEncoding"
                    | "contentMediaType",
                    _,
                ) => {
                    node.reads_strings = true;
                    node.own = node.own.saturating_add(1);
                }
                ("uniqueItems", Value::Bool(true)) => node.unique_items = true,
                ("required" | "enum" | "const" | "type" | "dependentRequired", v) => {
                    node.own = node.own.saturating_add(size(v))
                }
                _ => {}
            }
        }
        if unfollowed {
            node.unusable = Some(Unusable::Unfollowed);
        }
        self.nodes[id as usize] = node;
    }
}

impl CostModel {
    /// The model of the schemas at `roots` (JSON pointers) in `doc`, which `$ref`s name as `#…`
    /// or by one of `names` (the URIs the schema engine knows the document by). Returns the model
    /// and each root's node.
    pub fn new(doc: &Value, names: &[&str], roots: &[&str]) -> (CostModel, Vec<Option<u32>>) {
        let mut anchors = Anchors {
            draft4: doc
                .get("$schema")
                .and_then(Value::as_str)
                .is_some_and(|s| s.contains("draft-04")),
            ..Anchors::default()
        };
        collect_anchors(doc, true, &mut anchors);
        let mut names: Vec<String> = names.iter().map(|n| n.to_string()).collect();
        for key in ["$id", "id"]
            .iter()
            .take(if anchors.draft4 { 2 } else { 1 })
        {
            if let Some(Value::String(id)) = doc.get(*key) {
                let id = id.split_once('#').map_or(id.as_str(), |(d, _)| d);
                if !id.is_empty() {
                    names.push(id.to_string());
                }
            }
        }
        let embedded_ids = anchors.embedded_ids;
        let mut builder = Builder {
            doc,
            names,
            anchors,
            ids: HashMap::new(),
            queue: Vec::new(),
            nodes: Vec::new(),
        };
        let root_ids: Vec<Option<u32>> = roots
            .iter()
            .map(|p| doc.pointer(p).map(|schema| builder.id(schema)))
            .collect();
        while let Some((schema, id)) = builder.queue.pop() {
            builder.read(schema, id);
        }
        let mut nodes = builder.nodes;
        if embedded_ids {
            // A `#/…` inside an embedded resource is relative to it: not followed here.
            for node in nodes.iter_mut().filter(|n| !n.in_place.is_empty()) {
                node.unusable.get_or_insert(Unusable::Unfollowed);
            }
        }
        let fan_out = order(&mut nodes);
        (CostModel { nodes, fan_out }, root_ids)
    }

    /// The model of a schema of its own (known to the engine as `name`).
    pub fn standalone(schema: &Value, name: &str) -> (CostModel, u32) {
        let (model, roots) = CostModel::new(schema, &[name], &[""]);
        (model, roots.first().copied().flatten().unwrap_or(0))
    }

    /// Err when no value could be checked against `root` within the budget: its in-place
    /// applications alone pass it, or it loops or holds a `$ref` the model cannot follow.
    pub fn usable(&self, root: u32) -> Result<(), TooCostly> {
        let Some(node) = self.nodes.get(root as usize) else {
            return Ok(());
        };
        if let Some(why) = node.unusable {
            return Err(why.why());
        }
        if self.fan_out[root as usize] > MAX_SCHEMA_STEPS {
            return Err(TooCostly {
                why: format!(
                    "it applies more than {MAX_SCHEMA_STEPS} subschemas at one place of a value (its $refs and allOf/anyOf/oneOf fan out), the most spent on one value"
                ),
            });
        }
        Ok(())
    }

    /// Ok when checking `instance` against `root` costs at most [`MAX_SCHEMA_STEPS`]; the work
    /// done here is bounded by the same budget.
    pub fn check(&self, root: u32, instance: &Value) -> Result<(), TooCostly> {
        if self.nodes.get(root as usize).is_none() {
            return Ok(());
        }
        let mut spent = 0u64;
        self.visit(instance, vec![(root, 1)], 0, &mut spent)
    }

    fn visit(
        &self,
        value: &Value,
        incoming: Vec<(u32, u64)>,
        depth: u64,
        spent: &mut u64,
    ) -> Result<(), TooCostly> {
        // What one application costs at this place, beyond the schema's own keywords.
        let (local, string_bytes) = match value {
            Value::Object(members) => {
                let key_bytes = members.keys().map(|k| k.len() as u64).sum::<u64>();
                (members.len() as u64 + key_bytes, key_bytes)
            }
            Value::Array(items) => (items.len() as u64, 0),
            Value::String(s) => (1, s.len() as u64),
            _ => (1, 0),
        };
        // What applying `node` `n` times here costs, `chain` deep in the in-place applications.
        let mut unique_items = false;
        let mut charge = |node: &Node, n: u64, chain: u64| -> Result<(), TooCostly> {
            if let Some(why) = node.unusable {
                return Err(why.why());
            }
            let mut each = node
                .own
                .saturating_add(local)
                .saturating_add(chain)
                .saturating_add(depth);
            if let Value::Object(_) = value {
                each = each.saturating_add(node.patterns.saturating_mul(string_bytes));
            } else if node.reads_strings {
                each = each.saturating_add(string_bytes);
            }
            unique_items |= node.unique_items;
            *spent = spent.saturating_add(n.saturating_mul(each));
            if *spent > MAX_SCHEMA_STEPS {
                return Err(too_many_steps());
            }
            Ok(())
        };
        let mut applied: Vec<(u32, u64)> = Vec::new();
        match incoming.as_slice() {
            // The common case (an item or member under one schema that applies nothing in place).
            &[(id, n)] if self.nodes[id as usize].in_place.is_empty() => {
                charge(&self.nodes[id as usize], n, 1)?;
                applied.push((id, n));
            }
            _ => {
                // Every schema applied here, with how many times: in post-order from the
                // highest, so a schema's count is whole before it passes it on.
                let mut counts: HashMap<u32, (u64, u64)> = HashMap::new();
                let mut heap = BinaryHeap::new();
                for &(id, n) in &incoming {
                    let entry = counts.entry(id).or_insert((0, 1));
                    if entry.0 == 0 {
                        heap.push((self.nodes[id as usize].post, Reverse(id)));
                    }
                    entry.0 = entry.0.saturating_add(n);
                }
                while let Some((_, Reverse(id))) = heap.pop() {
                    let node = &self.nodes[id as usize];
                    let (n, chain) = counts.get(&id).copied().unwrap_or((0, 1));
                    charge(node, n, chain)?;
                    for &next in &node.in_place {
                        let entry = counts.entry(next).or_insert((0, 0));
                        if entry.0 == 0 {
                            heap.push((self.nodes[next as usize].post, Reverse(next)));
                        }
                        entry.0 = entry.0.saturating_add(n);
                        entry.1 = entry.1.max(chain + 1);
                    }
                    applied.push((id, n));
                }
            }
        }
        if unique_items {
            if let Value::Array(_) = value {
                *spent = spent.saturating_add(size(value));
                if *spent > MAX_SCHEMA_STEPS {
                    return Err(too_many_steps());
                }
            }
        }
        match value {
            Value::Object(members) => {
                for (name, member) in members {
                    let mut below = Vec::new();
                    let mut names = Vec::new();
                    for &(id, n) in &applied {
                        let node = &self.nodes[id as usize];
                        if let Some(&t) = node.properties.get(name) {
                            below.push((t, n));
                        }
                        below.extend(node.every_member.iter().map(|&t| (t, n)));
                        names.extend(node.property_names.iter().map(|&t| (t, n)));
                    }
                    if !names.is_empty() {
                        self.visit(&Value::String(name.clone()), names, depth + 1, spent)?;
                    }
                    if !below.is_empty() {
                        self.visit(member, below, depth + 1, spent)?;
                    }
                }
            }
            Value::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    let mut below = Vec::new();
                    for &(id, n) in &applied {
                        let node = &self.nodes[id as usize];
                        if let Some(&t) = node.prefix.get(i) {
                            below.push((t, n));
                        }
                        below.extend(node.every_item.iter().map(|&t| (t, n)));
                    }
                    if !below.is_empty() {
                        self.visit(item, below, depth + 1, spent)?;
                    }
                }
            }
            _ => {}
        }
        Ok(())
    }
}

/// Numbers `nodes` in a depth-first post-order of their in-place edges (iteratively: a chain of
/// `$ref`s may be long), marks the nodes from which a loop of them is reached, and returns each
/// node's fan-out (the applications it makes at one place, itself included; saturating).
fn order(nodes: &mut [Node]) -> Vec<u64> {
    const NEW: u8 = 0;
    const OPEN: u8 = 1;
    const DONE: u8 = 2;
    let mut state = vec![NEW; nodes.len()];
    let mut fan_out = vec![1u64; nodes.len()];
    let mut post = 0u32;
    for start in 0..nodes.len() {
        if state[start] != NEW {
            continue;
        }
        // (node, index of the next in-place edge to follow)
        let mut stack: Vec<(usize, usize)> = vec![(start, 0)];
        state[start] = OPEN;
        while let Some(&mut (at, ref mut next)) = stack.last_mut() {
            if let Some(&to) = nodes[at].in_place.get(*next) {
                *next += 1;
                let to = to as usize;
                match state[to] {
                    NEW => {
                        state[to] = OPEN;
                        stack.push((to, 0));
                    }
                    OPEN => {
                        // A loop: every schema open on the stack reaches it.
                        for &(on, _) in &stack {
                            nodes[on].unusable.get_or_insert(Unusable::Loop);
                        }
                    }
                    _ => {}
                }
                continue;
            }
            stack.pop();
            state[at] = DONE;
            nodes[at].post = post;
            post += 1;
            let mut total = 1u64;
            let mut unusable = nodes[at].unusable;
            for &to in &nodes[at].in_place {
                total = total.saturating_add(fan_out[to as usize]);
                unusable = unusable.or(nodes[to as usize].unusable);
            }
            fan_out[at] = total;
            nodes[at].unusable = unusable;
        }
    }
    fan_out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// `L_0 = {"type": "string"}`, `L_i = {"allOf": [L_(i-1), L_(i-1)]}`: 2^n applications at
    /// one place.
    fn exponential(levels: usize) -> Value {
        let mut defs = serde_json::Map::new();
        defs.insert("L0".into(), json!({"type": "string"}));
        for i in 1..=levels {
            let prev = format!("#/$defs/L{}", i - 1);
            defs.insert(
                format!("L{i}"),
                json!({"allOf": [{"$ref": prev}, {"$ref": prev}]}),
            );
        }
        json!({"$defs": defs, "$ref": format!("#/$defs/L{levels}")})
    }

    #[test]
    fn fan_out_is_counted_without_walking_it() {
        let (model, root) = CostModel::standalone(&exponential(10), "urn:schema");
        // Each level: itself, its two $ref wrappers; L0 once per path.
        assert!(model.fan_out[root as usize] > 1 << 10);
        assert!(model.check(root, &json!("x")).is_ok());
        let (model, root) = CostModel::standalone(&exponential(40), "urn:schema");
        assert!(model.usable(root).is_err());
        assert!(model.check(root, &json!("x")).is_err());
    }

    #[test]
    fn a_loop_at_one_place_is_unusable_and_one_below_is_not() {
        let looped = json!({"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"allOf": [{"$ref": "#/$defs/a"}]}}, "$ref": "#/$defs/a"});
        let (model, root) = CostModel::standalone(&looped, "urn:schema");
        assert!(model.usable(root).is_err());
        let tree = json!({"type": "object", "properties": {"kids": {"type": "array", "items": {"$ref": "#"}}}});
        let (model, root) = CostModel::standalone(&tree, "urn:schema");
        assert!(model.usable(root).is_ok());
        assert!(model
            .check(root, &json!({"kids": [{"kids": []}, {"kids": [{}]}]}))
            .is_ok());
    }

    #[test]
    fn growth_below_is_counted_per_level() {
        // Each level of the value doubles the schemas applied below it.
        let doubling = json!({"$defs": {"n": {"items": {"allOf": [{"$ref": "#/$defs/n"}, {"$ref": "#/$defs/n"}]}}}, "$ref": "#/$defs/n"});
        let (model, root) = CostModel::standalone(&doubling, "urn:schema");
        assert!(model.usable(root).is_ok());
        let mut deep = json!([]);
        for _ in 0..40 {
            deep = json!([deep]);
        }
        assert!(model.check(root, &deep).is_err());
        let mut shallow = json!([]);
        for _ in 0..5 {
            shallow = json!([shallow]);
        }
        assert!(model.check(root, &shallow).is_ok());
    }

    #[test]
    fn a_wide_value_is_counted_by_its_members() {
        let (model, root) =
            CostModel::standalone(&json!({"items": {"type": "integer"}}), "urn:schema");
        assert!(model.check(root, &json!(vec![1; 1000])).is_ok());
        let many = Value::Array(vec![json!(1); MAX_SCHEMA_STEPS as usize]);
        assert!(model.check(root, &many).is_err());
    }
}

/// A URI fragment back to the pointer it encodes (its `%XX` escapes decoded).
pub(super) fn unfragment(fragment: &str) -> String {
    let bytes = fragment.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            let hex = |b: u8| (b as char).to_digit(16);
            if let (Some(h), Some(l)) = (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                out.push((h * 16 + l) as u8);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}
