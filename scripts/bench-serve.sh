#!/usr/bin/env bash
# `jrpc serve` requests per second over stdio: N newline-delimited requests (the specification's
# subtract/sum/get_data, MCP tools/list and tools/call, a notification and a bad line in the mix) piped
# through the release binary in one run; prints the rate and checks one reply came back per request.
#
#   bash scripts/bench-serve.sh            # 200 000 messages
#   N=1000000 bash scripts/bench-serve.sh
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$ROOT"
n="${N:-200000}"
cargo build --release --locked --bin jrpc >&2
jrpc="$TARGET_DIR/release/jrpc"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
python3 - "$n" "$work/in.ndjson" <<'PY'
import sys
n, path = int(sys.argv[1]), sys.argv[2]
kinds = [
    '{"jsonrpc":"2.0","method":"subtract","params":[%d,23],"id":%d}',
    '{"jsonrpc":"2.0","method":"sum","params":[1,2,4,%d],"id":"s-%d"}',
    '{"jsonrpc":"2.0","method":"get_data","id":%d%d}',
    '{"jsonrpc":"2.0","method":"tools/list","params":{"cursor":null,"x":%d},"id":%d}',
    '{"jsonrpc":"2.0","method":"tools/call","params":{"name":"echo","arguments":{"text":"hello %d"}},"id":%d}',
    '{"jsonrpc":"2.0","method":"notify_hello","params":[%d]}%.0s',
    '{"jsonrpc":"2.0","method":"foobar","id":%d%d}',
    '{"jsonrpc":"2.0","method":"subtract","params":[%d,"x"]]%d',
]
with open(path, "w") as f:
    for i in range(n):
        k = kinds[i % len(kinds)]
        f.write((k % (i, i)) + "\n")

PY
expected="$(python3 -c 'import sys; n=int(sys.argv[1]); print(n - (n + 2) // 8)' "$n")"
bytes="$(wc -c <"$work/in.ndjson")"
start="$(date +%s%N)"
"$jrpc" serve <"$work/in.ndjson" >"$work/out.ndjson"
end="$(date +%s%N)"
got="$(wc -l <"$work/out.ndjson")"
[ "$got" = "$expected" ] || { echo "bench-serve: $got replies, expected $expected" >&2; exit 1; }
python3 - "$n" "$bytes" "$start" "$end" <<'PY'
import sys
n, b, s, e = map(int, sys.argv[1:])
secs = (e - s) / 1e9
print(f"jrpc serve (stdio): {n} messages ({b / 1e6:.1f} MB) in {secs:.2f} s: {n / secs:,.0f} req/s, {b / 1e6 / secs:.1f} MB/s")
PY
