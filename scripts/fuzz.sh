#!/usr/bin/env bash
# Fuzzes the engine with cargo-fuzz (libFuzzer): the JSON parser (`parse`), the whole rpc::check under
# every profile (`check`) and the mock server (`mock`). Seeds come from tests/data/JSONTestSuite,
# the examples library (engine/src/examples/library.txt) and tests/fixtures; the corpus grows in
# fuzz/corpus/<target> (not committed). Prints each target's execution count and the total.
#
#   bash scripts/fuzz.sh                      # every target, FUZZ_RUNS executions each (default 20000)
#   FUZZ_RUNS=4000000 bash scripts/fuzz.sh    # the long run (README, Hardening)
#   FUZZ_TIME=60 bash scripts/fuzz.sh check   # one target, for 60 seconds instead of a run count
#
# Works on the stable toolchain: libFuzzer's instrumentation needs -Z flags, which RUSTC_BOOTSTRAP=1
# allows on stable (set FUZZ_TOOLCHAIN=nightly to use a nightly instead). No sanitizer by default: the
# engine has no unsafe code, and libFuzzer still catches panics, stack overflows (deadly signal),
# hangs (-timeout) and memory blow-ups (-rss_limit_mb). FUZZ_SANITIZER=address turns ASan on.
# A crash leaves its input in fuzz/artifacts/<target>/ and fails the script: turn it into a
# regression test in tests/hostile.rs (fuzz_regressions).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$ROOT"

runs="${FUZZ_RUNS:-20000}"
time_limit="${FUZZ_TIME:-}"
sanitizer="${FUZZ_SANITIZER:-none}"
targets=("$@")
[ "${#targets[@]}" -gt 0 ] || targets=(parse check mock)

command -v cargo-fuzz >/dev/null || { echo "fuzz: cargo-fuzz missing: run bash scripts/setup.sh" >&2; exit 2; }
toolchain=()
if [ -n "${FUZZ_TOOLCHAIN:-}" ]; then
  toolchain=("+$FUZZ_TOOLCHAIN")
else
  export RUSTC_BOOTSTRAP=1
fi

# Seeds: one file per JSONTestSuite case and per example; for `check` a first byte picks the profile.
seeds="$ROOT/fuzz/target/seeds.$$"
trap 'rm -rf "$seeds"' EXIT
rm -rf "$seeds"
python3 - "$ROOT" "$seeds" <<'PY'
import os, sys
root, out = sys.argv[1:3]
versions = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"]
texts = []  # (profile byte, bytes)
suite = os.path.join(root, "tests/data/JSONTestSuite/test_parsing")
for name in sorted(os.listdir(suite)):
    with open(os.path.join(suite, name), "rb") as f:
        texts.append((0, f.read()[:8192]))
block, profile, body = None, 0, False
def flush():
    if block is not None:
        texts.append((profile, "\n".join(block).encode()))
with open(os.path.join(root, "engine/src/examples/library.txt"), encoding="utf-8") as f:
    for line in f.read().splitlines():
        if line.startswith("=== "):
            flush(); block, profile, body = [], 0, False
        elif block is not None and not body and line.startswith("profile: mcp"):
            v = line.split()[-1]
            profile = 1 + versions.index(v) if v in versions else 1
        elif block is not None and not body and line == "---":
            body = True
        elif block is not None and body:
            block.append(line)
flush()
fixtures = os.path.join(root, "tests/fixtures")
for name in sorted(os.listdir(fixtures)):
    with open(os.path.join(fixtures, name), "rb") as f:
        data = f.read()
    texts.append((0, data))
    texts.extend((0, chunk.encode()) for chunk in data.decode("utf-8", "replace").split("\n\n") if chunk.strip())
for target in ("parse", "check", "mock"):
    d = os.path.join(out, target)
    os.makedirs(d)
    for i, (p, t) in enumerate(texts):
        with open(os.path.join(d, f"seed-{i:04d}"), "wb") as f:
            f.write(bytes([p]) + t if target == "check" else t)
print(f"fuzz: {len(texts)} seeds per target")
PY

cd fuzz
echo "fuzz: building ${targets[*]} (release, sanitizer: $sanitizer)"
for t in "${targets[@]}"; do
  cargo "${toolchain[@]}" fuzz build -O -s "$sanitizer" "$t"
done

total=0
failed=0
log_dir="$ROOT/fuzz/target/logs"
mkdir -p "$log_dir"
for t in "${targets[@]}"; do
  mkdir -p "corpus/$t" "artifacts/$t"
  limit=(-runs="$runs")
  [ -z "$time_limit" ] || limit=(-max_total_time="$time_limit")
  log="$log_dir/$t.$$.log"  # one per run: two runs at once must not share a log
  start=$(date +%s)
  if cargo "${toolchain[@]}" fuzz run -O -s "$sanitizer" "$t" "corpus/$t" "$seeds/$t" -- \
    "${limit[@]}" -max_len=8192 -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 >"$log" 2>&1; then
    status=ok
  else
    status=CRASHED
    failed=1
  fi
  n="$(grep -aoE '^Done [0-9]+ runs' "$log" | grep -oE '[0-9]+' | tail -1 || true)"
  [ -n "$n" ] || n="$(grep -aoE 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -oE '[0-9]+$' | tail -1 || true)"
  n="${n:-0}"
  total=$((total + n))
  secs=$(( $(date +%s) - start ))
  printf 'fuzz: %-6s %12d executions in %5ds  corpus %5d files  %s\n' "$t" "$n" "$secs" "$(ls "corpus/$t" | wc -l)" "$status"
  if [ "$status" != ok ]; then
    grep -aE 'panicked|ERROR: libFuzzer|SUMMARY|Test unit written' "$log" | head -n 8 >&2 || true
    echo "fuzz: full log: $log" >&2
  fi
done
printf 'fuzz: total  %12d executions\n' "$total"
exit "$failed"
