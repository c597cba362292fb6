"""The built wheel says what it is: licence file, classifiers (``Typing :: Typed``), project
URLs (none on a loopback address), its dependencies, and ``py.typed``. Builds the wheel with the
README's command, ``uv build packages/astro_sdk`` (a few seconds, from the uv cache), into a
temporary directory."""

from __future__ import annotations

import email
import email.message
import ipaddress
import re
import shutil
import subprocess
import zipfile
from pathlib import Path
from urllib.parse import urlsplit

import pytest

PACKAGE = Path(__file__).resolve().parents[1]
WORKSPACE = PACKAGE.parents[1]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> zipfile.ZipFile:
    uv = shutil.which("uv")
    assert uv is not None, "uv builds the wheel"
    out = tmp_path_factory.mktemp("dist")
    subprocess.run(
        [uv, "build", "packages/astro_sdk", "--wheel", "--out-dir", str(out), "--quiet"],
        cwd=WORKSPACE,
        check=True,
        timeout=300,
    )
    (built,) = out.glob("astro_sdk-*.whl")
    return zipfile.ZipFile(built)


@pytest.fixture(scope="module")
def metadata(wheel: zipfile.ZipFile) -> email.message.Message:
    (name,) = [n for n in wheel.namelist() if n.endswith(".dist-info/METADATA")]
    return email.message_from_bytes(wheel.read(name))


def test_the_wheel_carries_the_apache_licence_text(
    wheel: zipfile.ZipFile, metadata: email.message.Message
) -> None:
    (name,) = [n for n in wheel.namelist() if n.endswith(".dist-info/licenses/LICENSE")]
    text = wheel.read(name).decode()
    assert "Apache License" in text
    assert "Version 2.0, January 2004" in text
    assert metadata["License-Expression"] == "Apache-2.0"
    assert metadata.get_all("License-File") == ["LICENSE"]


def test_the_wheel_is_classified_as_typed(
    wheel: zipfile.ZipFile, metadata: email.message.Message
) -> None:
    classifiers = metadata.get_all("Classifier") or []
    assert "Typing :: Typed" in classifiers
    assert "Programming Language :: Python :: 3 :: Only" in classifiers
    assert "Intended Audience :: Developers" in classifiers
    assert "astro_sdk/py.typed" in wheel.namelist()


def _is_loopback(host: str) -> bool:
    if host.lower() == "localhost" or host.lower().endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def test_no_project_url_points_at_a_loopback_address(metadata: email.message.Message) -> None:
    urls = dict(u.split(", ", 1) for u in metadata.get_all("Project-URL") or [])
    # The project has no public repository or documentation site yet: the one link is the
    # published specification of the webhook scheme (see the comment in pyproject.toml).
    assert urls == {"Webhook signatures": "https://www.standardwebhooks.com/"}
    for label, url in urls.items():
        parts = urlsplit(url)
        assert parts.scheme == "https", (label, url)
        assert not _is_loopback(parts.hostname or ""), (label, url)
    for header in ("Home-page", "Download-URL"):
        assert metadata.get(header) is None
    text = str(metadata)
    assert "127.0.0.1" not in text.split("\n\n", 1)[0]  # no loopback anywhere in the headers
    assert "localhost" not in text.split("\n\n", 1)[0]


def test_the_wheel_depends_only_on_httpx_and_pydantic(metadata: email.message.Message) -> None:
    requires = metadata.get_all("Requires-Dist") or []
    names = {re.split(r"[\s<>=!~;\[(]", r, maxsplit=1)[0].lower(): r for r in requires}
    unconditional = {name for name, r in names.items() if ";" not in r}
    assert unconditional == {"httpx", "pydantic"}
    # typing-extensions only for Python < 3.13 (TypeVar defaults, PEP 696), and pydantic itself
    # requires it on every Python: the installed set is httpx, pydantic and theirs.
    conditional = {name: r for name, r in names.items() if ";" in r}
    assert set(conditional) == {"typing-extensions", "mcp"}
    assert 'python_version < "3.13"' in conditional["typing-extensions"].replace("'", '"')
    # The one extra: the stdio MCP server (astro-mcp) pulls the mcp SDK only when asked for.
    assert 'extra == "mcp"' in conditional["mcp"].replace("'", '"')
    assert metadata.get_all("Provides-Extra") == ["mcp"]
