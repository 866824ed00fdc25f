//! The validator under a document: each message of a report checked against the API the
//! document describes, on top of JSON-RPC's own rules (which the report already holds).

use std::collections::{HashMap, HashSet};

use crate::json::{escape_token, parse_document, Direction, Member, Node, Span, Value as Tree};
use crate::rpc::openrpc::*;
use crate::rpc::{Document, DocumentPlace, Kind, Report, Rule, Violation};

use super::document::{by_place, value_of, Method, OpenRpc, Param, ParamStructure};
use super::nearest::{not_searched, Nearest, Suggestions};

/// The error codes JSON-RPC reserves for itself (-32768 to -32000, its own and
/// implementation-defined server errors): any method may answer with them.
const RESERVED_CODES: std::ops::RangeInclusive<i64> = -32768..=-32000;

/// The nodes at many pointers into one value ([`node_at`] for each): every object on the way is
/// indexed by key once (the last of a repeated key, as [`Node::get`] reads it), so that n
/// look-ups in an object of n members cost n, not n².
struct Locator<'n, 'a> {
    root: &'n Node<'a>,
    objects: HashMap<*const Node<'a>, HashMap<&'n str, &'n Node<'a>>>,
}

impl<'n, 'a> Locator<'n, 'a> {
    fn new(root: &'n Node<'a>) -> Self {
        Locator {
            root,
            objects: HashMap::new(),
        }
    }

    fn at(&mut self, pointer: &str) -> Option<&'n Node<'a>> {
        let mut at = self.root;
        if pointer.is_empty() {
            return Some(at);
        }
        for token in pointer.strip_prefix('/')?.split('/') {
            let token = token.replace("~1", "/").replace("~0", "~");
            at = match &at.value {
                Tree::Object(members) => {
                    let by_key = self
                        .objects
                        .entry(std::ptr::from_ref(at))
                        .or_insert_with(|| {
                            members.iter().map(|m| (m.key.as_ref(), &m.value)).collect()
                        });
                    by_key.get(token.as_str()).copied()?
                }
                Tree::Array(items) => items.get(token.parse::<usize>().ok()?)?,
                _ => return None,
            };
        }
        Some(at)
    }
}

fn ordinal(i: usize) -> String {
    let n = i + 1;
    let suffix = match (n % 10, n % 100) {
        (1, x) if x != 11 => "st",
        (2, x) if x != 12 => "nd",
        (3, x) if x != 13 => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// Collects the findings of one message.
struct Findings<'d> {
    doc: &'d OpenRpc,
    out: Vec<Violation>,
}

impl Findings<'_> {
    fn push(
        &mut self,
        rule: &'static Rule,
        path: String,
        span: Span,
        message: String,
        method: Option<&Method>,
        schema: Option<&str>,
    ) {
        let place = DocumentPlace {
            method: method.map(|m| self.doc.spot(&m.pointer)),
            schema: schema.map(|s| self.doc.spot(s)),
            section: None,
        };
        self.out.push(Violation {
            place: (place.method.is_some() || place.schema.is_some()).then(|| Box::new(place)),
            ..Violation::new(rule, path, span, message)
        });
    }

    /// `value` (at `path` in the message) against a param's or result's schema.
    fn against(
        &mut self,
        rule: &'static Rule,
        what: &str,
        param: &Param,
        value: &Node<'_>,
        path: &str,
        method: &Method,
    ) {
        // One finding per place in the value: the branches of a oneOf or anyOf that all fail give
        // an error each, which are read together ("want object; or want string …").
        let found = match self.doc.schema_errors(param, &value_of(value)) {
            Ok(found) => found,
            Err(too_costly) => {
                self.push(
                    &OPENRPC_SCHEMA_TOO_COSTLY,
                    path.to_string(),
                    value.span,
                    format!("{what}: {too_costly}"),
                    Some(method),
                    Some(&param.schema_pointer),
                );
                return;
            }
        };
        let errors = by_place(found);
        let mut locator = Locator::new(value);
        for e in errors {
            let at = locator.at(&e.instance).unwrap_or(value);
            let where_ = if e.instance.is_empty() {
                String::new()
            } else {
                format!(" at {}", e.instance)
            };
            self.push(
                rule,
                format!("{path}{}", e.instance),
                at.span,
                format!("{what}{where_}: {} (schema {})", e.message, e.schema),
                Some(method),
                Some(&e.schema),
            );
        }
    }

    fn call(&mut self, node: &Node<'_>, base: &str, kind: Kind, method: &Method) {
        if kind == Kind::Request && method.result.is_none() {
            let span = node.get("id").map_or(node.span, |n| n.span);
            self.push(&OPENRPC_NOTIFICATION_ONLY, format!("{base}/id"), span,
                format!("\"{}\" has no result in the document, so it is only called as a notification (without an id)", method.name), Some(method), None);
        }
        if kind == Kind::Notification && method.result.is_some() {
            let span = node.get("method").map_or(node.span, |n| n.span);
            self.push(
                &OPENRPC_RESULT_UNHEARD,
                format!("{base}/method"),
                span,
                format!(
                    "\"{}\" has a result in the document, but a notification gets no answer",
                    method.name
                ),
                Some(method),
                None,
            );
        }
        let params_path = format!("{base}/params");
        let params = node.get("params");
        let missing_span = params.map_or(node.span, |p| p.span);
        match params.map(|p| &p.value) {
            Some(Tree::Array(items)) => {
                if method.param_structure == ParamStructure::ByName {
                    self.push(
                        &OPENRPC_PARAMS_BY_NAME,
                        params_path,
                        missing_span,
                        format!(
                            "\"{}\" takes its params by name (an object), not by position",
                            method.name
                        ),
                        Some(method),
                        None,
                    );
                    return;
                }
                for (j, p) in method.params.iter().enumerate() {
                    match items.get(j) {
                        Some(item) => self.against(
                            &OPENRPC_PARAM_INVALID,
                            &format!("param \"{}\"", p.name),
                            p,
                            item,
                            &format!("{params_path}/{j}"),
                            method,
                        ),
                        None if p.required => self.push(
                            &OPENRPC_PARAM_MISSING,
                            params_path.clone(),
                            missing_span,
                            format!(
                                "the {} param, \"{}\", is required and missing ({} given)",
                                ordinal(j),
                                p.name,
                                items.len()
                            ),
                            Some(method),
                            Some(&p.pointer),
                        ),
                        None => {}
                    }
                }
                for (j, item) in items.iter().enumerate().skip(method.params.len()) {
                    self.push(
                        &OPENRPC_PARAM_UNEXPECTED,
                        format!("{params_path}/{j}"),
                        item.span,
                        format!(
                            "\"{}\" takes {} params; this is the {}",
                            method.name,
                            method.params.len(),
                            ordinal(j)
                        ),
                        Some(method),
                        None,
                    );
                }
            }
            Some(Tree::Object(members)) => {
                if method.param_structure == ParamStructure::ByPosition {
                    self.push(
                        &OPENRPC_PARAMS_BY_POSITION,
                        params_path,
                        missing_span,
                        format!(
                            "\"{}\" takes its params by position (an array), not by name",
                            method.name
                        ),
                        Some(method),
                        None,
                    );
                    return;
                }
                // The members by name (the first of a repeated one, as before): one look-up per
                // param, not a search of the members.
                let mut by_name: HashMap<&str, &Member<'_>> = HashMap::new();
                for m in members.iter() {
                    by_name.entry(m.key.as_ref()).or_insert(m);
                }
                let names: HashSet<&str> = method.params.iter().map(|p| p.name.as_str()).collect();
                for p in &method.params {
                    match by_name.get(p.name.as_str()) {
                        Some(m) => self.against(
                            &OPENRPC_PARAM_INVALID,
                            &format!("param \"{}\"", p.name),
                            p,
                            &m.value,
                            &format!("{params_path}/{}", escape_token(&p.name)),
                            method,
                        ),
                        None if p.required => self.push(
                            &OPENRPC_PARAM_MISSING,
                            params_path.clone(),
                            missing_span,
                            format!("the param \"{}\" is required and missing", p.name),
                            Some(method),
                            Some(&p.pointer),
                        ),
                        None => {}
                    }
                }
                let listed: Vec<&str> = method.params.iter().map(|p| p.name.as_str()).collect();
                let listed = if listed.is_empty() {
                    "none".to_string()
                } else {
                    listed.join(", ")
                };
                for m in members.iter().filter(|m| !names.contains(m.key.as_ref())) {
                    self.push(
                        &OPENRPC_PARAM_UNEXPECTED,
                        format!("{params_path}/{}", escape_token(&m.key)),
                        m.key_span,
                        format!(
                            "\"{}\" has no param named \"{}\" (its params: {})",
                            method.name, m.key, listed
                        ),
                        Some(method),
                        None,
                    );
                }
            }
            // No params (or params of another type, which JSON-RPC's rules report).
            _ => {
                if params.is_none() {
                    for (j, p) in method.params.iter().enumerate().filter(|(_, p)| p.required) {
                        self.push(
                            &OPENRPC_PARAM_MISSING,
                            base.to_string(),
                            node.span,
                            format!(
                                "the {} param, \"{}\", is required and the call has no params",
                                ordinal(j),
                                p.name
                            ),
                            Some(method),
                            Some(&p.pointer),
                        );
                    }
                }
            }
        }
    }

    /// The reply to `rpc.discover`: its result is a document, checked as one is loaded (the
    /// meta-schema, its `$ref`s), each finding located in the result.
    fn discovered(&mut self, node: &Node<'_>, base: &str) {
        let Some(result) = node.get("result") else {
            return;
        };
        let text = value_of(result).to_string();
        let Err(e) = OpenRpc::load(text.as_bytes()) else {
            return;
        };
        let mut locator = Locator::new(result);
        for v in e.violations {
            let at = locator.at(&v.path).unwrap_or(result);
            self.push(
                v.rule,
                format!("{base}/result{}", v.path),
                at.span,
                format!("the document rpc.discover returned: {}", v.message),
                None,
                None,
            );
        }
    }

    fn response(&mut self, node: &Node<'_>, base: &str, method: &Method) {
        if let (Some(result), Some(descriptor)) = (node.get("result"), method.result.as_ref()) {
            self.against(
                &OPENRPC_RESULT_INVALID,
                &format!("the result of \"{}\"", method.name),
                descriptor,
                result,
                &format!("{base}/result"),
                method,
            );
        }
        if let Some(code) = node.get("error").and_then(|e| e.get("code")) {
            if let Some(c) = code.as_i64() {
                if !RESERVED_CODES.contains(&c) && !method.errors.contains(&c) {
                    let declared: Vec<String> = method.errors.iter().map(i64::to_string).collect();
                    self.push(
                        &OPENRPC_ERROR_UNDECLARED,
                        format!("{base}/error/code"),
                        code.span,
                        format!(
                            "\"{}\" declares {}; {c} is not among them",
                            method.name,
                            if declared.is_empty() {
                                "no errors".to_string()
                            } else {
                                format!("the errors {}", declared.join(", "))
                            }
                        ),
                        Some(method),
                        Some(&format!("{}/errors", method.pointer)),
                    );
                }
            }
        }
    }
}

/// The id's pairing key: its source text, with the side that sent the request.
pub(crate) fn pairing_key(direction: Option<Direction>, id: &str) -> (u8, String) {
    let side = match direction {
        None => 0,
        Some(Direction::Client) => 1,
        Some(Direction::Server) => 2,
    };
    (side, id.to_string())
}

pub(crate) fn answering(direction: Option<Direction>) -> Option<Direction> {
    direction.map(|d| match d {
        Direction::Client => Direction::Server,
        Direction::Server => Direction::Client,
    })
}

/// Requests waiting for their response, by id and the side that sent them: what pairs a reply
/// with the method it answers, across the messages of one input or of a live session.
#[derive(Debug, Default)]
pub struct Pairing {
    pending: HashMap<(u8, String), usize>,
}

/// The method index a pending `rpc.discover` is kept under (no method of the document has it).
const DISCOVER: usize = usize::MAX;

/// The most requests a [`Pairing`] keeps waiting (a peer that never answers cannot grow it further;
/// replies to requests past it are not checked against a method).
const MAX_PENDING: usize = 65_536;

impl Pairing {
    /// Checks every message of `report` (the report of `src`) against `doc`, adding the findings
    /// to the messages they are about. A response is paired with the request of the same id sent
    /// before it (in a transcript, by the other side), and checked against that request's method.
    /// The suggestions for unknown methods share one budget per call ([`Nearest`]).
    pub fn check(&mut self, doc: &OpenRpc, src: &[u8], report: &mut Report) {
        let mut nearest = Nearest::default();
        each_message(src, report, |node, base, d, direction| {
            message(
                doc,
                node,
                base,
                d,
                direction,
                &mut self.pending,
                &mut nearest,
            );
        });
    }
}

/// Calls `f` with every message of `report` (the report of `src`; a batch's items one by one):
/// its parsed node, its pointer prefix (`/k` in a batch), its report and its direction.
pub(crate) fn each_message(
    src: &[u8],
    report: &mut Report,
    mut f: impl FnMut(&Node<'_>, &str, &mut Document, Option<Direction>),
) {
    for d in &mut report.documents {
        if d.kind == Kind::ParseError {
            continue;
        }
        let Ok((parsed, _)) = parse_document(src, d.span.start) else {
            continue;
        };
        let direction = d.direction;
        if d.kind == Kind::Batch {
            let Tree::Array(nodes) = &parsed.root.value else {
                continue;
            };
            for (k, item) in d.items.iter_mut().enumerate() {
                if let Some(node) = nodes.get(k) {
                    f(node, &format!("/{k}"), item, direction);
                }
            }
        } else {
            f(&parsed.root, "", d, direction);
        }
    }
}

/// [`Pairing::check`] of one whole input (a message, a stream or a transcript).
pub fn check(doc: &OpenRpc, src: &[u8], report: &mut Report) {
    Pairing::default().check(doc, src, report);
}

fn message(
    doc: &OpenRpc,
    node: &Node<'_>,
    base: &str,
    d: &mut Document,
    direction: Option<Direction>,
    pending: &mut HashMap<(u8, String), usize>,
    nearest: &mut Nearest,
) {
    let mut findings = Findings {
        doc,
        out: Vec::new(),
    };
    match d.kind {
        Kind::Request | Kind::Notification => {
            let Some(name) = d.method.as_deref() else {
                return;
            };
            // rpc.* names are JSON-RPC's own (rpc.discover is OpenRPC's), never the API's.
            if name == "rpc.discover" {
                // OpenRPC's own extension: not the reserved-name warning, and its reply is a
                // document, checked against the meta-schema.
                d.violations
                    .retain(|v| !std::ptr::eq(v.rule, &crate::rpc::rules::METHOD_RPC_RESERVED));
                if d.kind == Kind::Request {
                    if let Some(id) = d.id.as_deref().filter(|_| pending.len() < MAX_PENDING) {
                        pending.insert(pairing_key(direction, id), DISCOVER);
                    }
                }
                return;
            }
            if name.starts_with("rpc.") {
                return;
            }
            let Some(index) = doc.method_index(name) else {
                let hint = match doc.nearest(name, nearest) {
                    Suggestions::Found(names) if !names.is_empty() => {
                        format!("nearest: {}", names.join(", "))
                    }
                    Suggestions::Found(_) => {
                        format!("the document has {} methods", doc.methods().len())
                    }
                    Suggestions::NotSearched => format!(
                        "the document has {} methods; {}",
                        doc.methods().len(),
                        not_searched()
                    ),
                };
                let span = node.get("method").map_or(node.span, |n| n.span);
                findings.push(
                    &OPENRPC_METHOD_UNKNOWN,
                    format!("{base}/method"),
                    span,
                    format!("the document has no method \"{name}\" ({hint})"),
                    None,
                    None,
                );
                d.violations.extend(findings.out);
                return;
            };
            let method = &doc.methods()[index];
            findings.call(node, base, d.kind, method);
            if d.kind == Kind::Request {
                if let Some(id) = d.id.as_deref().filter(|_| pending.len() < MAX_PENDING) {
                    pending.insert(pairing_key(direction, id), index);
                }
            }
        }
        Kind::Response => {
            let Some(id) = d.id.as_deref() else { return };
            let Some(index) = pending.remove(&pairing_key(answering(direction), id)) else {
                return;
            };
            if index == DISCOVER {
                findings.discovered(node, base);
            } else {
                findings.response(node, base, &doc.methods()[index]);
            }
        }
        _ => {}
    }
    d.violations.extend(findings.out);
}
