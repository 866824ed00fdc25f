//! The rule catalogue checks itself: every rule's broken example triggers exactly that rule, and
//! its fixed example triggers none. Ids are unique, kebab-case, and every declared rule is listed.
// A native test (tests/web.rs holds the ones that run in the browser): left out of a wasm32
// build, so `cargo build --tests --target wasm32-unknown-unknown` builds.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::BTreeSet;

use jsonrpc_playground::openrpc::{self, OpenRpc};
use jsonrpc_playground::rpc::{self, catalogue, McpVersion, Profile, Scope};

fn profile_of(rule: &catalogue::Rule) -> Profile {
    match rule.scope {
        Scope::JsonRpc | Scope::OpenRpc => Profile::JsonRpc,
        Scope::Mcp => Profile::Mcp(rule.example_version.unwrap_or_default()),
    }
}

/// The rules one of `rule`'s examples hits: checked under the rule's profile, or (an OpenRPC
/// rule) under its document.
fn rules_hit(rule: &catalogue::Rule, example: &str) -> BTreeSet<&'static str> {
    if rule.scope == Scope::OpenRpc {
        return openrpc_rules_hit(rule, example);
    }
    rpc::check(example.as_bytes(), profile_of(rule))
        .violations()
        .map(|v| v.rule.id)
        .collect()
}

/// Every rule: the message rules, then the OpenRPC ones.
fn every_rule() -> impl Iterator<Item = &'static catalogue::Rule> {
    catalogue::all().chain(catalogue::openrpc())
}

#[test]
fn every_broken_example_triggers_exactly_its_rule() {
    let mut wrong = Vec::new();
    for rule in every_rule() {
        let hit = rules_hit(rule, rule.bad);
        if hit != BTreeSet::from([rule.id]) {
            wrong.push(format!(
                "{}: bad example triggers {hit:?}\n    {}",
                rule.id, rule.bad
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn every_fixed_example_is_clean() {
    let mut wrong = Vec::new();
    for rule in every_rule() {
        let hit = rules_hit(rule, rule.good);
        if !hit.is_empty() {
            wrong.push(format!(
                "{}: good example triggers {hit:?}\n    {}",
                rule.id, rule.good
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn ids_are_unique_and_kebab_case() {
    let mut seen = BTreeSet::new();
    for rule in every_rule() {
        assert!(seen.insert(rule.id), "duplicate rule id {}", rule.id);
        assert!(
            rule.id
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
                && !rule.id.starts_with('-')
                && !rule.id.ends_with('-'),
            "{} is not kebab-case",
            rule.id
        );
        assert!(
            rule.section.url.starts_with("https://"),
            "{} has no link",
            rule.id
        );
        assert!(!rule.summary.is_empty() && !rule.explanation.is_empty());
        assert_eq!(
            rule.scope == Scope::Mcp,
            rule.id.starts_with("mcp-"),
            "{}: MCP rules are named mcp-…",
            rule.id
        );
        assert_eq!(
            rule.scope == Scope::OpenRpc,
            rule.id.starts_with("openrpc-"),
            "{}: OpenRPC rules are named openrpc-…",
            rule.id
        );
    }
}

#[test]
fn every_declared_rule_is_in_the_catalogue() {
    for (file, listed) in [
        ("engine/check/src/rpc/rules.rs", rpc::rules::RULES.len()),
        (
            "engine/check/src/rpc/mcp/rules.rs",
            rpc::mcp::rules::RULES.len(),
        ),
        ("engine/check/src/rpc/openrpc.rs", rpc::openrpc::RULES.len()),
    ] {
        let text =
            std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(file))
                .unwrap();
        let declared = text.matches("\nrule!(").count();
        assert_eq!(
            declared, listed,
            "{file}: {declared} rules declared, {listed} listed in RULES"
        );
    }
}

#[test]
fn default_mcp_version_is_2025_11_25() {
    assert_eq!(McpVersion::default().as_str(), "2025-11-25");
}

/// The rules an OpenRPC example hits: a message rule's example checked under its document; a
/// document rule's example (its `bad` and `good` are documents) loaded.
fn openrpc_rules_hit(rule: &catalogue::Rule, example: &str) -> BTreeSet<&'static str> {
    if rule.example_document.is_empty() {
        return match OpenRpc::load(example.as_bytes()) {
            Ok(doc) => doc.warnings().iter().map(|v| v.rule.id).collect(),
            Err(e) => e.violations.iter().map(|v| v.rule.id).collect(),
        };
    }
    let doc = OpenRpc::load(rule.example_document.as_bytes())
        .unwrap_or_else(|e| panic!("{}: its document does not load: {e:?}", rule.id));
    openrpc::check_messages(&doc, example.as_bytes(), Profile::JsonRpc)
        .violations()
        .map(|v| v.rule.id)
        .collect()
}

#[test]
fn openrpc_rules_are_found_by_id_but_not_listed_with_the_message_rules() {
    for rule in catalogue::openrpc() {
        assert_eq!(catalogue::find(rule.id).map(|r| r.id), Some(rule.id));
        assert!(!catalogue::all().any(|r| r.id == rule.id), "{}", rule.id);
    }
}
