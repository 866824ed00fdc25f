#!/usr/bin/env bash
# Every test, in order, stopping at the first failing stage:
#   the scripts' own tests (stub tools, tests/scripts) · setup · no import circle between modules ·
#   native tests · jrpc contract and MCP SDK checks · wasm tests in headless Chromium · release
#   build + size budget · Playwright end-to-end tests against the release build.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$ROOT"

stage_name="setup"
server_pid=""
stage() {
  stage_name="$1"
  printf '\n==> %s\n' "$1"
}
finish() {
  rc=$?
  if [ -n "$server_pid" ]; then
    kill "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
  if [ "$rc" -ne 0 ]; then
    printf '\ntest.sh: FAILED in stage "%s" (exit %d)\n' "$stage_name" "$rc" >&2
  else
    printf '\ntest.sh: all stages passed\n'
  fi
}
trap finish EXIT

stage "scripts: a cold machine's tool paths, serving, the import-circle finder (tests/scripts/*.test.sh: stub tools, seconds)"
for script_test in tests/scripts/*.test.sh; do
  [ -f "$script_test" ] || continue # (the throwaway copies those tests make hold none)
  bash "$script_test"
done

stage "setup: pinned tools, test tools included (scripts/setup.sh test)"
bash scripts/setup.sh test
# Every tool path is looked up now, after setup installed the tools (scripts/env.sh).
resolve_tools
require_tools TOOL_TRUNK TOOL_WASM_BINDGEN TOOL_WASM_BINDGEN_TEST_RUNNER TOOL_WASM_OPT TOOL_CARGO_FUZZ TOOL_NODE22 CHROMIUM CHROMEDRIVER

stage "source: no import circle between the modules of any crate (node scripts/module-cycles.mjs)"
node scripts/module-cycles.mjs

stage "native tests: cargo test --workspace (the engine crate and the app)"
cargo test --locked --workspace

stage "jrpc: build the CLI"
cargo build --locked --bin jrpc
jrpc="$TARGET_DIR/debug/jrpc"
contract="$SHARED/contract/check-cli-report.py"
if [ -f "$contract" ]; then
  stage "jrpc: report contract (shared/contract/check-cli-report.py)"
  python3 "$contract" "$jrpc"
else
  echo "skipped: not present ($contract: the optional report-contract check needs ../shared beside the clone)"
fi
if [ -f tests/mcp_sdk/run.sh ]; then
  stage "jrpc: MCP SDK interop (tests/mcp_sdk/run.sh)"
  bash tests/mcp_sdk/run.sh "$jrpc"
else
  echo "skipped: no tests/mcp_sdk/run.sh"
fi

stage "jrpc: the official MCP conformance suite (tests/conformance/run.sh)"
bash tests/conformance/run.sh "$jrpc"

stage "jrpc probe: the official MCP server-everything on stdio and HTTP (tests/probe/run.sh)"
bash tests/probe/run.sh "$jrpc"

stage "fuzz: each cargo-fuzz target briefly (scripts/fuzz.sh, FUZZ_RUNS=20000)"
FUZZ_RUNS="${FUZZ_RUNS:-20000}" bash scripts/fuzz.sh

stage "wasm tests in headless Chromium: cargo test --target wasm32-unknown-unknown --test web"
cargo test --locked --target wasm32-unknown-unknown --test web

stage "web: release build (trunk build --release: stable toolchain, no unstable flags)"
trunk build --release

# One dist/ for every path (relative asset URLs): tests/e2e/static.test.mjs serves it under
# /some/path/, walks every view, then cuts the network and reloads.
export SUBPATH_DIST="$ROOT/dist"

stage "web: size budget (the first load: 360 KB gzipped enforced; 400 KB the target, 350 KB the aim: scripts/size.sh)"
# The release build must stay within the budget: every file is printed, the first load (what the
# first view fetches) is enforced, the files loaded later (workers on first use) are printed apart.
# (SIZE_ENFORCE=0 prints the figure without failing, for trying a change that is known to be over.)
if ! bash scripts/size.sh dist; then
  if [ "${SIZE_ENFORCE:-1}" = 1 ]; then exit 1; fi
  echo "size: OVER BUDGET (SIZE_ENFORCE=0: reported, not enforced)"
fi

stage "web: end-to-end tests (Playwright, release build)"
port="$(node -e 'const s = require("net").createServer(); s.listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); });')"
py=/usr/bin/python3
[ -x "$py" ] || py="$(command -v python3)"
"$py" -m http.server --bind 127.0.0.1 "$port" --directory dist >/dev/null 2>&1 &
server_pid=$!
for _ in $(seq 1 50); do
  if node -e 'fetch(process.argv[1]).then(r => process.exit(r.ok ? 0 : 1), () => process.exit(1))' "http://127.0.0.1:$port/"; then
    break
  fi
  kill -0 "$server_pid" 2>/dev/null || { echo "static server on port $port died" >&2; exit 1; }
  sleep 0.2
done
# Each test has a deadline (10 min): a browser that stops answering fails it instead of waiting.
BASE_URL="http://127.0.0.1:$port/" node --test --test-timeout=600000 tests/e2e/*.test.mjs
