#!/usr/bin/env bash
# Installs the pinned toolchain for the web build and the browser tests. Idempotent: every step
# checks the installed version first, so a rerun costs a few version checks.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$ROOT"

say() { printf 'setup: %s\n' "$*"; }
die() { printf 'setup: ERROR: %s\n' "$*" >&2; exit 1; }

command -v cargo >/dev/null || die "cargo not found: install Rust with rustup (https://rustup.rs)"
command -v node >/dev/null || die "node not found: install Node.js >= 20"
command -v npm >/dev/null || die "npm not found: install Node.js >= 20"
[ -n "$WASM_BINDGEN_VERSION" ] || die "no wasm-bindgen in Cargo.lock"

# 1. The wasm32 target.
if rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
  say "rust target wasm32-unknown-unknown: ok"
else
  say "installing rust target wasm32-unknown-unknown"
  rustup target add wasm32-unknown-unknown
fi

# 1b. The standard library's source, which the release web build compiles with the app
#     (scripts/trunk.sh: -Zbuild-std), and std's own dependencies in cargo's cache: Trunk builds
#     offline, so they must be there before it runs.
if rustup component list --installed 2>/dev/null | grep -q '^rust-src'; then
  say "rust component rust-src: ok"
else
  say "installing rust component rust-src"
  rustup component add rust-src
fi
std_manifest="$(rustc --print sysroot)/lib/rustlib/src/rust/library/Cargo.toml"
if RUSTC_BOOTSTRAP=1 cargo fetch --locked --offline --manifest-path "$std_manifest" >/dev/null 2>&1; then
  say "std's dependencies for -Zbuild-std: ok"
else
  say "fetching std's dependencies for -Zbuild-std (cargo fetch)"
  RUSTC_BOOTSTRAP=1 cargo fetch --locked --manifest-path "$std_manifest"
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

# 4. npm tools, exactly as package-lock.json pins them: binaryen (wasm-opt) and playwright-core.
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

# 4b. cargo-fuzz, for scripts/fuzz.sh and the fuzz stage of scripts/test.sh (runs on stable via RUSTC_BOOTSTRAP).
CARGO_FUZZ_VERSION=0.13.2
if [ "$(cargo fuzz --version 2>/dev/null)" = "cargo-fuzz $CARGO_FUZZ_VERSION" ]; then
  say "cargo-fuzz $CARGO_FUZZ_VERSION: ok"
else
  say "installing cargo-fuzz $CARGO_FUZZ_VERSION (cargo install, a few minutes)"
  cargo install cargo-fuzz --version "$CARGO_FUZZ_VERSION" --locked
fi

# 5. Chromium and its driver, from apt, only when missing (playwright never downloads a browser).
if [ -n "$CHROMIUM" ] && [ -n "$CHROMEDRIVER" ]; then
  say "chromium ($CHROMIUM) and chromedriver ($CHROMEDRIVER): ok"
else
  command -v apt-get >/dev/null || die "chromium/chromedriver missing and no apt-get: install them, or set CHROMIUM and CHROMEDRIVER"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  say "installing chromium and chromium-driver (apt-get)"
  $sudo apt-get update
  $sudo apt-get install -y chromium chromium-driver
fi
major() { "$1" --version 2>/dev/null | grep -oE '[0-9]+\.[0-9.]+' | head -1 | cut -d. -f1; }
if [ "$(major "$CHROMIUM")" != "$(major "$CHROMEDRIVER")" ]; then
  say "WARNING: chromium $(major "$CHROMIUM") and chromedriver $(major "$CHROMEDRIVER") differ: the wasm tests may not start"
fi
