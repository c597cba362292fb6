#!/usr/bin/env bash
# The container image end to end: makes a Debian base with mmdebstrap (carrying this machine's CA
# bundle, as a company base image carries its CA), imports it, builds the Dockerfile from it, then
# runs the image's `migrate`, `serve`, `worker` and `scheduler` against a PostgreSQL, a Redis (AOF)
# and an S3 server (moto) this script starts on loopback ports; every container uses the host's
# network. Checks: the image runs as a non-root user, /readyz answers 200 with the PDF renderer
# and the visual readings' models ready, an account made with the image's `create-account` gets
# a billed async natal PDF report through the queue (job succeeded, credits charged once, the PDF
# downloads), and Docker's HEALTHCHECK reports the API container healthy. Prints the time of each phase, the image size
# and the worker's memory after the render.
#
# Skips (exit 0, with the reason) where Docker cannot run: not root and no running daemon, or
# dockerd fails to start (no overlay, no cgroups). Installs docker.io and mmdebstrap with apt-get
# when missing and root. Starts dockerd when none is running, and stops the one it started.
# Then runs scripts/compose-test.sh (compose.yaml's whole topology from the same image).
# Environment: ASTRO_CT_REBUILD_BASE=1 remakes the base image even when it exists;
# ASTRO_CT_KEEP=1 leaves the containers (not the services) for inspection; ASTRO_CT_COMPOSE=0
# leaves out the compose test.
set -euo pipefail
export UV_PYTHON_DOWNLOADS=never
cd "$(dirname "$0")/.."
started=$(date +%s)
phase_started=$started

BASE_IMAGE=local/astro-base-bookworm
IMAGE=astro-server:container-test
SUBJECT='{"date": "1990-05-01", "time": "07:30", "latitude": 13.75, "longitude": 100.5}'

log() { printf '[container-test] %s\n' "$*" >&2; }
phase() {
  local now; now=$(date +%s)
  log "$1 ($(( now - phase_started )) s)"
  phase_started=$now
}
skip() { [ -n "${WORK:-}" ] && rm -rf "$WORK"; log "SKIPPED: $*"; exit 0; }
# The legacy builder: Debian's docker.io has no buildx, and BuildKit is not needed here.
export DOCKER_BUILDKIT=0

# --- Docker -------------------------------------------------------------------------------------
is_root() { [ "$(id -u)" = 0 ]; }
if ! command -v docker >/dev/null 2>&1 || ! command -v mmdebstrap >/dev/null 2>&1 \
    || ! command -v dockerd >/dev/null 2>&1; then
  if is_root && command -v apt-get >/dev/null 2>&1; then
    log "installing docker.io and mmdebstrap with apt-get"
    DEBIAN_FRONTEND=noninteractive apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
      docker.io mmdebstrap >/dev/null
  elif ! docker info >/dev/null 2>&1; then
    skip "Docker is not installed and this is not root with apt-get (needs docker.io, mmdebstrap)"
  fi
fi

WORK=$(mktemp -d /tmp/astro-container-test.XXXXXX)
chmod 755 "$WORK"
DOCKERD_PID=
CONTAINERS=()

if ! docker info >/dev/null 2>&1; then
  is_root || skip "no Docker daemon is running and dockerd needs root"
  log "starting dockerd"
  dockerd >"$WORK/dockerd.log" 2>&1 </dev/null &
  DOCKERD_PID=$!
  for _ in $(seq 60); do
    docker info >/dev/null 2>&1 && break
    kill -0 "$DOCKERD_PID" 2>/dev/null || break
    sleep 0.5
  done
  if ! docker info >/dev/null 2>&1; then
    tail -5 "$WORK/dockerd.log" >&2 || true
    kill "$DOCKERD_PID" 2>/dev/null || true
    wait "$DOCKERD_PID" 2>/dev/null || true
    skip "dockerd cannot run on this machine (its last lines are above)"
  fi
fi

# --- cleanup ------------------------------------------------------------------------------------
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
PG_BIN=$(find_pg_bin || true)
as_pg() { if is_root; then runuser -u postgres -- "$@"; else "$@"; fi; }
cleanup() {
  local rc=$?
  trap - EXIT INT TERM HUP
  if [ "$rc" != 0 ] && [ "${#CONTAINERS[@]}" -gt 0 ]; then
    for name in "${CONTAINERS[@]}"; do
      log "--- last lines of $name ---"
      docker logs --tail 30 "$name" 2>&1 | sed 's/^/    /' >&2 || true
    done
  fi
  if [ "${ASTRO_CT_KEEP:-0}" != 1 ] && [ "${#CONTAINERS[@]}" -gt 0 ]; then
    docker rm -f "${CONTAINERS[@]}" >/dev/null 2>&1 || true
  fi
  [ -n "$PG_BIN" ] && as_pg "$PG_BIN/pg_ctl" -D "$WORK/pg/data" -m immediate -w stop >/dev/null 2>&1 || true
  if [ -f "$WORK/redis.pid" ]; then kill "$(cat "$WORK/redis.pid")" 2>/dev/null || true; fi
  if [ -f "$WORK/moto.pid" ]; then kill "$(cat "$WORK/moto.pid")" 2>/dev/null || true; fi
  if [ -n "$DOCKERD_PID" ]; then
    kill "$DOCKERD_PID" 2>/dev/null || true
    for _ in $(seq 40); do kill -0 "$DOCKERD_PID" 2>/dev/null || break; sleep 0.5; done
  fi
  rm -rf "$WORK"
  log "finished in $(( $(date +%s) - started )) s (exit $rc)"
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM HUP

# --- the base image and the build ---------------------------------------------------------------
if [ "${ASTRO_CT_REBUILD_BASE:-0}" = 1 ] || ! docker image inspect "$BASE_IMAGE" >/dev/null 2>&1; then
  CA=/etc/ssl/certs/ca-certificates.crt
  [ -f "$CA" ] || { log "no CA bundle at $CA"; exit 1; }
  log "making the base image with mmdebstrap (Debian bookworm, python3, this machine's CA bundle)"
  mmdebstrap --quiet --variant=minbase --include=python3,python3-venv,ca-certificates \
    --customize-hook="cp $CA \"\$1/etc/ssl/certs/host-ca-bundle.crt\"" \
    bookworm "$WORK/base.tar"
  docker import \
    --change "ENV PIP_CERT=/etc/ssl/certs/host-ca-bundle.crt" \
    --change "ENV SSL_CERT_FILE=/etc/ssl/certs/host-ca-bundle.crt" \
    "$WORK/base.tar" "$BASE_IMAGE" >/dev/null
  rm -f "$WORK/base.tar"
  phase "base image $BASE_IMAGE made"
else
  phase "base image $BASE_IMAGE already here (ASTRO_CT_REBUILD_BASE=1 remakes it)"
fi

log "building $IMAGE"
if ! docker build --network host --build-arg "BASE_IMAGE=$BASE_IMAGE" -t "$IMAGE" . \
    >"$WORK/build.log" 2>&1; then
  tail -40 "$WORK/build.log" >&2
  log "docker build failed"; exit 1
fi
SIZE=$(docker image inspect "$IMAGE" --format '{{.Size}}')
phase "image built: $IMAGE, $(( SIZE / 1000000 )) MB"
user=$(docker run --rm --network host --entrypoint id "$IMAGE" -u)
[ "$user" != 0 ] || { log "the image runs as root"; exit 1; }

# --- services on loopback -----------------------------------------------------------------------
if [ -z "$PG_BIN" ] || ! command -v redis-server >/dev/null 2>&1; then
  is_root || { log "needs PostgreSQL and Redis (apt-get install postgresql redis-server)"; exit 1; }
  log "installing PostgreSQL and Redis with apt-get"
  DEBIAN_FRONTEND=noninteractive apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql redis-server >/dev/null
  PG_BIN=$(find_pg_bin)
fi
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }
PG_PORT=$(free_port); REDIS_PORT=$(free_port); S3_PORT=$(free_port); API_PORT=$(free_port)
if is_root; then
  id postgres >/dev/null 2>&1 || useradd --system --home-dir /var/lib/postgresql postgres
  install -d -o postgres -g postgres "$WORK/pg"
else
  mkdir -p "$WORK/pg"
fi
as_pg "$PG_BIN/initdb" -D "$WORK/pg/data" -U postgres -A trust -E UTF8 --locale=C.UTF-8 --no-sync \
  >"$WORK/initdb.log" 2>&1 || { cat "$WORK/initdb.log" >&2; log "initdb failed"; exit 1; }
as_pg "$PG_BIN/pg_ctl" -D "$WORK/pg/data" -l "$WORK/pg/log" -w -t 30 \
  -o "-p $PG_PORT -k $WORK/pg -c listen_addresses=127.0.0.1 -c fsync=off" start >/dev/null \
  || { cat "$WORK/pg/log" >&2 || true; log "PostgreSQL did not start"; exit 1; }
# AOF on, as production runs it (docs/operations.md, Redis).
redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --daemonize yes --save '' --appendonly yes \
  --dir "$WORK" --pidfile "$WORK/redis.pid" --logfile "$WORK/redis.log" >/dev/null
for _ in $(seq 50); do
  redis-cli -p "$REDIS_PORT" ping 2>/dev/null | grep -q PONG && break
  sleep 0.1
done
redis-cli -p "$REDIS_PORT" ping 2>/dev/null | grep -q PONG || { log "Redis did not start"; exit 1; }
if command -v uv >/dev/null 2>&1; then UV=(uv); else
  python3 -m uv --version >/dev/null 2>&1 \
    || python3 -m pip install --quiet --disable-pip-version-check uv
  UV=(python3 -m uv)
fi
"${UV[@]}" sync --frozen --all-packages --quiet
VENV_PY=$("${UV[@]}" run --frozen python -c 'import sys; print(sys.executable)')
MOTO=$("${UV[@]}" run --frozen python -c 'import shutil; print(shutil.which("moto_server") or "")')
[ -n "$MOTO" ] || { log "moto_server not found (moto[server] is a dev dependency)"; exit 1; }
"$MOTO" -H 127.0.0.1 -p "$S3_PORT" >"$WORK/moto.log" 2>&1 </dev/null &
echo $! >"$WORK/moto.pid"
BUCKET=astro-ct-$(python3 -c 'import secrets; print(secrets.token_hex(4))')
for _ in $(seq 100); do
  if "$VENV_PY" - "$S3_PORT" "$BUCKET" 2>/dev/null <<'EOF'
import sys

import boto3

boto3.client(
    "s3", endpoint_url=f"http://127.0.0.1:{sys.argv[1]}", aws_access_key_id="test",
    aws_secret_access_key="test", region_name="us-east-1",
).create_bucket(Bucket=sys.argv[2])
EOF
  then S3_READY=1; break; fi
  sleep 0.2
done
[ "${S3_READY:-0}" = 1 ] || { cat "$WORK/moto.log" >&2 || true; log "the S3 server (moto) did not start"; exit 1; }
phase "PostgreSQL :$PG_PORT, Redis :$REDIS_PORT (AOF), S3 (moto) :$S3_PORT on 127.0.0.1"

# The containers' settings, in a file only root reads (no secret on a command line).
ENV_FILE="$WORK/astro.env"
(
  umask 077
  cat >"$ENV_FILE" <<EOF
ASTRO_DATABASE_URL=postgres://postgres@127.0.0.1:$PG_PORT/postgres
ASTRO_REDIS_URL=redis://127.0.0.1:$REDIS_PORT/0
ASTRO_SECRET_KEY=$(python3 -c 'import secrets; print(secrets.token_urlsafe(48))')
ASTRO_STORAGE_URL=s3://$BUCKET/files
ASTRO_S3_ENDPOINT_URL=http://127.0.0.1:$S3_PORT
ASTRO_S3_ACCESS_KEY_ID=test
ASTRO_S3_SECRET_ACCESS_KEY=test
ASTRO_S3_REGION=us-east-1
ASTRO_HOST=127.0.0.1
ASTRO_PORT=$API_PORT
ASTRO_PUBLIC_URL=http://127.0.0.1:$API_PORT
ASTRO_DB_POOL_SIZE=5
ASTRO_WORKER_CONCURRENCY=2
EOF
)
run() { docker run --rm --network host --env-file "$ENV_FILE" "$IMAGE" "$@"; }
start() {  # start NAME COMMAND...: a detached container of the image
  local name=astro-ct-$$-$1; shift
  CONTAINERS+=("$name")
  # Read-only root file system: only /tmp (Chromium's profile and shared memory) is writable,
  # as the Kubernetes manifests could run it.
  docker run -d --name "$name" --network host --env-file "$ENV_FILE" \
    --read-only --tmpfs /tmp:rw,size=512m \
    "$IMAGE" "$@" >/dev/null
}

# --- the four roles -----------------------------------------------------------------------------
run migrate | sed 's/^/    migrate: /' >&2
phase "migrate ran"
start api serve
start worker worker
start scheduler scheduler
ready=0
for _ in $(seq 120); do
  if python3 -c "import urllib.request,sys; sys.exit(urllib.request.urlopen('http://127.0.0.1:$API_PORT/readyz', timeout=2).status != 200)" 2>/dev/null; then
    ready=1; break
  fi
  sleep 0.5
done
[ "$ready" = 1 ] || { log "/readyz did not answer 200 within 60 s"; exit 1; }
phase "serve, worker and scheduler started; /readyz 200"

ACCOUNT=$(run create-account --name container-test --tier pro --credits 100 --json | tail -1)
phase "account created with the image's create-account"

# --- a billed async natal PDF report through the queue ------------------------------------------
python3 - "$API_PORT" "$ACCOUNT" "$SUBJECT" <<'EOF'
import json
import sys
import time
import urllib.error
import urllib.request

port, account, subject = sys.argv[1], json.loads(sys.argv[2]), json.loads(sys.argv[3])
base = f"http://127.0.0.1:{port}"
headers = {"X-API-Key": account["api_key"], "Content-Type": "application/json"}


def call(method: str, path: str, body: object = None) -> tuple[int, dict]:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, headers=headers, method=method)
    try:
        with urllib.request.urlopen(req, timeout=60) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read() or b"{}")


def fail(message: str) -> None:
    print(f"[container-test] FAILED: {message}", file=sys.stderr)
    sys.exit(1)


status, ready = call("GET", "/readyz")
for capability in ("pdf_renderer", "visual"):  # Chromium; OpenCV and MediaPipe (libGL)
    if ready.get("checks", {}).get(capability) != "ok":
        fail(f"/readyz says {capability} is not ready: {ready}")
status, before = call("GET", "/api/v3/account")
balance = before["account"]["credits_balance"]
status, handle = call(
    "POST", "/api/v3/reports/natal/pdf",
    {"birth_subject": subject, "name": "Container Test", "async": True},
)
if status != 202:
    fail(f"POST /api/v3/reports/natal/pdf answered {status}: {handle}")
job_id = handle["job_id"]
deadline = time.monotonic() + 180
while True:
    status, job = call("GET", f"/api/v3/jobs/{job_id}")
    if job.get("status") in ("succeeded", "failed", "canceled"):
        break
    if time.monotonic() > deadline:
        fail(f"job {job_id} still {job.get('status')} after 180 s")
    time.sleep(0.5)
if job["status"] != "succeeded":
    fail(f"job {job_id} ended {job['status']}: {job.get('error')}")
pdf_url = job["result"]["pdf_url"]
with urllib.request.urlopen(pdf_url, timeout=60) as answer:  # noqa: S310 (our loopback server)
    pdf = answer.read()
if not pdf.startswith(b"%PDF-") or len(pdf) < 10_000:
    fail(f"the report at {pdf_url} is not a PDF ({len(pdf)} bytes)")
status, after = call("GET", "/api/v3/account")
charged = balance - after["account"]["credits_balance"]
if charged <= 0 or charged != job["credits_charged"] or job["credits_refunded"]:
    fail(f"billing: balance {balance} -> {after['account']['credits_balance']}, job {job}")
print(
    f"[container-test] job {job_id} succeeded: {len(pdf)} bytes of PDF from S3, "
    f"{charged} credits charged once",
    file=sys.stderr,
)
EOF
phase "async natal PDF job completed end to end"

# Docker's own HEALTHCHECK (GET /healthz inside the container) must call the API healthy.
api=${CONTAINERS[0]}
health=
for _ in $(seq 60); do
  health=$(docker inspect --format '{{.State.Health.Status}}' "$api")
  [ "$health" = healthy ] && break
  sleep 1
done
[ "$health" = healthy ] || { log "HEALTHCHECK says $health"; exit 1; }
for name in "${CONTAINERS[@]}"; do
  [ "$(docker inspect --format '{{.State.Running}}' "$name")" = true ] \
    || { log "$name is not running"; exit 1; }
done
# Memory after one report (the worker keeps its Chromium), for docs/operations.md, Sizing.
docker stats --no-stream --format '{{.Name}} {{.MemUsage}}' "${CONTAINERS[@]}" \
  | sed 's/^/    memory (cgroup): /' >&2
# Proportional set size of every process in the worker (Python, playwright's driver, Chromium):
# shared pages counted once, unlike a sum of RSS.
docker exec "${CONTAINERS[1]}" python3 -c '
import glob, re
total, names = 0, {}
for path in glob.glob("/proc/[0-9]*/smaps_rollup"):
    try:
        text = open(path).read()
        name = open(path.replace("smaps_rollup", "comm")).read().strip()
    except OSError:
        continue
    kb = int(re.search(r"^Pss:\s+(\d+)", text, re.M).group(1))
    total += kb
    names[name] = names.get(name, 0) + kb
parts = ", ".join(f"{n} {kb // 1024}" for n, kb in sorted(names.items(), key=lambda i: -i[1]))
print(f"worker PSS {total // 1024} MiB ({parts})")' | sed 's/^/    memory: /' >&2
phase "HEALTHCHECK healthy; every container still running"
log "PASSED: image $(( SIZE / 1000000 )) MB"
echo "container-test: 1 passed, 0 failed"

# compose.yaml's topology from the same image, while this dockerd runs (ASTRO_CT_COMPOSE=0: not).
if [ "${ASTRO_CT_COMPOSE:-1}" != 0 ]; then
  docker rm -f "${CONTAINERS[@]}" >/dev/null 2>&1 || true
  CONTAINERS=()
  bash scripts/compose-test.sh
fi
