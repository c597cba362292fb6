"""Chart pictures end to end: every picture route through the SDK (sync and async) against the
live stack (hypercorn API on PostgreSQL and Redis). The SVG's body marks are compared with the
calculation endpoint's numbers for the same birth; the PNG decodes at the requested size; an
idempotent retry returns the same image without a second charge; bad options are refused.
"""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

import astro_sdk
from astro_sdk import AstroClient, AsyncAstroClient, ChartImage
from tests._support.accounts import create_account
from tests._support.stack import ServerProcess, Stack

pytestmark = [pytest.mark.postgres, pytest.mark.redis]

SVG_NS = "{http://www.w3.org/2000/svg}"
SUBJECT = {
    "date": "1990-07-15",
    "time": "14:30",
    "latitude": 13.75,
    "longitude": 100.5,
    "timezone": "Asia/Bangkok",
}
OTHER = {**SUBJECT, "date": "1988-02-03", "latitude": 51.5, "longitude": -0.12,
         "timezone": "Europe/London"}  # fmt: skip
URANIAN: dict[str, Any] = {
    "birth_date": "1962-09-24",
    "birth_time": "16:05",
    "birth_lat": 53.55,
    "birth_lon": 9.99,
    "birth_place": "Hamburg",
    "timezone": "Europe/Berlin",
}


def bodies(image: ChartImage) -> dict[str, float]:
    root = ET.fromstring(image.data)  # noqa: S314 (the server's output under test)
    return {
        str(g.get("data-body")): float(g.get("data-longitude", "nan"))
        for g in root.iter(f"{SVG_NS}g")
        if g.get("class") == "body"
    }


def png_size(image: ChartImage) -> tuple[int, int]:
    assert image.content_type == "image/png"
    with Image.open(io.BytesIO(image.data)) as decoded:
        decoded.load()
        return decoded.size


def test_every_picture_route_through_the_sdk(
    shared_stack: Stack, shared_server: ServerProcess, tmp_path: Path
) -> None:
    account = create_account(shared_stack, tier="free", credits=100, name="pictures-e2e")
    with AstroClient(api_key=account["api_key"], base_url=shared_server.base_url) as client:
        natal = client.western.natal(subject=SUBJECT)
        wheel = client.western.natal_wheel(subject=SUBJECT, theme="dark", language="th")
        assert wheel.content_type == "image/svg+xml"
        assert wheel.api_response.credits_charged == 2
        assert bodies(wheel) == {p.name: p.longitude for p in natal.planets}
        assert "ดวงชะตากำเนิด" in wheel.text()
        saved = wheel.save(tmp_path / "natal.svg")
        assert saved.read_bytes() == wheel.data

        png = client.western.natal_wheel(subject=SUBJECT, format="png", size_px=640)
        assert png_size(png) == (640, 640)

        synastry = client.western.synastry_wheel(subject_a=SUBJECT, subject_b=OTHER)
        assert synastry.api_response.credits_charged == 3
        root = ET.fromstring(synastry.data)  # noqa: S314
        rings = [g for g in root.iter(f"{SVG_NS}g") if g.get("data-ring")]
        assert [r.get("data-ring") for r in rings] == ["inner", "outer"]
        for ring in rings:
            marks = [g for g in ring.iter(f"{SVG_NS}g") if g.get("class") == "body"]
            assert len(marks) == len(natal.planets)

        transits = client.western.transits_wheel(
            subject=SUBJECT, at="2026-01-01T00:00:00Z", format="png", size_px=300
        )
        assert png_size(transits) == (300, 300)

        chart = client.uranian.chart(**URANIAN)
        dial = client.uranian.dial(**URANIAN, pointer_deg=12.5, colors={"primary": "#00A0FF"})
        assert bodies(dial) == {p.name: p.longitude for p in chart.positions}
        assert "#00A0FF" in dial.text()

        vedic = client.vedic.chart(subject=SUBJECT, divisional_charts=["D9"])
        diagram = client.vedic.chart_diagram(subject=SUBJECT, style="south", varga="D9")
        root = ET.fromstring(diagram.data)  # noqa: S314
        signs = {
            g.get("data-body"): g.get("data-sign")
            for g in root.iter(f"{SVG_NS}g")
            if g.get("class") == "body"
        }
        assert signs == vedic.divisional_charts["D9"]
        north = client.vedic.chart_diagram(subject=SUBJECT, style="north", format="png")
        assert png_size(north) == (800, 800)

        taksa = client.thai.wheel_diagram(subject=SUBJECT, language="th", on_date="2025-06-01")
        assert "กาลกิณี" in taksa.text()
        assert taksa.api_response.credits_charged == 2

        first = client.western.natal_wheel(
            subject=SUBJECT, format="png", idempotency_key="pictures-e2e-1"
        )
        again = client.western.natal_wheel(
            subject=SUBJECT, format="png", idempotency_key="pictures-e2e-1"
        )
        assert again.data == first.data
        assert again.content_type == "image/png"
        assert again.api_response.credits_charged == 0
        assert again.api_response.headers["Idempotent-Replayed"] == "true"

        with pytest.raises(astro_sdk.RequestValidationError):  # refused before sending
            client.western.natal_wheel(subject=SUBJECT, size_px=2001)
        with pytest.raises(astro_sdk.BadRequestError) as caught:  # refused by the server
            client.vedic.chart_diagram(subject=SUBJECT, varga="D5")
        assert [d["field"] for d in caught.value.details] == ["varga"]


async def test_async_picture_methods(shared_stack: Stack, shared_server: ServerProcess) -> None:
    account = create_account(shared_stack, tier="free", credits=30, name="pictures-e2e")
    async with AsyncAstroClient(api_key=account["api_key"], base_url=shared_server.base_url) as aio:
        natal = await aio.western.natal_wheel(subject=SUBJECT, format="png", size_px=200)
        assert png_size(natal) == (200, 200)
        synastry = await aio.western.synastry_wheel(subject_a=SUBJECT, subject_b=OTHER)
        assert synastry.content_type == "image/svg+xml"
        transits = await aio.western.transits_wheel(subject=SUBJECT, at="2026-01-01T00:00:00Z")
        assert transits.content_type == "image/svg+xml"
        dial = await aio.uranian.dial(**URANIAN, dial_mode=22.5)
        assert len(bodies(dial)) == 22
        vedic = await aio.vedic.chart_diagram(subject=SUBJECT, language="th")
        assert "ลั" in vedic.text()
        taksa = await aio.thai.wheel_diagram(subject=SUBJECT, format="png", size_px=2000)
        assert png_size(taksa) == (2000, 2000)
