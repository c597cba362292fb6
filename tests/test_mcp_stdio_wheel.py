"""``astro-mcp`` as a user installs it: the astro-sdk wheel (``uv build``) with the ``mcp``
extra in a fresh virtual environment (``python -m venv``, ``pip install "<wheel>[mcp]"`` with
``--find-links`` for our wheel and the package index for the rest), then the official MCP
stdio client starts that environment's ``astro-mcp`` against a live loopback server (``astro-server
serve``, embedded), lists the tools and calls one. And the wheel without the extra installs
only httpx and pydantic and what they need.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import venv
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

from tests._support.accounts import create_account
from tests._support.stack import ServerProcess, make_stack

pytestmark = [pytest.mark.slow, pytest.mark.timeout(900)]

ROOT = Path(__file__).resolve().parents[1]
NATAL = {"subject": {"date": "1990-04-15", "time": "08:30", "latitude": 13.7563,
                     "longitude": 100.5018, "timezone": "Asia/Bangkok"}}  # fmt: skip
#: Prints the distributions installed in an environment, and the closure of what httpx and
#: pydantic require there (their requirements without extras, for this interpreter).
_CLOSURE = r"""
import json, re
from importlib import metadata
from packaging.requirements import Requirement
def norm(name): return re.sub(r"[-_.]+", "-", name).lower()
installed = {norm(d.metadata["Name"]) for d in metadata.distributions()}
seen, todo = set(), ["httpx", "pydantic"]
while todo:
    name = norm(todo.pop())
    if name in seen: continue
    seen.add(name)
    for text in metadata.requires(name) or ():
        req = Requirement(text)
        if req.marker is None or req.marker.evaluate({"extra": ""}):
            todo.append(req.name)
print(json.dumps({"installed": sorted(installed), "closure": sorted(seen)}))
"""


def _run(*argv: str | Path, **kwargs: Any) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [str(a) for a in argv], capture_output=True, text=True, timeout=600, check=False, **kwargs
    )
    assert done.returncode == 0, f"{argv}:\n{done.stdout}\n{done.stderr}"
    return done


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    uv = shutil.which("uv")
    if uv is None:
        pytest.skip("needs uv to build the wheel")
    out = tmp_path_factory.mktemp("dist")
    _run(uv, "build", "--wheel", "--package", "astro-sdk", "--out-dir", out, cwd=ROOT)
    (built,) = out.glob("astro_sdk-*.whl")
    return built


def _venv(path: Path) -> Path:
    """A fresh environment with pip, from the base interpreter (not this test's workspace)."""
    venv.EnvBuilder(with_pip=True, clear=True).create(path)
    return path / "bin" / "python"


def _pip_install(python: Path, wheel: Path, spec: str) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PIP_", "VIRTUAL_ENV"))}
    _run(python, "-m", "pip", "install", "--disable-pip-version-check", "--quiet",
         "--find-links", wheel.parent, spec, env=env)  # fmt: skip


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[ServerProcess, str]]:
    stack = make_stack(tmp_path_factory.mktemp("stdio-stack"), None, None)
    stack.tmp.mkdir(parents=True, exist_ok=True)
    stack.run_cli("migrate")
    try:
        api = stack.server()
        account = create_account(stack, tier="free", credits=10, name="stdio")
        yield api, account["api_key"]
    finally:
        stack.close()


def test_the_wheel_without_the_extra_pulls_only_httpx_and_pydantic(
    wheel: Path, tmp_path: Path
) -> None:
    python = _venv(tmp_path / "plain")
    # What a fresh environment has before (pip; setuptools too before Python 3.12).
    listed = _run(python, "-m", "pip", "list", "--format", "json", "--disable-pip-version-check")
    fresh = {row["name"].lower() for row in json.loads(listed.stdout)}
    _pip_install(python, wheel, f"{wheel}")
    # packaging evaluates the markers; it is installed for this check only, after the wheel.
    _pip_install(python, wheel, "packaging")
    found = json.loads(_run(python, "-c", _CLOSURE).stdout)
    extra = set(found["installed"]) - set(found["closure"]) - fresh - {"astro-sdk", "packaging"}
    assert not extra, f"the plain wheel pulled {sorted(extra)}"
    assert {"httpx", "pydantic"} <= set(found["installed"])
    assert "mcp" not in found["installed"]
    # Without the extra, astro-mcp says what to install instead of a traceback.
    refused = subprocess.run([python.parent / "astro-mcp"], capture_output=True, text=True,
                             timeout=60, check=False)  # fmt: skip
    assert refused.returncode == 2
    assert 'pip install "astro-sdk[mcp]"' in refused.stderr
    assert "Traceback" not in refused.stderr


def test_astro_mcp_from_the_wheel_with_the_extra_serves_stdio(
    wheel: Path, tmp_path: Path, server: tuple[ServerProcess, str]
) -> None:
    python = _venv(tmp_path / "with-mcp")
    _pip_install(python, wheel, f"{wheel}[mcp]")
    api, key = server
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ASTRO_", "VIRTUAL_ENV"))}
    env.update({"ASTRO_API_KEY": key, "ASTRO_BASE_URL": api.base_url})
    # The console script of the fresh environment, nothing from this workspace.
    params = StdioServerParameters(command=str(python.parent / "astro-mcp"), env=env, cwd=tmp_path)

    async def session() -> tuple[set[str], Any, Any]:
        async with (
            stdio_client(params) as (read, write),
            ClientSession(read, write) as client,
        ):
            await client.initialize()
            tools = {tool.name: tool for tool in (await client.list_tools()).tools}
            result = await client.call_tool("western_natal", NATAL)
            return set(tools), tools["western_natal"], result

    names, natal_tool, result = anyio.run(session)
    assert {"western_natal", "western_natal_wheel", "wait_job", "docs_search"} <= names
    assert natal_tool.output_schema is not None
    assert not result.is_error, result.content
    assert result.structured_content["planets"]
    assert "1 credits charged, 9 left" in result.content[0].text
    # The environment is the wheel's: astro_sdk comes from its site-packages.
    where = _run(python, "-c", "import astro_sdk; print(astro_sdk.__file__)").stdout
    assert str(tmp_path / "with-mcp") in where
