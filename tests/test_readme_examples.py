"""Every code block of README.md runs against a live embedded server (``readme_examples``):
the first calls (CLI, curl, SDK) and the local webhook walkthrough (subscription, the
``webhook-listen`` process, a test delivery verified by it). A README edit that breaks a
command, a placeholder or an answer's shape fails here."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from readme_examples import ExampleRunner, code_blocks, shell_commands

from astro_server.cli import FIRST_ACCOUNT_ARGS
from conftest import Stack, free_port

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"


def test_the_extractor_finds_the_blocks_and_their_directives() -> None:
    blocks = code_blocks(README.read_text())
    run = [b for b in blocks if b.directive != "skip" and b.language in ("sh", "python")]
    assert {b.language for b in run} == {"sh", "python"}
    assert [b.directive for b in blocks].count("background") == 1
    assert shell_commands("a \\\n  b\n# note\n\nc\n") == ["a b", "c"]


def test_the_readme_creates_the_first_account_as_the_banner_does() -> None:
    assert f"uv run astro-server {FIRST_ACCOUNT_ARGS}" in README.read_text()


def test_every_readme_example_runs_against_a_live_server(
    stack_factory: Callable[..., Stack],
) -> None:
    stack = stack_factory()
    server = stack.server(extra_env={"ASTRO_LOCAL_WEBHOOKS": "1"})
    listener_port = free_port()
    env = {**stack.env, "ASTRO_LOCAL_WEBHOOKS": "1", "UV_FROZEN": "1"}
    env["UV_PYTHON_DOWNLOADS"] = "never"
    runner = ExampleRunner(
        env=env,
        cwd=ROOT,
        replace={
            "http://127.0.0.1:8000": server.base_url,
            "127.0.0.1:4242": f"127.0.0.1:{listener_port}",
            "--port 4242": f"--port {listener_port}",
        },
    )
    try:
        runner.run_all(README.read_text())
        outputs = dict(runner.transcript)
        test_delivery = next(out for cmd, out in outputs.items() if cmd.startswith("curl -s -X"))
        delivery = json.loads(test_delivery)["delivery"]
        assert delivery["status"] == "succeeded", delivery
        assert delivery["kind"] == "test"
        printed = runner.background_output()
        assert f"{delivery['message_id']}  horoscope.daily  verified" in printed, printed
        assert '"test": true' in printed
        python_out = next(out for cmd, out in outputs.items() if cmd.startswith("python block"))
        sign, remaining = python_out.split()
        assert sign.istitle() or sign.islower()
        assert int(remaining) >= 0
    finally:
        runner.close()
