#!/usr/bin/env bash
# Time, peak memory and output size of `jrpc check` on inputs with many findings (the shapes
# tests/findings_linear.rs times at two sizes): an OpenRPC call whose array param has N failing
# items, a document of N dangling $refs, a document of N/4 methods breaking the meta-schema, an MCP
# tools/call whose arguments and structuredContent have N failing items, and a transcript of N
# requests followed by N responses that answer none of them. Needs /usr/bin/time.
#
#   bash scripts/bench-bounds-findings.sh                # the release build, N = 80000
#   N=20000 JRPC=target/debug/jrpc bash scripts/bench-bounds-findings.sh
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$ROOT"
[ -x /usr/bin/time ] || { echo "bench-bounds-findings: needs /usr/bin/time (apt-get install time)" >&2; exit 2; }
n="${N:-80000}"
if [ -z "${JRPC:-}" ]; then
  cargo build --release --locked --bin jrpc >&2
  JRPC="$TARGET_DIR/release/jrpc"
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
python3 - "$work" "$n" <<'PY'
import json, os, sys
d, n = sys.argv[1], int(sys.argv[2])
def w(name, text):
    with open(os.path.join(d, name), "w") as f:
        f.write(text)
info = {"title": "t", "version": "1"}
w("doc.json", json.dumps({"openrpc": "1.3.2", "info": info, "methods": [{"name": "m", "paramStructure": "by-name",
  "params": [{"name": "xs", "schema": {"type": "array", "items": {"type": "string"}}}],
  "result": {"name": "r", "schema": {}}}]}))
w("array-param", json.dumps({"jsonrpc": "2.0", "id": 1, "method": "m", "params": {"xs": list(range(n))}}))
w("dangling-refs.json", json.dumps({"openrpc": "1.3.2", "info": info, "methods": [],
  "components": {"schemas": {f"s{i}": {"$ref": f"#/nowhere/{i}"} for i in range(n)}}}))
w("meta-schema-errors.json", json.dumps({"openrpc": "1.3.2", "info": info,
  "methods": [{"name": i, "params": [], "result": {"name": "r", "schema": {}}} for i in range(n // 4)]}))
xs = json.dumps(list(range(n)))
w("tool-call", '--> {"jsonrpc":"2.0","id":1,"method":"tools/list"}\n'
  '<-- {"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"t","inputSchema":{"type":"object","properties":{"xs":{"type":"array","items":{"type":"string"}}}},"outputSchema":{"type":"object","properties":{"ys":{"type":"array","items":{"type":"string"}}}}}]}}\n'
  f'--> {{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{{"name":"t","arguments":{{"xs":{xs}}}}}}}\n'
  f'<-- {{"jsonrpc":"2.0","id":2,"result":{{"content":[],"structuredContent":{{"ys":{xs}}}}}}}\n')
m = n // 4
w("unmatched-responses", "".join(f'--> {{"jsonrpc":"2.0","id":{i},"method":"m"}}\n' for i in range(m))
  + "".join(f'<-- {{"jsonrpc":"2.0","id":{m + i},"result":0}}\n' for i in range(m)))
PY
mb() { awk -v b="$1" 'BEGIN { printf "%.1f", b / 1048576 }'; }
printf 'N = %s (meta-schema errors: N/4 methods; unmatched responses: N/4 of each)\n' "$n"
printf '%-22s %10s %9s %12s %12s\n' shape input time "peak RSS" report
# run SHAPE SIZED INPUT ARGS…: `jrpc check --format json ARGS… INPUT`; SIZED is the file whose
# size the row gives (the input, or the document that holds the findings).
run() {
  local shape="$1" sized="$2" input="$3"
  shift 3
  set +e
  /usr/bin/time -f '%e %M' -o "$work/time" "$JRPC" check --format json "$@" "$work/$input" >"$work/out" 2>"$work/err"
  local code=$?
  set -e
  [ "$code" -le 2 ] || { echo "bench-bounds-findings: $shape exited $code: $(head -c 300 "$work/err")" >&2; exit 1; }
  read -r secs kb < <(tail -n 1 "$work/time")
  printf '%-22s %9sM %8ss %10sMB %10sMB\n' "$shape" "$(mb "$(stat -c %s "$work/$sized")")" "$secs" \
    "$(mb $((kb * 1024)))" "$(mb "$(($(stat -c %s "$work/out") + $(stat -c %s "$work/err")))")"
}
run array-param array-param array-param --openrpc "$work/doc.json"
run dangling-refs dangling-refs.json array-param --openrpc "$work/dangling-refs.json"
run meta-schema-errors meta-schema-errors.json array-param --openrpc "$work/meta-schema-errors.json"
run tool-call tool-call tool-call --profile mcp --mcp-version 2025-11-25
run unmatched-responses unmatched-responses unmatched-responses
