"""``astro-server``: serve | worker | scheduler | migrate | create-account | create-key | ..."""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from collections.abc import Sequence

from astro_server.settings import Settings


async def _migrate(settings: Settings) -> None:
    from tortoise import Tortoise
    from tortoise.migrations.api import migrate

    from astro_server.db import tortoise_config

    await migrate(config=tortoise_config(settings))
    await Tortoise.close_connections()


def cmd_migrate(args: argparse.Namespace) -> int:
    settings = Settings.from_env()
    asyncio.run(_migrate(settings))
    print("database is at the current schema")
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    from hypercorn.config import Config
    from hypercorn.run import run

    settings = Settings.from_env()
    host = args.host or settings.host
    port = args.port or settings.port
    if settings.embedded:
        asyncio.run(_migrate(settings))
    config = Config()
    config.application_path = "astro_server.asgi:app"
    config.bind = [f"{host}:{port}"]
    config.workers = args.workers
    config.accesslog = None
    mode = "embedded (SQLite, in-process jobs)" if settings.embedded else "production"
    print(f"Astro API listening on http://{host}:{port} [{mode}]", flush=True)
    print(
        f"  OpenAPI: http://{host}:{port}/openapi.json   docs: http://{host}:{port}/docs",
        flush=True,
    )
    print(
        "  First API key: uv run astro-server create-account --name me --tier free "
        "--credits 100 --json",
        flush=True,
    )
    os.environ.setdefault("ASTRO_DATA_DIR", str(settings.data_dir))
    return run(config)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="astro-server", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)

    serve = sub.add_parser("serve", help="run the HTTP API under hypercorn")
    serve.add_argument("--host", default=None)
    serve.add_argument("--port", type=int, default=None)
    serve.add_argument("--workers", type=int, default=1)
    serve.set_defaults(func=cmd_serve)

    migrate = sub.add_parser("migrate", help="bring the database to the current schema")
    migrate.set_defaults(func=cmd_migrate)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    result: int = args.func(args)
    return result


if __name__ == "__main__":
    sys.exit(main())
