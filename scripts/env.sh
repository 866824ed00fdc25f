# Sourced by the other scripts (not run): tool paths and settings shared by setup, serve and test.
# shellcheck shell=bash

ROOT="$(git -C "$(dirname "${BASH_SOURCE[0]}")" rev-parse --show-toplevel)"
# ../shared may sit beside the checkout (this project's CI has it): only the optional
# report-contract stage of scripts/test.sh looks there.
SHARED="$(cd "$ROOT/.." && pwd)/shared"

# npm's binaryen (wasm-opt 132) must win over any system wasm-opt (Debian's v108 breaks the page).
export PATH="$ROOT/node_modules/.bin:$HOME/.cargo/bin:$PATH"
export TRUNK_SKIP_VERSION_CHECK=true

CHROMIUM="${CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}"
CHROMEDRIVER="${CHROMEDRIVER:-$(command -v chromedriver || true)}"
export CHROMIUM CHROMEDRIVER

TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/target}"

# The Rust toolchain rust-toolchain.toml pins.
RUST_VERSION="$(sed -n 's/^channel = "\(.*\)"/\1/p' "$ROOT/rust-toolchain.toml")"
TRUNK_VERSION=0.21.14
# wasm-bindgen-cli must equal the wasm-bindgen crate the lockfile resolved.
WASM_BINDGEN_VERSION="$(awk '$0 == "name = \"wasm-bindgen\"" { getline; gsub(/version = |"/, ""); print; exit }' "$ROOT/Cargo.lock")"
WASM_OPT_VERSION=132
