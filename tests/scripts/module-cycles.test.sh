#!/usr/bin/env bash
# scripts/module-cycles.mjs (test.sh's "source: no import circle" stage) on planted crates: a
# throwaway src/ whose modules use each other in a circle must fail naming the circle; one whose
# uses only go one way, or only between a module and its own child, must pass; a loop that goes
# through a module's child (`a` uses `b`, `b` uses `a::x`) must fail as a circle between `a` and
# `b`; a use after a `//` inside a string or a `'"'` character must still be seen. Each case
# prints PASS or FAIL.
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

test_a_loop_through_a_child_module_fails_between_the_parents() {
  local dir="$1" out rc=0
  plant "$dir" lib.rs 'mod api; mod ui;'
  plant "$dir" api/mod.rs 'use crate::ui::views::Panel;'
  plant "$dir" ui/mod.rs 'pub mod views; pub mod state;'
  plant "$dir" ui/views.rs 'pub struct Panel;'
  plant "$dir" ui/state.rs 'use crate::api::Document;'
  out="$(node "$cycles" "$dir/src")" || rc=$?
  [ "$rc" = 1 ] || { echo "exit $rc, not 1:"; echo "$out"; return 1; }
  grep -qF 'import circle between api, ui' <<<"$out" || { echo "circle not named:"; echo "$out"; return 1; }
  grep -qF 'ui → api: ui::state uses api' <<<"$out" || { echo "the use behind the arrow not named:"; echo "$out"; return 1; }
}

test_a_use_after_a_url_in_a_string_or_a_quote_character_is_seen() {
  local dir="$1" out rc=0
  plant "$dir" lib.rs 'mod check; mod probe;'
  plant "$dir" check.rs 'fn f() { let url = "http://x"; super::probe::fetch(url); }'
  plant "$dir" probe.rs "fn g() -> char { let q = '\"'; crate::check::open(); q }"
  out="$(node "$cycles" "$dir/src")" || rc=$?
  [ "$rc" = 1 ] || { echo "exit $rc, not 1:"; echo "$out"; return 1; }
  grep -qF 'import circle between check, probe' <<<"$out" || { echo "circle not named:"; echo "$out"; return 1; }
}

test_a_path_inside_a_string_or_a_block_comment_is_no_use() {
  local dir="$1" out
  plant "$dir" lib.rs 'mod a; mod b;'
  plant "$dir" a.rs 'use crate::b::B; pub struct A;'
  plant "$dir" b.rs 'pub struct B; /* crate::a::A */ const S: &str = r#"crate::a::A "quoted""#; fn lt<'"'"'x>(s: &'"'"'x str) {}'
  out="$(node "$cycles" "$dir/src")" || { echo "failed:"; echo "$out"; return 1; }
}

test_rooms_kept_apart_that_use_each_other_fail() {
  local dir="$1" out rc=0
  plant "$dir" lib.rs 'mod web;'
  plant "$dir" web/mod.rs '//! Apart (scripts/module-cycles.mjs): page, views, workers.
pub mod kit; pub mod page; pub mod views; pub mod workers;'
  plant "$dir" web/kit.rs 'pub struct Port;'
  plant "$dir" web/page.rs 'use crate::web::kit::Port; pub struct AppState;'
  plant "$dir" web/views.rs 'use crate::web::page::AppState;'
  plant "$dir" web/workers.rs 'use super::kit::Port;'
  out="$(node "$cycles" "$dir/src")" || rc=$?
  [ "$rc" = 1 ] || { echo "exit $rc, not 1:"; echo "$out"; return 1; }
  grep -qF 'web::views uses web::page (web::views uses web::page), but web keeps page, views, workers apart' <<<"$out" ||
    { echo "crossing not named:"; echo "$out"; return 1; }
}

run_tests test_a_planted_circle_of_three_modules_fails_and_is_named \
  test_uses_one_way_pass \
  test_a_module_and_its_child_using_each_other_pass \
  test_a_loop_through_a_child_module_fails_between_the_parents \
  test_a_use_after_a_url_in_a_string_or_a_quote_character_is_seen \
  test_a_path_inside_a_string_or_a_block_comment_is_no_use \
  test_rooms_kept_apart_that_use_each_other_fail
