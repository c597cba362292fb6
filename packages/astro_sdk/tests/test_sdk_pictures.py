"""Picture methods: the request (body with the picture options, Idempotency-Key, Accept), the
image returned as bytes with its content type, retries keeping the key, a JSON body where an
image was expected refused, and options checked before anything is sent."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest
from sdk_testkit import Script, async_client, error, reply, sync_client

import astro_sdk
from astro_sdk import ChartImage

SUBJECT = {"date": "1990-07-15", "time": "14:30", "latitude": 13.75, "longitude": 100.5}
PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 16


def image(content: bytes, content_type: str) -> httpx.Response:
    headers = {"Content-Type": content_type, "X-Credits-Charged": "2"}
    return httpx.Response(200, content=content, headers=headers)


def test_natal_wheel_sends_the_options_and_returns_the_bytes(tmp_path: Path) -> None:
    script = Script(image(PNG, "image/png"))
    with sync_client(script) as client:
        result = client.western.natal_wheel(
            subject=SUBJECT, format="png", size_px=640, theme="dark",
            colors={"primary": "#00A0FF"}, language="th",
        )  # fmt: skip
    assert isinstance(result, ChartImage)
    assert result.data == PNG
    assert result.is_png
    assert result.api_response.credits_charged == 2
    assert result.save(tmp_path / "w.png").read_bytes() == PNG
    request = script.requests[0]
    assert request.url.path == "/api/v3/western/natal/wheel"
    assert request.headers["Idempotency-Key"].startswith("astro-sdk-")
    assert "image/png" in request.headers["Accept"]
    assert json.loads(request.content) == {
        "subject": SUBJECT, "format": "png", "size_px": 640, "theme": "dark",
        "colors": {"primary": "#00A0FF"}, "language": "th",
    }  # fmt: skip
    with pytest.raises(ValueError, match="PNG"):
        result.text()


def test_a_retry_keeps_the_key_and_svg_text_is_readable() -> None:
    svg = b'<svg xmlns="http://www.w3.org/2000/svg"/>'
    script = Script(error(503, "service_unavailable"), image(svg, "image/svg+xml"))
    with sync_client(script, max_retries=1) as client:
        result = client.vedic.chart_diagram(subject=SUBJECT, style="south", varga="D9")
    assert result.text().startswith("<svg")
    keys = {r.headers["Idempotency-Key"] for r in script.requests}
    assert len(script.requests) == 2
    assert len(keys) == 1


def test_a_json_body_where_an_image_was_expected_is_refused() -> None:
    script = Script(reply(200, {"planets": []}))
    with sync_client(script) as client, pytest.raises(astro_sdk.APIResponseValidationError):
        client.thai.wheel_diagram(subject=SUBJECT)


@pytest.mark.parametrize(
    "options",
    [{"size_px": 199}, {"size_px": 2001}, {"colors": {"primary": "red"}}, {"format": "gif"}],
)
def test_bad_options_are_refused_before_sending(options: dict[str, object]) -> None:
    script = Script()
    with sync_client(script) as client, pytest.raises(astro_sdk.RequestValidationError):
        client.western.natal_wheel(subject=SUBJECT, **options)  # type: ignore[arg-type]
    assert script.requests == []


async def test_async_dial() -> None:
    script = Script(image(PNG, "image/png"))
    async with async_client(script) as client:
        result = await client.uranian.dial(
            birth_date="1962-09-24", birth_time="16:05", birth_lat=53.55, birth_lon=9.99,
            birth_place="Hamburg", pointer_deg=12.5, format="png",
        )  # fmt: skip
    assert result.data == PNG
    assert json.loads(script.requests[0].content)["pointer_deg"] == 12.5
