//! Every normative statement of JSON-RPC 2.0 listed in spec/jsonrpc-2.0-requirements.tsv maps to
//! at least one catalogue rule, and every JSON-RPC rule serves at least one statement.
// A native test (tests/web.rs holds the ones that run in the browser): left out of a wasm32
// build, so `cargo build --tests --target wasm32-unknown-unknown` builds.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::BTreeSet;

use jsonrpc_playground::rpc::{catalogue, Scope};

const REQUIREMENTS: &str = include_str!("../spec/jsonrpc-2.0-requirements.tsv");

#[test]
fn every_requirement_maps_to_existing_rules() {
    let mut lines = 0;
    for line in REQUIREMENTS
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let cols: Vec<&str> = line.split('\t').collect();
        assert_eq!(cols.len(), 5, "five tab-separated columns: {line}");
        assert!(
            [
                "MUST",
                "MUST NOT",
                "REQUIRED",
                "SHOULD",
                "SHOULD NOT",
                "MAY"
            ]
            .contains(&cols[2]),
            "{}: keyword {:?}",
            cols[0],
            cols[2]
        );
        let rules: Vec<&str> = cols[4].split_whitespace().collect();
        assert!(!rules.is_empty(), "{} has no rule", cols[0]);
        for id in rules {
            assert!(catalogue::find(id).is_some(), "{}: no rule {id}", cols[0]);
        }
        lines += 1;
    }
    assert!(lines >= 35, "only {lines} requirements listed");
}

#[test]
fn every_json_rpc_rule_serves_a_requirement() {
    let named: BTreeSet<&str> = REQUIREMENTS
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| l.split('\t').nth(4))
        .flat_map(str::split_whitespace)
        .collect();
    for rule in catalogue::all().filter(|r| r.scope == Scope::JsonRpc) {
        assert!(
            named.contains(rule.id),
            "rule {} is in no requirement line",
            rule.id
        );
    }
}
