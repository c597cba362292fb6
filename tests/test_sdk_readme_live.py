"""Every code block of the SDK's README (packages/astro_sdk/README.md) runs against a live server
on PostgreSQL and Redis with a job worker, extracted by ``readme_examples`` (not copied here),
so the SDK's documentation cannot drift from the SDK or the server.

The test prepares only what the README assumes exists: an account whose key is in
``ASTRO_API_KEY`` (and fills the ``ak_test_...`` placeholders), ``ASTRO_BASE_URL`` pointing at
the server, and the customer ``ann@example.com`` the sessions example logs in as. The webhook
example makes its own secret (``webhooks.generate_secret()``): it runs as written."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from readme_examples import ExampleRunner, code_blocks

from tests._support.stack import ServerProcess, Stack

pytestmark = [pytest.mark.postgres, pytest.mark.redis]

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "packages" / "astro_sdk" / "README.md"


def test_every_sdk_readme_python_block_is_run_and_only_the_install_line_is_skipped() -> None:
    blocks = code_blocks(README.read_text())
    skipped = [b.language for b in blocks if b.directive == "skip"]
    run = [b for b in blocks if b.directive is None]
    # pip install (the workspace has the SDK installed), uv build (it would write dist/ in the
    # repository; test_sdk_wheel_metadata.py builds the same way), the webhook-endpoint example,
    # whose public host the server would resolve (tests reach no outside address; the same flow runs
    # against a local receiver in tests/test_e2e_files_webhooks.py), and the visual reading,
    # which needs the reader's own photo (tests/test_e2e_visual_readings.py runs that flow).
    # and the desktop agent's MCP configuration (JSON, not code).
    assert skipped == ["sh", "sh", "python", "python", "json"]
    assert len(run) >= 8
    assert {b.language for b in run} == {"python"}


def test_every_sdk_readme_example_runs_against_a_live_server(
    production_stack: Stack, live_server: ServerProcess
) -> None:
    created = production_stack.run_cli(
        "create-account", "--name", "readme", "--tier", "enterprise", "--credits", "1000", "--json"
    )
    account = json.loads(created.stdout.strip().splitlines()[-1])
    production_stack.run_cli(
        "create-customer", "--account", account["account_id"],
        "--email", "ann@example.com", "--password", "correct horse battery staple",
    )  # fmt: skip
    env = {
        **os.environ,
        **production_stack.env,
        "ASTRO_API_KEY": account["api_key"],
        "ASTRO_BASE_URL": live_server.base_url,
    }
    runner = ExampleRunner(
        env=env, cwd=ROOT, replace={"http://127.0.0.1:8000": live_server.base_url}
    )
    runner.values["ak_test_"] = account["api_key"]
    runner.values["ak_live_"] = account["api_key"]
    try:
        runner.run_all(README.read_text())
    finally:
        runner.close()
    outputs = [out for _, out in runner.transcript]
    assert len(outputs) == len([b for b in code_blocks(README.read_text()) if not b.directive])
    jobs = next(out for out in outputs if "pair-1" in out)
    assert jobs.splitlines()[0].startswith("pair-1 succeeded ")  # typed: item.result.total
    assert "ann@example.com" in "".join(outputs)
    assert "verified delivery" in "".join(outputs)
