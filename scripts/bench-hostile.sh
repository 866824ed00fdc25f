#!/usr/bin/env bash
# Peak memory and time of the release `jrpc check --format json` (and `jrpc serve`) on hostile input:
# 100 000-deep nesting, 10 MB strings, 1 000 000-element batches, invalid UTF-8, lone surrogates and
# 10 000-digit numbers (the same shapes tests/hostile.rs checks for verdicts). Needs /usr/bin/time.
#
#   bash scripts/bench-hostile.sh
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$ROOT"
[ -x /usr/bin/time ] || { echo "bench-hostile: needs /usr/bin/time (apt-get install time)" >&2; exit 2; }
cargo build --release --locked --bin jrpc >&2
jrpc="$TARGET_DIR/release/jrpc"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
python3 - "$work" <<'PY'
import os, sys
d = sys.argv[1]
def w(name, data):
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)
req = lambda params, id=b"1": b'{"jsonrpc":"2.0","method":"m","params":' + params + b',"id":' + id + b"}"
w("deep-arrays", b"[" * 100000 + b"]" * 100000)
w("deep-objects", b'{"a":' * 100000 + b"1" + b"}" * 100000)
w("string-10MB", req(b'["' + b"x" * (10 << 20) + b'"]'))
w("string-10MB-escapes", req(b'["' + b"\\u00e9\\n" * (10 << 17) + b'"]'))
w("string-10MB-unterminated", b'{"jsonrpc":"2.0","method":"m","params":["' + b"x" * (10 << 20))
w("batch-1M-requests", b"[" + b",".join(b'{"jsonrpc":"2.0","method":"sum","params":[1,2],"id":%d}' % i for i in range(1000000)) + b"]")
w("batch-1M-invalid", b"[" + b",".join([b"1"] * 1000000) + b"]")
w("invalid-utf8", b'{"jsonrpc":"2.0","method":"\xff\xfe","id":1}\n' * 1000)
w("lone-surrogates", b'{"jsonrpc":"2.0","method":"a\\ud800","params":["\\udc00"],"id":"\\udfff"}\n' * 1000)
w("numbers-10k-digits", req(b"[" + b"9" * 10000 + b", 0." + b"9" * 10000 + b", 1e" + b"9" * 10000 + b"]", b"1" * 10000))
PY
mb() { awk -v b="$1" 'BEGIN { printf "%.1f", b / 1048576 }'; }
printf '%-26s %10s %9s %12s %6s %12s\n' input "size" "time" "peak RSS" exit "report"
for f in deep-arrays deep-objects string-10MB string-10MB-escapes string-10MB-unterminated batch-1M-requests batch-1M-invalid invalid-utf8 lone-surrogates numbers-10k-digits; do
  set +e
  /usr/bin/time -f '%e %M' -o "$work/time" "$jrpc" check --format json "$work/$f" >"$work/out" 2>"$work/err"
  code=$?
  set -e
  [ "$code" -le 1 ] || { echo "bench-hostile: jrpc check $f exited $code: $(head -c 300 "$work/err")" >&2; exit 1; }
  python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$work/out" || { echo "bench-hostile: $f: report is not JSON" >&2; exit 1; }
  read -r secs kb < <(tail -n 1 "$work/time")
  printf '%-26s %8sMB %8ss %10sMB %6s %10sMB\n' "$f" "$(mb "$(wc -c <"$work/$f")")" "$secs" "$(mb $((kb * 1024)))" "$code" "$(mb "$(wc -c <"$work/out")")"
done
# jrpc serve: the same hostile documents, one per line, through one server process.
for f in deep-arrays deep-objects string-10MB string-10MB-unterminated batch-1M-invalid numbers-10k-digits; do
  cat "$work/$f"; echo
done >"$work/serve.ndjson"
head -n 3 "$work/invalid-utf8" "$work/lone-surrogates" -q >>"$work/serve.ndjson"
/usr/bin/time -f '%e %M' -o "$work/time" "$jrpc" serve <"$work/serve.ndjson" >"$work/out"
read -r secs kb < <(tail -n 1 "$work/time")
printf 'jrpc serve: %d hostile lines (%s MB) -> %d replies in %ss, peak RSS %s MB\n' \
  "$(wc -l <"$work/serve.ndjson")" "$(mb "$(wc -c <"$work/serve.ndjson")")" "$(wc -l <"$work/out")" "$secs" "$(mb $((kb * 1024)))"
