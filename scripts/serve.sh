#!/usr/bin/env bash
# Starts the server in the embedded mode: SQLite under ./var, in-process job broker and scheduler,
# no database or Redis to install. Installs uv with pip when it is missing. Arguments go to
# `astro-server serve` (e.g. --port 9000).
set -euo pipefail
export UV_PYTHON_DOWNLOADS=never
cd "$(dirname "$0")/.."
if command -v uv >/dev/null 2>&1; then
  UV=(uv)
else
  python3 -m uv --version >/dev/null 2>&1 || python3 -m pip install --quiet --disable-pip-version-check uv
  UV=(python3 -m uv)
fi
"${UV[@]}" sync --frozen --all-packages --quiet
exec "${UV[@]}" run --frozen astro-server serve "$@"
