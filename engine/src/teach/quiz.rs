//! The quiz: a bank of items built from the rule catalogue (one per rule at least, from its broken
//! example), valid messages of every kind (the fixed examples), and items of our own; the engine
//! grades every answer and explains it, pointing at the span. No answer is written by hand: the
//! expected answer of each item is what `rpc::check` says of its text.

use super::text::Teaching;
use crate::json::Span;
use crate::rpc::{self, catalogue, Document, Kind, Profile, Rule, Scope, Severity};

/// What a learner can answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Choice {
    Request,
    Notification,
    Response,
    Batch,
    Invalid,
    /// A transcript whose conversation breaks no rule.
    Valid,
}

impl Choice {
    pub const fn as_str(self) -> &'static str {
        match self {
            Choice::Request => "request",
            Choice::Notification => "notification",
            Choice::Response => "response",
            Choice::Batch => "batch",
            Choice::Invalid => "invalid",
            Choice::Valid => "valid",
        }
    }

    /// The answer in a sentence: "it is a request", "it is invalid".
    pub const fn in_words(self) -> &'static str {
        match self {
            Choice::Request => "a request",
            Choice::Notification => "a notification",
            Choice::Response => "a response",
            Choice::Batch => "a batch",
            Choice::Invalid => "invalid",
            Choice::Valid => "valid",
        }
    }

    pub fn parse(s: &str) -> Option<Choice> {
        [
            Choice::Request,
            Choice::Notification,
            Choice::Response,
            Choice::Batch,
            Choice::Invalid,
            Choice::Valid,
        ]
        .into_iter()
        .find(|c| c.as_str() == s)
    }
}

/// One question.
#[derive(Clone, Debug, PartialEq)]
pub struct Item {
    /// Stable id, used by the lessons and in older share links: `rule:<id>`, `valid:<id>`,
    /// `own:<name>` (it names the answer: a share link uses [`Item::share_id`]).
    pub id: String,
    pub text: String,
    pub profile: Profile,
    /// True when the text is a `-->` / `<--` transcript: the answer is then valid or invalid.
    pub transcript: bool,
}

impl Item {
    /// The choices offered for this item.
    pub fn choices(&self) -> &'static [Choice] {
        if self.transcript {
            &[Choice::Valid, Choice::Invalid]
        } else {
            &[
                Choice::Request,
                Choice::Notification,
                Choice::Response,
                Choice::Batch,
                Choice::Invalid,
            ]
        }
    }

    /// The id a share link carries (`q-` and eight hex digits): stable as long as [`Item::id`]
    /// is, and saying nothing of the answer.
    pub fn share_id(&self) -> String {
        share_id(&self.id)
    }

    /// The engine's answer to this item.
    pub fn key(&self) -> AnswerKey {
        answer_key(&self.text, self.profile)
    }
}

/// The right answer, as the engine sees it.
#[derive(Clone, Debug, PartialEq)]
pub struct AnswerKey {
    pub choice: Choice,
    /// The rules broken at error severity (any of them is a right pick when the answer is invalid).
    pub rules: Vec<&'static Rule>,
    /// Where each broken rule is (same order as `rules`).
    pub spans: Vec<Span>,
    /// The warnings (SHOULDs): the message is valid, and pointing at one is a right observation.
    pub warnings: Vec<&'static Rule>,
    /// Where each warning is (same order as `warnings`).
    pub warning_spans: Vec<Span>,
}

fn answer_key(text: &str, profile: Profile) -> AnswerKey {
    let report = rpc::check(text.as_bytes(), profile);
    let mut rules = Vec::new();
    let mut spans = Vec::new();
    let mut warnings = Vec::new();
    let mut warning_spans = Vec::new();
    for v in report.violations() {
        match v.severity {
            Severity::Error => {
                rules.push(v.rule);
                spans.push(v.span);
            }
            Severity::Warning => {
                warnings.push(v.rule);
                warning_spans.push(v.span);
            }
        }
    }
    let choice = if !rules.is_empty() {
        Choice::Invalid
    } else if report.transcript {
        Choice::Valid
    } else {
        match report.documents.first().map(|d: &Document| d.kind) {
            Some(Kind::Request) => Choice::Request,
            Some(Kind::Notification) => Choice::Notification,
            Some(Kind::Response) => Choice::Response,
            Some(Kind::Batch) => Choice::Batch,
            _ => Choice::Invalid,
        }
    };
    AnswerKey {
        choice,
        rules,
        spans,
        warnings,
        warning_spans,
    }
}

/// A learner's answer: the kind, and when it is `Invalid`, optionally the rule they think is
/// broken or the byte offset they clicked in the message.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Answer {
    pub choice: Option<Choice>,
    pub rule: Option<String>,
    pub click: Option<usize>,
}

/// The engine's grade.
#[derive(Clone, Debug, PartialEq)]
pub struct Grade {
    pub correct: bool,
    pub expected: Choice,
    /// For invalid items: whether the picked rule or clicked place was right (None when not given).
    pub located: Option<bool>,
    /// A warning (SHOULD) the learner found on a message that is valid: they answered invalid
    /// and pointed at or picked it. A right observation: graded right, the verdict says "valid, but".
    pub noticed: Option<&'static Rule>,
    /// Why, in words: what the message is, and each broken rule with its summary.
    pub explanation: String,
    /// The spans to point at (the broken rules' places).
    pub spans: Vec<Span>,
}

/// Grades `answer` on `item`; the explanation names each broken rule's requirement in words, from
/// `teaching` (the rules' summaries: [`Teaching::builtin`] natively, the fetched file in the page).
pub fn grade(item: &Item, answer: &Answer, teaching: &Teaching) -> Grade {
    let key = item.key();
    let kind_right = answer.choice == Some(key.choice);
    let located = if key.choice == Choice::Invalid && kind_right {
        match (&answer.rule, answer.click) {
            (Some(rule), _) => Some(key.rules.iter().any(|r| r.id == rule)),
            (None, Some(at)) => Some(
                key.rules
                    .iter()
                    .zip(&key.spans)
                    .any(|(rule, &span)| in_region(accepted_region(&item.text, rule, span), at)),
            ),
            (None, None) => None,
        }
    } else {
        None
    };
    // Answered invalid on a valid message, pointing at (or naming) one of its warnings: the
    // learner saw what is discouraged there; that is right, with the verdict "valid, but".
    let noticed = if key.choice != Choice::Invalid && answer.choice == Some(Choice::Invalid) {
        match (&answer.rule, answer.click) {
            (Some(rule), _) => key.warnings.iter().copied().find(|r| r.id == rule),
            (None, Some(at)) => key
                .warnings
                .iter()
                .zip(&key.warning_spans)
                .find(|(rule, &span)| in_region(accepted_region(&item.text, rule, span), at))
                .map(|(rule, _)| *rule),
            (None, None) => None,
        }
    } else {
        None
    };
    let correct = (kind_right && located != Some(false)) || noticed.is_some();
    let spans = if noticed.is_some() {
        key.warning_spans.clone()
    } else {
        key.spans.clone()
    };
    Grade {
        correct,
        expected: key.choice,
        located,
        noticed,
        explanation: explain(item, &key, teaching),
        spans,
    }
}

/// Whether a click at `at` falls in `region` (an empty region: at its place).
fn in_region(region: Span, at: usize) -> bool {
    region.start <= at && (at < region.end || region.is_empty() && at == region.start)
}

impl Grade {
    /// The grade in one sentence, first thing the learner reads.
    pub fn verdict(&self) -> String {
        match (self.correct, self.located, self.noticed) {
            (true, _, Some(rule)) => format!(
                "Right observation: it is valid, but {} is discouraged (a SHOULD, not a MUST): it is {}.",
                rule.id,
                self.expected.in_words()
            ),
            (true, Some(true), _) => "Right, and you found what is wrong.".to_string(),
            (true, _, _) => "Right.".to_string(),
            (false, Some(false), _) => "It is invalid, yes, but not for that reason.".to_string(),
            (false, _, _) => format!("Not quite: it is {}.", self.expected.in_words()),
        }
    }
}

/// Rules about the conversation (a request left unanswered, a reply to nothing, …): pointing
/// anywhere in the message they concern is pointing at the problem.
const CONVERSATION_RULES: &[&str] = &[
    "request-unanswered",
    "response-unmatched",
    "notification-answered",
    "request-id-reused",
    "batch-reply-mismatch",
    "response-null-id-detectable",
];

/// Where a click counts as finding `rule`'s violation at `span`: the whole message for a rule
/// about the conversation; else the innermost member holding the span (its name and value: a
/// click on `"id"` finds a bad id as well as a click on its value); else the span itself.
pub fn accepted_region(text: &str, rule: &Rule, span: Span) -> Span {
    let stream = crate::json::split_stream(text.as_bytes());
    let Some(parsed) = stream
        .segments
        .iter()
        .find(|seg| seg.span.contains(span))
        .and_then(|seg| seg.parsed.as_ref().ok())
    else {
        return span;
    };
    if CONVERSATION_RULES.contains(&rule.id) {
        return innermost_message(&parsed.root, span).unwrap_or(parsed.root.span);
    }
    innermost_member(&parsed.root, span)
        .or_else(|| batch_element(&parsed.root, span))
        .unwrap_or(span)
}

/// The element of a batch (a root array) holding `span` when it is not a message object: an
/// inner `[…]`, a number.
fn batch_element(root: &crate::json::Node<'_>, span: Span) -> Option<Span> {
    match &root.value {
        crate::json::Value::Array(items) => items
            .iter()
            .find(|n| n.span.contains(span) && !matches!(n.value, crate::json::Value::Object(_)))
            .map(|n| n.span),
        _ => None,
    }
}

/// What a click at byte `at` of `text` points at, for saying it back: the innermost member
/// there (`"method": "b"`), or the value, or the character.
pub fn pointed_at(text: &str, at: usize) -> Span {
    let here = Span::new(at, at);
    let stream = crate::json::split_stream(text.as_bytes());
    let found = stream
        .segments
        .iter()
        .find(|seg| seg.span.start <= at && at < seg.span.end)
        .and_then(|seg| seg.parsed.as_ref().ok())
        .and_then(|parsed| {
            innermost_member(&parsed.root, here).or_else(|| batch_element(&parsed.root, here))
        });
    found.unwrap_or_else(|| {
        let end = text[at.min(text.len())..]
            .chars()
            .next()
            .map_or(at, |c| at + c.len_utf8());
        Span::new(at, end)
    })
}

/// Every part of `text` a learner can point at, in document order: each member (name through
/// value) at any depth, and each message that has none (`[]`, `{}`, text that is not JSON). The
/// keyboard's way to point ([`pointed_at`] of a part's start names that part).
pub fn pointable(text: &str) -> Vec<Span> {
    fn members(node: &crate::json::Node<'_>, out: &mut Vec<Span>) {
        match &node.value {
            crate::json::Value::Object(ms) => {
                for m in ms.iter() {
                    out.push(Span::new(m.key_span.start, m.value.span.end));
                    members(&m.value, out);
                }
            }
            crate::json::Value::Array(items) => items.iter().for_each(|n| members(n, out)),
            _ => {}
        }
    }
    let mut out = Vec::new();
    for seg in &crate::json::split_stream(text.as_bytes()).segments {
        let before = out.len();
        if let Ok(parsed) = &seg.parsed {
            if let crate::json::Value::Array(items) = &parsed.root.value {
                // A batch element that is not a message object (`1`, an inner `[…]`) is a part
                // of its own: the mistake may be that very element.
                for n in items.iter() {
                    if !matches!(n.value, crate::json::Value::Object(_)) {
                        out.push(n.span);
                    }
                    members(n, &mut out);
                }
            } else {
                members(&parsed.root, &mut out);
            }
        }
        if out.len() == before {
            out.push(seg.span);
        }
    }
    out
}

/// The smallest member (name through value) whose text holds `span`.
fn innermost_member(node: &crate::json::Node<'_>, span: Span) -> Option<Span> {
    let children: Vec<(&crate::json::Node<'_>, Option<Span>)> = match &node.value {
        crate::json::Value::Object(members) => members
            .iter()
            .map(|m| {
                (
                    &m.value,
                    Some(Span::new(m.key_span.start, m.value.span.end)),
                )
            })
            .collect(),
        crate::json::Value::Array(items) => items.iter().map(|n| (n, None)).collect(),
        _ => return None,
    };
    children.into_iter().find_map(|(child, member)| {
        let whole = member.unwrap_or(child.span);
        if !whole.contains(span) {
            return None;
        }
        innermost_member(child, span).or(member)
    })
}

/// The message (an object at the root or in a batch) whose text holds `span`.
fn innermost_message(node: &crate::json::Node<'_>, span: Span) -> Option<Span> {
    match &node.value {
        crate::json::Value::Array(items) => {
            items.iter().find(|n| n.span.contains(span)).map(|n| n.span)
        }
        _ => node.span.contains(span).then_some(node.span),
    }
}

fn explain(item: &Item, key: &AnswerKey, teaching: &Teaching) -> String {
    let mut out = match key.choice {
        Choice::Request => "It is a request: it has a method and an id, so it expects a response with that id.".to_string(),
        Choice::Notification => "It is a notification: it has a method but no id, so no response comes back, not even an error.".to_string(),
        Choice::Response => "It is a response: it carries exactly one of result and error, and the id of the request it answers.".to_string(),
        Choice::Batch => "It is a batch: an array of messages sent together, each answered (or not) on its own.".to_string(),
        Choice::Valid => "The conversation is valid: every request is answered once, with its own id.".to_string(),
        Choice::Invalid => {
            let mut s = String::from("It is invalid, it breaks a MUST:");
            let mut seen = Vec::new();
            for r in &key.rules {
                if !seen.contains(&r.id) {
                    seen.push(r.id);
                    s.push_str(&format!(" {} ({})", teaching.summary(r.id), r.id));
                }
            }
            s
        }
    };
    if !key.warnings.is_empty() {
        out.push_str(if key.choice == Choice::Invalid {
            " Also discouraged (a SHOULD, a warning):"
        } else {
            " Valid, but discouraged (a SHOULD, a warning: not a MUST, so the message is not invalid):"
        });
        let mut seen = Vec::new();
        for r in &key.warnings {
            if !seen.contains(&r.id) {
                seen.push(r.id);
                out.push_str(&format!(" {} ({})", teaching.summary(r.id), r.id));
            }
        }
    }
    if let Profile::Mcp(v) = item.profile {
        out.push_str(&format!(" (Checked as MCP {v}.)"));
    }
    out
}

/// The profile a rule's examples are checked under (its reference "try it" and its quiz items).
pub fn profile_of(rule: &Rule) -> Profile {
    match rule.scope {
        // OpenRPC rules need their document; JSON-RPC's rules hold under it.
        Scope::JsonRpc | Scope::OpenRpc => Profile::JsonRpc,
        Scope::Mcp => Profile::Mcp(rule.example_version.unwrap_or_default()),
    }
}

/// The whole bank: one item per rule (its broken example), the fixed examples, and our own.
/// Texts appear once; order is stable (catalogue order, then ours). The rules' examples are
/// `teaching`'s ([`super::text`]).
pub fn bank(teaching: &Teaching) -> Vec<Item> {
    let mut items: Vec<Item> = Vec::new();
    let mut push = |id: String, text: &str, profile: Profile| {
        if items.iter().any(|i| i.text == text && i.profile == profile) {
            return;
        }
        let transcript = rpc::check(text.as_bytes(), profile).transcript;
        items.push(Item {
            id,
            text: text.to_string(),
            profile,
            transcript,
        });
    };
    for rule in catalogue::all() {
        if let Some(t) = teaching.rule(rule.id) {
            push(format!("rule:{}", rule.id), &t.bad, profile_of(rule));
        }
    }
    for rule in catalogue::all() {
        if let Some(t) = teaching.rule(rule.id) {
            push(format!("valid:{}", rule.id), &t.good, profile_of(rule));
        }
    }
    for own in &teaching.quiz {
        push(
            format!("own:{}", own.name),
            &own.text,
            own.version.map_or(Profile::JsonRpc, Profile::Mcp),
        );
    }
    items
}

/// The item with this id: its share id (`q-…`) or its own id (older links: `rule:…`, `own:…`).
pub fn item(id: &str, teaching: &Teaching) -> Option<Item> {
    bank(teaching)
        .into_iter()
        .find(|i| i.id == id || id.starts_with("q-") && i.share_id() == id)
}

/// The share id of the item `id`: `q-` and the FNV-1a hash of the id, 32 bits in hex.
fn share_id(id: &str) -> String {
    let mut h: u32 = 0x811c_9dc5;
    for b in id.bytes() {
        h ^= u32::from(b);
        h = h.wrapping_mul(0x0100_0193);
    }
    // Eight hex digits by hand: `{:08x}` alone pulled the hex formatter into the web build.
    let mut id = String::from("q-");
    for shift in (0..8).rev() {
        id.push(char::from(
            b"0123456789abcdef"[(h >> (shift * 4)) as usize & 0xf],
        ));
    }
    id
}

/// The learner's own message as an item ("is this right?"): graded like any other.
pub fn custom(text: &str, profile: Profile) -> Item {
    let transcript = rpc::check(text.as_bytes(), profile).transcript;
    Item {
        id: "custom".to_string(),
        text: text.to_string(),
        profile,
        transcript,
    }
}

/// `text` cut into runs, those inside `spans` marked (an empty span marks the character after
/// it), for showing where a message is broken.
pub fn marked(text: &str, spans: &[Span]) -> Vec<(String, bool)> {
    let mut hit = vec![false; text.len()];
    for s in spans {
        let start = s.start.min(text.len());
        let mut end = s.end.clamp(start, text.len());
        if start == end {
            end = text[start..]
                .chars()
                .next()
                .map_or(end, |c| end + c.len_utf8());
        }
        hit[start..end].iter_mut().for_each(|h| *h = true);
    }
    let mut out: Vec<(String, bool)> = Vec::new();
    for (i, c) in text.char_indices() {
        match out.last_mut() {
            Some((run, m)) if *m == hit[i] => run.push(c),
            _ => out.push((c.to_string(), hit[i])),
        }
    }
    out
}

/// A shuffled order of `n` items from a seed (xorshift; the same seed gives the same order), so
/// questions vary and a shared set reproduces.
pub fn order(n: usize, seed: u64) -> Vec<usize> {
    let mut idx: Vec<usize> = (0..n).collect();
    let mut s = seed | 1;
    for i in (1..n).rev() {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        idx.swap(i, (s % (i as u64 + 1)) as usize);
    }
    idx
}
