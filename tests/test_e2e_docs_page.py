"""``/docs`` teaches, in a real browser on a live embedded server with every request off this
machine refused (issue 32): the getting-started text, the tag groups in the spec's order with
the filter box, "Try it out" starting from the London birth (not latitude -90 and today's date),
and the billing note with the price and the advice to use a test key."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from astro_server.app import TAG_GROUPS
from tests._support.stack import ServerProcess, make_stack

CHROMIUM = Path("/usr/bin/chromium")
LOOPBACK = {"127.0.0.1", "localhost", "[::1]", "::1"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """One live embedded server for the module's two pages (they only read it)."""
    stack = make_stack(tmp_path_factory.mktemp("docs-stack"), None, None)
    stack.run_cli("migrate")
    yield stack.server()
    stack.close()


@pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed")
async def test_the_docs_page_guides_a_new_user(server: ServerProcess) -> None:
    from playwright.async_api import Route, async_playwright

    refused: list[str] = []

    async def only_loopback(route: Route) -> None:
        if (urlsplit(route.request.url).hostname or "") in LOOPBACK:
            await route.continue_()
        else:
            refused.append(route.request.url)
            await route.abort("internetdisconnected")

    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(
            executable_path=str(CHROMIUM),
            args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update",
                  "--disable-sync"],
        )  # fmt: skip
        try:
            page = await browser.new_page()
            await page.route("**/*", only_loopback)
            await page.goto(server.base_url + "/docs", wait_until="networkidle")
            await page.wait_for_selector(".opblock-summary", timeout=30_000)
            overview = await page.locator(".information-container").inner_text()
            sections = await page.locator(".opblock-tag").all_inner_texts()
            # One operation, opened, then "Try it out": the body starts from the example.
            natal = page.locator("#operations-Western-westernNatal")
            await natal.locator(".opblock-summary").click()
            description = await natal.locator(".opblock-description-wrapper").first.inner_text()
            await natal.locator(".try-out__btn").click()
            body = json.loads(await natal.locator("textarea.body-param__text").input_value())
            # The filter box keeps one tag group.
            await page.locator(".operation-filter-input").fill("Vedic")
            await page.wait_for_timeout(500)
            filtered = await page.locator(".opblock-tag").all_inner_texts()
        finally:
            await browser.close()
    assert refused == []
    assert "Getting started" in overview
    assert "test key" in overview
    names = [t["name"] for t in TAG_GROUPS]
    shown = [next(n for n in names if text.strip().startswith(n)) for text in sections]
    assert shown == [n for n in names if n in shown]  # the spec's order
    assert len(shown) == len(names)
    assert body["subject"]["timezone"] == "Europe/London"
    assert body["subject"]["latitude"] == 51.5074
    assert "Billed: 1 credit per call" in description
    assert "test key" in description
    assert [text.split("\n")[0].strip() for text in filtered] == ["Vedic"]


@pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed")
async def test_the_reference_page_renders_offline(server: ServerProcess) -> None:
    """``/docs/reference`` (Redoc, from this server's files) renders the document: the overview,
    every tag group in the menu; nothing asked of another host (the page's Content-Security-Policy
    stops Redoc's CDN logo before any request), no script error."""
    from playwright.async_api import Route, async_playwright

    refused: list[str] = []
    errors: list[str] = []

    async def only_loopback(route: Route) -> None:
        if (urlsplit(route.request.url).hostname or "") in LOOPBACK:
            await route.continue_()
        else:
            refused.append(route.request.url)
            await route.abort("internetdisconnected")

    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(
            executable_path=str(CHROMIUM),
            args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update",
                  "--disable-sync"],
        )  # fmt: skip
        try:
            page = await browser.new_page()
            page.on("pageerror", lambda error: errors.append(str(error)))
            await page.route("**/*", only_loopback)
            await page.goto(server.base_url + "/docs/reference", wait_until="networkidle")
            await page.wait_for_function(
                "document.body.innerText.includes('Getting started')", timeout=60_000
            )
            text = await page.locator("body").inner_text()
        finally:
            await browser.close()
    assert refused == []
    assert errors == []
    for group in TAG_GROUPS:
        assert group["name"] in text, group["name"]
