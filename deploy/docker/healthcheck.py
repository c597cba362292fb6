"""The image's HEALTHCHECK: ``GET /healthz`` when the container runs ``astro-server serve``.

The one image runs every role; only ``serve`` listens, so for ``worker``, ``scheduler`` and the
one-shot commands a running process is the health signal (exit 0). The command is read from
PID 1's arguments (``tini -- astro-server serve ...``). Standard library only: the image has no
curl.
"""

from __future__ import annotations

import os
import sys
import urllib.request


def pid1_args() -> list[str]:
    try:
        with open("/proc/1/cmdline", "rb") as fh:
            return fh.read().decode(errors="replace").split("\0")
    except OSError:
        return []


def healthz_url(args: list[str], environ: dict[str, str]) -> str | None:
    """The URL to probe for ``astro-server serve`` (its ``--port``, else ASTRO_PORT, else
    8000); None for the other commands."""
    if "serve" not in args:
        return None
    port = environ.get("ASTRO_PORT", "8000")
    for index, arg in enumerate(args):
        if arg == "--port" and index + 1 < len(args):
            port = args[index + 1]
        elif arg.startswith("--port="):
            port = arg.removeprefix("--port=")
    return f"http://127.0.0.1:{port}/healthz"


def main(args: list[str] | None = None, environ: dict[str, str] | None = None) -> int:
    url = healthz_url(
        pid1_args() if args is None else args, dict(os.environ if environ is None else environ)
    )
    if url is None:
        return 0
    try:
        with urllib.request.urlopen(url, timeout=4) as answer:  # noqa: S310 (a fixed loopback URL)
            return 0 if answer.status == 200 else 1
    except OSError as exc:
        print(f"{url}: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
