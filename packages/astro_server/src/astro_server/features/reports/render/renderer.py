"""HTML to PDF with Chromium's print-to-PDF, driven by playwright.

Why Chromium: it is the one engine tried here whose PDFs both render Thai correctly (stacked tone
marks, sara am, line breaks between words from ICU's dictionary) and give the text back exactly
with ``pdftotext`` (fpdf2 and WeasyPrint broke the text layer; see the shared ENVIRONMENT notes).

One long-lived browser per process and event loop, launched on first use, and a pool of tabs
(:data:`PAGE_POOL_SIZE`, the machine's core count: each tab has its own renderer process, so
that many reports print in parallel): a report takes a free tab, replaces its document
(``set_content``) and prints it; no browser start, context or renderer process per report
(that was about 40% of a report's wall time). Each tab lives in its own browser context that
runs no script (``java_script_enabled=False``) and loads nothing: every request it would make is
aborted (``page.route("**/*", abort)``), so images must be ``data:`` URIs (not network
requests); with no script and no request, nothing of a report (cookies, storage, cache) survives
into the next one on the same tab. Fonts come from a private fontconfig listing only the bundled
fonts directory (see :func:`astro_server.features.reports.render.html.font_face_css`), parsed
once per renderer process. After each report the tab's garbage is collected (CDP
``HeapProfiler.collectGarbage``, after the PDF is answered) before the tab serves another, so a
renderer stays near 130 MB resident instead of growing to 240 MB. A tab is closed (its renderer
process exits, its memory with it) after :data:`TAB_RENDERS` reports or a failed one; the
browser is replaced after :data:`BROWSER_RENDERS` reports (the replacement serves new reports at
once, the old one closes when its last report is done) and when it died.
:func:`close_renderer` (worker and app shutdown) closes the browser and its driver, so no
Chromium process outlives the worker.

The browser is ``chromium-headless-shell`` when installed (Debian's package of Chromium's
headless-only build: no browser UI, so no top-chrome WebUI renderer per tab; 40% less memory and
CPU per report than ``chromium --headless`` here), else ``chromium``; both print identical text.

Chromium writes the title (from ``<title>``), the language (``/Lang`` from ``<html lang>``, in a
tagged PDF) and subset-embedded fonts, but no author: :func:`set_pdf_metadata` adds Author and
Creator with pypdf as an incremental update, which appends a new Info dictionary after the
untouched original bytes, so the text layer is exactly Chromium's.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import os
import re
import shutil
import tempfile
import weakref
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:
    from playwright.async_api import Browser, BrowserContext, CDPSession, Page, Playwright, Route

log = logging.getLogger("astro_server.features.reports.render")

#: Launch flags that work offline in a container (shared ENVIRONMENT notes).
CHROMIUM_FLAGS: tuple[str, ...] = (
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--font-render-hinting=none",
    # The GPU process (software compositing here) and the network service (every request is
    # aborted) as threads of the browser process: two processes and about 100 MB fewer. This
    # replaces playwright's own --enable-features list (a screenshot and a Google sign-in
    # feature, neither used by printing).
    "--in-process-gpu",
    "--enable-features=NetworkServiceInProcess2",
    # No zygote processes (two, ~50 MB resident each): a tab's renderer is started directly,
    # which costs a little more, once per TAB_RENDERS reports. Needs --no-sandbox (above).
    "--no-zygote",
)
_CANDIDATES = (
    "chromium-headless-shell",
    "chromium",
    "chromium-browser",
    "google-chrome",
    "google-chrome-stable",
)
#: Tabs (renderer processes, 150-250 MB resident each) printing at once in one process: one per
#: core; more only queue on the same cores and cost memory.
PAGE_POOL_SIZE = max(1, min(4, os.cpu_count() or 1))
#: Reports one tab prints before it is closed and replaced (a fresh renderer process: whatever
#: the garbage collection after each report does not give back).
TAB_RENDERS = 25
#: Reports one browser prints before it is replaced (whatever its own process accumulates).
BROWSER_RENDERS = 500
RENDER_TIMEOUT_MS = 30_000


class RendererUnavailable(RuntimeError):
    """A component the renderer needs is missing; ``missing`` names what to install."""

    def __init__(self, missing: list[str]) -> None:
        self.missing = missing
        super().__init__("PDF renderer unavailable: missing " + "; ".join(missing))


def find_chromium() -> str | None:
    """``ASTRO_CHROMIUM_PATH`` when set, else ``/usr/bin/chromium-headless-shell``, else
    ``/usr/bin/chromium``, else one on PATH (the headless shell first)."""
    configured = os.environ.get("ASTRO_CHROMIUM_PATH")
    if configured:
        return configured if os.access(configured, os.X_OK) else None
    for path in ("/usr/bin/chromium-headless-shell", "/usr/bin/chromium"):
        if os.access(path, os.X_OK):
            return path
    for name in _CANDIDATES:
        found = shutil.which(name)
        if found:
            return found
    return None


def missing_components() -> list[str]:
    """What the PDF renderer lacks on this machine, as install hints (empty when ready)."""
    missing: list[str] = []
    for module, hint in (
        ("playwright", "the Python package playwright (pip install 'astro-server[reports]')"),
        ("pypdf", "the Python package pypdf (pip install 'astro-server[reports]')"),
    ):
        try:
            __import__(module)
        except ImportError:
            missing.append(hint)
    if find_chromium() is None:
        missing.append(
            "Chromium (apt-get install --no-install-recommends chromium-headless-shell, "
            "or chromium, or set ASTRO_CHROMIUM_PATH)"
        )
    return missing


_STARTXREF = re.compile(rb"startxref\s+(\d+)\s+%%EOF\s*$")


def set_pdf_metadata(pdf: bytes, *, author: str, creator: str, subject: str = "") -> bytes:
    """Add Author, Creator and Subject to the PDF's Info dictionary as an incremental update.

    The original bytes stay as Chromium wrote them; appended are a new Info object (the old
    entries, Title and dates included, plus ours), an xref section for it and a trailer whose
    ``/Prev`` points at the original cross-reference (PDF 1.7, 7.5.6). pypdf reads the trailer
    and serialises the objects (text strings as UTF-16 where needed); its incremental writer
    does the same but rewrites every object's entry and took ten times longer.
    """
    from pypdf import PdfReader
    from pypdf.generic import (
        DictionaryObject,
        IndirectObject,
        NameObject,
        NumberObject,
        TextStringObject,
    )

    found = _STARTXREF.search(pdf[-64:])
    if found is None:
        raise ValueError("not a PDF ending in startxref/%%EOF")
    trailer = PdfReader(io.BytesIO(pdf)).trailer
    size = int(cast(int, trailer["/Size"]))
    info = DictionaryObject()
    old_info = trailer.get("/Info")
    old = old_info.get_object() if old_info is not None else None
    if isinstance(old, DictionaryObject):
        for key, value in old.items():
            info[NameObject(key)] = value
    info[NameObject("/Author")] = TextStringObject(author)
    info[NameObject("/Creator")] = TextStringObject(creator)
    if subject:
        info[NameObject("/Subject")] = TextStringObject(subject)
    new_trailer = DictionaryObject(
        {
            NameObject("/Size"): NumberObject(size + 1),
            NameObject("/Root"): trailer.raw_get("/Root"),
            NameObject("/Info"): IndirectObject(size, 0, None),
            NameObject("/Prev"): NumberObject(int(found.group(1))),
        }
    )
    if "/ID" in trailer:
        new_trailer[NameObject("/ID")] = trailer.raw_get("/ID")
    out = io.BytesIO()
    out.write(pdf)
    if not pdf.endswith(b"\n"):
        out.write(b"\n")
    info_offset = out.tell()
    out.write(f"{size} 0 obj\n".encode())
    info.write_to_stream(out)
    out.write(b"\nendobj\n")
    xref_offset = out.tell()
    out.write(f"xref\n{size} 1\n{info_offset:010d} 00000 n \ntrailer\n".encode())
    new_trailer.write_to_stream(out)
    out.write(f"\nstartxref\n{xref_offset}\n%%EOF\n".encode())
    return out.getvalue()


@dataclass(eq=False)
class _Tab:
    """One pooled tab: its own browser context and page, and how many reports it printed."""

    context: BrowserContext
    page: Page
    cdp: CDPSession
    renders: int = 0


@dataclass(eq=False)
class _Session:
    """A launched browser, its free tabs and its bookkeeping (see the module docstring)."""

    playwright: Playwright
    browser: Browser
    fontconfig_dir: str
    idle: list[_Tab] = field(default_factory=list)
    active: int = 0
    renders: int = 0
    retiring: bool = False


def _fontconfig() -> str:
    """A fontconfig set-up naming only the bundled fonts (no system font can slip into a
    report); returns its directory (``fonts.conf`` and the cache)."""
    from xml.sax.saxutils import escape

    from astro_server.features.reports.render.html import fonts_directory

    folder = tempfile.mkdtemp(prefix="astro-report-fonts-")
    config = (
        '<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig>\n'
        f"  <dir>{escape(str(fonts_directory()))}</dir>\n"
        f"  <cachedir>{escape(folder)}/cache</cachedir>\n"
        # Unhinted outlines and fractional advances, as web fonts get: hinting snaps advances
        # to whole pixels, and pdftotext then reads the gaps as spaces ("P R EPARED").
        '  <match target="font">\n'
        '    <edit name="hinting" mode="assign"><bool>false</bool></edit>\n'
        '    <edit name="hintstyle" mode="assign"><const>hintnone</const></edit>\n'
        '    <edit name="antialias" mode="assign"><bool>true</bool></edit>\n'
        "  </match>\n</fontconfig>\n"
    )
    Path(folder, "fonts.conf").write_text(config, encoding="utf-8")
    return folder


async def _refuse(route: Route) -> None:
    await route.abort("blockedbyclient")


class PdfRenderer:
    """One Chromium for this event loop and its pool of tabs; :meth:`pdf` prints one HTML
    document."""

    def __init__(self, pool_size: int = PAGE_POOL_SIZE) -> None:
        self._session: _Session | None = None
        #: Browsers replaced while reports were still printing on them (closed after those).
        self._retiring: set[_Session] = set()
        self._lock = asyncio.Lock()
        self._tabs = asyncio.Semaphore(pool_size)
        self._finishing: set[asyncio.Future[None]] = set()
        self._closed = False

    async def _launch(self) -> _Session:
        missing = missing_components()
        if missing:
            raise RendererUnavailable(missing)
        from playwright.async_api import async_playwright

        fontconfig_dir = _fontconfig()
        driver = await async_playwright().start()
        try:
            browser = await driver.chromium.launch(
                executable_path=find_chromium(),
                args=list(CHROMIUM_FLAGS),
                headless=True,
                env={
                    **os.environ,
                    "FONTCONFIG_FILE": str(Path(fontconfig_dir, "fonts.conf")),
                },
            )
        except BaseException:
            await driver.stop()
            shutil.rmtree(fontconfig_dir, ignore_errors=True)
            raise
        log.info("Chromium launched for PDF rendering (%s)", browser.version)
        return _Session(driver, browser, fontconfig_dir)

    async def _checkout(self) -> tuple[_Session, _Tab]:
        """A free tab of the current browser (launched, or replaced, first when needed)."""
        async with self._lock:
            if self._closed:
                raise RuntimeError("the PDF renderer is closed")
            session = self._session
            if session is not None and not session.browser.is_connected():
                log.warning("Chromium for PDF rendering died; launching it again")
                self._session = None
                self._retire(session)
                session = None
            if session is None:
                session = self._session = await self._launch()
            session.active += 1
            try:
                if session.idle:
                    return session, session.idle.pop()
                context = await session.browser.new_context(
                    java_script_enabled=False, offline=True, service_workers="block"
                )
                try:
                    context.set_default_timeout(RENDER_TIMEOUT_MS)
                    page = await context.new_page()
                    await page.route("**/*", _refuse)
                    cdp = await context.new_cdp_session(page)
                except BaseException:
                    with contextlib.suppress(Exception):
                        await context.close()
                    raise
                return session, _Tab(context, page, cdp)
            except BaseException:
                session.active -= 1
                raise

    async def _checkin(self, session: _Session, tab: _Tab, *, reusable: bool) -> None:
        """Give the tab back (or close it) and replace the browser when it has printed enough."""
        tab.renders += 1
        session.renders += 1
        session.active -= 1
        keep = (
            reusable
            and tab.renders < TAB_RENDERS
            and not session.retiring
            and session.browser.is_connected()
        )
        if keep:
            session.idle.append(tab)
        else:
            with contextlib.suppress(Exception):
                await tab.context.close()
        if session.renders >= BROWSER_RENDERS and not session.retiring:
            async with self._lock:
                if self._session is session:
                    self._session = None
                self._retire(session)
        if session.retiring and session.active == 0 and session in self._retiring:
            self._retiring.discard(session)
            await self._stop(session)

    def _retire(self, session: _Session) -> None:
        """No new report goes to ``session``; it closes when its last one is done."""
        session.retiring = True
        self._retiring.add(session)

    async def pdf(self, html: str) -> bytes:
        """Print ``html`` to an A4 PDF (page size and margins from its ``@page`` rules)."""
        await self._tabs.acquire()
        try:
            session, tab = await self._checkout()
        except BaseException:
            self._tabs.release()
            raise
        reusable = False
        try:
            await tab.page.set_content(html, wait_until="load", timeout=RENDER_TIMEOUT_MS)
            pdf = await tab.page.pdf(
                prefer_css_page_size=True,
                print_background=True,
                tagged=True,
                outline=True,
            )
            reusable = True
            return pdf
        finally:
            # After the answer, and even for a cancelled job: the tab's clean-up, then its slot.
            task = asyncio.ensure_future(self._finish(session, tab, reusable=reusable))
            self._finishing.add(task)
            task.add_done_callback(self._finishing.discard)

    async def _finish(self, session: _Session, tab: _Tab, *, reusable: bool) -> None:
        """Collect the tab's garbage (the replaced document's DOM, layout and paint records:
        without it a renderer grows from about 25 MB of its own to 130 MB over ten reports),
        then give it back; the slot is free only after that, so the pool never holds more
        renderers than its size."""
        try:
            if reusable:
                try:
                    await asyncio.wait_for(tab.cdp.send("HeapProfiler.collectGarbage"), 10.0)
                except Exception:
                    reusable = False
            await self._checkin(session, tab, reusable=reusable)
        finally:
            self._tabs.release()

    async def settled(self) -> None:
        """Wait until every printed report's tab is back in the pool (or closed)."""
        while self._finishing:
            await asyncio.wait(list(self._finishing))

    async def close(self) -> None:
        """Close every browser of this renderer (reports still printing on them fail)."""
        if self._finishing:
            await asyncio.wait(list(self._finishing), timeout=0.5)
        async with self._lock:
            self._closed = True
            sessions = [*self._retiring, *([self._session] if self._session else [])]
            self._session = None
            self._retiring.clear()
        for session in sessions:
            await self._stop(session)

    @staticmethod
    async def _stop(session: _Session) -> None:
        session.idle.clear()
        with contextlib.suppress(Exception):
            await session.browser.close()
        with contextlib.suppress(Exception):
            await session.playwright.stop()
        shutil.rmtree(session.fontconfig_dir, ignore_errors=True)


_renderers: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, PdfRenderer] = (
    weakref.WeakKeyDictionary()
)


def renderer() -> PdfRenderer:
    """This event loop's renderer (playwright objects belong to the loop that made them)."""
    loop = asyncio.get_running_loop()
    found = _renderers.get(loop)
    if found is None:
        found = _renderers[loop] = PdfRenderer()
    return found


async def close_renderer() -> None:
    """Close this loop's browser (app and worker shutdown, test teardown)."""
    found = _renderers.pop(asyncio.get_running_loop(), None)
    if found is not None:
        await found.close()


async def render_pdf(html: str, *, author: str, creator: str, subject: str = "") -> bytes:
    """The PDF of ``html`` with its metadata completed (see module docstring)."""
    pdf = await renderer().pdf(html)
    return await asyncio.to_thread(
        set_pdf_metadata, pdf, author=author, creator=creator, subject=subject
    )
