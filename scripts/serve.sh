#!/usr/bin/env bash
# Serves the web app (release build) at http://127.0.0.1:${PORT:-8080}, rebuilding on change.
# Usage: bash scripts/serve.sh [PORT]
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
bash "$ROOT/scripts/setup.sh"
cd "$ROOT"
port="${1:-${PORT:-8080}}"
echo "serve: http://127.0.0.1:$port/"
exec bash "$ROOT/scripts/trunk.sh" serve --release --address 127.0.0.1 --port "$port"
