#!/usr/bin/env bash
# Prints every file of the web build, raw and gzipped, and the total; fails over the budget.
# Usage: bash scripts/size.sh [DIST_DIR] [BUDGET_KB_GZIPPED]
# The default budget below is the one enforced budget (scripts/test.sh and the Pages workflow use it).
# What the code does only to stay small is listed in docs/size-rules.md (no size trick outside it).
set -euo pipefail
dist="${1:-dist}"
budget_kb="${2:-545}"
[ -f "$dist/index.html" ] || { echo "size: no $dist/index.html: run trunk build --release first" >&2; exit 1; }

total_raw=0
total_gz=0
printf '%-52s %10s %10s\n' "file" "raw (B)" "gzip (B)"
while IFS= read -r -d '' f; do
  raw=$(wc -c <"$f")
  gz=$(gzip -9c "$f" | wc -c)
  total_raw=$((total_raw + raw))
  total_gz=$((total_gz + gz))
  printf '%-52s %10d %10d\n' "${f#"$dist"/}" "$raw" "$gz"
done < <(find "$dist" -type f ! -path '*/.stage/*' -print0 | sort -z)
printf '%-52s %10d %10d\n' "total" "$total_raw" "$total_gz"
awk -v gz="$total_gz" -v raw="$total_raw" -v b="$budget_kb" \
  'BEGIN { printf "size: %.1f KB gzipped, %.1f KB raw (budget %d KB gzipped; size rules: docs/size-rules.md)\n", gz / 1024, raw / 1024, b }'
if [ "$total_gz" -gt $((budget_kb * 1024)) ]; then
  echo "size: FAIL: over the ${budget_kb} KB gzipped budget" >&2
  exit 1
fi
