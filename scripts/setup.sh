#!/usr/bin/env bash
# Installs the pinned tools. Idempotent: every step checks the installed version first, so a rerun
# costs a few version checks.
#   bash scripts/setup.sh serve   # what serving the site needs: the pinned Rust toolchain and its
#                                 # wasm32 target, trunk, wasm-bindgen-cli, npm packages (wasm-opt)
#   bash scripts/setup.sh test    # that, and the test tools: cargo-fuzz, Chromium, chromedriver
# (npm ci installs every devDependency of package.json in both modes: binaryen's wasm-opt for the
# build, playwright-core and axe-core for the tests; no browser is ever downloaded by npm.)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$ROOT"

mode="${1:-serve}"
case "$mode" in serve | test) ;; *) echo "usage: bash scripts/setup.sh serve|test" >&2; exit 2 ;; esac

say() { printf 'setup: %s\n' "$*"; }
die() { printf 'setup: ERROR: %s\n' "$*" >&2; exit 1; }

command -v rustup >/dev/null || die "rustup not found: install Rust with rustup (https://rustup.rs)"
command -v node >/dev/null || die "node not found: install Node.js >= 20"
command -v npm >/dev/null || die "npm not found: install Node.js >= 20"
[ -n "$WASM_BINDGEN_VERSION" ] || die "no wasm-bindgen in Cargo.lock"

# 1. The toolchain rust-toolchain.toml pins. A machine whose `stable` is that version gets a link
#    to it (nothing to download); another installs it with rustup.
if rustup toolchain list | grep -q "^$RUST_VERSION-"; then
  say "rust $RUST_VERSION: ok"
elif [ "$(rustup run stable rustc --version 2>/dev/null | awk '{print $2}')" = "$RUST_VERSION" ]; then
  say "rust $RUST_VERSION: linking the installed stable toolchain (it is $RUST_VERSION)"
  rustup toolchain link "$RUST_VERSION" "$(rustup run stable rustc --print sysroot)"
else
  say "installing rust $RUST_VERSION (rustup)"
  rustup toolchain install "$RUST_VERSION" --profile minimal
fi
sysroot="$(rustup run "$RUST_VERSION" rustc --print sysroot)"
if [ -d "$sysroot/lib/rustlib/wasm32-unknown-unknown" ]; then
  say "rust target wasm32-unknown-unknown: ok"
else
  say "installing rust target wasm32-unknown-unknown"
  # Into the toolchain the pinned one is (a linked toolchain takes no components of its own).
  rustup target add wasm32-unknown-unknown --toolchain "$(basename "$sysroot")"
fi

# 2. Trunk (0.22 needs a newer rustc).
if [ "$(trunk --version 2>/dev/null)" = "trunk $TRUNK_VERSION" ]; then
  say "trunk $TRUNK_VERSION: ok"
else
  say "installing trunk $TRUNK_VERSION (cargo install, a few minutes)"
  cargo install trunk --version "$TRUNK_VERSION" --locked
fi

# 3. wasm-bindgen-cli (wasm-bindgen and wasm-bindgen-test-runner), same version as the crate.
#    Not --locked: the lockfile shipped with wasm-bindgen-cli does not build with our toolchain.
if [ "$(wasm-bindgen --version 2>/dev/null)" = "wasm-bindgen $WASM_BINDGEN_VERSION" ] &&
  [ "$(wasm-bindgen-test-runner --version 2>/dev/null)" = "wasm-bindgen-test-runner $WASM_BINDGEN_VERSION" ]; then
  say "wasm-bindgen-cli $WASM_BINDGEN_VERSION: ok"
else
  say "installing wasm-bindgen-cli $WASM_BINDGEN_VERSION (cargo install, a few minutes)"
  cargo install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION"
fi

# 4. npm tools, exactly as package-lock.json pins them: binaryen (wasm-opt), playwright-core, axe-core.
stamp="node_modules/.package-lock.json"
if [ -f "$stamp" ] && [ "$stamp" -nt package-lock.json ] && [ "$stamp" -nt package.json ] &&
  wasm-opt --version 2>/dev/null | grep -q "version $WASM_OPT_VERSION" &&
  [ -f node_modules/playwright-core/package.json ]; then
  say "npm packages (binaryen $WASM_OPT_VERSION, playwright-core): ok"
else
  say "installing npm packages (npm ci)"
  npm ci --no-audit --no-fund
  touch "$stamp"
fi
wasm-opt --version | grep -q "version $WASM_OPT_VERSION" ||
  die "wasm-opt on PATH is not version $WASM_OPT_VERSION: $(command -v wasm-opt)"

[ "$mode" = test ] || exit 0

# 5. cargo-fuzz, for scripts/fuzz.sh and the fuzz stage of scripts/test.sh (runs on the pinned
#    stable toolchain via RUSTC_BOOTSTRAP: a test tool, never the shipped build).
CARGO_FUZZ_VERSION=0.13.2
if [ "$(cargo fuzz --version 2>/dev/null)" = "cargo-fuzz $CARGO_FUZZ_VERSION" ]; then
  say "cargo-fuzz $CARGO_FUZZ_VERSION: ok"
else
  say "installing cargo-fuzz $CARGO_FUZZ_VERSION (cargo install, a few minutes)"
  cargo install cargo-fuzz --version "$CARGO_FUZZ_VERSION" --locked
fi

# 6. Chromium and its driver, from apt, only when missing (playwright never downloads a browser).
#    Looked up here, and again after apt-get installs them (scripts/env.sh: resolve_tools).
resolve_tools
if [ -n "${CHROMIUM:-}" ] && [ -n "${CHROMEDRIVER:-}" ]; then
  say "chromium ($CHROMIUM) and chromedriver ($CHROMEDRIVER): ok"
else
  command -v apt-get >/dev/null || die "chromium/chromedriver missing and no apt-get: install them, or set CHROMIUM and CHROMEDRIVER"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  say "installing chromium and chromium-driver (apt-get)"
  $sudo apt-get update
  $sudo apt-get install -y chromium chromium-driver
  resolve_tools
  [ -n "${CHROMIUM:-}" ] && [ -n "${CHROMEDRIVER:-}" ] || die "apt-get installed chromium and chromium-driver, but they are not on PATH: set CHROMIUM and CHROMEDRIVER"
fi
major() { "$1" --version 2>/dev/null | grep -oE '[0-9]+\.[0-9.]+' | head -1 | cut -d. -f1; }
if [ "$(major "$CHROMIUM")" != "$(major "$CHROMEDRIVER")" ]; then
  say "WARNING: chromium $(major "$CHROMIUM") and chromedriver $(major "$CHROMEDRIVER") differ: the wasm tests may not start"
fi
