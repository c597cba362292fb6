"""The CLI as a new user meets it (issue 16): commands that work before the server ever ran,
one-line errors instead of tracebacks, help that explains every option, a banner whose
command works, ``migrate`` saying what it did."""

from __future__ import annotations

import argparse
import importlib
import json
import os
import re
import secrets
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from astro_server.cli import FIRST_ACCOUNT_ARGS, build_parser, first_account_command
from astro_server.settings import Settings

#: A production ASTRO_SECRET_KEY (production refuses a missing or weak one).
STRONG_KEY = secrets.token_urlsafe(48)


def _env(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("ASTRO_")}
    env.update(extra)
    return env


def _cli(
    env: dict[str, str], *args: str, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "astro_server.cli", *args],
        env=env,
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )


def test_create_account_before_the_server_ever_ran_creates_the_schema(tmp_path: Path) -> None:
    # Was: "no such table: accounts" with a traceback, and a stray ./var in the working
    # directory.
    work = tmp_path / "elsewhere"
    work.mkdir()
    env = _env(tmp_path, ASTRO_DATA_DIR=str(tmp_path / "data"))
    done = _cli(env, *FIRST_ACCOUNT_ARGS.split(), cwd=work)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["api_key"].startswith("ak_live_")
    assert (tmp_path / "data" / "astro.sqlite3").is_file()
    assert list(work.iterdir()) == []
    again = _cli(env, "migrate", cwd=work)
    assert again.stdout.strip() == "the database schema is already current; nothing to do"


def test_migrate_says_whether_it_created_or_found_the_schema(tmp_path: Path) -> None:
    env = _env(tmp_path, ASTRO_DATA_DIR=str(tmp_path / "data"))
    first = _cli(env, "migrate").stdout.strip()
    assert re.fullmatch(r"created the schema \(\d+ migrations, 0001_initial to \w+\)", first)
    assert "already current" in _cli(env, "migrate").stdout


@pytest.mark.postgres
def test_production_without_a_schema_is_one_line_naming_migrate(
    fresh_pg_database: str, tmp_path: Path
) -> None:
    env = _env(
        tmp_path,
        ASTRO_DATA_DIR=str(tmp_path / "d"),
        ASTRO_DATABASE_URL=fresh_pg_database,
        ASTRO_SECRET_KEY=STRONG_KEY,
    )
    done = _cli(env, "create-account", "--name", "x")
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1
    assert "Traceback" not in done.stderr
    assert "astro-server migrate" in done.stderr


@pytest.mark.parametrize(
    ("extra", "args", "says"),
    [
        ({}, ("create-key", "--account", "acct_nope"), "no account acct_nope"),
        ({}, ("add-credits", "--account", "acct_nope", "--credits", "5"), "no account"),
        ({}, ("create-account", "--name", "x", "--credits", "-1"), "credits must be >= 0"),
        ({"ASTRO_PORT": "eighty"}, ("migrate",), "bad setting"),
        ({}, ("worker",), "worker needs ASTRO_REDIS_URL"),
        ({}, ("scheduler",), "scheduler needs ASTRO_REDIS_URL"),
        (
            {"ASTRO_LOCAL_WEBHOOKS": "1", "ASTRO_REDIS_URL": "redis://127.0.0.1:1/0"},
            ("migrate",),
            "ASTRO_LOCAL_WEBHOOKS is for local development in the embedded mode only",
        ),
        (
            {
                "ASTRO_DATABASE_URL": "postgres://nobody@127.0.0.1:1/none",
                "ASTRO_SECRET_KEY": STRONG_KEY,
            },
            ("create-account", "--name", "x"),
            "the database failed",
        ),
        ({}, ("webhook-listen", "--secret", "whsec_%%%"), "--secret takes"),
        ({"ASTRO_DATA_DIR": "/proc/astro-data"}, ("migrate",), "/proc/astro-data"),
        (
            {},
            ("webhook-listen", "--secret", "whsec_AAAA", "--forward-to", "http://10.0.0.1/"),
            "--forward-to must be",
        ),
    ],
)
def test_user_errors_are_one_line_without_a_traceback(
    tmp_path: Path, extra: dict[str, str], args: tuple[str, ...], says: str
) -> None:
    env = _env(tmp_path, **{"ASTRO_DATA_DIR": str(tmp_path / "data"), **extra})
    done = _cli(env, *args)
    assert done.returncode == 2, done.stdout + done.stderr
    assert done.stderr.startswith("astro-server: ")
    assert says in done.stderr
    assert done.stderr.count("\n") == 1, done.stderr


def _help(*args: str) -> str:
    return _cli(_env(Path(".")), *args, "--help").stdout


def test_help_describes_every_command_and_option_with_its_default() -> None:
    parser = build_parser()
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    top = _help()
    assert "``" not in top
    for name, sub in commands.choices.items():
        summary = next(c.help for c in commands._choices_actions if c.dest == name)
        assert summary, f"{name} has no description"
        assert "``" not in summary
        text = _help(name)
        assert "``" not in text
        for action in sub._actions:
            if action.dest == "help":
                continue
            assert action.help, f"{name} {action.option_strings or action.dest}: no help"
            assert "default" in action.help or "(required)" in action.help, (
                f"{name} {action.option_strings}: the help names no default"
            )
            assert "\n" not in action.help
    for name in ("worker", "scheduler"):
        summary = next(c.help for c in commands._choices_actions if c.dest == name)
        assert "needs ASTRO_REDIS_URL" in str(summary)


def test_the_banner_command_carries_the_data_dir_that_was_set(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path / "data", secret_key="k")
    with_dir = first_account_command(settings, {"ASTRO_DATA_DIR": str(tmp_path / "data")})
    assert with_dir.startswith(f"ASTRO_DATA_DIR={shlex.quote(str(tmp_path / 'data'))} ")
    assert with_dir.endswith(FIRST_ACCOUNT_ARGS)
    assert not first_account_command(settings, {}).startswith("ASTRO_DATA_DIR")


def test_the_banner_command_works_in_the_shell_that_started_the_server(tmp_path: Path) -> None:
    # Start the server as a user would (ASTRO_DATA_DIR set in its environment), copy the
    # banner's command, and run it in a shell that has no ASTRO_* variable and another working
    # directory: it creates the account in the server's database.
    import httpx

    from tests._support.stack import free_port

    port = free_port()
    env = _env(tmp_path, ASTRO_DATA_DIR=str(tmp_path / "data"), PYTHONUNBUFFERED="1")
    log = tmp_path / "serve.log"
    with log.open("wb") as out:
        server = subprocess.Popen(
            [sys.executable, "-m", "astro_server.cli", "serve", "--port", str(port)],
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        import time

        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.2)
        text = log.read_text()
        (line,) = [ln for ln in text.splitlines() if "First API key:" in ln]
        command = line.split("First API key:", 1)[1].strip()
        assert "--tier starter" in command
        assert text.count("Running on") == 1, text
        elsewhere = tmp_path / "elsewhere"
        elsewhere.mkdir()
        # A new shell: no ASTRO_* variable, and no virtual environment on PATH.
        venv_bin = str(Path(sys.prefix) / "bin")
        shell_env = _env(tmp_path)
        shell_env.pop("VIRTUAL_ENV", None)
        shell_env["PATH"] = os.pathsep.join(
            d for d in shell_env.get("PATH", "").split(os.pathsep) if d != venv_bin
        )
        done = subprocess.run(  # noqa: S602 (the banner's line, as a user pastes it)
            command, shell=True, env=shell_env, cwd=elsewhere, capture_output=True, text=True,
            timeout=120, check=False,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        key = json.loads(done.stdout)["api_key"]
        answer = httpx.post(
            f"http://127.0.0.1:{port}/api/v3/estimates",
            headers={"X-API-Key": key},
            json={"operation": "western.natal"},
            timeout=30,
        )
        assert answer.status_code != 401, answer.text
    finally:
        server.terminate()
        server.wait(15)


def test_the_launcher_is_what_starts_astro_server_in_a_new_shell(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from astro_server.cli import launcher

    script = tmp_path / "venv" / "bin" / "astro-server"
    script.parent.mkdir(parents=True)
    script.write_text("#!/bin/sh\n")
    script.chmod(0o755)
    monkeypatch.setattr(sys, "argv", [str(script)])
    monkeypatch.delenv("UV", raising=False)
    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    assert launcher() == str(script)  # the venv is not activated: its script's full path
    monkeypatch.setenv("PATH", f"{script.parent}:/usr/bin:/bin")
    assert launcher() == "astro-server"  # on PATH (an activated venv, uv tool install)
    monkeypatch.setenv("UV", "/usr/bin/uv")
    root = Path(sys.prefix).parent
    assert launcher() == f"uv run --project {shlex.quote(str(root))} astro-server"


def test_migrate_names_the_migrations_it_applied_to_an_older_schema(tmp_path: Path) -> None:
    import asyncio

    from tortoise import Tortoise
    from tortoise.migrations.api import migrate

    from astro_server.platform.db import MIGRATIONS_MODULE, tortoise_config
    from astro_server.registry import build_platform

    package = importlib.import_module(MIGRATIONS_MODULE)
    folder = Path(str(package.__file__)).parent
    migrations = sorted(path.stem for path in folder.glob("0*.py"))
    settings = build_platform(Settings(data_dir=tmp_path / "data", secret_key="k" * 32)).settings

    async def older() -> None:
        await migrate(config=tortoise_config(settings), target=f"astro.{migrations[-2]}")
        await Tortoise.close_connections()

    asyncio.run(older())
    env = _env(tmp_path, ASTRO_DATA_DIR=str(tmp_path / "data"), ASTRO_SECRET_KEY="k" * 32)
    done = _cli(env, "migrate")
    assert done.stdout.strip() == f"upgraded the schema: applied {migrations[-1]}", done.stderr
