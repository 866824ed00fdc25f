#!/usr/bin/env bash
# `bash scripts/serve.sh` when trunk's file watcher dies (trunk 0.21: notify-debouncer-full panicked
# in 'notify-rs inotify loop', then "Aborted", and the site was gone). The real scripts/serve.sh and
# env.sh run from a throwaway git repository with stubs: scripts/setup.sh records its call; `trunk
# build` writes dist/index.html; `trunk watch` prints trunk's panic and aborts (SIGABRT) or, in
# the last case, stays up. Each case is bounded (SERVE_WAIT seconds) and prints PASS or FAIL.
#   bash tests/scripts/serve-watcher.test.sh
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$here/support.sh"
SERVE_WAIT=30

# new_site DIR WATCH_BEHAVIOUR: the repository in DIR/repo, stubs in DIR/stubs; `trunk watch`
# aborts (WATCH_BEHAVIOUR=abort) or stays up (live). Every call goes to DIR/calls.log.
new_site() {
  local dir="$1" behaviour="$2"
  new_repo "$dir/repo" scripts/env.sh scripts/serve.sh
  mkdir -p "$dir/stubs" "$dir/home"
  stub "$dir/repo/scripts/setup.sh" <<<"echo \"setup \$*\" >>'$dir/calls.log'"
  stub "$dir/stubs/wasm-bindgen" <<<'exit 0'
  stub "$dir/stubs/wasm-opt" <<<'exit 0'
  stub "$dir/stubs/trunk" <<STUB
echo "trunk \$*" >>"$dir/calls.log"
case "\$1" in
  build) out=dist; [ "\${2:-}" != --dist ] || out="\$3"
    mkdir -p "\$out" && echo '<title>built by the stub</title>' >"\$out/index.html" ;;
  watch)
    if [ "$behaviour" = live ]; then echo \$\$ >"$dir/watch.pid"; exec sleep 300; fi
    echo "thread 'notify-rs inotify loop' panicked at notify-debouncer-full-0.5.0/src/lib.rs:274:32:" >&2
    echo "index out of bounds: the len is 0 but the index is 0" >&2
    kill -ABRT \$\$ ;;
esac
STUB
}

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
# serves_dist PORT: the page at the port is the stub's dist/index.html.
serves_dist() {
  python3 -c 'import sys, urllib.request; sys.exit("built by the stub" not in urllib.request.urlopen(sys.argv[1], timeout=2).read().decode())' \
    "http://127.0.0.1:$1/" 2>/dev/null
}

# start_serve DIR PORT: bash scripts/serve.sh $SERVE_FLAGS PORT in the background (output in
# DIR/serve.out).
start_serve() {
  local dir="$1"
  local as_from_terminal=()
  # INTERACTIVE=1: its own process group, SIGINT restored (a background job ignores it).
  [ -z "${INTERACTIVE:-}" ] || as_from_terminal=(python3 -c \
    'import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); os.setpgid(0, 0); os.execvp(sys.argv[1], sys.argv[1:])')
  (cd "$dir/repo" && exec "${as_from_terminal[@]}" env -i HOME="$dir/home" PATH="$dir/stubs:$BASE_BIN" \
    bash scripts/serve.sh ${SERVE_FLAGS:-} "$2" >"$dir/serve.out" 2>&1) &
  SERVE_PID=$!
}
# wait_for DIR TEXT: until serve.sh's output holds TEXT (at most SERVE_WAIT seconds).
wait_for() {
  local i
  for i in $(seq 1 $((SERVE_WAIT * 10))); do
    grep -qF -- "$2" "$1/serve.out" && return 0
    kill -0 "$SERVE_PID" 2>/dev/null || { echo "serve.sh ended before printing '$2':"; cat "$1/serve.out"; return 1; }
    sleep 0.1
  done
  echo "no '$2' within ${SERVE_WAIT} s:"
  cat "$1/serve.out"
  return 1
}
# serve_site DIR WATCH_BEHAVIOUR: new_site, then start_serve on a free port (in PORT), until it
# prints the URL.
serve_site() {
  PORT="$(free_port)"
  new_site "$1" "$2"
  start_serve "$1" "$PORT"
  wait_for "$1" "serve: http://127.0.0.1:$PORT/"
}
stop_serve() {
  kill -TERM "$SERVE_PID" 2>/dev/null || true
  wait "$SERVE_PID" 2>/dev/null || true
}

# stopped DIR WATCHER_PID: serve.sh, the watcher and the server all end (bounded).
stopped() {
  for _ in $(seq 1 $((SERVE_WAIT * 10))); do kill -0 "$SERVE_PID" 2>/dev/null || break; sleep 0.1; done
  if kill -0 "$SERVE_PID" 2>/dev/null; then echo "serve.sh still runs:"; cat "$1/serve.out"; return 1; fi
  for _ in $(seq 1 20); do kill -0 "$2" 2>/dev/null || break; sleep 0.1; done
  if kill -0 "$2" 2>/dev/null; then echo "the watcher ($2) still runs"; kill "$2"; return 1; fi
  if serves_dist "$PORT"; then echo "the server still answers"; return 1; fi
}

test_setup_runs_then_the_build_then_the_url_is_served() {
  local dir="$1"
  trap stop_serve RETURN
  serve_site "$dir" abort || return 1
  [ "$(head -2 "$dir/calls.log")" = "$(printf 'setup serve\ntrunk build --release')" ] ||
    { echo "not setup, then the build:"; cat "$dir/calls.log"; return 1; }
  serves_dist "$PORT" || { echo "dist/ is not served"; return 1; }
}

test_the_watcher_aborting_leaves_the_server_serving_and_it_is_restarted() {
  local dir="$1"
  trap stop_serve RETURN
  serve_site "$dir" abort || return 1
  wait_for "$dir" "rebuilding on change is off" || return 1
  grep -q 'panicked at notify-debouncer-full' "$dir/serve.out" || { echo "the stub's panic is not in the output"; return 1; }
  [ "$(grep -c 'trunk watch died (exit 134)' "$dir/serve.out")" = 2 ] || { echo "not restarted twice:"; cat "$dir/serve.out"; return 1; }
  [ "$(grep -c '^trunk watch --release$' "$dir/calls.log")" = 3 ] || { echo "not 3 watchers:"; cat "$dir/calls.log"; return 1; }
  serves_dist "$PORT" || { echo "dist/ is no longer served"; return 1; }
  kill -0 "$SERVE_PID" 2>/dev/null || { echo "serve.sh ended"; return 1; }
}

test_stopping_serve_stops_the_server_and_the_watcher() {
  local dir="$1" watcher
  serve_site "$dir" live || { stop_serve; return 1; }
  wait_for "$dir" "rebuilding it on change" || { stop_serve; return 1; }
  for _ in $(seq 1 50); do [ -s "$dir/watch.pid" ] && break; sleep 0.1; done
  watcher="$(cat "$dir/watch.pid")"
  kill -TERM "$SERVE_PID"
  stopped "$dir" "$watcher" || { stop_serve; return 1; }
}

test_ctrl_c_stops_the_server_and_the_watcher() {
  local dir="$1" watcher
  # As from a terminal: serve.sh leads its own process group, SIGINT not ignored, and Ctrl-C
  # sends SIGINT to the whole group.
  INTERACTIVE=1 serve_site "$dir" live || { stop_serve; return 1; }
  wait_for "$dir" "rebuilding it on change" || { stop_serve; return 1; }
  for _ in $(seq 1 50); do [ -s "$dir/watch.pid" ] && break; sleep 0.1; done
  watcher="$(cat "$dir/watch.pid")"
  kill -INT -- "-$SERVE_PID"
  stopped "$dir" "$watcher" || { stop_serve; return 1; }
}

test_dev_builds_and_watches_the_dev_build_into_dist_dev() {
  local dir="$1"
  trap stop_serve RETURN
  SERVE_FLAGS=--dev serve_site "$dir" live || return 1
  wait_for "$dir" "rebuilding it on change (trunk watch --dist dist-dev" || return 1
  for _ in $(seq 1 50); do [ -s "$dir/watch.pid" ] && break; sleep 0.1; done
  [ "$(head -3 "$dir/calls.log")" = "$(printf 'setup serve\ntrunk build --dist dist-dev\ntrunk watch --dist dist-dev')" ] ||
    { echo "not setup, then the dev build, then its watcher:"; cat "$dir/calls.log"; return 1; }
  [ -f "$dir/repo/dist-dev/index.html" ] && [ ! -e "$dir/repo/dist" ] ||
    { echo "not built into dist-dev/ alone (the release dist/ is left alone)"; return 1; }
  serves_dist "$PORT" || { echo "dist-dev/ is not served"; return 1; }
}

run_tests test_setup_runs_then_the_build_then_the_url_is_served \
  test_dev_builds_and_watches_the_dev_build_into_dist_dev \
  test_the_watcher_aborting_leaves_the_server_serving_and_it_is_restarted \
  test_stopping_serve_stops_the_server_and_the_watcher \
  test_ctrl_c_stops_the_server_and_the_watcher
