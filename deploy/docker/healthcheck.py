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


def main() -> int:
    try:
        with open("/proc/1/cmdline", "rb") as fh:
            args = fh.read().decode(errors="replace").split("\0")
    except OSError:
        args = []
    if "serve" not in args:
        return 0
    port = os.environ.get("ASTRO_PORT", "8000")
    for flag in ("--port",):
        if flag in args and args.index(flag) + 1 < len(args):
            port = args[args.index(flag) + 1]
    url = f"http://127.0.0.1:{port}/healthz"
    try:
        with urllib.request.urlopen(url, timeout=4) as answer:  # noqa: S310 (a fixed loopback URL)
            return 0 if answer.status == 200 else 1
    except OSError as exc:
        print(f"{url}: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
