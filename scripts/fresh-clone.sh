#!/usr/bin/env bash
# Proves the repository stands alone: clones the committed HEAD into a fresh temporary folder with
# nothing beside it (no ../shared, no target/, no node_modules/), runs the README's test command
# there, and prints how long it took. Uncommitted changes are not in the clone.
#   bash scripts/fresh-clone.sh            # bash scripts/test.sh in the clone
#   bash scripts/fresh-clone.sh serve      # bash scripts/setup.sh serve + trunk build --release in the clone
#   KEEP=1 bash scripts/fresh-clone.sh     # keep the clone afterwards (its path is printed)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"

what="${1:-test}"
parent="$(mktemp -d)"
clone="$parent/jsonrpc-playground"
cleanup() { [ "${KEEP:-0}" = 1 ] || rm -rf "$parent"; }
trap cleanup EXIT
git clone --quiet "$ROOT" "$clone"
echo "fresh-clone: $(git -C "$clone" rev-parse --short HEAD) cloned into $clone (beside it: $(ls -A "$parent" | tr '\n' ' '))"
started=$(date +%s)
status=0
case "$what" in
  test) (cd "$clone" && bash scripts/test.sh) || status=$? ;;
  serve) (cd "$clone" && bash scripts/setup.sh serve && trunk build --release && bash scripts/size.sh dist) || status=$? ;;
  *) echo "usage: bash scripts/fresh-clone.sh [test|serve]" >&2; exit 2 ;;
esac
elapsed=$(($(date +%s) - started))
printf 'fresh-clone: %s %s after %dm%02ds\n' "$what" "$([ $status = 0 ] && echo passed || echo FAILED)" $((elapsed / 60)) $((elapsed % 60))
exit $status
