#!/usr/bin/env bash
# Installs what serving needs (scripts/setup.sh serve), then serves the web app (the plain stable
# release build, `trunk serve --release`) at http://127.0.0.1:${PORT:-8080}, rebuilding on change.
# Usage: bash scripts/serve.sh [PORT]
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
bash "$ROOT/scripts/setup.sh" serve
cd "$ROOT"
port="${1:-${PORT:-8080}}"
echo "serve: http://127.0.0.1:$port/"
exec trunk serve --release --address 127.0.0.1 --port "$port"
