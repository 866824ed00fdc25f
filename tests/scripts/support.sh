# Sourced by the tests in tests/scripts (not run): throwaway repositories, stub commands and a
# PATH of basic utilities only, so a test decides which tools a script finds.
# shellcheck shell=bash

REPO="$(git -C "$(dirname "${BASH_SOURCE[0]}")" rev-parse --show-toplevel)"
# The pinned versions, as scripts/env.sh names them (its PATH change stays in the subshell).
read -r RUST_VERSION TRUNK_VERSION WASM_BINDGEN_VERSION WASM_OPT_VERSION < <(
  source "$REPO/scripts/env.sh"
  echo "$RUST_VERSION $TRUNK_VERSION $WASM_BINDGEN_VERSION $WASM_OPT_VERSION"
)
SCRATCH="$(mktemp -d)"
trap '[ -n "${KEEP_SCRATCH:-}" ] || rm -rf "$SCRATCH"' EXIT

# The basic utilities the scripts use, and nothing else: no rustup, cargo, node, trunk or browser.
BASE_BIN="$SCRATCH/base"
mkdir -p "$BASE_BIN"
for util in bash sh env git dirname basename sed awk grep head tail cut tr cat mkdir chmod rm touch \
  id ls sort date seq sleep mktemp cp mv ln diff wc kill setsid python3; do
  found="$(command -v "$util" || true)"
  case "$found" in /*) ln -s "$found" "$BASE_BIN/$util" ;; esac
done
[ ! -x /usr/bin/python3 ] || ln -sf /usr/bin/python3 "$BASE_BIN/python3"

# new_repo DIR FILE…: a git repository in DIR holding these files of this repository (and what
# scripts/env.sh reads: rust-toolchain.toml, Cargo.lock).
new_repo() {
  local dir="$1" file
  shift
  mkdir -p "$dir"
  for file in rust-toolchain.toml Cargo.lock "$@"; do
    mkdir -p "$dir/$(dirname "$file")"
    cp "$REPO/$file" "$dir/$file"
  done
  git -C "$dir" init --quiet
}

# stub PATH: an executable bash script at PATH with the body read from stdin.
stub() {
  { echo '#!/usr/bin/env bash'; cat; } >"$1"
  chmod +x "$1"
}

# run_tests NAME…: runs each test function in its own scratch directory; prints PASS or FAIL with
# what the test printed; exits 1 when any failed.
run_tests() {
  local name failed=0 out
  for name in "$@"; do
    mkdir -p "$SCRATCH/$name"
    if out="$("$name" "$SCRATCH/$name" 2>&1)"; then
      echo "PASS $name"
    else
      echo "FAIL $name"
      printf '%s\n' "$out" | sed 's/^/    /'
      failed=1
    fi
  done
  return "$failed"
}
