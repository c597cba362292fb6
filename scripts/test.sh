#!/usr/bin/env bash
# Runs the whole test suite the way CI does: installs what is missing (uv via pip, PostgreSQL and
# Redis via apt-get), starts a throwaway PostgreSQL cluster, Redis server and S3 server (moto, a
# dev dependency) on free loopback ports in a temporary directory, runs ruff, mypy and pytest
# against them, and stops them whatever happens (a watchdog stops them even if this script is
# killed with SIGKILL).
# Extra arguments go to pytest, e.g. `bash scripts/test.sh -k natal -x`.
set -euo pipefail
export UV_PYTHON_DOWNLOADS=never
cd "$(dirname "$0")/.."
started=$(date +%s)

log() { printf '[test.sh] %s\n' "$*" >&2; }

# --- tools ---------------------------------------------------------------------------------------
if command -v uv >/dev/null 2>&1; then
  UV=(uv)
else
  if ! python3 -m uv --version >/dev/null 2>&1; then
    log "installing uv with pip"
    python3 -m pip install --quiet --disable-pip-version-check uv
  fi
  UV=(python3 -m uv)
fi

apt_updated=0
apt_install() {
  if [ "$(id -u)" != 0 ]; then
    log "need root to apt-get install $*"; return 1
  fi
  if [ "$apt_updated" = 0 ]; then DEBIAN_FRONTEND=noninteractive apt-get update -qq; apt_updated=1; fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}

find_pg_bin() {
  if command -v initdb >/dev/null 2>&1 && command -v pg_ctl >/dev/null 2>&1; then
    dirname "$(command -v pg_ctl)"; return 0
  fi
  local d
  for d in /usr/lib/postgresql/*/bin; do
    if [ -x "$d/initdb" ]; then echo "$d"; return 0; fi
  done
  return 1
}
if ! PG_BIN=$(find_pg_bin); then
  log "installing PostgreSQL with apt-get"
  apt_install postgresql
  PG_BIN=$(find_pg_bin)
fi
if ! command -v redis-server >/dev/null 2>&1; then
  log "installing Redis with apt-get"
  apt_install redis-server
fi
# Chromium renders the PDF reports (and drives the browser tests); poppler-utils checks the PDFs.
if ! command -v chromium >/dev/null 2>&1; then
  log "installing Chromium with apt-get"
  apt_install --no-install-recommends chromium chromium-driver
fi
# The PDF renderer prefers Chromium's headless shell (no browser UI: less memory per tab).
if ! command -v chromium-headless-shell >/dev/null 2>&1; then
  log "installing chromium-headless-shell with apt-get"
  # Optional: where the distribution has no such package, the renderer uses chromium.
  apt_install --no-install-recommends chromium-headless-shell \
    || log "chromium-headless-shell is not available here; the PDF renderer uses chromium"
fi
if ! command -v pdftotext >/dev/null 2>&1; then
  log "installing poppler-utils with apt-get"
  apt_install --no-install-recommends poppler-utils
fi

# --- services ------------------------------------------------------------------------------------
WORK=$(mktemp -d /tmp/astro-test.XXXXXX)
chmod 755 "$WORK"
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }
PG_PORT=$(free_port)
REDIS_PORT=$(free_port)
S3_PORT=$(free_port)

as_pg() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}
stop_services() {
  as_pg "$PG_BIN/pg_ctl" -D "$WORK/pg/data" -m immediate -w stop >/dev/null 2>&1 || true
  if [ -f "$WORK/redis.pid" ]; then kill "$(cat "$WORK/redis.pid")" 2>/dev/null || true; fi
  if [ -f "$WORK/moto.pid" ]; then kill "$(cat "$WORK/moto.pid")" 2>/dev/null || true; fi
  rm -rf "$WORK"
}
cleanup() {
  local rc=$?
  trap - EXIT INT TERM HUP
  stop_services
  [ -n "${WATCHDOG:-}" ] && kill "$WATCHDOG" 2>/dev/null || true
  log "finished in $(( $(date +%s) - started )) s (exit $rc)"
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM HUP

# If this script dies without running its trap (SIGKILL), the watchdog stops the services.
main_pid=$$
(
  trap '' INT TERM HUP
  while kill -0 "$main_pid" 2>/dev/null; do sleep 1; done
  as_pg "$PG_BIN/pg_ctl" -D "$WORK/pg/data" -m immediate -w stop >/dev/null 2>&1 || true
  if [ -f "$WORK/redis.pid" ]; then kill "$(cat "$WORK/redis.pid")" 2>/dev/null || true; fi
  if [ -f "$WORK/moto.pid" ]; then kill "$(cat "$WORK/moto.pid")" 2>/dev/null || true; fi
  rm -rf "$WORK"
) </dev/null >/dev/null 2>&1 &
WATCHDOG=$!

if [ "$(id -u)" = 0 ]; then
  id postgres >/dev/null 2>&1 || useradd --system --home-dir /var/lib/postgresql postgres
  install -d -o postgres -g postgres "$WORK/pg"
else
  mkdir -p "$WORK/pg"
fi
as_pg "$PG_BIN/initdb" -D "$WORK/pg/data" -U postgres -A trust -E UTF8 --locale=C.UTF-8 --no-sync >"$WORK/initdb.log" 2>&1 \
  || { cat "$WORK/initdb.log" >&2; log "initdb failed"; exit 1; }
as_pg "$PG_BIN/pg_ctl" -D "$WORK/pg/data" -l "$WORK/pg/log" -w -t 30 \
  -o "-p $PG_PORT -k $WORK/pg -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300" start >/dev/null \
  || { cat "$WORK/pg/log" >&2 || true; log "PostgreSQL did not start"; exit 1; }
# 32 databases: each pytest-xdist process uses three (tests/_support/stack.py), so up to ten.
redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --daemonize yes --save '' --appendonly no \
  --databases 32 --dir "$WORK" --pidfile "$WORK/redis.pid" --logfile "$WORK/redis.log" >/dev/null
for _ in $(seq 50); do
  if redis-cli -p "$REDIS_PORT" ping 2>/dev/null | grep -q PONG; then break; fi
  sleep 0.1
done
redis-cli -p "$REDIS_PORT" ping 2>/dev/null | grep -q PONG || { log "Redis did not start"; exit 1; }

export ASTRO_TEST_DATABASE_URL="postgres://postgres@127.0.0.1:$PG_PORT/postgres"
export ASTRO_TEST_REDIS_URL="redis://127.0.0.1:$REDIS_PORT/0"
export ASTRO_TEST_REDIS_DATABASES=32
export ASTRO_TEST_REQUIRE_SERVICES=1
# pg_dump/pg_restore of this server's version, for the backup and restore drill's test.
export ASTRO_TEST_PG_BIN="$PG_BIN"
log "PostgreSQL on 127.0.0.1:$PG_PORT, Redis on 127.0.0.1:$REDIS_PORT"

# --- checks --------------------------------------------------------------------------------------
"${UV[@]}" sync --frozen --all-packages --quiet

# The S3-compatible server for the production storage path (it needs the synced environment).
# moto checks neither signatures nor checksums: the signed-URL checks tested are our own.
MOTO=$("${UV[@]}" run --frozen python -c 'import shutil; print(shutil.which("moto_server") or "")')
[ -n "$MOTO" ] || { log "moto_server not found (moto[server] is a dev dependency)"; exit 1; }
"$MOTO" -H 127.0.0.1 -p "$S3_PORT" >"$WORK/moto.log" 2>&1 </dev/null &
echo $! >"$WORK/moto.pid"
for _ in $(seq 100); do
  if python3 -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$S3_PORT/', timeout=1)" 2>/dev/null; then break; fi
  sleep 0.1
done
python3 -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$S3_PORT/', timeout=1)" 2>/dev/null \
  || { cat "$WORK/moto.log" >&2 || true; log "the S3 server (moto) did not start"; exit 1; }
export ASTRO_TEST_S3_ENDPOINT="http://127.0.0.1:$S3_PORT"
log "S3 (moto) on 127.0.0.1:$S3_PORT"
if [ "${ASTRO_TEST_SKIP_LINT:-0}" != 1 ]; then
  log "ruff"
  "${UV[@]}" run --frozen ruff check .
  "${UV[@]}" run --frozen ruff format --check .
  log "mypy"
  "${UV[@]}" run --frozen mypy
  log "import contracts (import-linter)"
  "${UV[@]}" run --frozen lint-imports
fi
# Test files run in parallel processes (pytest-xdist, a file's tests stay in one process): most
# of the end-to-end time is spent waiting on subprocesses, workers and schedulers, so more
# processes than cores pay. Each process has its own Redis databases (conftest.redis_db).
WORKERS=${ASTRO_TEST_WORKERS:-4}
log "pytest ($WORKERS processes)"
if [ "$WORKERS" = 0 ]; then
  "${UV[@]}" run --frozen pytest "$@"
else
  # xdist's default order (the files with the most tests first) measured faster here than the
  # collection order, which ran every end-to-end file at once on two cores.
  "${UV[@]}" run --frozen pytest -n "$WORKERS" --dist loadfile "$@"
fi
