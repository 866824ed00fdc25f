//! `docs/cli.md`, the command line reference, is what clap renders from the `jrpc` definitions
//! (`jsonrpc_playground::cli::reference_markdown`). `CLI_REFERENCE_UPDATE=1 cargo test --test
//! cli_reference` rewrites it.
#![cfg(not(target_arch = "wasm32"))]

use std::path::Path;

const REGENERATE: &str = "CLI_REFERENCE_UPDATE=1 cargo test --test cli_reference";

#[test]
fn docs_cli_md_is_the_generated_reference() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/cli.md");
    let generated = jsonrpc_playground::cli::reference_markdown();
    if std::env::var_os("CLI_REFERENCE_UPDATE").is_some() {
        std::fs::write(&path, &generated).expect("docs/cli.md is writable");
    }
    let on_disk = std::fs::read_to_string(&path).unwrap_or_default();
    if on_disk != generated {
        let first_difference = on_disk
            .lines()
            .zip(generated.lines())
            .position(|(disk, new)| disk != new)
            .unwrap_or_else(|| on_disk.lines().count().min(generated.lines().count()));
        panic!(
            "docs/cli.md is not what the clap definitions render (first difference at line {}); \
             regenerate it with:\n    {REGENERATE}",
            first_difference + 1
        );
    }
}

#[test]
fn the_reference_has_a_section_per_subcommand() {
    let page = jsonrpc_playground::cli::reference_markdown();
    for name in ["check", "serve", "tap", "probe", "completions"] {
        let heading = format!("## `jrpc {name}`");
        assert!(page.contains(&heading), "no {heading} in the reference");
        let usage = format!("Usage: jrpc {name}");
        assert!(page.contains(&usage), "no `{usage}` line in the reference");
    }
}
