"""Stored files and signed URLs: both storage backends (data directory, S3 via the local moto
server), the signed ``GET /files/{id}`` (tampered, expired, deleted, ranges, file names), and
the scheduler's expiry, on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import tempfile
from collections.abc import AsyncIterator, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from _delivery_support import Clock
from _platform_support import running_app, settings_for
from quart import Quart
from quart.typing import TestClientProtocol as Client

from astro_server.platform import files, maintenance
from astro_server.platform.files import DirectoryStorage, S3Storage, Storage
from astro_server.platform.models.files import StoredFile
from astro_server.settings import Settings

PDF = b"%PDF-1.7\n" + bytes(range(256)) * 40 + b"\n%%EOF\n"


def s3_settings(base: Settings, s3_bucket_url: tuple[str, str]) -> Settings:
    endpoint, url = s3_bucket_url
    return base.with_overrides(
        storage_url=url,
        s3_endpoint_url=endpoint,
        s3_access_key_id="test",
        s3_secret_access_key="test",
    )


@pytest.fixture(params=["directory", "s3"])
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Storage:
    settings = Settings(data_dir=tmp_path, secret_key="k" * 32)
    if request.param == "s3":
        settings = s3_settings(settings, request.getfixturevalue("s3_bucket_url"))
    return files.storage_for(settings)


# --- the storage interface -----------------------------------------------------------------


async def test_storage_round_trip_with_ranges_and_delete(backend: Storage) -> None:
    assert await backend.size("file_" + "0" * 24) is None
    assert await backend.put("file_" + "0" * 24, PDF, "application/pdf") == len(PDF)
    assert await backend.size("file_" + "0" * 24) == len(PDF)
    assert await backend.read("file_" + "0" * 24) == PDF
    assert await backend.read("file_" + "0" * 24, 9, 18) == PDF[9:19]
    assert await backend.read("file_" + "0" * 24, len(PDF) - 5) == PDF[-5:]
    await backend.delete("file_" + "0" * 24)
    assert await backend.size("file_" + "0" * 24) is None
    with pytest.raises(FileNotFoundError):
        await backend.read("file_" + "0" * 24)
    await backend.delete("file_" + "0" * 24)  # deleting twice is not an error


async def test_storage_takes_a_stream(backend: Storage) -> None:
    async def chunks() -> AsyncIterator[bytes]:
        for start in range(0, len(PDF), 1000):
            yield PDF[start : start + 1000]

    assert await backend.put("file_" + "1" * 24, chunks(), "application/pdf") == len(PDF)
    assert await backend.read("file_" + "1" * 24) == PDF


@pytest.mark.parametrize("rolled", [False, True])
async def test_storage_takes_a_binary_file_from_its_start(backend: Storage, rolled: bool) -> None:
    # A spool as the visual upload PUT fills it: in memory, or rolled over to a disk file.
    with tempfile.SpooledTemporaryFile(max_size=100 if rolled else 1_000_000) as spool:
        spool.write(PDF)  # left at its end: put reads from the start
        assert await backend.put("file_" + "2" * 24, spool, "application/pdf") == len(PDF)
    assert await backend.read("file_" + "2" * 24) == PDF
    assert await backend.size("file_" + "2" * 24) == len(PDF)


@pytest.mark.parametrize("key", ["../secret_key", "a/b", "", ".hidden", "x" * 201])
async def test_storage_refuses_keys_that_leave_its_root(backend: Storage, key: str) -> None:
    with pytest.raises(ValueError, match="invalid storage key"):
        await backend.put(key, b"x", "text/plain")


def test_the_settings_choose_the_backend(tmp_path: Path) -> None:
    base = Settings(data_dir=tmp_path, secret_key="k" * 32)
    directory = files.storage_for(base)
    assert isinstance(directory, DirectoryStorage)
    assert directory.root == tmp_path / "files"
    bucket = files.storage_for(
        base.with_overrides(storage_url="s3://reports/astro/", s3_endpoint_url="http://127.0.0.1:1")
    )
    assert isinstance(bucket, S3Storage)
    assert (bucket.bucket, bucket.prefix) == ("reports", "astro")
    with pytest.raises(ValueError, match="s3://bucket/prefix"):
        files.storage_for(base.with_overrides(storage_url="https://example.com/x"))


def test_settings_read_the_file_variables(tmp_path: Path) -> None:
    settings = Settings.from_env(
        {
            "ASTRO_DATA_DIR": str(tmp_path),
            "ASTRO_STORAGE_URL": "s3://b/p",
            "ASTRO_S3_ENDPOINT_URL": "http://127.0.0.1:9000",
            "ASTRO_S3_ACCESS_KEY_ID": "id",
            "ASTRO_S3_SECRET_ACCESS_KEY": "secret",
            "ASTRO_S3_REGION": "eu-west-1",
            "ASTRO_FILE_URL_TTL_S": "60",
            "ASTRO_FILE_RETENTION_HOURS": "2",
        }
    )
    assert (settings.storage_url, settings.s3_endpoint_url, settings.s3_region) == (
        "s3://b/p",
        "http://127.0.0.1:9000",
        "eu-west-1",
    )
    assert (settings.file_url_ttl_s, settings.file_retention_hours) == (60, 2.0)
    defaults = Settings.from_env({"ASTRO_DATA_DIR": str(tmp_path)})
    assert (defaults.storage_url, defaults.file_url_ttl_s, defaults.file_retention_hours) == (
        None,
        86_400,
        168.0,
    )


# --- signed URLs through the app -----------------------------------------------------------


@pytest.fixture
def clock() -> Iterator[Clock]:
    moving = Clock(datetime(2026, 3, 1, 12, 0, tzinfo=UTC))
    files.set_clock(moving)
    yield moving
    files.set_clock(None)


@pytest.fixture(params=["directory", "s3"])
async def app(
    request: pytest.FixtureRequest, database_url: str, tmp_path: Path, clock: Clock
) -> AsyncIterator[Quart]:
    settings = settings_for(database_url, tmp_path, public_url="https://files.example")
    if request.param == "s3":
        settings = s3_settings(settings, request.getfixturevalue("s3_bucket_url"))
    async with running_app(settings) as application:
        yield application


@pytest.fixture
def client(app: Quart) -> Client:
    return app.test_client()


def target(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.path}?{parts.query}"


async def test_a_signed_url_serves_the_file_with_its_headers(client: Client, clock: Clock) -> None:
    stored = await files.store_file("acct_1", PDF, "application/pdf", "natal.pdf", "report_pdf")
    assert stored.id.startswith("file_")
    assert len(stored.id) == 29
    assert stored.byte_size == len(PDF)
    assert stored.expires_at == clock.now + timedelta(hours=168)
    url, expires_at = files.signed_url(stored)
    assert url.startswith(f"https://files.example/files/{stored.id}?expires=")
    assert expires_at == clock.now + timedelta(seconds=86_400)
    assert parse_qs(urlsplit(url).query)["expires"] == [str(int(expires_at.timestamp()))]
    response = await client.get(target(url))
    assert response.status_code == 200
    assert await response.get_data() == PDF
    assert response.headers["Content-Type"] == "application/pdf"
    assert response.headers["Content-Length"] == str(len(PDF))
    assert response.headers["Content-Disposition"] == 'inline; filename="natal.pdf"'
    assert response.headers["Accept-Ranges"] == "bytes"


async def test_a_thai_file_name_is_sent_rfc_5987_encoded(client: Client) -> None:
    stored = await files.store_file(
        "acct_1", b"<html></html>", "text/html; charset=utf-8", "ดวงชะตา สมชาย.html", "report_html"
    )
    response = await client.get(target(files.signed_url(stored)[0]))
    assert response.headers["Content-Disposition"] == (
        "attachment; filename=\"_______ _____.html\"; filename*=UTF-8''"
        "%E0%B8%94%E0%B8%A7%E0%B8%87%E0%B8%8A%E0%B8%B0%E0%B8%95%E0%B8%B2"
        "%20%E0%B8%AA%E0%B8%A1%E0%B8%8A%E0%B8%B2%E0%B8%A2.html"
    )


@pytest.mark.parametrize(
    ("header", "status", "content_range", "part"),
    [
        ("bytes=0-9", 206, f"bytes 0-9/{len(PDF)}", PDF[:10]),
        ("bytes=100-", 206, f"bytes 100-{len(PDF) - 1}/{len(PDF)}", PDF[100:]),
        ("bytes=-7", 206, f"bytes {len(PDF) - 7}-{len(PDF) - 1}/{len(PDF)}", PDF[-7:]),
        (
            f"bytes={len(PDF) - 1}-",
            206,
            f"bytes {len(PDF) - 1}-{len(PDF) - 1}/{len(PDF)}",
            PDF[-1:],
        ),
        (f"bytes=10-{len(PDF) + 50}", 206, f"bytes 10-{len(PDF) - 1}/{len(PDF)}", PDF[10:]),
        ("bytes=0-1,5-6", 200, None, PDF),
    ],
)
async def test_byte_ranges(
    client: Client, header: str, status: int, content_range: str | None, part: bytes
) -> None:
    stored = await files.store_file("acct_1", PDF, "application/pdf", "natal.pdf", "report_pdf")
    response = await client.get(target(files.signed_url(stored)[0]), headers={"Range": header})
    assert response.status_code == status
    assert response.headers.get("Content-Range") == content_range
    assert await response.get_data() == part
    assert response.headers["Content-Length"] == str(len(part))


@pytest.mark.parametrize("header", [f"bytes={len(PDF)}-", "bytes=-0", "bytes=20-10"])
async def test_a_range_past_the_end_is_416(client: Client, header: str) -> None:
    stored = await files.store_file("acct_1", PDF, "application/pdf", "natal.pdf", "report_pdf")
    response = await client.get(target(files.signed_url(stored)[0]), headers={"Range": header})
    assert response.status_code == 416
    assert response.headers["Content-Range"] == f"bytes */{len(PDF)}"
    assert (await response.get_json())["error"] == "range_not_satisfiable"


def tamper(url: str, **changes: str) -> str:
    parts = urlsplit(url)
    query = {k: v[0] for k, v in parse_qs(parts.query).items()} | changes
    return parts.path + "?" + "&".join(f"{k}={v}" for k, v in query.items())


async def test_tampered_urls_are_403_forbidden(client: Client) -> None:
    stored = await files.store_file("acct_1", PDF, "application/pdf", "natal.pdf", "report_pdf")
    other = await files.store_file("acct_2", b"other", "application/pdf", "b.pdf", "report_pdf")
    url, _ = files.signed_url(stored)
    expires = parse_qs(urlsplit(url).query)["expires"][0]
    signature = parse_qs(urlsplit(url).query)["signature"][0]
    flipped = ("A" if signature[0] != "A" else "B") + signature[1:]
    attempts = [
        tamper(url, signature=flipped),
        tamper(url, expires=str(int(expires) + 3600)),  # a longer life
        f"/files/{other.id}?expires={expires}&signature={signature}",  # another file
        f"/files/{stored.id}?expires={expires}",
        f"/files/{stored.id}",
        tamper(url, expires="soon"),
    ]
    for attempt in attempts:
        response = await client.get(attempt)
        assert response.status_code == 403, attempt
        body = await response.get_json()
        assert body["error"] == "forbidden"
        assert body["request_id"] == response.headers["X-Request-Id"]


async def test_an_expired_url_is_403_at_its_edge(client: Client, clock: Clock) -> None:
    stored = await files.store_file("acct_1", PDF, "application/pdf", "natal.pdf", "report_pdf")
    url, expires_at = files.signed_url(stored, ttl_s=60)
    clock.set(expires_at)  # the last valid second
    assert (await client.get(target(url))).status_code == 200
    clock.advance(seconds=1)
    response = await client.get(target(url))
    assert response.status_code == 403
    assert "expired" in (await response.get_json())["message"]
    fresh, _ = files.signed_url(stored)
    assert (await client.get(target(fresh))).status_code == 200


async def test_a_url_never_outlives_the_file(clock: Clock, app: Quart) -> None:
    stored = await files.store_file(
        "acct_1", PDF, "application/pdf", "natal.pdf", "report_pdf", retention=timedelta(hours=1)
    )
    _, expires_at = files.signed_url(stored)
    assert expires_at == clock.now + timedelta(hours=1)


async def test_files_past_retention_are_deleted_by_the_scheduler_and_answer_410(
    client: Client, clock: Clock
) -> None:
    stored = await files.store_file("acct_1", PDF, "application/pdf", "natal.pdf", "report_pdf")
    kept = await files.store_file(
        "acct_1", b"\x89PNG", "image/png", "logo.png", "brand_logo", keep=True
    )
    url, expires_at = files.signed_url(stored, ttl_s=400 * 3600)
    assert expires_at == stored.expires_at  # capped at the retention
    clock.advance(hours=167, minutes=59)
    await maintenance.delete_expired_files()
    assert (await client.get(target(url))).status_code == 200
    clock.advance(minutes=1)
    await maintenance.delete_expired_files()
    response = await client.get(target(url))
    assert response.status_code == 410
    assert (await response.get_json())["error"] == "gone"
    assert await files.storage().size(stored.storage_key) is None
    row = await StoredFile.get(id=stored.id)
    assert row.deleted_at == clock.now
    clock.advance(days=30)  # long after the URL's expiry: still "gone", not "expired"
    assert (await client.get(target(url))).status_code == 410
    clock.advance(days=400)
    assert await files.delete_expired_files() == 0
    assert await files.storage().size(kept.storage_key) == 4


async def test_an_unknown_file_with_a_valid_signature_is_404(client: Client, clock: Clock) -> None:
    expires = int(clock.now.timestamp()) + 60
    file_id = "file_" + "a" * 24
    signature = files.service.url_signature(file_id, expires)
    response = await client.get(f"/files/{file_id}?expires={expires}&signature={signature}")
    assert response.status_code == 404


async def test_a_failed_store_leaves_no_bytes(app: Quart, monkeypatch: pytest.MonkeyPatch) -> None:
    written: list[str] = []
    original = files.storage().put

    async def put(key: str, data: Any, content_type: str) -> int:
        written.append(key)
        return await original(key, data, content_type)

    async def refuse(**kwargs: Any) -> None:
        raise RuntimeError("database down")

    monkeypatch.setattr(files.storage(), "put", put)
    monkeypatch.setattr(StoredFile, "create", refuse)
    with pytest.raises(RuntimeError):
        await files.store_file("acct_1", PDF, "application/pdf", "natal.pdf", "report_pdf")
    assert written
    assert await files.storage().size(written[0]) is None
    await asyncio.sleep(0)
