#!/usr/bin/env bash
# Time and peak RSS of the release `jrpc` on hostile JSON Schemas and OpenRPC documents (the figures
# of docs/bounds.md, "JSON Schema and OpenRPC documents"): `$ref`s that fan out (L_i = allOf of two
# L_(i-1)) behind `check --openrpc`, `serve --openrpc` and `check --profile mcp`; the deepest of them
# still judged; a -32602 with many findings; a 16 MiB document of deep long keys; a pattern of a
# million alternatives; 400 tools of 60 KB schemas. Each run has a 120 s limit. Needs /usr/bin/time.
#
#   bash scripts/bench-bounds-schema.sh
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$ROOT"
[ -x /usr/bin/time ] || { echo "bench-bounds-schema: needs /usr/bin/time (apt-get install time)" >&2; exit 2; }
cargo build --release --locked --bin jrpc >&2
jrpc="${CARGO_TARGET_DIR:-$ROOT/target}/release/jrpc"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
python3 - "$work" <<'PY'
import json, os, sys
d = sys.argv[1]
def w(name, data):
    with open(os.path.join(d, name), "w") as f:
        f.write(data)
def levels(n, prefix):
    defs = {"L0": {"type": "string"}}
    for i in range(1, n + 1):
        r = "#%s/L%d" % (prefix, i - 1)
        defs["L%d" % i] = {"allOf": [{"$ref": r}, {"$ref": r}]}
    return defs
def doc(n, extra_methods=(), schemas=None):
    return json.dumps({
        "openrpc": "1.3.2", "info": {"title": "t", "version": "1"},
        "methods": [{"name": "deep", "params": [{"name": "x", "schema": {"$ref": "#/components/schemas/L%d" % n}}],
                     "result": {"name": "r", "schema": {"type": "integer"}}}] + list(extra_methods),
        "components": {"schemas": schemas if schemas is not None else levels(n, "/components/schemas")}})
for n in (12, 14, 15, 16, 17, 18, 20, 22, 26):
    w("deep%d.json" % n, doc(n))
def call(value, method="deep"):
    return json.dumps({"jsonrpc": "2.0", "method": method, "params": [value], "id": 1}) + "\n"
w("call-pass", call("s"))
w("call-fail", call(5))
# An MCP tool whose inputSchema fans out, and a call of it.
def tool_transcript(n, arguments):
    schema = {"type": "object", "properties": {"a": {"$ref": "#/$defs/L%d" % n}}, "$defs": levels(n, "/$defs")}
    listed = {"jsonrpc": "2.0", "id": 1, "result": {"tools": [{"name": "add", "inputSchema": schema}]}}
    return ('--> {"jsonrpc":"2.0","id":1,"method":"tools/list"}\n<-- ' + json.dumps(listed) +
            '\n--> ' + json.dumps({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                                   "params": {"name": "add", "arguments": arguments}}) + "\n")
w("mcp26-fail.txt", tool_transcript(26, {"a": 5}))
w("mcp20-fail.txt", tool_transcript(20, {"a": 5}))
# A param of integers, called with 300 000 strings (a 1.8 MB call: a finding per item).
plain = {"name": "ints", "params": [{"name": "x", "schema": {"type": "array", "items": {"type": "integer"}}}],
         "result": {"name": "r", "schema": {"type": "integer"}}}
w("ints.json", doc(1, [plain]))
w("call-ints", call(["ab"] * 300000, "ints"))
# The most such items still judged (4.1 MB; 700 000 pass the budget).
w("call-ints-690k", call(["ab"] * 690000, "ints"))
# 16 MiB of deep long keys (an extension member of an otherwise small document).
key = "k" * 32000
deep = "1"
for _ in range(500):
    deep = '{"%s": %s}' % (key, deep)
w("deep-keys.json", '{"openrpc": "1.3.2", "info": {"title": "t", "version": "1"}, "methods": [], "x-deep": %s}' % deep)
# One pattern of a million alternatives.
pattern = "^(" + "|".join("a%d" % i for i in range(1000000)) + ")$"
w("pattern.json", json.dumps({"openrpc": "1.3.2", "info": {"title": "t", "version": "1"},
    "methods": [{"name": "p", "params": [{"name": "x", "schema": {"type": "string", "pattern": pattern}}],
                 "result": {"name": "r", "schema": {}}}]}))
# 100 000 tiny methods (13 MB), and 10 000.
for n in (10000, 100000):
    ms = [{"name": "m%d" % i, "params": [{"name": "a", "schema": {"type": "integer"}}],
           "result": {"name": "r", "schema": {"type": "integer"}}} for i in range(n)]
    w("methods%d.json" % n, json.dumps({"openrpc": "1.3.2", "info": {"title": "t", "version": "1"}, "methods": ms}))
w("call-m5", json.dumps({"jsonrpc": "2.0", "method": "m5", "params": [1], "id": 1}) + "\n")
# 400 tools, each with a 60 KB inputSchema (600 properties).
props = {"p%d_%s" % (i, "x" * 60): {"type": "string", "maxLength": 10} for i in range(600)}
tools = [{"name": "t%d" % i, "inputSchema": {"type": "object", "properties": props}} for i in range(400)]
w("tools400.txt", '--> {"jsonrpc":"2.0","id":1,"method":"tools/list"}\n<-- ' +
  json.dumps({"jsonrpc": "2.0", "id": 1, "result": {"tools": tools}}) + "\n")
PY
run() { # NAME STDIN ARGS...: one run, its time, peak RSS, exit code and output size
  local name="$1" input="$2"
  shift 2
  set +e
  timeout 120 /usr/bin/time -f '%e %M' -o "$work/time" "$jrpc" "$@" <"$input" >"$work/out" 2>"$work/err"
  local code=$?
  set -e
  read -r secs kb < <(tail -n 1 "$work/time") || { secs="-"; kb=0; }
  printf '%-34s %8ss %9.1f MB  exit %-4s out %9d bytes  %s\n' "$name" "$secs" "$(awk -v k="$kb" 'BEGIN{print k/1024}')" "$code" \
    "$(wc -c <"$work/out")" "$(cat "$work/out" "$work/err" | grep -o 'too costly to check\|too large to compile\|budget is spent\|"omitted":[0-9]*\|openrpc-param-invalid' | sort | uniq -c | tr -s ' \n' ' ')"
}
for n in 12 14 15 16 17 18 20 22 26; do
  run "check --openrpc L$n failing" "$work/call-fail" check --openrpc "$work/deep$n.json"
done
run "check --openrpc L26 passing" "$work/call-pass" check --openrpc "$work/deep26.json"
run "serve --openrpc L26 one call" "$work/call-fail" serve --openrpc "$work/deep26.json"
run "probe --openrpc discover L26" /dev/null probe --openrpc discover --total-timeout 5 -- "$jrpc" serve --openrpc "$work/deep26.json"
run "check --profile mcp L20 failing" "$work/mcp20-fail.txt" check --profile mcp
run "check --profile mcp L26 failing" "$work/mcp26-fail.txt" check --profile mcp
run "serve --openrpc 300k bad items" "$work/call-ints" serve --openrpc "$work/ints.json"
run "check --openrpc 690k bad items" "$work/call-ints-690k" check --openrpc "$work/ints.json"
run "serve --openrpc 690k bad items" "$work/call-ints-690k" serve --openrpc "$work/ints.json"
run "check --openrpc 16 MiB deep keys" /dev/null check --openrpc "$work/deep-keys.json"
run "check --openrpc 1M-alt pattern" /dev/null check --openrpc "$work/pattern.json"
run "check --openrpc 10k methods" "$work/call-m5" check --openrpc "$work/methods10000.json"
run "check --openrpc 100k methods" "$work/call-m5" check --openrpc "$work/methods100000.json"
run "check --profile mcp 400x60KB tools" "$work/tools400.txt" check --profile mcp
