# syntax=docker/dockerfile:1
# The Astro server image: one image, four roles chosen by the command
#   docker run IMAGE serve --host 0.0.0.0   (the HTTP API)
#   docker run IMAGE worker                 (jobs from the Redis queue)
#   docker run IMAGE scheduler              (periodic tasks; run exactly one)
#   docker run IMAGE migrate                (one-shot: create or upgrade the schema)
# and every other `astro-server` command (create-account, rotate-master-key, ...).
#
# BASE_IMAGE: any Debian bookworm image with python3 (3.11) and python3-venv. The default is the
# official slim image; where no image registry is reachable, make one with mmdebstrap and
# `docker import` (scripts/container-test.sh does) and pass --build-arg BASE_IMAGE=local/...
# The same base is used by both stages, so the virtual environment built in the first stage
# points at the very interpreter the second stage has.
ARG BASE_IMAGE=python:3.11-slim-bookworm

# --- build: the locked environment, no compilers or caches carried over -------------------------
FROM ${BASE_IMAGE} AS build
# uv from PyPI through pip (the version the lockfile was written with); pip honours PIP_CERT and
# uv SSL_CERT_FILE, which a company base image may set for its own CA.
ARG UV_VERSION=0.13.9
ENV UV_PYTHON_DOWNLOADS=never \
    UV_COMPILE_BYTECODE=1 \
    UV_LINK_MODE=copy \
    UV_PROJECT_ENVIRONMENT=/opt/astro/venv \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_NO_CACHE_DIR=1
RUN python3 -m venv /opt/uv && /opt/uv/bin/pip install --quiet "uv==${UV_VERSION}"
WORKDIR /src
# Third-party dependencies first (the layer is reused while uv.lock and the manifests are
# unchanged): the workspace root installs astro-server with its reports (PDF) and visual extras.
COPY pyproject.toml uv.lock ./
COPY packages/astro_calc/pyproject.toml packages/astro_calc/README.md packages/astro_calc/
COPY packages/astro_server/pyproject.toml packages/astro_server/README.md packages/astro_server/
COPY packages/astro_sdk/pyproject.toml packages/astro_sdk/README.md packages/astro_sdk/LICENSE packages/astro_sdk/
RUN /opt/uv/bin/uv sync --frozen --no-dev --no-install-workspace --no-editable --no-cache
# Then our three packages, as wheels (--no-editable: the runtime stage needs no source tree).
COPY packages/astro_calc/src packages/astro_calc/src
COPY packages/astro_sdk/src packages/astro_sdk/src
COPY packages/astro_server/src packages/astro_server/src
RUN /opt/uv/bin/uv sync --frozen --no-dev --no-editable --no-cache \
    && /opt/astro/venv/bin/astro-server --help >/dev/null

# --- runtime ------------------------------------------------------------------------------------
FROM ${BASE_IMAGE} AS runtime
# Chromium prints the PDF reports (the server launches /usr/bin/chromium-headless-shell, Chromium's
# headless-only build, through playwright: no browser UI, less memory per tab than chromium; the
# report fonts are bundled in the package, DejaVu is only the fallback fontconfig wants);
# libatomic1 is what playwright's bundled node driver links; libgl1 and libglib2.0-0 are what
# OpenCV (the visual readings' extra) loads; tini is PID 1, so the Chromium
# processes a report leaves behind are reaped and signals reach astro-server.
RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
        chromium-headless-shell fonts-dejavu-core fontconfig libatomic1 libgl1 libglib2.0-0 tini \
    && rm -rf /var/lib/apt/lists/* /var/cache/apt/archives/*.deb
RUN groupadd --gid 10001 astro \
    && useradd --uid 10001 --gid 10001 --home-dir /home/astro --create-home \
        --shell /usr/sbin/nologin astro \
    && install -d -o astro -g astro -m 0700 /var/lib/astro
COPY --from=build /opt/astro/venv /opt/astro/venv
COPY deploy/docker/healthcheck.py /usr/local/lib/astro/healthcheck.py
# Caches (fontconfig, matplotlib) go to /tmp, so the root file system can be read-only
# (docker run --read-only --tmpfs /tmp; readOnlyRootFilesystem with an emptyDir on /tmp).
ENV PATH=/opt/astro/venv/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    ASTRO_DATA_DIR=/var/lib/astro \
    ASTRO_HOST=0.0.0.0 \
    ASTRO_PORT=8000 \
    ASTRO_CHROMIUM_PATH=/usr/bin/chromium-headless-shell \
    XDG_CACHE_HOME=/tmp/.cache \
    XDG_CONFIG_HOME=/tmp/.config \
    MPLCONFIGDIR=/tmp/.matplotlib
USER astro
WORKDIR /home/astro
EXPOSE 8000
# serve: GET /healthz on ASTRO_PORT; the other commands have no HTTP port and count as healthy
# while they run (the script reads the command from /proc/1/cmdline).
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
    CMD ["python3", "/usr/local/lib/astro/healthcheck.py"]
ENTRYPOINT ["/usr/bin/tini", "--", "astro-server"]
CMD ["serve"]
