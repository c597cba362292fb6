"""Safe production settings: the secret key's strength, ``generate-secret`` and ``check-config``.

Production mode (ASTRO_DATABASE_URL or ASTRO_REDIS_URL set) refuses a missing or weak
ASTRO_SECRET_KEY in one line naming ``astro-server generate-secret``; the embedded mode keeps
working with no configuration (a key generated into the data directory). Commands run in this
process through ``cli.main`` (nothing is started: each case fails or ends before serving).
"""

from __future__ import annotations

import json
import os
import secrets
import stat
from pathlib import Path

import pytest

from astro_server import cli
from astro_server.settings import (
    SECRET_KEY_MIN_BITS,
    Settings,
    generate_secret_key,
    secret_key_bits,
    secret_key_problem,
)

PRODUCTION = {"ASTRO_DATABASE_URL": "postgres://astro:db-pass-93f1@127.0.0.1:1/astro"}


@pytest.fixture
def env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> pytest.MonkeyPatch:
    for name in list(os.environ):
        if name.startswith("ASTRO_"):
            monkeypatch.delenv(name)
    monkeypatch.setenv("ASTRO_DATA_DIR", str(tmp_path / "var"))
    return monkeypatch


@pytest.mark.parametrize(
    "key",
    [
        "changeme",
        "secret",
        "CHANGEME-changeme-changeme-changeme-changeme-changeme",
        "my-super-secret-key-that-is-quite-long-indeed-0123456789",
        "password1234567890ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghij",
        "k" * 32,
        "k" * 500,  # long but one character: about 1 bit
        "ab" * 100,  # a repeated unit counts once
        # Random-looking but short: 16 bytes as URL-safe base64, 24 bytes as hex (fixed values,
        # so every test process collects the same ids).
        "rdV9kxFYM4MqelxIVhWzCg",
        "7d2c4d4a4d61c165a8cc847015eeb0941453c8603d014311",
    ],
)
def test_weak_and_placeholder_keys_are_named(key: str) -> None:
    problem = secret_key_problem(key)
    assert problem is not None
    assert problem.startswith("ASTRO_SECRET_KEY ")
    assert "astro-server generate-secret" in problem


def test_random_keys_of_32_bytes_or_more_pass() -> None:
    for _ in range(200):
        for key in (secrets.token_urlsafe(48), secrets.token_hex(32), generate_secret_key()):
            assert secret_key_problem(key) is None, key
    # token_urlsafe(32): 43 characters of a 64-letter alphabet, 258 bits.
    assert secret_key_bits(secrets.token_urlsafe(32) + "aA0") >= SECRET_KEY_MIN_BITS
    assert secret_key_problem("") is not None


def test_production_refuses_a_missing_or_weak_key_embedded_needs_none(
    env: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    data_dir = tmp_path / "var"
    for production in (PRODUCTION, {"ASTRO_REDIS_URL": "redis://127.0.0.1:1/0"}):
        base = {"ASTRO_DATA_DIR": str(data_dir), **production}
        with pytest.raises(ValueError, match=r"ASTRO_SECRET_KEY is not set.*generate-secret"):
            Settings.from_env(base)
        with pytest.raises(ValueError, match="placeholder"):
            Settings.from_env({**base, "ASTRO_SECRET_KEY": "changeme"})
        strong = generate_secret_key()
        assert Settings.from_env({**base, "ASTRO_SECRET_KEY": strong}).secret_key == strong
    # Production never wrote a key into the data directory.
    assert not (data_dir / "secret_key").exists()
    embedded = Settings.from_env({"ASTRO_DATA_DIR": str(data_dir)})
    key_file = data_dir / "secret_key"
    assert embedded.secret_key == key_file.read_text()
    assert secret_key_problem(embedded.secret_key) is None
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    assert Settings.from_env({"ASTRO_DATA_DIR": str(data_dir)}).secret_key == embedded.secret_key
    # Embedded with a weak key of one's own still starts (check-config warns).
    weak = Settings.from_env({"ASTRO_DATA_DIR": str(data_dir), "ASTRO_SECRET_KEY": "k" * 32})
    assert any("weak" in w for w in weak.warnings())


@pytest.mark.parametrize("command", [["serve"], ["worker"], ["migrate"], ["scheduler"]])
def test_commands_refuse_a_weak_key_in_one_line(
    env: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], command: list[str]
) -> None:
    for name, value in {**PRODUCTION, "ASTRO_REDIS_URL": "redis://127.0.0.1:1/0"}.items():
        env.setenv(name, value)
    env.setenv("ASTRO_SECRET_KEY", "changeme")
    assert cli.main(command) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert err.startswith("astro-server: bad setting: ASTRO_SECRET_KEY looks like a placeholder")
    assert "`astro-server generate-secret`" in err


def test_generate_secret_prints_a_new_strong_key(capsys: pytest.CaptureFixture[str]) -> None:
    keys = set()
    for _ in range(3):
        assert cli.main(["generate-secret"]) == 0
        key = capsys.readouterr().out.strip()
        assert len(key) == 64
        assert secret_key_problem(key) is None
        keys.add(key)
    assert len(keys) == 3


def test_check_config_masks_secrets_and_fails_on_a_bad_combination(
    env: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    weak = "k" * 40
    for name, value in {
        **PRODUCTION,
        "ASTRO_REDIS_URL": "redis://:redis-pass-77ad@127.0.0.1:1/0",
        "ASTRO_SECRET_KEY": weak,
        "ASTRO_LOCAL_WEBHOOKS": "1",
        "ASTRO_STORAGE_URL": "s3://files/astro",
        "ASTRO_S3_ACCESS_KEY_ID": "access-id-5e1c",
        "ASTRO_METRICS_TOKEN": "metrics-token-0b7d",
        "ASTRO_TRUSTED_PROXIES": "127.0.0.1,10.0.0.0/8",
    }.items():
        env.setenv(name, value)
    assert cli.main(["check-config"]) == 1
    out = capsys.readouterr().out
    for secret in (weak, "db-pass-93f1", "redis-pass-77ad", "access-id-5e1c", "metrics-token-0b7d"):
        assert secret not in out
    assert "secret_key = set (40 characters)" in out
    assert "database_url = postgres://astro:***@127.0.0.1:1/astro" in out
    assert 'trusted_proxies = ["127.0.0.1/32", "10.0.0.0/8"]' in out
    problems = [line for line in out.splitlines() if line.startswith("problem: ")]
    assert len(problems) == 4, out
    assert any("ASTRO_LOCAL_WEBHOOKS" in p for p in problems)
    assert any("ASTRO_PUBLIC_URL" in p and "ASTRO_ALLOWED_HOSTS" in p for p in problems)
    assert any("too weak" in p and "generate-secret" in p for p in problems)
    assert any("ASTRO_S3_SECRET_ACCESS_KEY" in p for p in problems)
    assert any(
        line.startswith("warning: ") and "ASTRO_S3_ENDPOINT_URL" in line
        for line in out.splitlines()
    )
    assert out.splitlines()[-1].startswith("check-config: refused")

    env.setenv("ASTRO_SECRET_KEY", generate_secret_key())
    env.delenv("ASTRO_LOCAL_WEBHOOKS")
    env.setenv("ASTRO_S3_SECRET_ACCESS_KEY", "s3-secret-4a4a")
    env.setenv("ASTRO_S3_ENDPOINT_URL", "http://127.0.0.1:9000")
    env.setenv("ASTRO_ALLOWED_HOSTS", "api.astro.test")
    assert cli.main(["check-config", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["problems"] == []
    assert report["settings"]["mode"] == "production"
    assert (
        report["settings"]["s3_secret_access_key"] == "unset"
        or "set (" in (report["settings"]["s3_secret_access_key"])
    )
    assert "s3-secret-4a4a" not in json.dumps(report)


def test_check_config_of_an_unreadable_value_fails(
    env: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    env.setenv("ASTRO_TRUSTED_PROXIES", "proxy.internal")
    assert cli.main(["check-config"]) == 1
    assert "problem: bad setting: ASTRO_TRUSTED_PROXIES" in capsys.readouterr().out


def test_the_embedded_mode_checks_clean_with_no_configuration(
    env: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["check-config"]) == 0
    out = capsys.readouterr().out
    assert "mode = embedded" in out
    assert out.splitlines()[-1] == "check-config: ok (0 problem(s), 0 warning(s))"


def test_rotate_master_key_wants_a_strong_new_key(
    env: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    env.setenv("ASTRO_NEW_SECRET_KEY", "changeme")
    assert cli.main(["rotate-master-key"]) == 2
    err = capsys.readouterr().err
    assert "the new key in ASTRO_NEW_SECRET_KEY: looks like a placeholder" in err


def test_production_serves_only_with_a_public_url_or_allowed_hosts(
    env: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Issue 36: absolute URLs (signed files, invitation links) must not follow a client's
    ``Host``; production refuses to serve without ``ASTRO_PUBLIC_URL`` or
    ``ASTRO_ALLOWED_HOSTS`` (serve, asgi.py, check-config), the other commands need neither."""
    import subprocess
    import sys

    base = {**PRODUCTION, "ASTRO_SECRET_KEY": generate_secret_key()}
    for name, value in base.items():
        env.setenv(name, value)
    assert Settings.from_env(base).problems() == []  # migrate, workers and the CLI still run
    refused = Settings.from_env(base).serving_problems()
    assert len(refused) == 1
    assert "ASTRO_PUBLIC_URL" in refused[0]
    assert cli.main(["serve"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "ASTRO_PUBLIC_URL" in err
    assert "ASTRO_ALLOWED_HOSTS" in err
    assert cli.main(["check-config"]) == 1
    assert "problem: production needs ASTRO_PUBLIC_URL" in capsys.readouterr().out
    # The ASGI entry point refuses too (hypercorn astro_server.asgi:app run by hand).
    imported = subprocess.run(
        [sys.executable, "-c", "import astro_server.asgi"],
        env={**os.environ, **base},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert imported.returncode != 0
    assert "ASTRO_PUBLIC_URL" in imported.stderr
    for fix in (
        {"ASTRO_PUBLIC_URL": "https://api.astro.test"},
        {"ASTRO_ALLOWED_HOSTS": "api.astro.test"},
    ):
        assert Settings.from_env({**base, **fix}).serving_problems() == []
    # Embedded (no database, no Redis) needs neither.
    embedded = Settings.from_env({"ASTRO_DATA_DIR": str(tmp_path / "embedded")})
    assert embedded.serving_problems() == []
