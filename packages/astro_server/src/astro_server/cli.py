"""astro-server: run the Astro API, its job workers and scheduler, and administer accounts.

Every command reads its settings from ASTRO_* environment variables (README, Configuration).
With ASTRO_DATABASE_URL and ASTRO_REDIS_URL unset it runs embedded (SQLite in ASTRO_DATA_DIR,
jobs inside the API process); with both set, in production (PostgreSQL, Redis, workers).
Run it as `uv run astro-server` from the repository, `uv run --project PATH astro-server` from
anywhere, or `astro-server` after `uv tool install PATH/packages/astro_server`.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import json
import logging
import os
import shlex
import shutil
import signal
import sys
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, TypeVar, cast

from astro_server.settings import Settings, generate_secret_key, secret_key_problem

if TYPE_CHECKING:
    from astro_server.platform.runtime import Platform

T = TypeVar("T")
log = logging.getLogger("astro_server")

#: The first account the banner and the README suggest: starter opens every route the README's
#: examples call (the horoscope feed needs a customer, which any tier may have).
FIRST_ACCOUNT_ARGS = "create-account --name me --tier starter --credits 100 --json"


class UserError(Exception):
    """A mistake the user can fix: printed as one line (``astro-server: ...``), exit status 2."""


_NO_SCHEMA = (
    "the database has no schema yet: run `astro-server migrate` first "
    "(with the same ASTRO_DATABASE_URL)"
)


def _settings() -> Settings:
    try:
        return Settings.from_env()
    except ValueError as exc:
        raise UserError(f"bad setting: {exc}") from None


def _platform(settings: Settings | None = None) -> Platform:
    """This process's platform, built once from ``settings`` (the environment's by default):
    every command goes through it, as the server and the worker do."""
    from astro_server.registry import build_platform

    return build_platform(settings or _settings())


def _with_db(action: Callable[[], Awaitable[T]], settings: Settings | None = None) -> T:
    """Run ``action`` connected to the database, on this process's platform (built from
    ``settings``, the environment's by default). Embedded: the SQLite schema is brought up to
    date first (a command may run before the server ever did); production: a database without
    the schema is a one-line error naming ``astro-server migrate``."""
    settings = _platform(settings).settings

    async def run() -> T:
        from astro_server.platform.db import close_db, has_schema, init_db, migrate_db

        try:
            if settings.embedded:
                await migrate_db(settings)
            await init_db(settings)
            try:
                if not settings.embedded and not await has_schema():
                    raise UserError(_NO_SCHEMA)
                return await action()
            finally:
                await close_db()
        except OSError as exc:  # unreachable, refused, or a data directory it cannot create
            raise UserError(f"the database failed: {exc}") from None

    return asyncio.run(run())


def launcher() -> str:
    """The words that start ``astro-server`` in the shell that started this process: ``uv run
    --project <root> astro-server`` under ``uv run`` (which puts the venv on PATH for its child
    only; this works from any directory), ``astro-server`` when that is on the shell's PATH
    (``uv tool install``, an activated venv), the script's full path when it is not, else this
    interpreter with ``-m astro_server.cli``."""
    root = Path(sys.prefix).parent
    if os.environ.get("UV") and (root / "pyproject.toml").is_file():
        return f"uv run --project {shlex.quote(str(root))} astro-server"
    found = shutil.which("astro-server")
    argv0 = Path(sys.argv[0]).resolve() if sys.argv and sys.argv[0] else None
    if found and argv0 is not None and Path(found).resolve() == argv0:
        return "astro-server"
    if argv0 is not None and argv0.name == "astro-server" and argv0.is_file():
        return shlex.quote(str(argv0))  # a venv's script, the venv not activated
    return f"{shlex.quote(sys.executable)} -m astro_server.cli"


def first_account_command(settings: Settings, environ: dict[str, str] | None = None) -> str:
    """The exact command that creates a first account against this server's database."""
    env = os.environ if environ is None else environ
    prefix = ""
    if "ASTRO_DATA_DIR" in env:
        prefix = f"ASTRO_DATA_DIR={shlex.quote(str(settings.data_dir.resolve()))} "
    if not settings.embedded:
        prefix = "ASTRO_DATABASE_URL=... " + prefix  # the same database (its URL holds a password)
    return f"{prefix}{launcher()} {FIRST_ACCOUNT_ARGS}"


def _emit(args: argparse.Namespace, payload: dict[str, Any], text: str) -> None:
    print(json.dumps(payload) if getattr(args, "json", False) else text, flush=True)


def cmd_migrate(args: argparse.Namespace) -> int:
    from astro_server.platform.db import migrate_db

    applied = asyncio.run(migrate_db(_platform().settings))
    if not applied:
        print("the database schema is already current; nothing to do")
    elif applied[0].startswith("0001"):
        print(f"created the schema ({len(applied)} migrations, {applied[0]} to {applied[-1]})")
    else:
        print(f"upgraded the schema: applied {', '.join(applied)}")
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    from hypercorn.config import Config

    from astro_server.platform.db import migrate_db
    from astro_server.platform.logs import configure_logging

    settings = _settings()
    refused = settings.serving_problems()
    if refused:
        raise UserError(f"bad setting: {'; '.join(refused)}")
    configure_logging(settings.log_level)
    host = args.host or settings.host
    port = args.port or settings.port
    workers = args.workers
    if settings.embedded:
        asyncio.run(migrate_db(_platform(settings).settings))
        if workers != 1:
            print("embedded mode runs one worker process (SQLite, in-process jobs)", flush=True)
            workers = 1
    config = Config()
    config.application_path = "astro_server.asgi:app"
    config.bind = [f"{host}:{port}"]
    # One worker serves in this process (a SIGKILL stops it: nothing is left serving); more
    # are child processes under our supervisor (astro_server/supervisor.py), which replaces one
    # that dies (hypercorn's own stops them all) and which they die with
    # (runtime.die_with_supervisor).
    config.workers = 0
    config.accesslog = None
    # hypercorn's own lines (``Running on ...``) go through our JSON handler only, not also
    # through a plain handler of hypercorn's.
    config.errorlog = logging.getLogger("hypercorn.error")
    config.graceful_timeout = settings.graceful_timeout_s
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
    print(f"  First API key: {first_account_command(settings)}", flush=True)
    os.environ.setdefault("ASTRO_DATA_DIR", str(settings.data_dir))
    if workers > 1:
        from astro_server.supervisor import supervise

        return supervise(config, workers)
    config.workers = 1  # what hypercorn's serve() expects of a single process
    _serve_in_this_process(config)
    return 0


#: The one line a stop by signal logs (Ctrl-C is SIGINT; a supervisor sends SIGTERM).
STOPPING_MESSAGE: Final = "%s received: finishing open requests (at most %d s), then stopping"


def _serve_in_this_process(config: Any) -> None:
    """Serve in this process on our own event loop, stopped by SIGINT or SIGTERM.

    hypercorn's single-process runner stops without a word, and its loop hands the shutdown's
    leftovers (a connection's future failing once its socket is closed under it, a cancelled
    read) to asyncio's default handler, which logs "Future exception was never retrieved" with a
    traceback. Here a signal logs one line, the graceful shutdown runs (open requests get
    ``graceful_timeout``; the app's after_serving closes the database and the scheduler), and
    such leftovers during the shutdown are logged at debug level only.
    """
    from hypercorn.asyncio import serve

    stopping: list[str] = []

    async def main() -> None:
        from astro_server.asgi import app

        loop = asyncio.get_running_loop()
        stop = asyncio.Event()

        def on_signal(sig: signal.Signals) -> None:
            if not stopping:
                stopping.append(sig.name)
                log.info(STOPPING_MESSAGE, sig.name, int(config.graceful_timeout))
            stop.set()

        def on_loop_error(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
            if stopping:
                log.debug("during shutdown: %s", context.get("message"))
                return
            loop.default_exception_handler(context)

        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, on_signal, sig)
        loop.set_exception_handler(on_loop_error)
        await serve(cast(Any, app), config, shutdown_trigger=stop.wait)

    loop_factory = None
    if config.worker_class == "uvloop":
        import uvloop

        loop_factory = uvloop.new_event_loop
    with asyncio.Runner(loop_factory=loop_factory) as runner:
        runner.run(main())


def cmd_worker(args: argparse.Namespace) -> int:
    from astro_server.platform.logs import configure_logging
    from astro_server.worker import run_worker

    settings = _settings()
    if not settings.redis_url:
        raise UserError(
            "worker needs ASTRO_REDIS_URL (and ASTRO_DATABASE_URL): the embedded mode runs "
            "jobs inside the API process"
        )
    if settings.worker_concurrency < 1:
        raise UserError("ASTRO_WORKER_CONCURRENCY must be >= 1")
    configure_logging(settings.log_level)
    loop = asyncio.new_event_loop()
    loop.run_until_complete(run_worker(settings))
    logging.shutdown()
    sys.stdout.flush()
    sys.stderr.flush()
    # A sync job handler may still be running in a thread after its lease was given back:
    # do not wait for it (the job is retried elsewhere), leave now.
    os._exit(0)


def cmd_scheduler(args: argparse.Namespace) -> int:
    from astro_server.platform.logs import configure_logging

    settings = _settings()
    if not settings.redis_url:
        raise UserError(
            "scheduler needs ASTRO_REDIS_URL (and ASTRO_DATABASE_URL): the embedded mode runs "
            "the scheduler inside the API process"
        )
    configure_logging(settings.log_level)

    async def run() -> None:
        from astro_server.platform import broker as broker_module
        from astro_server.platform.db import close_db, init_db
        from astro_server.platform.periodic import Scheduler
        from astro_server.registry import build_platform

        wired = build_platform(settings)
        await init_db(settings)
        broker = broker_module.make_broker(settings)
        await broker.startup()
        broker_module.set_current(broker)
        from astro_server.platform.redisconn import settings_client

        client = settings_client(settings)  # the task locks; reconnects after a Redis restart
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, stop.set)
        try:
            await Scheduler(settings, wired.periodic_tasks, client).run(stop)
        finally:
            await client.aclose()
            await broker.shutdown()
            await close_db()

    asyncio.run(run())
    return 0


def cmd_create_account(args: argparse.Namespace) -> int:
    from astro_server.platform.auth.accounts import create_account

    account, key = _with_db(lambda: create_account(args.name, args.tier, args.credits))
    _emit(
        args,
        {"account_id": account.id, "api_key": key},
        f"account {account.id} ({account.tier}, {account.credits} credits)\n"
        f"API key (shown once): {key}",
    )
    return 0


def cmd_create_key(args: argparse.Namespace) -> int:
    from astro_server.platform.auth.accounts import create_api_key
    from astro_server.platform.auth.scopes import ALL, SCOPES

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
    from astro_server.platform.auth.accounts import revoke_api_key

    count = _with_db(lambda: revoke_api_key(args.key_prefix))  # none matching: LookupError
    _emit(args, {"revoked": count}, f"revoked {count} key(s)")
    return 0


def cmd_set_tier(args: argparse.Namespace) -> int:
    from astro_server.platform.auth.accounts import set_tier

    previous, tier = _with_db(lambda: set_tier(args.account, args.tier))
    text = f"account {args.account}: tier {tier}" + (
        f" (was {previous})" if previous != tier else " (unchanged)"
    )
    _emit(args, {"account_id": args.account, "tier": tier, "previous_tier": previous}, text)
    return 0


def cmd_list_accounts(args: argparse.Namespace) -> int:
    from astro_server.platform.auth.accounts import list_accounts

    listed = _with_db(list_accounts)
    lines = [f"{a['id']}  {a['tier']:<10}  {a['credits']:>8} credits  {a['name']}" for a in listed]
    _emit(args, {"accounts": listed}, "\n".join(lines) or "no accounts")
    return 0


def cmd_list_customers(args: argparse.Namespace) -> int:
    from astro_server.platform.auth.accounts import list_customers

    listed = _with_db(lambda: list_customers(args.account))
    lines = [
        f"{c['id']}  {c['account_id']}  {c['role']:<6}  {c['email']}"
        + ("  (disabled)" if c["disabled_at"] else "")
        for c in listed
    ]
    _emit(args, {"customers": listed}, "\n".join(lines) or "no customers")
    return 0


def cmd_show_account(args: argparse.Namespace) -> int:
    from astro_server.platform.auth.accounts import show_account

    shown = _with_db(lambda: show_account(args.account))
    lines = [
        f"account {shown['id']} ({shown['name']})",
        f"tier: {shown['tier']}",
        f"balance: {shown['credits']} credits",
        f"created: {shown['created_at']}",
        f"keys ({len(shown['keys'])}):",
    ]
    for key in shown["keys"]:
        state = "revoked" if key["revoked_at"] else "active"
        if key["expires_at"] and not key["revoked_at"]:
            state = f"expires {key['expires_at']}"
        lines.append(
            f"  {key['prefix']}...  {key['environment']:<4}  {state:<8}  "
            f"scopes {','.join(key['scopes'])}  last used {key['last_used_at'] or 'never'}"
            + (f"  {key['name']}" if key["name"] else "")
        )
    lines.append(f"customers ({len(shown['customers'])}):")
    lines.extend(f"  {c['email']} ({c['role']})" for c in shown["customers"])
    _emit(args, shown, "\n".join(lines))
    return 0


def cmd_reset_password(args: argparse.Namespace) -> int:
    from astro_server.platform.auth.accounts import reset_password

    password = args.password
    if password is None:
        password = os.environ.get(args.password_env, "")
        if not password:
            raise UserError(f"give --password or set the new password in {args.password_env}")
    customer, ended = _with_db(lambda: reset_password(args.email, password))
    _emit(
        args,
        {"customer_id": customer.id, "sessions_ended": ended},
        f"new password set for {customer.email}; ended {ended} open session(s)",
    )
    return 0


def cmd_create_customer(args: argparse.Namespace) -> int:
    from astro_server.platform.auth.accounts import create_customer

    customer = _with_db(lambda: create_customer(args.account, args.email, args.password))
    _emit(args, {"customer_id": customer.id}, f"customer {customer.id} ({customer.email})")
    return 0


def cmd_add_credits(args: argparse.Namespace) -> int:
    from astro_server.platform.billing.ledger import add_credits

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
    from astro_server.features.profiles.crypto import rotate_master_key

    new_key = os.environ.get(args.new_key_env, "")
    if not new_key:
        raise ValueError(f"set the new master key in {args.new_key_env}")
    weak = secret_key_problem(new_key)
    if weak:
        raise UserError(f"the new key in {args.new_key_env}: {weak.split(' ', 1)[1]}")
    # Not checked: rotating away from a weak current key is how a deployment gets a strong one.
    try:
        settings = Settings.from_env(check=False)
    except ValueError as exc:
        raise UserError(f"bad setting: {exc}") from None
    keys, secrets_ = _with_db(lambda: rotate_master_key(settings.secret_key, new_key), settings)
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
    from astro_server.features.profiles.service import crypto_shred
    from astro_server.platform.audit import record_audit
    from astro_server.platform.caller import Caller

    async def shred() -> int:
        count = await crypto_shred(args.account)
        await record_audit(Caller.operator(args.account), "account.crypto_shredded", args.account)
        return count

    count = _with_db(shred)
    _emit(
        args,
        {"account_id": args.account, "data_keys_destroyed": count},
        f"destroyed {count} data key(s) of {args.account}: its profiles can no longer be read",
    )
    return 0


def cmd_generate_secret(args: argparse.Namespace) -> int:
    """Print a new ASTRO_SECRET_KEY: 48 random bytes from the OS's CSPRNG, URL-safe base64."""
    print(generate_secret_key(), flush=True)
    return 0


#: Settings whose values are never printed (check-config shows whether they are set).
_SECRET_FIELDS = frozenset(
    {"secret_key", "s3_secret_access_key", "s3_access_key_id", "metrics_token", "llm_api_key"}
)
_URL_FIELDS = frozenset({"database_url", "redis_url", "smtp_url", "llm_base_url"})


def _masked_url(url: str) -> str:
    """``scheme://user:***@host/...``: the password of a URL never printed."""
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.rsplit("@", 1)
    user = netloc[0].split(":", 1)[0]
    return urlunsplit(parts._replace(netloc=f"{user}:***@{netloc[1]}"))


def effective_settings(settings: Settings) -> dict[str, Any]:
    """Every setting as check-config prints it: secrets masked (``set (64 characters)`` or
    ``unset``), passwords in URLs replaced by ``***``, the rest as JSON values."""
    import dataclasses

    shown: dict[str, Any] = {}
    for item in dataclasses.fields(settings):
        value = getattr(settings, item.name)
        if item.name == "extra":
            continue
        if item.name in _SECRET_FIELDS:
            value = f"set ({len(value)} characters)" if value else "unset"
        elif item.name in _URL_FIELDS and value:
            value = _masked_url(value)
        elif isinstance(value, Path):
            value = str(value.resolve())
        elif item.name == "trusted_proxies":
            value = [str(network) for network in value]
        elif item.name == "session_lifetime":
            value = f"{value.total_seconds() / 3600:g} h"
        elif isinstance(value, dict) or hasattr(value, "items"):
            value = dict(value)
        shown[item.name] = value
    shown["mode"] = "production" if settings.production else "embedded"
    return shown


def cmd_check_config(args: argparse.Namespace) -> int:
    """Print the effective settings (secrets masked), then the problems (the server would
    refuse to start: exit status 1) and warnings (it starts; probably not what was meant)."""
    try:
        settings = Settings.from_env(check=False)
    except ValueError as exc:  # a value that cannot even be read (a port that is not a number)
        problems, warnings, shown = [f"bad setting: {exc}"], [], None
    else:
        problems, warnings, shown = settings.serving_problems(), settings.warnings(), settings
    if getattr(args, "json", False):
        payload = {
            "settings": effective_settings(shown) if shown else None,
            "problems": problems,
            "warnings": warnings,
        }
        print(json.dumps(payload, indent=2, default=str), flush=True)
    else:
        if shown is not None:
            for name, value in effective_settings(shown).items():
                text = value if isinstance(value, str) else json.dumps(value, default=str)
                print(f"{name} = {text}")
        for line in problems:
            print(f"problem: {line}")
        for line in warnings:
            print(f"warning: {line}")
        verdict = "refused: the server would not start" if problems else "ok"
        print(f"check-config: {verdict} ({len(problems)} problem(s), {len(warnings)} warning(s))")
    return 1 if problems else 0


class _Formatter(argparse.RawDescriptionHelpFormatter):
    """Keeps the description's line breaks; every option's help says its default itself."""


def _json_flag(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--json", action="store_true", help="print one JSON object instead of text (default: text)"
    )


def build_parser() -> argparse.ArgumentParser:
    from astro_server.platform.billing.pricing import TIERS
    from astro_server.webhook_listen import DEFAULT_PORT, add_arguments, cmd_webhook_listen

    parser = argparse.ArgumentParser(
        prog="astro-server", description=__doc__, formatter_class=_Formatter
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def command(name: str, summary: str, func: Callable[[argparse.Namespace], int]) -> Any:
        created = sub.add_parser(
            name, help=summary, description=summary[0].upper() + summary[1:] + "."
        )
        created.set_defaults(func=func)
        return created

    serve = command("serve", "run the HTTP API under hypercorn", cmd_serve)
    serve.add_argument(
        "--host", default=None, help="address to listen on (default: ASTRO_HOST or 127.0.0.1)"
    )
    serve.add_argument(
        "--port", type=int, default=None, help="port to listen on (default: ASTRO_PORT or 8000)"
    )
    serve.add_argument(
        "--workers",
        type=int,
        default=1,
        help="API processes; production only, the embedded mode runs one (default: 1)",
    )
    command(
        "worker",
        "run jobs from the Redis queue; needs ASTRO_REDIS_URL and ASTRO_DATABASE_URL "
        "(production; run as many as you need)",
        cmd_worker,
    )
    command(
        "scheduler",
        "run periodic tasks (job sweeps, publishing, deliveries); needs ASTRO_REDIS_URL and "
        "ASTRO_DATABASE_URL (production; run exactly one)",
        cmd_scheduler,
    )
    command(
        "migrate",
        "create the database schema, or bring it up to date (SQLite or PostgreSQL)",
        cmd_migrate,
    )

    account = command(
        "create-account", "create an account with one live API key", cmd_create_account
    )
    account.add_argument("--name", required=True, help="the account's name (required)")
    account.add_argument(
        "--tier", choices=TIERS, default="free", help="price tier of the account (default: free)"
    )
    account.add_argument(
        "--credits", type=int, default=0, help="credits to start with (default: 0)"
    )
    _json_flag(account)

    key = command("create-key", "create another API key for an account", cmd_create_key)
    key.add_argument("--account", required=True, help="account id, acct_... (required)")
    key.add_argument(
        "--environment",
        choices=("live", "test"),
        default="live",
        help="ak_live_ or ak_test_ key (default: live)",
    )
    key.add_argument("--name", default="", help="a label shown by GET /api/v3/keys (default: none)")
    key.add_argument(
        "--scopes", default="*", help="comma- or space-separated scopes (default *: all)"
    )
    _json_flag(key)

    revoke = command(
        "revoke-key",
        "revoke a key, given whole or by its first 12 characters if no other key has them",
        cmd_revoke_key,
    )
    revoke.add_argument("key_prefix", help="the key, or its first 12 characters (required)")
    _json_flag(revoke)

    tier = command("set-tier", "move an account to another price tier (audited)", cmd_set_tier)
    tier.add_argument("--account", required=True, help="account id, acct_... (required)")
    tier.add_argument("--tier", required=True, choices=TIERS, help="the new tier (required)")
    _json_flag(tier)

    listed = command(
        "list-accounts", "list every account: id, tier, balance, name", cmd_list_accounts
    )
    _json_flag(listed)

    show = command(
        "show-account",
        "show one account: tier, balance, its API keys (prefixes, never secrets) and logins",
        cmd_show_account,
    )
    show.add_argument("--account", required=True, help="account id, acct_... (required)")
    _json_flag(show)

    logins = command(
        "list-customers", "list customer logins: id, account, role, e-mail", cmd_list_customers
    )
    logins.add_argument(
        "--account", default=None, help="only this account's logins (default: every account)"
    )
    _json_flag(logins)

    reset = command(
        "reset-password",
        "set a customer login's password and end its open sessions (audited)",
        cmd_reset_password,
    )
    reset.add_argument("--email", required=True, help="the login's e-mail (required)")
    reset.add_argument(
        "--password",
        default=None,
        help="the new password, at least 12 characters, not a common password (default: read "
        "from the variable named by --password-env, which keeps it out of the shell history)",
    )
    reset.add_argument(
        "--password-env",
        default="ASTRO_NEW_PASSWORD",
        help="the environment variable holding the new password when --password is not given "
        "(default: ASTRO_NEW_PASSWORD)",
    )
    _json_flag(reset)

    customer = command(
        "create-customer", "create a customer login for the session routes", cmd_create_customer
    )
    customer.add_argument("--account", required=True, help="account id, acct_... (required)")
    customer.add_argument("--email", required=True, help="the customer's e-mail (required)")
    customer.add_argument(
        "--password", required=True, help="at least 12 characters, not a common password (required)"
    )
    _json_flag(customer)

    credits = command("add-credits", "add credits to an account", cmd_add_credits)
    credits.add_argument("--account", required=True, help="account id, acct_... (required)")
    credits.add_argument(
        "--credits", type=int, required=True, help="credits to add, > 0 (required)"
    )
    _json_flag(credits)

    rotate = command(
        "rotate-master-key",
        "re-wrap every account data key and re-encrypt every signing secret under a new "
        "ASTRO_SECRET_KEY, in one transaction (stop the servers first; restart them on the "
        "new key)",
        cmd_rotate_master_key,
    )
    rotate.add_argument(
        "--new-key-env",
        default="ASTRO_NEW_SECRET_KEY",
        help="the environment variable holding the new key (default: ASTRO_NEW_SECRET_KEY)",
    )
    _json_flag(rotate)

    shred = command(
        "crypto-shred",
        "destroy an account's data key: its client profiles can never be read again",
        cmd_crypto_shred,
    )
    shred.add_argument("--account", required=True, help="account id, acct_... (required)")
    _json_flag(shred)

    command(
        "generate-secret",
        "print a new strong ASTRO_SECRET_KEY (48 random bytes, URL-safe base64)",
        cmd_generate_secret,
    )
    check = command(
        "check-config",
        "print the effective settings with secrets masked, and any problem (exit status 1: "
        "the server would refuse to start) or warning",
        cmd_check_config,
    )
    _json_flag(check)

    listen = command(
        "webhook-listen",
        "receive webhook deliveries on this machine over HTTPS: verify, print, forward "
        "(local development with the embedded mode)",
        cmd_webhook_listen,
    )
    add_arguments(listen, DEFAULT_PORT)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command. A user's mistake (a bad argument or setting, an unknown account, a
    database without the schema or out of reach) is one line on stderr and exit status 2,
    never a traceback."""
    from tortoise.exceptions import BaseORMException

    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        result: int = args.func(args)
    except (UserError, ValueError, LookupError) as exc:
        print(f"astro-server: {exc}", file=sys.stderr)
        return 2
    except BaseORMException as exc:
        print(f"astro-server: the database failed: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:  # a port in use, a directory that cannot be created, ...
        print(f"astro-server: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    return result


if __name__ == "__main__":
    sys.exit(main())
