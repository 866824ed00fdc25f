#!/usr/bin/env bash
# Time limits under hostile input (docs/bounds.md, "Time limits: probe, serve --http, tap"):
#  - `jrpc probe --total-timeout 1|5` against servers whose conversation, document or outputSchema
#    is slow to judge, load or check: when does the probe exit?
#  - `jrpc serve --http`: a ping on one connection while heavy requests run on others;
#  - `jrpc serve --openrpc DOC --http` (50 000 methods): unknown-method batches and a known call;
#  - `jrpc tap`: how long it outlives its server once the server has written 30 MB to check.
# Needs python3 and curl. JRPC=path/to/jrpc to measure another build (default: the debug build).
#
#   bash scripts/bench-bounds-time.sh
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$ROOT"
if [ -z "${JRPC:-}" ]; then
  cargo build --locked --bin jrpc >&2
  JRPC="$TARGET_DIR/debug/jrpc"
fi
work="$(mktemp -d)"
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$work"' EXIT
python3 - "$work" <<'PY'
import json, os, sys
d = sys.argv[1]
def w(name, text):
    with open(os.path.join(d, name), "w") as f:
        f.write(text)
note = json.dumps({"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "info", "data": [0] * 450}}, separators=(",", ":"))
w("flood", (note + "\n") * 15000)
methods = [{"name": "m" * 50 + "_%06d" % i, "params": [], "result": {"name": "r", "schema": {"type": "integer"}}} for i in range(50000)]
w("doc50000.json", json.dumps({"openrpc": "1.3.2", "info": {"title": "big", "version": "1"}, "methods": methods}))
w("doc30000.json", json.dumps({"openrpc": "1.3.2", "info": {"title": "big", "version": "1"}, "methods": methods[:30000]}))
w("unknown2.json", json.dumps([{"jsonrpc": "2.0", "id": i, "method": "q" * 50 + "_%06dx" % i} for i in range(2)]))
w("unknown500.json", json.dumps([{"jsonrpc": "2.0", "id": i, "method": "q" * 50 + "_%06dx" % i} for i in range(500)]))
w("known.json", json.dumps({"jsonrpc": "2.0", "id": 9, "method": "m" * 50 + "_000001"}))
w("sums.json", json.dumps([{"jsonrpc": "2.0", "method": "sum", "params": [1, 2], "id": i} for i in range(200000)]))
levels = 24
defs = {"L0": {"type": "integer"}}
for i in range(1, levels + 1):
    defs["L%d" % i] = {"allOf": [{"$ref": "#/$defs/L%d" % (i - 1)}, {"$ref": "#/$defs/L%d" % (i - 1)}]}
tool = {"name": "exp", "inputSchema": {"type": "object"}, "outputSchema": {"type": "object", "$defs": defs, "properties": {"v": {"$ref": "#/$defs/L%d" % levels}}}}
w("exp_tools", json.dumps({"tools": [tool]}))
props = {"p%d" % k: {"type": "string", "pattern": "^[a-z]{1,8}$", "description": "x" * 20} for k in range(60)}
tools = [{"name": "t%d" % i, "inputSchema": {"type": "object", "properties": props}} for i in range(300)]
w("tool_replies", (json.dumps({"jsonrpc": "2.0", "id": 1, "result": {"tools": tools}}) + "\n") * 20)
PY
cat > "$work/exp_server.sh" <<'EOF'
while IFS= read -r l; do
  id=$(printf '%s' "$l" | sed -n 's/.*"id":\([0-9]*\).*/\1/p')
  case "$l" in
    *'"method":"initialize"'*) echo "{\"jsonrpc\":\"2.0\",\"id\":$id,\"result\":{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{\"tools\":{}},\"serverInfo\":{\"name\":\"sh\",\"version\":\"1\"}}}";;
    *'"method":"tools/list"'*) printf '{"jsonrpc":"2.0","id":%s,"result":' "$id"; cat "$TOOLS"; echo '}';;
    *'"method":"tools/call"'*) echo "{\"jsonrpc\":\"2.0\",\"id\":$id,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"x\"}],\"structuredContent\":{\"v\":1}}}";;
    *) [ -n "$id" ] && echo "{\"jsonrpc\":\"2.0\",\"id\":$id,\"error\":{\"code\":-32601,\"message\":\"no\"}}";;
  esac
done
EOF
seconds() { python3 -c 'import sys,time; print("%.2f" % (time.time() - float(sys.argv[1])))' "$1"; }
now() { python3 -c 'import time; print(time.time())'; }

echo "== jrpc probe (exit time; --total-timeout as given)"
t=$(now); "$JRPC" probe --profile mcp --timeout 1 --total-timeout 1 -- sh -c "cat '$work/flood'; while IFS= read -r l; do :; done" >/dev/null 2>&1 || true
echo "15 MB of notifications to judge, --total-timeout 1: $(seconds "$t") s"
t=$(now); "$JRPC" probe --openrpc "$work/doc30000.json" --timeout 1 --total-timeout 1 -- sh -c 'while IFS= read -r l; do :; done' >/dev/null 2>&1 || true
echo "--openrpc with 30 000 methods, --total-timeout 1: $(seconds "$t") s"
t=$(now); (ulimit -v 3000000; TOOLS="$work/exp_tools" "$JRPC" probe --timeout 1 --total-timeout 5 -- sh "$work/exp_server.sh" >/dev/null 2>&1) || true
echo "outputSchema of 2^24 steps, --total-timeout 5: $(seconds "$t") s"

listen() { # listen LOG: the http:// URL a `jrpc serve` logging to LOG prints
  for _ in $(seq 1 600); do grep -q "http://" "$1" && break; sleep 0.1; done
  grep -o "http://[0-9.:]*" "$1" | head -1
}
post() { curl -s -o /dev/null -w "%{time_total}" -H 'Content-Type: application/json' --data-binary "@$2" "$1"; }

echo "== jrpc serve --http: a ping while 3 batches of 200 000 calls (13 MB each) are answered"
"$JRPC" serve --http 127.0.0.1:0 2>"$work/serve.log" & pids+=($!)
url=$(listen "$work/serve.log")
for _ in 1 2 3; do post "$url" "$work/sums.json" >/dev/null & done
sleep 0.3
echo '{"jsonrpc":"2.0","method":"ping","id":1}' > "$work/ping.json"
echo "ping: $(post "$url" "$work/ping.json") s"
wait %2 %3 %4 2>/dev/null || true  # the three batches
kill "${pids[-1]}"

# BATCHES="unknown2" to leave out the 500-name batches (minutes on a build without the bound).
for batch in ${BATCHES:-unknown2 unknown500}; do
  echo "== jrpc serve --openrpc (50 000 methods) --http: a known call while two $batch batches are answered"
  "$JRPC" serve --openrpc "$work/doc50000.json" --http 127.0.0.1:0 2>"$work/openrpc.log" & pids+=($!)
  url=$(listen "$work/openrpc.log")
  post "$url" "$work/$batch.json" > "$work/a" & a=$!
  post "$url" "$work/$batch.json" > "$work/b" & b=$!
  sleep 0.3
  echo "known call: $(post "$url" "$work/known.json") s"
  wait $a $b || true
  echo "batches: $(cat "$work/a") s, $(cat "$work/b") s"
  kill "${pids[-1]}"
done

echo "== jrpc tap: how long it outlives a server that wrote 20 replies of 300 tools (30 MB) and exited"
python3 - "$JRPC" "$work/tool_replies" <<'PY'
import subprocess, sys, time
jrpc, replies = sys.argv[1], sys.argv[2]
p = subprocess.Popen([jrpc, "tap", "--profile", "mcp", "--", "sh", "-c", "read l; cat '%s'; exit 3" % replies],
                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
p.stdin.write(b'{"jsonrpc":"2.0","id":1,"method":"tools/list"}\n'); p.stdin.flush()
for _ in range(20):
    p.stdout.readline()
t = time.time()
code = p.wait()
print("tap exited %.2f s after the server's last reply passed, status %d" % (time.time() - t, code))
PY
