"""The PDF renderer's browser and tab pool: tabs reused and replaced, reports printed in
parallel with the right text each, a reused tab printing exactly what a fresh one prints, a
dead browser launched again, an old browser replaced after its quota, and no Chromium (or
playwright driver) process left after ``close_renderer`` or after the owning process is killed.

Processes are found as descendants of this test process (``/proc``), so other Chromium
instances on the machine do not count.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from astro_server.features.reports.render import renderer as renderer_module
from astro_server.features.reports.render.renderer import (
    PdfRenderer,
    close_renderer,
    missing_components,
    renderer,
)

pytestmark = pytest.mark.skipif(
    bool(missing_components()) or subprocess.run(["which", "pdftotext"]).returncode != 0,
    reason="needs Chromium, playwright and poppler-utils (scripts/test.sh installs them)",
)


def _doc(text: str, lang: str = "en") -> str:
    return (
        f'<!DOCTYPE html><html lang="{lang}"><head><title>{text}</title>'
        "<style>@page{size:A4;margin:20mm}body{font-family:'Report Sans'}</style></head>"
        f"<body><h1>{text}</h1><p>{text} body</p></body></html>"
    )


def _text(pdf: bytes, tmp_path: Path, name: str) -> str:
    path = tmp_path / f"{name}.pdf"
    path.write_bytes(pdf)
    return subprocess.run(
        ["pdftotext", "-layout", str(path), "-"], check=True, capture_output=True, text=True
    ).stdout


def _children() -> dict[int, list[int]]:
    table: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            fields = stat.rpartition(")")[2].split()
            if fields[0] != "Z":  # zombies are dead already (reaped by their parent later)
                table.setdefault(int(fields[1]), []).append(int(entry.name))
    return table


def _descendants(root: int) -> list[int]:
    children, found, stack = _children(), [], [root]
    while stack:
        for child in children.get(stack.pop(), []):
            found.append(child)
            stack.append(child)
    return found


def _comm(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/comm").read_text().strip()
    except OSError:
        return ""


#: Descendants of this process from before the running test (processes other test files left to
#: this pytest-xdist worker, a module's live server...): not the renderer's, not counted.
_EARLIER: set[int] = set()


@pytest.fixture(autouse=True)
def _earlier_processes() -> None:
    _EARLIER.clear()
    _EARLIER.update(_descendants(os.getpid()))


def _browser_processes(root: int) -> list[int]:
    return [
        pid
        for pid in _descendants(root)
        if pid not in _EARLIER and _comm(pid) not in ("", "pdftotext", "which")
    ]


def _wait_gone(root: int, timeout_s: float = 10.0) -> list[int]:
    deadline = time.monotonic() + timeout_s
    left = _browser_processes(root)
    while left and time.monotonic() < deadline:
        time.sleep(0.1)
        left = _browser_processes(root)
    return left


@pytest.fixture
def small_quotas(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(renderer_module, "TAB_RENDERS", 3)


def test_tabs_are_reused_then_replaced_and_print_what_a_fresh_tab_prints(
    small_quotas: None, tmp_path: Path
) -> None:
    async def scenario() -> tuple[list[bytes], list[tuple[int, int]], bytes]:
        pool = PdfRenderer(pool_size=1)
        seen: list[tuple[int, int]] = []
        pdfs = []
        try:
            for n in range(5):
                pdfs.append(await pool.pdf(_doc(f"Report number {n}")))
                await pool.settled()
                session = pool._session
                assert session is not None
                seen.append((len(session.idle), len(session.browser.contexts)))
            fresh = PdfRenderer(pool_size=1)
            try:
                again = await fresh.pdf(_doc("Report number 4"))
            finally:
                await fresh.close()
        finally:
            await pool.close()
        return pdfs, seen, again

    pdfs, seen, again = asyncio.run(scenario())
    # One tab kept between reports; closed (no context left) after its third, then a new one.
    assert seen == [(1, 1), (1, 1), (0, 0), (1, 1), (1, 1)]
    for n, pdf in enumerate(pdfs):
        text = _text(pdf, tmp_path, f"r{n}")
        assert f"Report number {n}" in text
        assert all(f"Report number {m}" not in text for m in range(5) if m != n)
    # The fifth report was printed on a tab that had printed another: same text as a new tab.
    assert _text(pdfs[4], tmp_path, "reused") == _text(again, tmp_path, "fresh")


def test_reports_print_in_parallel_each_with_its_own_text(tmp_path: Path) -> None:
    async def scenario() -> tuple[list[bytes], int]:
        pool = PdfRenderer(pool_size=2)
        most = 0

        async def watch() -> None:
            nonlocal most
            while True:
                session = pool._session
                if session is not None:
                    most = max(most, session.active)
                await asyncio.sleep(0.005)

        watcher = asyncio.create_task(watch())
        try:
            docs = [_doc(f"Parallel {n}", "th" if n % 2 else "en") for n in range(6)]
            return list(await asyncio.gather(*(pool.pdf(d) for d in docs))), most
        finally:
            watcher.cancel()
            await pool.close()

    pdfs, most = asyncio.run(scenario())
    assert most == 2  # the pool's size: two at once, never more
    for n, pdf in enumerate(pdfs):
        text = _text(pdf, tmp_path, f"p{n}")
        assert f"Parallel {n}" in text
        assert all(f"Parallel {m}" not in text for m in range(6) if m != n)


def test_a_dead_browser_is_launched_again() -> None:
    async def scenario() -> bytes:
        pool = PdfRenderer(pool_size=1)
        try:
            await pool.pdf(_doc("before"))
            browsers = [
                pid
                for pid in _browser_processes(os.getpid())
                if _comm(pid).startswith("chrom") and "--type=" not in _cmdline(pid)
            ]
            assert browsers, _browser_processes(os.getpid())
            for pid in browsers:
                os.kill(pid, signal.SIGKILL)
            for _ in range(100):
                if pool._session is not None and not pool._session.browser.is_connected():
                    break
                await asyncio.sleep(0.05)
            return await pool.pdf(_doc("after the crash"))
        finally:
            await pool.close()

    assert asyncio.run(scenario()).startswith(b"%PDF-")


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


def test_the_browser_is_replaced_after_its_quota_and_the_old_one_exits(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(renderer_module, "BROWSER_RENDERS", 2)

    async def scenario() -> None:
        pool = PdfRenderer(pool_size=2)
        try:
            await asyncio.gather(pool.pdf(_doc("one")), pool.pdf(_doc("two")))
            await pool.settled()
            assert pool._session is None  # retired after its second report
            assert not pool._retiring  # and closed, nothing was printing on it
            assert await asyncio.to_thread(_wait_gone, os.getpid()) == []
            await pool.pdf(_doc("three"))
            assert pool._session is not None
            assert pool._session.browser.is_connected()
        finally:
            await pool.close()

    asyncio.run(scenario())


def test_close_renderer_leaves_no_process() -> None:
    async def scenario() -> None:
        await asyncio.gather(*(renderer().pdf(_doc(f"close {n}")) for n in range(3)))
        assert _browser_processes(os.getpid())
        await close_renderer()

    asyncio.run(scenario())
    assert _wait_gone(os.getpid()) == []


def test_no_chromium_outlives_a_killed_owner(tmp_path: Path) -> None:
    """SIGKILL of the process that owns the renderer (no shutdown hook runs): its driver and
    browser exit with it (the browser's CDP pipe closes)."""
    script = tmp_path / "owner.py"
    script.write_text(
        textwrap.dedent(
            """
            import asyncio, sys, time
            from astro_server.features.reports.render.renderer import renderer

            async def main():
                await renderer().pdf("<html><body>x</body></html>")
                print("ready", flush=True)
                await asyncio.sleep(600)

            asyncio.run(main())
            """
        )
    )
    owner = subprocess.Popen(
        [sys.executable, str(script)], stdout=subprocess.PIPE, start_new_session=True
    )
    spawned: list[int] = []
    try:
        assert owner.stdout is not None
        assert owner.stdout.readline().strip() == b"ready"
        spawned = _browser_processes(owner.pid)
        assert spawned
        owner.kill()
        owner.wait(10)
        deadline = time.monotonic() + 10
        alive = spawned
        while alive and time.monotonic() < deadline:
            time.sleep(0.1)
            alive = [pid for pid in spawned if _comm(pid) and _state(pid) != "Z"]
        assert alive == [], [(_comm(pid), _cmdline(pid)[:80]) for pid in alive]
    finally:
        if owner.poll() is None:
            owner.kill()
            owner.wait(10)
        if owner.stdout is not None:
            owner.stdout.close()
        for pid in [*_descendants(owner.pid), *spawned]:
            if not _comm(pid) or _state(pid) == "Z":
                continue
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


def _state(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
    except OSError:
        return ""
