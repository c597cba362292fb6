#!/usr/bin/env bash
# compose.yaml end to end, where no image registry is reachable: `docker-compose up -d` brings up
# the whole topology (PostgreSQL, Redis with AOF, the S3 store, the one-shot bucket and migrate,
# two API containers, two workers, the scheduler), then checks every long-running service healthy
# and the one-shots exited 0, /readyz 200 on both API containers, a billed async natal PDF job
# queued through one API container, polled on the other and downloaded from both (one shared
# bucket), Redis writing its AOF, and tears everything down (volumes too).
#
# The astro-server image is the one scripts/container-test.sh built (astro-server:container-test;
# run that first). postgres:16-bookworm, redis:7-bookworm and minio/minio:latest cannot be pulled
# here, so STAND-INS with those names are built from the same local base: Debian's PostgreSQL 15
# behind an entry point that honours POSTGRES_USER/PASSWORD/DB, Debian's Redis 7, and moto's S3
# server answering as `minio server` with an `mc ready` look-alike. They test our compose file's
# wiring (conditions, healthchecks, variables, volumes), not those images. An image with one of
# those names that is already present (a real one) is used as it is.
# Skips (exit 0) where Docker does not answer or the images are missing; the API ports are
# ASTRO_CT_API_PORTS (default "18001 18002").
set -euo pipefail
cd "$(dirname "$0")/.."
started=$(date +%s)
log() { printf '[compose-test] %s\n' "$*" >&2; }
skip() { log "SKIPPED: $*"; exit 0; }
export DOCKER_BUILDKIT=0

command -v docker-compose >/dev/null 2>&1 || {
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends docker-compose >/dev/null
  else
    skip "docker-compose is not installed"
  fi
}
docker info >/dev/null 2>&1 || skip "no Docker daemon answers (scripts/container-test.sh starts one)"
IMAGE=astro-server:container-test
BASE=local/astro-base-bookworm
docker image inspect "$IMAGE" >/dev/null 2>&1 || skip "no $IMAGE: run scripts/container-test.sh first"
docker image inspect "$BASE" >/dev/null 2>&1 || skip "no $BASE: run scripts/container-test.sh first"

WORK=$(mktemp -d /tmp/astro-compose-test.XXXXXX)
PROJECT=astroct$$
read -r PORT1 PORT2 <<<"${ASTRO_CT_API_PORTS:-18001 18002}"
compose() { docker-compose --project-directory "$PWD" --env-file "$WORK/.env" -p "$PROJECT" -f compose.yaml "$@"; }
cleanup() {
  local rc=$?
  trap - EXIT INT TERM HUP
  if [ "$rc" != 0 ]; then compose ps >&2 || true; compose logs --tail 20 >&2 || true; fi
  compose down -v --remove-orphans >/dev/null 2>&1 || true
  rm -rf "$WORK"
  log "finished in $(( $(date +%s) - started )) s (exit $rc)"
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM HUP

# --- stand-ins for the registry images ----------------------------------------------------------
standin() {  # standin NAME: build $WORK/NAME as NAME unless an image of that name exists
  if docker image inspect "$1" >/dev/null 2>&1; then return 0; fi
  log "building a stand-in for $1"
  docker build --network host --build-arg "BASE=$BASE" -t "$1" "$WORK/$2" >"$WORK/$2.log" 2>&1 \
    || { tail -20 "$WORK/$2.log" >&2; log "building the stand-in $1 failed"; exit 1; }
}
mkdir -p "$WORK/postgres" "$WORK/redis" "$WORK/s3"
cat >"$WORK/postgres/entry.sh" <<'EOF'
#!/bin/sh
# POSTGRES_USER/PASSWORD/DB as the official image reads them; data in /var/lib/postgresql/data.
set -e
PGDATA=/var/lib/postgresql/data
mkdir -p "$PGDATA" /run/postgresql && chown -R postgres:postgres "$PGDATA" /run/postgresql
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  umask 077
  printf '%s\n' "$POSTGRES_PASSWORD" >/tmp/pw && chown postgres /tmp/pw
  runuser -u postgres -- initdb -D "$PGDATA" -U "$POSTGRES_USER" --pwfile=/tmp/pw -A scram-sha-256 >/dev/null
  rm -f /tmp/pw
  echo "host all all 0.0.0.0/0 scram-sha-256" >>"$PGDATA/pg_hba.conf"
  echo "CREATE DATABASE \"$POSTGRES_DB\";" | runuser -u postgres -- postgres --single -D "$PGDATA" postgres >/dev/null
fi
exec runuser -u postgres -- postgres -D "$PGDATA" -c listen_addresses='*'
EOF
cat >"$WORK/postgres/Dockerfile" <<'EOF'
ARG BASE
FROM ${BASE}
RUN apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends postgresql-15 \
    && rm -rf /var/lib/apt/lists/*
ENV PATH=/usr/lib/postgresql/15/bin:$PATH
COPY entry.sh /usr/local/bin/entry.sh
RUN chmod 755 /usr/local/bin/entry.sh
ENTRYPOINT ["/usr/local/bin/entry.sh"]
EOF
cat >"$WORK/redis/Dockerfile" <<'EOF'
ARG BASE
FROM ${BASE}
RUN apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends redis-server \
    && rm -rf /var/lib/apt/lists/* && mkdir -p /data
WORKDIR /data
EOF
cat >"$WORK/s3/Dockerfile" <<'EOF'
ARG BASE
FROM ${BASE}
RUN python3 -m venv /opt/moto && /opt/moto/bin/pip install --quiet "moto[server]"
# `minio server /data` and `mc ready local`, as compose.yaml calls them.
RUN printf '#!/bin/sh\nexec /opt/moto/bin/moto_server -H 0.0.0.0 -p 9000\n' >/usr/local/bin/minio \
    && printf '#!/bin/sh\nexec python3 -c "import urllib.request; urllib.request.urlopen(\\"http://127.0.0.1:9000/\\", timeout=2)"\n' >/usr/local/bin/mc \
    && chmod 755 /usr/local/bin/minio /usr/local/bin/mc
ENTRYPOINT ["/usr/local/bin/minio"]
EOF
standin postgres:16-bookworm postgres
standin redis:7-bookworm redis
standin minio/minio:latest s3
log "images ready ($(( $(date +%s) - started )) s)"

# --- up -----------------------------------------------------------------------------------------
python3 - "$WORK/.env" "$IMAGE" "$PORT1" "$PORT2" <<'EOF'
import os
import secrets
import sys

path, image, port1, port2 = sys.argv[1:]
values = {
    "ASTRO_SECRET_KEY": secrets.token_urlsafe(48),
    "POSTGRES_PASSWORD": secrets.token_hex(24),
    "REDIS_PASSWORD": secrets.token_hex(24),
    "S3_ACCESS_KEY": "astro",
    "S3_SECRET_KEY": secrets.token_hex(24),
    "ASTRO_METRICS_TOKEN": secrets.token_urlsafe(32),
    "ASTRO_IMAGE": image,
    "ASTRO_API_1_PORT": port1,
    "ASTRO_API_2_PORT": port2,
    "ASTRO_PUBLIC_URL": f"http://127.0.0.1:{port1}",
}
fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
with os.fdopen(fd, "w") as fh:
    fh.write("".join(f"{k}={v}\n" for k, v in values.items()))
EOF
up_started=$(date +%s)
compose up -d --no-build >"$WORK/up.log" 2>&1 || { cat "$WORK/up.log" >&2; log "docker-compose up failed"; exit 1; }
healthy=0
for _ in $(seq 90); do
  states=$(compose ps | tail -n +3)
  if ! grep -q 'health: starting\|unhealthy\|Exit [1-9]\|Restarting' <<<"$states" \
      && [ "$(grep -c '(healthy)' <<<"$states")" = 8 ] && [ "$(grep -c 'Exit 0' <<<"$states")" = 2 ]; then
    healthy=1; break
  fi
  sleep 1
done
compose ps >&2
[ "$healthy" = 1 ] || { log "not every service became healthy (one-shots: Exit 0)"; exit 1; }
log "docker-compose up: 8 services healthy, bucket and migrate exited 0 ($(( $(date +%s) - up_started )) s)"

# --- a billed report through the topology -------------------------------------------------------
ACCOUNT=$(compose run --rm --no-deps migrate create-account --name compose-test --tier pro --credits 100 --json 2>/dev/null | tail -1)
python3 - "$PORT1" "$PORT2" "$ACCOUNT" <<'EOF'
import json
import sys
import time
import urllib.error
import urllib.request

port1, port2, account = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
headers = {"X-API-Key": account["api_key"], "Content-Type": "application/json"}


def call(port: str, method: str, path: str, body: object = None) -> tuple[int, dict]:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data, headers, method=method)
    try:
        with urllib.request.urlopen(req, timeout=60) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read() or b"{}")


def fail(message: str) -> None:
    print(f"[compose-test] FAILED: {message}", file=sys.stderr)
    sys.exit(1)


for port in (port1, port2):
    status, ready = call(port, "GET", "/readyz")
    if status != 200 or set(ready["checks"].values()) != {"ok"}:
        fail(f"/readyz on {port}: {status} {ready}")
subject = {"date": "1990-05-01", "time": "07:30", "latitude": 13.75, "longitude": 100.5}
status, handle = call(
    port1, "POST", "/api/v3/reports/natal/pdf",
    {"birth_subject": subject, "name": "Compose Test", "async": True},
)
if status != 202:
    fail(f"POST answered {status}: {handle}")
deadline = time.monotonic() + 180
while True:
    status, job = call(port2, "GET", f"/api/v3/jobs/{handle['job_id']}")
    if job.get("status") in ("succeeded", "failed", "canceled"):
        break
    if time.monotonic() > deadline:
        fail(f"job still {job.get('status')} after 180 s")
    time.sleep(0.5)
if job["status"] != "succeeded" or job["credits_charged"] != 10 or job["credits_refunded"]:
    fail(f"job: {job}")
url = job["result"]["pdf_url"]
bodies = []
for port in (port1, port2):  # the signed URL names API 1; API 2 serves the same bucket
    with urllib.request.urlopen(url.replace(f":{port1}/", f":{port}/"), timeout=60) as answer:
        bodies.append(answer.read())
if not bodies[0].startswith(b"%PDF-") or bodies[0] != bodies[1]:
    fail("the PDF differs between the API containers, or is not a PDF")
print(
    f"[compose-test] job {job['job_id']} queued on API 1, succeeded on a worker, polled on API 2; "
    f"{len(bodies[0])} bytes of PDF from both",
    file=sys.stderr,
)
EOF
aof=$(compose exec -T redis sh -c 'redis-cli config get appendonly | tail -1; ls /data')
grep -q '^yes' <<<"$aof" && grep -q appendonly <<<"$aof" || { log "Redis is not writing its AOF: $aof"; exit 1; }
log "Redis: appendonly yes, AOF under /data"
log "PASSED"
echo "compose-test: 1 passed, 0 failed"
