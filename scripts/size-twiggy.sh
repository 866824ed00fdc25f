#!/usr/bin/env bash
# Where the page's wasm goes, per crate and per function (twiggy, `cargo install twiggy`).
# Builds the page's binary as the release build does (cargo's wasm-release profile, wasm-bindgen,
# wasm-opt as Trunk runs it for that binary's link in index.html: `-O<data-wasm-opt>` then
# `data-wasm-opt-params`, and its `data-cargo-features`, all read from index.html so there is one
# place to change them) but keeps the function names (`wasm-opt -g`), which the release build
# strips; the names only label the code.
#   bash scripts/size-twiggy.sh [OUT_DIR] [ROWS]     (default /tmp/size-twiggy, 40 rows)
#   BIN=api-worker bash scripts/size-twiggy.sh …     (a worker binary instead: any data-bin of index.html)
# Prints twiggy's top functions, its monomorphisations (generic code compiled once per type) and the
# code bytes summed by crate (raw, before gzip; data segments apart). OUT_DIR keeps named.wasm for
# more questions: `twiggy paths OUT_DIR/named.wasm NAME`, `twiggy dominators …`.
set -euo pipefail
out="${1:-/tmp/size-twiggy}"
rows="${2:-40}"
bin="${BIN:-jsonrpc-playground}"
root="$(cd "$(dirname "$0")/.." && pwd)"
target="${CARGO_TARGET_DIR:-$root/target}"
command -v twiggy >/dev/null || { echo "size-twiggy: no twiggy: cargo install twiggy" >&2; exit 1; }
mkdir -p "$out"
# The wasm-opt passes of this binary's <link data-trunk rel="rust" data-bin=BIN …> in index.html.
link=$(grep -oE "<link data-trunk rel=\"rust\"[^>]* data-bin=\"$bin\"[^>]*>" "$root/index.html") ||
  { echo "size-twiggy: index.html has no Trunk rust link with data-bin=\"$bin\"" >&2; exit 1; }
[ "$(grep -c . <<<"$link")" = 1 ] || { echo "size-twiggy: index.html links data-bin=\"$bin\" more than once" >&2; exit 1; }
# Trunk runs `wasm-opt -O<data-wasm-opt> <data-wasm-opt-params>`, the level first.
level=$(sed -nE 's/.* data-wasm-opt="([^"]*)".*/\1/p' <<<"$link")
params=$(sed -nE 's/.* data-wasm-opt-params="([^"]*)".*/\1/p' <<<"$link")
[ -n "$level" ] || { echo "size-twiggy: index.html gives $bin no data-wasm-opt level" >&2; exit 1; }
read -r -a passes <<<"-O$level $params"
# Its cargo features (data-cargo-features: the mcp-schemas feature of probe-worker, mcp-mock-worker).
features=$(sed -nE 's/.* data-cargo-features="([^"]*)".*/\1/p' <<<"$link")
echo "size-twiggy: $bin: features '${features}', wasm-opt ${passes[*]} (index.html)" >&2
cargo build --locked --manifest-path "$root/Cargo.toml" --target wasm32-unknown-unknown \
  --profile wasm-release --bin "$bin" ${features:+--features "$features"}
wasm-bindgen --target web --keep-debug --out-dir "$out/bindgen" \
  "$target/wasm32-unknown-unknown/wasm-release/$bin.wasm"
wasm-opt "${passes[@]}" -g --enable-bulk-memory --enable-nontrapping-float-to-int \
  --enable-sign-ext --enable-mutable-globals \
  "$out/bindgen/${bin}_bg.wasm" -o "$out/named.wasm"
twiggy top -n "$rows" "$out/named.wasm"
twiggy monos -m "$rows" -n 0 "$out/named.wasm"
twiggy top -n 1000000 -f csv "$out/named.wasm" >"$out/top.csv"
# Per crate: the first path segment of each function's name (`<impl X for Y>` counts for X's crate).
awk 'NR > 1 && match($0, /,[0-9]+,[0-9.e+-]+,[0-9]*,[0-9.e+-]*$/) {
    name = substr($0, 1, RSTART - 1); split(substr($0, RSTART + 1), f, ","); bytes = f[1]
    sub(/^"+/, "", name)
    if (name ~ /names" *subsection/ || name ~ /^function names/) next
    if (name ~ /^data segment/) crate = "(data segments)"
    else { crate = name; sub(/^<*(impl )?/, "", crate); sub(/[^a-z0-9_].*$/, "", crate); if (crate == "") crate = "(other)" }
    sum[crate] += bytes; total += bytes
  } END {
    for (c in sum) printf "%9d %5.1f%% %s\n", sum[c], 100 * sum[c] / total, c
  }' "$out/top.csv" | sort -rn | head -25
