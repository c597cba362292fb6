"""Every code block of README.md and of the two guides (docs/integrators.md, docs/webhooks.md)
runs against a live embedded server (``readme_examples``): the first calls (CLI, curl, SDK), the
local webhook walkthrough (subscription, the ``webhook-listen`` process, a test delivery verified
by it), and the guides' keys, errors, idempotency, jobs, webhooks and rate-limit examples. The
blocks that need no server (webhook verification and receivers' tests, here and in the SDK's
README) also run exactly as written, with no placeholder filled in. A documentation edit that
breaks a command, a placeholder or an answer's shape fails here."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

import pytest
from readme_examples import Block, ExampleRunner, code_blocks, shell_commands

from astro_server.cli import FIRST_ACCOUNT_ARGS
from tests._support.stack import Stack, free_port

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
SDK_README = ROOT / "packages" / "astro_sdk" / "README.md"
INTEGRATORS = ROOT / "docs" / "integrators.md"
RECEIVERS = ROOT / "docs" / "webhooks.md"
DOCUMENTS = (README, SDK_README, INTEGRATORS, RECEIVERS)


def _needs_no_server(block: Block) -> bool:
    """A Python block that makes no client and runs no command: it must run as written."""
    return (
        block.language == "python"
        and block.directive is None
        and "AstroClient" not in block.code
        and "astro-server" not in block.code
    )


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


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_block_left_out_or_kept_running_says_why(document: Path) -> None:
    for block in code_blocks(document.read_text()):
        if block.directive is not None:
            assert block.directive in ("skip", "background"), (document, block.line)
            assert block.reason, f"{document}:{block.line}: readme-test: {block.directive} (why?)"


def test_the_guides_are_linked_from_the_readme_and_their_examples_are_run() -> None:
    readme = README.read_text()
    for guide in (INTEGRATORS, RECEIVERS):
        assert f"(docs/{guide.name})" in readme
        blocks = code_blocks(guide.read_text())
        run = [b for b in blocks if b.directive != "skip" and b.language in ("sh", "python")]
        assert {b.language for b in run} == {"sh", "python"}, guide
        assert [b.directive for b in blocks].count("skip") == 1, guide  # only serve.sh


@pytest.mark.parametrize(
    "document", [SDK_README, INTEGRATORS, RECEIVERS], ids=lambda p: str(p.relative_to(ROOT))
)
def test_the_examples_that_need_no_server_run_exactly_as_written(
    document: Path, tmp_path: Path
) -> None:
    blocks = [b for b in code_blocks(document.read_text()) if _needs_no_server(b)]
    if document is not INTEGRATORS:  # every integrator example calls the server
        assert any("webhooks.verify(" in b.code for b in blocks), document
    env = {k: v for k, v in os.environ.items() if not k.startswith("ASTRO_")}
    runner = ExampleRunner(env=env, cwd=tmp_path)  # no placeholder is filled in
    for block in blocks:
        runner.run(block)
    for block in code_blocks(document.read_text()):
        if block.language == "python" and block.directive is None:
            # A reader copies a runnable example as it is: no secret to invent first.
            assert "whsec_..." not in block.code, f"{document}:{block.line}"


def test_every_guide_example_runs_against_a_live_server(
    stack_factory: Callable[..., Stack],
) -> None:
    stack = stack_factory()
    server = stack.server(extra_env={"ASTRO_LOCAL_WEBHOOKS": "1"})
    env = {**stack.env, "ASTRO_LOCAL_WEBHOOKS": "1", "UV_FROZEN": "1"}
    env["UV_PYTHON_DOWNLOADS"] = "never"
    listener_port = free_port()
    replace = {
        "http://127.0.0.1:8000": server.base_url,
        "127.0.0.1:4242": f"127.0.0.1:{listener_port}",
        "--port 4242": f"--port {listener_port}",
    }
    integrators = ExampleRunner(env=env, cwd=ROOT, replace=replace)
    try:
        integrators.run_all(INTEGRATORS.read_text())
    finally:
        integrators.close()
    said = "".join(out for _, out in integrators.transcript)
    assert "charged 0" in said  # the test key
    assert "charged 1 credit for two calls" in said  # the idempotency key
    assert "403 " in said  # the key outside its scopes
    assert "400 validation_error" in said or "400 bad_request" in said, said
    assert "401 unauthorized" in said
    assert "409 idempotency_conflict" in said
    assert "pair-1 succeeded" in said

    # The receivers' guide: an API key of the reader's own for the endpoint example (the guide
    # says so), then its own account, customer, subscription, listener and test delivery.
    created = json.loads(stack.run_cli("create-account", "--name", "guide", "--json").stdout)
    receivers = ExampleRunner(env=env, cwd=ROOT, replace=replace)
    receivers.values["ak_live_"] = created["api_key"]
    try:
        receivers.run_all(RECEIVERS.read_text())
        printed = receivers.background_output()
    finally:
        receivers.close()
    said = "".join(out for _, out in receivers.transcript)
    assert "succeeded" in said
    assert "horoscope.daily  verified" in printed, printed
    assert '"test": true' in printed
