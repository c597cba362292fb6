#!/usr/bin/env bash
# Starts the server in the embedded mode: SQLite under ./var, in-process job broker and scheduler,
# no database or Redis to install. Installs uv with pip when it is missing. Arguments go to
# `astro-server serve` (e.g. --port 9000). Installs Chromium (PDF reports) with apt-get when it
# is missing and this runs as root; otherwise says so and serves without PDF reports.
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
# The PDF reports print with Chromium (HTML reports and everything else work without it).
if ! command -v chromium >/dev/null 2>&1 && [ ! -x /usr/bin/chromium ] && [ -z "${ASTRO_CHROMIUM_PATH:-}" ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "serve.sh: installing Chromium with apt-get (for PDF reports)"
    DEBIAN_FRONTEND=noninteractive apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium >/dev/null
  else
    echo "serve.sh: Chromium is missing and this is not root with apt-get: PDF reports will answer 503" \
      "until it is installed (apt-get install --no-install-recommends chromium, or set ASTRO_CHROMIUM_PATH)"
  fi
fi
exec "${UV[@]}" run --frozen astro-server serve "$@"
