"""``astro-server``: serve | worker | scheduler | migrate | create-account | create-key |
revoke-key | create-customer | add-credits | rotate-master-key | crypto-shred."""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import json
import logging
import os
import signal
import sys
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, TypeVar

from astro_server.settings import Settings

T = TypeVar("T")


def _with_db(action: Callable[[], Awaitable[T]]) -> T:
    async def run() -> T:
        from astro_server.db import close_db, init_db

        await init_db(Settings.from_env())
        try:
            return await action()
        finally:
            await close_db()

    return asyncio.run(run())


def _emit(args: argparse.Namespace, payload: dict[str, Any], text: str) -> None:
    print(json.dumps(payload) if getattr(args, "json", False) else text, flush=True)


def cmd_migrate(args: argparse.Namespace) -> int:
    from astro_server.db import migrate_db

    asyncio.run(migrate_db(Settings.from_env()))
    print("database is at the current schema")
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    from hypercorn.config import Config
    from hypercorn.run import run

    from astro_server.db import migrate_db

    settings = Settings.from_env()
    host = args.host or settings.host
    port = args.port or settings.port
    workers = args.workers
    if settings.embedded:
        asyncio.run(migrate_db(settings))
        if workers != 1:
            print("embedded mode runs one worker process (SQLite, in-process jobs)", flush=True)
            workers = 1
    config = Config()
    config.application_path = "astro_server.asgi:app"
    config.bind = [f"{host}:{port}"]
    # One worker serves in this process (a SIGKILL stops it: nothing is left serving); more
    # are supervised child processes, which die with the supervisor (runtime.die_with_supervisor).
    config.workers = workers if workers > 1 else 0
    config.accesslog = None
    config.graceful_timeout = 5
    if importlib.util.find_spec("uvloop") is not None:
        # uvloop's event loop costs less per request than the standard one (measured in
        # benchmarks/platform_throughput.py); hypercorn falls back to asyncio without it.
        config.worker_class = "uvloop"
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


def cmd_worker(args: argparse.Namespace) -> int:
    from astro_server.logs import configure_logging
    from astro_server.tasks.worker import run_worker

    settings = Settings.from_env()
    configure_logging(settings.log_level)
    if settings.worker_concurrency < 1:
        raise SystemExit("ASTRO_WORKER_CONCURRENCY must be >= 1")
    loop = asyncio.new_event_loop()
    loop.run_until_complete(run_worker(settings))
    logging.shutdown()
    sys.stdout.flush()
    sys.stderr.flush()
    # A sync job handler may still be running in a thread after its lease was given back:
    # do not wait for it (the job is retried elsewhere), leave now.
    os._exit(0)


def cmd_scheduler(args: argparse.Namespace) -> int:
    from astro_server.logs import configure_logging

    settings = Settings.from_env()
    configure_logging(settings.log_level)

    async def run() -> None:
        from astro_server.app import create_app
        from astro_server.db import close_db, init_db
        from astro_server.services import jobs
        from astro_server.tasks import broker as broker_module
        from astro_server.tasks import maintenance  # noqa: F401  (registers periodic tasks)
        from astro_server.tasks.scheduler import Scheduler

        if not settings.redis_url:
            raise SystemExit(
                "astro-server scheduler needs ASTRO_REDIS_URL (embedded mode runs "
                "the scheduler inside the API process)"
            )
        create_app(settings)  # imports every module that registers periodic tasks
        await init_db(settings)
        jobs.configure(settings)
        broker = broker_module.make_broker(settings)
        await broker.startup()
        broker_module.set_current(broker)
        import redis.asyncio as aioredis

        client = aioredis.from_url(settings.redis_url)
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, stop.set)
        try:
            await Scheduler(settings, client).run(stop)
        finally:
            await client.aclose()
            await broker.shutdown()
            await close_db()

    asyncio.run(run())
    return 0


def cmd_create_account(args: argparse.Namespace) -> int:
    from astro_server.services.accounts import create_account

    account, key = _with_db(lambda: create_account(args.name, args.tier, args.credits))
    _emit(
        args,
        {"account_id": account.id, "api_key": key},
        f"account {account.id} ({account.tier}, {account.credits} credits)\n"
        f"API key (shown once): {key}",
    )
    return 0


def cmd_create_key(args: argparse.Namespace) -> int:
    from astro_server.services.accounts import create_api_key
    from astro_server.services.scopes import ALL, SCOPES

    wanted = frozenset(args.scopes.replace(",", " ").split()) or frozenset({ALL})
    unknown = sorted(s for s in wanted if s != ALL and s not in SCOPES)
    if unknown:
        raise ValueError(f"unknown scope(s) {', '.join(unknown)}; known: *, {', '.join(SCOPES)}")
    key = _with_db(
        lambda: create_api_key(args.account, args.environment, name=args.name, scopes_wanted=wanted)
    )
    _emit(args, {"account_id": args.account, "api_key": key}, f"API key (shown once): {key}")
    return 0


def cmd_revoke_key(args: argparse.Namespace) -> int:
    from astro_server.services.accounts import revoke_api_key

    count = _with_db(lambda: revoke_api_key(args.key_prefix))
    _emit(args, {"revoked": count}, f"revoked {count} key(s)")
    return 0 if count else 1


def cmd_create_customer(args: argparse.Namespace) -> int:
    from astro_server.services.accounts import create_customer

    customer = _with_db(lambda: create_customer(args.account, args.email, args.password))
    _emit(args, {"customer_id": customer.id}, f"customer {customer.id} ({customer.email})")
    return 0


def cmd_add_credits(args: argparse.Namespace) -> int:
    from astro_server.services.billing import add_credits

    balance = _with_db(lambda: add_credits(args.account, args.credits))
    _emit(args, {"account_id": args.account, "credits": balance}, f"balance: {balance}")
    return 0


def cmd_rotate_master_key(args: argparse.Namespace) -> int:
    """Re-wrap every data key (and re-encrypt the signing secrets) under a new master key.

    Procedure: stop the API processes and workers (or accept that profile reads fail until they
    restart), run this with the current ASTRO_SECRET_KEY and the new key in the variable named by
    ``--new-key-env`` (default ASTRO_NEW_SECRET_KEY), then start everything with
    ASTRO_SECRET_KEY set to the new key. One transaction: on any failure nothing changed.
    """
    from astro_server.services.profile_crypto import rotate_master_key

    new_key = os.environ.get(args.new_key_env, "")
    if not new_key:
        raise ValueError(f"set the new master key in {args.new_key_env}")
    settings = Settings.from_env()
    keys, secrets_ = _with_db(lambda: rotate_master_key(settings.secret_key, new_key))
    where = "ASTRO_SECRET_KEY set to the new key"
    if not os.environ.get("ASTRO_SECRET_KEY"):
        # Embedded mode keeps its generated key in the data directory: replace it there.
        (settings.data_dir / "secret_key").write_text(new_key)
        where = f"the new key, now in {settings.data_dir / 'secret_key'}"
    _emit(
        args,
        {"data_keys": keys, "signing_secrets": secrets_},
        f"re-wrapped {keys} data key(s) and {secrets_} signing secret(s); "
        f"now restart every process with {where}",
    )
    return 0


def cmd_crypto_shred(args: argparse.Namespace) -> int:
    from astro_server.services.audit import record_audit
    from astro_server.services.profile_crypto import crypto_shred

    async def shred() -> int:
        count = await crypto_shred(args.account)
        await record_audit("account.crypto_shredded", args.account, account_id=args.account)
        return count

    count = _with_db(shred)
    _emit(
        args,
        {"account_id": args.account, "data_keys_destroyed": count},
        f"destroyed {count} data key(s) of {args.account}: its profiles can no longer be read",
    )
    return 0


def build_parser() -> argparse.ArgumentParser:
    from astro_server.services.pricing import TIERS

    parser = argparse.ArgumentParser(prog="astro-server", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)

    serve = sub.add_parser("serve", help="run the HTTP API under hypercorn")
    serve.add_argument("--host", default=None)
    serve.add_argument("--port", type=int, default=None)
    serve.add_argument("--workers", type=int, default=1)
    serve.set_defaults(func=cmd_serve)

    sub.add_parser("worker", help="run jobs from the Redis queue").set_defaults(func=cmd_worker)
    sub.add_parser("scheduler", help="run periodic tasks (run one)").set_defaults(
        func=cmd_scheduler
    )
    sub.add_parser("migrate", help="bring the database to the current schema").set_defaults(
        func=cmd_migrate
    )

    account = sub.add_parser("create-account", help="new account with one API key")
    account.add_argument("--name", required=True)
    account.add_argument("--tier", choices=TIERS, default="free")
    account.add_argument("--credits", type=int, default=0)
    account.add_argument("--json", action="store_true")
    account.set_defaults(func=cmd_create_account)

    key = sub.add_parser("create-key", help="new API key for an account")
    key.add_argument("--account", required=True)
    key.add_argument("--environment", choices=("live", "test"), default="live")
    key.add_argument("--name", default="", help="a label shown by GET /api/v3/keys")
    key.add_argument(
        "--scopes", default="*", help="comma- or space-separated scopes (default *: all)"
    )
    key.add_argument("--json", action="store_true")
    key.set_defaults(func=cmd_create_key)

    revoke = sub.add_parser(
        "revoke-key",
        help="revoke a key, given whole or by its first 12 characters if no other key has them",
    )
    revoke.add_argument("key_prefix")
    revoke.add_argument("--json", action="store_true")
    revoke.set_defaults(func=cmd_revoke_key)

    customer = sub.add_parser("create-customer", help="customer login for session routes")
    customer.add_argument("--account", required=True)
    customer.add_argument("--email", required=True)
    customer.add_argument("--password", required=True)
    customer.add_argument("--json", action="store_true")
    customer.set_defaults(func=cmd_create_customer)

    credits = sub.add_parser("add-credits", help="top up an account")
    credits.add_argument("--account", required=True)
    credits.add_argument("--credits", type=int, required=True)
    credits.add_argument("--json", action="store_true")
    credits.set_defaults(func=cmd_add_credits)

    rotate = sub.add_parser(
        "rotate-master-key",
        help="re-wrap every account data key (and signing secret) under a new ASTRO_SECRET_KEY",
    )
    rotate.add_argument(
        "--new-key-env",
        default="ASTRO_NEW_SECRET_KEY",
        help="the environment variable holding the new key (default ASTRO_NEW_SECRET_KEY)",
    )
    rotate.add_argument("--json", action="store_true")
    rotate.set_defaults(func=cmd_rotate_master_key)

    shred = sub.add_parser(
        "crypto-shred", help="destroy an account's data key: its client profiles become unreadable"
    )
    shred.add_argument("--account", required=True)
    shred.add_argument("--json", action="store_true")
    shred.set_defaults(func=cmd_crypto_shred)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        result: int = args.func(args)
    except (ValueError, LookupError) as exc:
        print(f"astro-server: {exc}", file=sys.stderr)
        return 2
    return result


if __name__ == "__main__":
    sys.exit(main())
