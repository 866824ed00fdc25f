#!/usr/bin/env bash
# Time and peak memory of record / replay on a generated session of N messages (N/2 requests to
# `jrpc serve`, each answered): the session recorded through `jrpc tap --transcript`, then
#   1. `jrpc replay` of the recording against `jrpc serve` (every answer compared), and
#   2. `jrpc serve --replay` of the recording answering the same N/2 requests on stdio.
# Needs /usr/bin/time and python3.
#
#   bash scripts/bench-replay.sh                         # the release build, N = 10000
#   N=10000 JRPC=target/debug/jrpc bash scripts/bench-replay.sh
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$ROOT"
[ -x /usr/bin/time ] || { echo "bench-replay: needs /usr/bin/time (apt-get install time)" >&2; exit 2; }
n="${N:-10000}"
if [ -z "${JRPC:-}" ]; then
  cargo build --release --locked --bin jrpc >&2
  JRPC="$TARGET_DIR/release/jrpc"
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# N/2 requests: the spec's subtract and sum, and MCP's tools/call of add and echo, params varied.
python3 - "$work/requests" "$((n / 2))" <<'PY'
import json, sys
path, count = sys.argv[1], int(sys.argv[2])
with open(path, "w") as f:
    for i in range(count):
        kind = i % 4
        if kind == 0:
            m = {"jsonrpc": "2.0", "id": i, "method": "subtract", "params": [i, 7]}
        elif kind == 1:
            m = {"jsonrpc": "2.0", "id": i, "method": "sum", "params": [i, 1, 2]}
        elif kind == 2:
            m = {"jsonrpc": "2.0", "id": i, "method": "tools/call", "params": {"name": "add", "arguments": {"a": i, "b": 1}}}
        else:
            m = {"jsonrpc": "2.0", "id": i, "method": "tools/call", "params": {"name": "echo", "arguments": {"text": f"message {i}"}}}
        f.write(json.dumps(m) + "\n")
PY
"$JRPC" tap --transcript "$work/session.txt" -- "$JRPC" serve < "$work/requests" > /dev/null 2> "$work/tap.log" || true
messages=$(grep -c '^\(-->\|<--\)' "$work/session.txt")
echo "recorded: $messages messages, $(wc -c < "$work/session.txt") bytes ($JRPC)"
measure() {
  local label="$1"; shift
  /usr/bin/time -v "$@" > "$work/out" 2> "$work/time" || true
  local secs peak
  secs=$(grep 'Elapsed (wall clock)' "$work/time" | awk '{print $NF}')
  peak=$(grep 'Maximum resident set size' "$work/time" | awk '{print $NF}')
  printf '%-44s %10s s (wall)  %8s KiB peak\n' "$label" "$secs" "$peak"
}
measure "jrpc replay (against jrpc serve)" "$JRPC" replay --total-timeout 3600 "$work/session.txt" -- "$JRPC" serve
tail -1 "$work/out"
measure "jrpc serve --replay (answering $((n / 2)) requests)" sh -c "\"$JRPC\" serve --replay \"$work/session.txt\" < \"$work/requests\""
echo "replies: $(wc -l < "$work/out")"
