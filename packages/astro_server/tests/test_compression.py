"""zstd/gzip of JSON responses on request (Accept-Encoding), on the in-process app (SQLite)."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest
import zstandard
from _platform_support import key_headers, new_account
from quart import Quart

from astro_server.platform.compression import MIN_BYTES, chosen_encoding
from astro_server.settings import Settings

NATAL = {"subject": {"date": "1990-05-01", "time": "07:30", "latitude": 13.75,
                     "longitude": 100.5, "timezoneOffsetMinutes": 420}}  # fmt: skip


@pytest.fixture
def app_settings(tmp_path: Path) -> Settings:
    return Settings(data_dir=tmp_path, secret_key="k" * 32)


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("gzip, deflate", "gzip"),
        ("gzip, deflate, zstd", "zstd"),  # equal quality: zstd
        ("zstd;q=0.5, gzip", "gzip"),
        ("zstd, gzip;q=0", "zstd"),
        ("zstd;q=0, gzip;q=0", None),
        ("*", "zstd"),
        ("gzip;q=0.2, *;q=0.5", "zstd"),  # zstd falls under the wildcard
        ("br, deflate", None),
        ("identity", None),
    ],
)
def test_the_coding_chosen_among_zstd_and_gzip(header: str, expected: str | None) -> None:
    assert chosen_encoding(header) == expected


async def test_zstd_when_the_client_prefers_it(app: Quart) -> None:
    client = app.test_client()
    plain = await client.get("/openapi.json")
    packed = await client.get("/openapi.json", headers={"Accept-Encoding": "gzip, zstd"})
    assert packed.headers["Content-Encoding"] == "zstd"
    assert "accept-encoding" in packed.headers["Vary"].lower()
    raw = await packed.get_data()
    assert zstandard.ZstdDecompressor().decompress(raw) == await plain.get_data()


async def test_large_json_is_gzipped_when_asked_and_inflates_to_the_same_body(app: Quart) -> None:
    client = app.test_client()
    plain = await client.get("/openapi.json")
    zipped = await client.get("/openapi.json", headers={"Accept-Encoding": "gzip, deflate"})
    assert plain.status_code == zipped.status_code == 200
    assert "Content-Encoding" not in plain.headers
    assert zipped.headers["Content-Encoding"] == "gzip"
    raw = await zipped.get_data()
    assert int(zipped.headers["Content-Length"]) == len(raw)
    assert len(raw) < len(await plain.get_data()) / 3
    assert gzip.decompress(raw) == await plain.get_data()
    assert "accept-encoding" in zipped.headers["Vary"].lower()


async def test_refused_or_absent_gzip_and_small_bodies_go_out_plain(app: Quart) -> None:
    client = app.test_client()
    for header in ("gzip;q=0", "identity", "br"):
        response = await client.get("/openapi.json", headers={"Accept-Encoding": header})
        assert "Content-Encoding" not in response.headers, header
        json.loads(await response.get_data())
    small = await client.get("/healthz", headers={"Accept-Encoding": "gzip"})
    assert len(await small.get_data()) < MIN_BYTES
    assert "Content-Encoding" not in small.headers
    error = await client.get("/nope", headers={"Accept-Encoding": "gzip"})
    assert error.status_code == 404
    assert (await error.get_json())["error"] == "not_found"


async def test_a_replayed_billable_response_is_the_same_json_gzipped_or_not(app: Quart) -> None:
    _, key = await new_account("free", 5)
    headers = key_headers(key, **{"Idempotency-Key": "natal-gz"})
    client = app.test_client()
    first = await client.post("/api/v3/western/natal", json=NATAL, headers=headers)
    replay = await client.post(
        "/api/v3/western/natal", json=NATAL, headers={**headers, "Accept-Encoding": "gzip"}
    )
    assert first.status_code == replay.status_code == 200
    assert replay.headers["Idempotent-Replayed"] == "true"
    assert replay.headers["Content-Encoding"] == "gzip"
    assert replay.headers["X-Credits-Charged"] == "0"
    assert gzip.decompress(await replay.get_data()) == await first.get_data()
