#!/usr/bin/env bash
# scripts/module-cycles.mjs (test.sh's "source: no import circle" stage) on planted crates: a
# throwaway src/ whose modules use each other in a circle must fail naming the circle; one whose
# uses only go one way, or only between a module and its own child, must pass. Each case prints
# PASS or FAIL.
#   bash tests/scripts/module-cycles.test.sh
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$here/support.sh"
cycles="$REPO/scripts/module-cycles.mjs"

# plant DIR FILE TEXT: writes TEXT to DIR/src/FILE.
plant() {
  mkdir -p "$(dirname "$1/src/$2")"
  printf '%s\n' "$3" >"$1/src/$2"
}

test_a_planted_circle_of_three_modules_fails_and_is_named() {
  local dir="$1" out rc=0
  plant "$dir" lib.rs 'mod api; mod exchange; mod state;'
  plant "$dir" state.rs 'use crate::api::ApiState;'
  plant "$dir" api/mod.rs 'use crate::exchange::LogState;'
  plant "$dir" exchange/mod.rs 'use super::state::AppState;'
  out="$(node "$cycles" "$dir/src")" || rc=$?
  [ "$rc" = 1 ] || { echo "exit $rc, not 1:"; echo "$out"; return 1; }
  grep -qF 'import circle between api, exchange, state' <<<"$out" || { echo "circle not named:"; echo "$out"; return 1; }
}

test_uses_one_way_pass() {
  local dir="$1" out
  plant "$dir" lib.rs 'mod api; mod exchange; mod state;'
  plant "$dir" api/mod.rs 'use crate::{exchange::LogState, state::AppState};'
  plant "$dir" exchange/mod.rs 'use super::state::AppState;'
  plant "$dir" state.rs '// state uses nothing: crate::api::ApiState in a comment is no use'
  out="$(node "$cycles" "$dir/src")" || { echo "failed:"; echo "$out"; return 1; }
  grep -qF 'module-cycles: no import circle' <<<"$out" || { echo "$out"; return 1; }
}

test_a_module_and_its_child_using_each_other_pass() {
  local dir="$1" out
  plant "$dir" lib.rs 'mod api;'
  plant "$dir" api/mod.rs 'mod panel; use panel::Panel; pub struct ApiState;'
  plant "$dir" api/panel.rs 'use super::ApiState; pub struct Panel;'
  out="$(node "$cycles" "$dir/src")" || { echo "failed:"; echo "$out"; return 1; }
}

run_tests test_a_planted_circle_of_three_modules_fails_and_is_named \
  test_uses_one_way_pass \
  test_a_module_and_its_child_using_each_other_pass
