"""The README's examples type-check under ``mypy --strict`` against the installed SDK."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"
_BLOCK = re.compile(r"```python\n(.*?)```", re.DOTALL)


def readme_examples() -> list[str]:
    return _BLOCK.findall(README.read_text(encoding="utf-8"))


def write_examples(directory: Path) -> list[Path]:
    """One module per ```python block (they are independent programs)."""
    paths = []
    for index, source in enumerate(readme_examples()):
        path = directory / f"readme_example_{index:02d}.py"
        path.write_text(source, encoding="utf-8")
        paths.append(path)
    return paths


def test_readme_has_the_required_examples() -> None:
    text = "\n".join(readme_examples())
    for needle in (
        "AstroClient(",
        "AsyncAstroClient(",
        "jobs.wait(",
        "webhooks.verify(",
        "except astro_sdk.",
        "auth.login(",
        "credits_remaining",
    ):
        assert needle in text, needle


def test_readme_examples_pass_mypy_strict(tmp_path: Path) -> None:
    from mypy import api

    files = write_examples(tmp_path)
    config = tmp_path / "mypy.ini"
    config.write_text("[mypy]\nstrict = True\n")
    stdout, stderr, status = api.run(
        [
            "--config-file",
            str(config),
            "--cache-dir",
            str(tmp_path / ".mypy_cache"),
            "--no-error-summary",
            *map(str, files),
        ]
    )
    assert status == 0, stdout + stderr


@pytest.mark.parametrize("index", range(len(readme_examples())))
def test_readme_examples_compile(index: int) -> None:
    compile(readme_examples()[index], f"README example {index}", "exec")
