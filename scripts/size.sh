#!/usr/bin/env bash
# Prints every file of the web build, raw and gzipped: first those of the first load (what the
# first view fetches: index.html and the files it names in href, src, data-js and data-wasm),
# then those loaded later (the workers started on first use, such as the Probe's, named in
# data-worker and data-lazy-*; the service worker, registered once the app runs), and the totals.
# The budget applies to the first load; the total is printed beside it.
# Usage: bash scripts/size.sh [DIST_DIR] [BUDGET_KB_GZIPPED]
# The default budget below is the one enforced budget (scripts/test.sh and the Pages workflow use it).
# What the code does only to stay small is listed in docs/size-rules.md (no size trick outside it).
set -euo pipefail
dist="${1:-dist}"
budget_kb="${2:-360}"
[ -f "$dist/index.html" ] || { echo "size: no $dist/index.html: run trunk build --release first" >&2; exit 1; }

# The first load's files, as index.html names them (quoted or bare attribute values, ./ or not).
first=$(grep -oE '[[:space:]](href|src|data-js|data-wasm)=("[^"]*"|[^[:space:]">]+)' "$dist/index.html" |
  sed -E 's/^[[:space:]][a-z-]+=//; s/^"//; s/"$//; s#^\./##' | sort -u)
is_first() {
  [ "$1" = index.html ] && return 0
  grep -qxF -- "$1" <<<"$first"
}

first_raw=0 first_gz=0 later_raw=0 later_gz=0
later_lines=""
printf '%-52s %10s %10s\n' "first load" "raw (B)" "gzip (B)"
while IFS= read -r -d '' f; do
  name="${f#"$dist"/}"
  raw=$(wc -c <"$f")
  gz=$(gzip -9c "$f" | wc -c)
  line=$(printf '%-52s %10d %10d' "$name" "$raw" "$gz")
  if is_first "$name"; then
    first_raw=$((first_raw + raw)) first_gz=$((first_gz + gz))
    echo "$line"
  else
    later_raw=$((later_raw + raw)) later_gz=$((later_gz + gz))
    later_lines+="$line"$'\n'
  fi
done < <(find "$dist" -type f ! -path '*/.stage/*' -print0 | sort -z)
printf '%-52s %10d %10d\n' "first load total" "$first_raw" "$first_gz"
printf '%-52s %10s %10s\n' "loaded later (on first use / after start)" "" ""
printf '%s' "$later_lines"
printf '%-52s %10d %10d\n' "loaded later total" "$later_raw" "$later_gz"
printf '%-52s %10d %10d\n' "total" "$((first_raw + later_raw))" "$((first_gz + later_gz))"
awk -v f="$first_gz" -v l="$later_gz" -v r="$first_raw" -v b="$budget_kb" \
  'BEGIN { printf "size: first load %.1f KB gzipped (%.1f KB raw; budget %d KB gzipped; size rules: docs/size-rules.md), loaded later %.1f KB gzipped, total %.1f KB gzipped\n", f / 1024, r / 1024, b, l / 1024, (f + l) / 1024 }'
if [ "$first_gz" -gt $((budget_kb * 1024)) ]; then
  echo "size: FAIL: the first load is over the ${budget_kb} KB gzipped budget" >&2
  exit 1
fi
