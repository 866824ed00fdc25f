#!/usr/bin/env bash
# Installs what serving needs (scripts/setup.sh serve), builds the web app (the plain stable
# release build, `trunk build --release`, into dist/), then serves dist/ at
# http://127.0.0.1:${PORT:-8080}/ and rebuilds it on change.
# Usage: bash scripts/serve.sh [--dev] [PORT]   (WATCH=0: build and serve, no rebuilding on change)
#   --dev: the contributor's loop: Trunk's dev build (`trunk build`, no --release: Cargo.toml's
#   profile.wasm-dev through index.html's data-cargo-profile-dev, no wasm-opt, no post-build
#   hook) into dist-dev/, served and rebuilt on change the same way. Quick to rebuild, large and
#   slower to run; the release build (dist/) stays the shipped one and the one the tests use.
#
# Built first, served by a server of its own, so that trunk's file watcher cannot take the site
# down: `trunk serve` runs the watcher in the serving process, and the watcher
# (notify-debouncer-full 0.5) can panic during the first build ("index out of bounds" in the
# 'notify-rs inotify loop' thread, then "Aborted"). Here:
#   1. `trunk build --release` builds dist/ (a failed build ends the script: nothing to serve);
#   2. Python's http.server (the standard library: /usr/bin/python3) serves dist/, and the URL is
#      printed once it answers;
#   3. `trunk watch --release` rebuilds dist/ on change (it builds once more when it starts), in
#      its own process group. When it dies, the server keeps serving dist/ and the watcher is
#      restarted 2 s later; after 3 deaths within a minute of starting each, rebuilding on change
#      is off (the script says so) and the server goes on serving.
# Reload the page to see a rebuild (Trunk.toml turns the live-reload script off: the CSP blocks it).
# Ctrl-C (or SIGTERM) stops the server and the watcher with its build.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
bash "$ROOT/scripts/setup.sh" serve
resolve_tools
require_tools TOOL_TRUNK TOOL_WASM_BINDGEN TOOL_WASM_OPT >/dev/null
cd "$ROOT"
mode=(--release)
dist=dist
if [ "${1:-}" = --dev ]; then
  mode=(--dist dist-dev)
  dist=dist-dev
  shift
fi
port="${1:-${PORT:-8080}}"
url="http://127.0.0.1:$port/"
say() { printf 'serve: %s\n' "$*"; }

python=/usr/bin/python3
[ -x "$python" ] || python="$(command -v python3 || true)"
[ -n "$python" ] || { say "ERROR: python3 not found (its http.server serves dist/): install python3" >&2; exit 1; }

say "building $dist/ (trunk build ${mode[*]})"
"$TOOL_TRUNK" build "${mode[@]}"

server_pid=""
watch_pid=""
server_log="$(mktemp)"
stop() {
  trap - EXIT INT TERM
  [ -z "$watch_pid" ] || kill -TERM "$watch_pid" 2>/dev/null || true
  [ -z "$server_pid" ] || kill -TERM "$server_pid" 2>/dev/null || true
  wait 2>/dev/null || true
  rm -f "$server_log"
}
trap stop EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

"$python" -m http.server --bind 127.0.0.1 "$port" --directory "$dist" >"$server_log" 2>&1 &
server_pid=$!
answered=""
for _ in $(seq 1 100); do
  if "$python" -c 'import sys, urllib.request; urllib.request.urlopen(sys.argv[1], timeout=2)' "$url" 2>/dev/null; then
    answered=1
    break
  fi
  kill -0 "$server_pid" 2>/dev/null || break
  sleep 0.1
done
if [ -z "$answered" ]; then
  say "ERROR: the server did not start on port $port (in use? bash scripts/serve.sh OTHER_PORT):" >&2
  tail -5 "$server_log" >&2
  exit 1
fi

# Rebuilds dist/ on change; restarts `trunk watch` when it dies (see the header).
watch_dist() {
  local trunk_pid="" quick_deaths=0 started rc
  # Ctrl-C is the main script's to handle (it then stops this loop with SIGTERM): a subshell
  # would otherwise die of it at once and leave trunk, in its own process group, running.
  trap '' INT
  trap '[ -z "$trunk_pid" ] || kill -TERM -- "-$trunk_pid" 2>/dev/null; exit 0' TERM
  while :; do
    started=$SECONDS
    # setsid: its own process group, so stopping it stops the cargo build it runs too.
    setsid "$TOOL_TRUNK" watch "${mode[@]}" &
    trunk_pid=$!
    rc=0
    wait "$trunk_pid" || rc=$?
    kill -TERM -- "-$trunk_pid" 2>/dev/null || true # what a dead watcher left building
    trunk_pid=""
    if [ $((SECONDS - started)) -lt 60 ]; then quick_deaths=$((quick_deaths + 1)); else quick_deaths=1; fi
    if [ "$quick_deaths" -ge 3 ]; then
      say "trunk watch died 3 times within a minute of starting (last exit $rc): rebuilding on change is off; $url still serves $dist/ (rebuild it with trunk build ${mode[*]})"
      return 0
    fi
    say "trunk watch died (exit $rc); $url still serves $dist/; restarting the watcher in 2 s"
    sleep 2
  done
}

say "$url"
if [ "${WATCH:-1}" = 0 ]; then
  say "serving $dist/ (WATCH=0: no rebuilding on change); Ctrl-C stops"
else
  say "serving $dist/, rebuilding it on change (trunk watch ${mode[*]}; reload the page); Ctrl-C stops"
  watch_dist &
  watch_pid=$!
fi
rc=0
wait "$server_pid" || rc=$?
server_pid=""
say "ERROR: the server stopped (exit $rc)" >&2
tail -5 "$server_log" >&2
exit 1
