"""The built wheel says what it is: licence file, classifiers (``Typing :: Typed``), project
URLs, and ``py.typed``. Builds the wheel with ``uv build`` (a few seconds, from the uv cache)."""

from __future__ import annotations

import email
import email.message
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1]
WORKSPACE = PACKAGE.parents[1]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> zipfile.ZipFile:
    uv = shutil.which("uv")
    assert uv is not None, "uv builds the wheel"
    out = tmp_path_factory.mktemp("dist")
    subprocess.run(
        [uv, "build", "--package", "astro-sdk", "--wheel", "--out-dir", str(out), "--quiet"],
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


def test_the_project_urls_name_only_the_local_docs_and_the_webhook_scheme(
    metadata: email.message.Message,
) -> None:
    urls = dict(u.split(", ", 1) for u in metadata.get_all("Project-URL") or [])
    assert urls == {
        "API reference (local server)": "http://127.0.0.1:8000/docs",
        "OpenAPI document (local server)": "http://127.0.0.1:8000/openapi.json",
        "Webhook signatures": "https://www.standardwebhooks.com/",
    }
