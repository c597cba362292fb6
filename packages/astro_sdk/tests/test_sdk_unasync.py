"""One source for both clients: every sync class is generated from its async twin by
``scripts/unasync.py``; this fails when a generated block is stale (regenerated in memory)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

SCRIPT = Path(__file__).resolve().parents[3] / "scripts" / "unasync.py"


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("unasync_script", SCRIPT)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


unasync = _load()
MODULES = unasync.modules()


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.name)
def test_the_generated_sync_classes_are_current(path: Path) -> None:
    current = path.read_text()
    assert unasync.GENERATED_MARKER in current
    assert unasync.generate(path, current) == current, (
        f"{path.name} is stale: run `uv run python scripts/unasync.py`"
    )


def test_every_resource_module_and_the_client_are_generated() -> None:
    names = {p.name for p in MODULES}
    assert {"_client.py", "vedic.py", "jobs.py", "western.py", "_hr_screening.py"} <= names


def test_a_private_helper_module_without_an_async_class_is_not_listed() -> None:
    assert "_pictures.py" not in {p.name for p in MODULES}


def test_an_edit_to_an_async_class_makes_its_module_stale() -> None:
    path = next(p for p in MODULES if p.name == "estimates.py")
    edited = path.read_text().replace("async def create(", "async def create_estimate(", 1)
    regenerated = unasync.generate(path, edited)
    assert regenerated != edited
    generated = regenerated.partition(unasync.GENERATED_MARKER)[2]
    assert "    def create_estimate(" in generated
    assert "    def create(" not in generated


def test_a_hand_written_sync_twin_is_refused_with_the_fix() -> None:
    path = next(p for p in MODULES if p.name == "estimates.py")
    head = unasync.hand_written_part(path.read_text())
    with_twin = head + "\n\nclass Estimates(SyncResource):\n    pass\n"
    with pytest.raises(SystemExit, match=r"delete it, then run scripts/unasync\.py"):
        unasync.generate(path, with_twin)


@pytest.mark.parametrize(
    ("source", "sync"),
    [
        ("async def get(self) -> Job:", "def get(self) -> Job:"),
        ("return await self._client.request(X)", "return self._client.request(X)"),
        ("async with x:", "with x:"),
        ("async for job in page:", "for job in page:"),
        ("async def __aenter__(self) -> AsyncAstroClient:", "def __enter__(self) -> AstroClient:"),
        ("await self._http.aclose()", "self._http.close()"),
        ("await _async_sleep(s)", "_sleep(s)"),
        ("await asyncio.sleep(s)", "time.sleep(s)"),
        ("return AsyncCursorPager(lambda: fetch(cursor))", "return fetch(cursor)"),
        (") -> AsyncCursorPager[Job[Any]]:", ") -> CursorPage[Job[Any]]:"),
        ("class AsyncVedic(AsyncResource):", "class Vedic(SyncResource):"),
        ("http_client: httpx.AsyncClient | None", "http_client: httpx.Client | None"),
        ("-> AsyncJobHandle[KundliBatchResult]:", "-> JobHandle[KundliBatchResult]:"),
    ],
)
def test_the_token_rewrites(source: str, sync: str) -> None:
    assert unasync.unasync_text(source) == sync
