"""Visual readings over the API key routes, in the embedded app (in-process jobs), on SQLite
and PostgreSQL: the grant's bounds at their edges, the signed PUT, validation (integrity,
format, bomb, size, quality, subject), metadata stripping, face and palm readings on the test
photos of ``_visual_support``, the refund of a failed reading, deletion of the images."""

from __future__ import annotations

import asyncio
import hashlib
import io
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from _platform_support import key_headers, new_account, running_app, settings_for
from _visual_support import astronaut, coffee, encode, grace_hopper, synthetic_hand
from PIL import Image
from quart.typing import TestClientProtocol as Client

from astro_server.features.visual.models import VisualUpload
from astro_server.platform import files
from astro_server.platform.models.accounts import Account
from astro_server.platform.models.billing import LedgerEntry
from astro_server.platform.models.files import StoredFile
from astro_server.settings import Settings

# Tests here queue in-process jobs: the app waits for them before it stops.
pytestmark = pytest.mark.drain_jobs

GRANTS = "/api/v3/visual-readings/uploads"
READINGS = "/api/v3/visual-readings"


@pytest.fixture
def app_settings(database_url: str, tmp_path: Path) -> Settings:
    return settings_for(database_url, tmp_path)


@pytest.fixture
async def pro() -> tuple[str, str]:
    return await new_account("pro", 100)


def grant_body(data: bytes, kind: str = "face", content_type: str = "image/jpeg") -> dict[str, Any]:
    return {
        "content_length": len(data),
        "sha256": hashlib.sha256(data).hexdigest(),
        "content_type": content_type,
        "kind": kind,
    }


async def upload(
    client: Client,
    key: str,
    data: bytes,
    kind: str = "face",
    content_type: str = "image/jpeg",
    grant: dict[str, Any] | None = None,
) -> tuple[str, int, dict[str, Any]]:
    response = await client.post(
        GRANTS, json=grant or grant_body(data, kind, content_type), headers=key_headers(key)
    )
    assert response.status_code == 201, await response.get_json()
    granted = await response.get_json()
    url = urlsplit(granted["upload_url"])
    put = await client.put(
        f"{url.path}?{url.query}", data=data, headers=granted["required_headers"]
    )
    assert put.status_code == 204, await put.get_json()
    done = await client.post(f"{GRANTS}/{granted['upload_id']}/complete", headers=key_headers(key))
    return granted["upload_id"], done.status_code, await done.get_json()


async def poll_reading(client: Client, key: str, reading_id: str) -> dict[str, Any]:
    for _ in range(500):
        body: dict[str, Any] = await (
            await client.get(f"{READINGS}/{reading_id}", headers=key_headers(key))
        ).get_json()
        if body["status"] in ("succeeded", "failed"):
            return body
        await asyncio.sleep(0.02)
    raise AssertionError("reading never finished")


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("content_length", 0),
        ("content_length", 10_000_001),
        ("sha256", "A" * 64),
        ("sha256", "a" * 63),
        ("content_type", "image/gif"),
        ("kind", "foot"),
    ],
)
async def test_grant_fields_are_checked_at_their_edges(
    client: Client, pro: tuple[str, str], field: str, value: Any
) -> None:
    body = {**grant_body(b"x"), field: value}
    response = await client.post(GRANTS, json=body, headers=key_headers(pro[1]))
    assert response.status_code == 400
    assert [d["field"] for d in (await response.get_json())["details"]] == [field]


async def test_grant_accepts_both_size_bounds_and_has_the_documented_shape(
    client: Client, pro: tuple[str, str]
) -> None:
    for size in (1, 10_000_000):
        body = {**grant_body(b"x"), "content_length": size}
        response = await client.post(GRANTS, json=body, headers=key_headers(pro[1]))
        assert response.status_code == 201
        grant = await response.get_json()
        assert grant["upload_id"].startswith("upl_")
        assert len(grant["upload_id"]) == 28
        assert grant["method"] == "PUT"
        assert grant["required_headers"]["Content-Length"] == str(size)
        assert grant["expires_at"].endswith("Z")


async def test_grant_needs_a_key_and_the_pro_tier(client: Client) -> None:
    assert (await client.post(GRANTS, json=grant_body(b"x"))).status_code == 401
    _, key = await new_account("starter", 100)
    response = await client.post(GRANTS, json=grant_body(b"x"), headers=key_headers(key))
    assert response.status_code == 403


async def test_a_face_photo_validates_and_its_gps_exif_is_stripped(
    client: Client, pro: tuple[str, str]
) -> None:
    exif = Image.Exif()
    exif[0x8825] = {1: "N", 2: (13.0, 45.0, 0.0)}  # GPS IFD: latitude of Bangkok
    exif[0x0112] = 1
    data = encode(grace_hopper(), "JPEG", exif=exif.tobytes(), quality=92)
    assert b"Exif" in data[:200]
    upload_id, status, body = await upload(client, pro[1], data)
    assert status == 200, body
    assert body["upload"]["byte_size"] == len(data)
    checks = {c["check"]: c for c in body["upload"]["validation"]["checks"]}
    assert checks["subject"]["value"] == {"kind": "face", "count": 1}
    assert all(c["verdict"] == "pass" for c in checks.values())
    row = await VisualUpload.get(id=upload_id)
    stored = await StoredFile.get(id=row.photo_file_id)
    kept = await files.read_file(stored)
    assert b"Exif" not in kept
    assert b"GPS" not in kept
    assert not Image.open(io.BytesIO(kept)).getexif()
    assert row.raw_key is None  # the bytes as PUT are gone


async def test_validation_failures_are_422_with_problems(
    client: Client, pro: tuple[str, str]
) -> None:
    good = encode(grace_hopper())
    # SHA-256 mismatch: the grant names other bytes of the same length.
    wrong = {**grant_body(good), "sha256": hashlib.sha256(b"other").hexdigest()}
    _, status, body = await upload(client, pro[1], good, grant=wrong)
    assert status == 422
    assert body["validation"]["checks"][-1]["check"] == "sha256"
    # Not an image at all; and a PNG declared as JPEG.
    _, status, body = await upload(client, pro[1], b"not an image at all")
    assert (status, body["validation"]["checks"][-1]["check"]) == (422, "format")
    png = encode(grace_hopper(), "PNG")
    _, status, body = await upload(client, pro[1], png, content_type="image/jpeg")
    assert (status, body["validation"]["checks"][-1]["check"]) == (422, "format")
    # Truncated JPEG.
    _, status, body = await upload(client, pro[1], good[: len(good) // 2])
    assert (status, body["validation"]["checks"][-1]["value"]) == (422, "failed")
    # Too small: 319 px short side fails, 320 passes the dimension check.
    for short, verdict in ((319, "fail"), (320, "pass")):
        small = encode(grace_hopper().resize((short, 400)))
        _, _, body = await upload(client, pro[1], small)
        dims = next(c for c in body["upload"]["validation"]["checks"] if c["check"] == "dimensions")
        assert dims["verdict"] == verdict
    # No face in a photo of coffee.
    _, status, body = await upload(client, pro[1], encode(coffee()))
    assert status == 422
    assert body["validation"]["problems"] == ["exactly one face must be visible; found 0"]
    # A blurred photo.
    from PIL import ImageFilter

    blurred = encode(grace_hopper().filter(ImageFilter.GaussianBlur(8)))
    _, status, body = await upload(client, pro[1], blurred)
    assert status == 422
    assert any(
        c["check"] == "sharpness" and c["verdict"] == "fail" for c in body["validation"]["checks"]
    )


async def test_a_png_claiming_a_huge_size_is_refused_before_decoding(
    client: Client, pro: tuple[str, str]
) -> None:
    import struct
    import zlib

    def chunk(kind: bytes, payload: bytes) -> bytes:
        return (
            struct.pack(">I", len(payload))
            + kind
            + payload
            + struct.pack(">I", zlib.crc32(kind + payload) & 0xFFFFFFFF)
        )

    bomb = (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", struct.pack(">IIBBBBB", 100_000, 100_000, 8, 2, 0, 0, 0))
        + chunk(b"IDAT", zlib.compress(b"\x00" * 1000))
        + chunk(b"IEND", b"")
    )
    _, status, body = await upload(client, pro[1], bomb, content_type="image/png")
    assert status == 422
    assert body["validation"]["checks"][-1] == {
        "check": "decode",
        "value": "too_large",
        "verdict": "fail",
        "message": "the image has more than 40000000 pixels",
    }


async def test_put_and_complete_refusals(client: Client, pro: tuple[str, str]) -> None:
    data = encode(grace_hopper())
    granted = await (
        await client.post(GRANTS, json=grant_body(data), headers=key_headers(pro[1]))
    ).get_json()
    url = urlsplit(granted["upload_url"])
    path = f"{url.path}?{url.query}"
    complete = f"{GRANTS}/{granted['upload_id']}/complete"
    # Nothing uploaded yet: 409.
    assert (await client.post(complete, headers=key_headers(pro[1]))).status_code == 409
    # One byte too many: 413, nothing kept, the grant still usable.
    assert (await client.put(path, data=data + b"x")).status_code == 413
    assert (await VisualUpload.get(id=granted["upload_id"])).status == "granted"
    # Tampered signature: 403.
    assert (
        await client.put(path.replace("signature=", "signature=x"), data=data)
    ).status_code == 403
    assert (await client.put(path, data=data)).status_code == 204
    assert (await client.put(path, data=data)).status_code == 409  # second PUT
    # Another account's upload: 404.
    _, other = await new_account("pro", 10)
    assert (await client.post(complete, headers=key_headers(other))).status_code == 404
    assert (
        await client.post(complete, headers={"Authorization": f"Bearer {pro[1]}"})
    ).status_code == 200
    assert (await client.post(complete, headers=key_headers(pro[1]))).status_code == 409


async def test_an_expired_grant_is_410(client: Client, pro: tuple[str, str]) -> None:
    data = encode(grace_hopper())
    granted = await (
        await client.post(GRANTS, json=grant_body(data), headers=key_headers(pro[1]))
    ).get_json()
    url = urlsplit(granted["upload_url"])
    later = files.service.now() + timedelta(minutes=15, seconds=1)
    files.set_clock(lambda: later)
    try:
        assert (await client.put(f"{url.path}?{url.query}", data=data)).status_code in (403, 410)
        complete = f"{GRANTS}/{granted['upload_id']}/complete"
        assert (await client.post(complete, headers=key_headers(pro[1]))).status_code == 410
    finally:
        files.set_clock(None)


@pytest.mark.parametrize("photo", [grace_hopper, astronaut])
async def test_face_reading_succeeds_with_features_texts_and_overlay(
    client: Client, pro: tuple[str, str], photo: Any
) -> None:
    account_id, key = pro
    upload_id, status, _ = await upload(client, key, encode(photo()))
    assert status == 200
    response = await client.post(
        READINGS, json={"upload_id": upload_id, "language": "th"}, headers=key_headers(key)
    )
    assert response.status_code == 202
    handle = await response.get_json()
    reading = await poll_reading(client, key, handle["reading_id"])
    assert reading["status"] == "succeeded", reading
    features = reading["reading"]["features"]
    assert features["face_shape"]["value"] == "oval"
    assert 1.05 < features["face_shape"]["length_to_width"] < 1.25
    assert all(0.5 <= f["confidence"] <= 1.0 for f in features.values())
    assert reading["reading"]["sections"][0]["title"] == "รูปหน้า"
    assert (reading["input_tokens"], reading["output_tokens"]) == (0, 0)
    assert reading["estimated_cost_micros"] == 100
    assert reading["credits_charged"] == 5
    assert (await Account.get(id=account_id)).credits == 95
    overlay = urlsplit(reading["overlay_url"])
    got = await client.get(f"{overlay.path}?{overlay.query}")
    assert got.status_code == 200
    assert got.content_type == "image/png"
    # DELETE removes photo and overlay now; the text stays.
    deleted = await (
        await client.delete(f"{READINGS}/{reading['id']}", headers=key_headers(key))
    ).get_json()
    assert deleted["overlay_url"] is None
    assert deleted["reading"] == reading["reading"]
    assert (await client.get(f"{overlay.path}?{overlay.query}")).status_code == 410


async def test_palm_reading_measures_the_hand_and_reports_missing_lines(
    client: Client, pro: tuple[str, str]
) -> None:
    _, key = pro
    upload_id, status, body = await upload(client, key, encode(synthetic_hand(lines=False)), "palm")
    assert status == 200, body
    # A palm reading needs the hand.
    bad = await client.post(READINGS, json={"upload_id": upload_id}, headers=key_headers(key))
    assert bad.status_code == 400
    handle = await (
        await client.post(
            READINGS, json={"upload_id": upload_id, "hand": "right"}, headers=key_headers(key)
        )
    ).get_json()
    reading = await poll_reading(client, key, handle["reading_id"])
    assert reading["status"] == "succeeded", reading
    features = reading["reading"]["features"]
    assert features["hand_type"]["value"] in {"earth", "air", "fire", "water"}
    assert features["palm"]["shape"] == "long"  # drawn 1.3-1.4 times longer than wide
    mounts = features["mounts"]
    assert set(mounts) == {"jupiter", "saturn", "apollo", "mercury", "venus", "luna", "mars"}
    # Jupiter sits under the index finger, on the thumb's side of Mercury (a right palm seen
    # from the front has its thumb on the image's left).
    assert mounts["jupiter"]["x"] < mounts["mercury"]["x"]
    assert mounts["venus"]["y"] > mounts["jupiter"]["y"]
    # No crease was drawn: every line is "not found", none invented.
    assert {name: line["found"] for name, line in features["lines"].items()} == {
        "heart": False,
        "head": False,
        "life": False,
        "fate": False,
    }


async def test_a_reading_that_fails_is_refunded_once(client: Client, pro: tuple[str, str]) -> None:
    account_id, key = pro
    upload_id, _status, _ = await upload(client, key, encode(grace_hopper()))
    # The photo is deleted before the reading runs: the reading fails and is refunded.
    row = await VisualUpload.get(id=upload_id)
    await files.delete_file(await StoredFile.get(id=row.photo_file_id))
    handle = await (
        await client.post(READINGS, json={"upload_id": upload_id}, headers=key_headers(key))
    ).get_json()
    reading = await poll_reading(client, key, handle["reading_id"])
    assert reading["status"] == "failed"
    job = await (
        await client.get(f"/api/v3/jobs/{handle['job_id']}", headers=key_headers(key))
    ).get_json()
    assert (job["credits_charged"], job["credits_refunded"]) == (5, 5)
    assert (await Account.get(id=account_id)).credits == 100
    refunds = await LedgerEntry.filter(account_id=account_id, kind="refund")
    assert len(refunds) == 1


async def customer(client: Client, email: str) -> tuple[str, dict[str, str]]:
    from astro_server.platform.auth import accounts

    account_id, _ = await new_account("pro", 100)
    await accounts.create_customer(account_id, email, "correct horse battery")
    response = await client.post(
        "/auth/login", json={"email": email, "password": "correct horse battery"}
    )
    token = (await response.get_json())["token"]
    return account_id, {"Authorization": f"Bearer {token}"}


async def test_customer_routes_bill_the_account_and_analytics_equal_the_ledger(
    client: Client,
) -> None:
    account_id, session = await customer(client, "ana@example.com")
    data = encode(grace_hopper())
    granted = await (
        await client.post("/v1/visual-readings/uploads", json=grant_body(data), headers=session)
    ).get_json()
    url = urlsplit(granted["upload_url"])
    assert (await client.put(f"{url.path}?{url.query}", data=data)).status_code == 204
    done = await client.post(
        f"/v1/visual-readings/uploads/{granted['upload_id']}/complete", headers=session
    )
    assert done.status_code == 200
    # An API key is not a session: 401 on the session routes.
    _, key = await new_account("pro", 10)
    assert (await client.get("/v1/visual-readings", headers=key_headers(key))).status_code == 401
    accepted = await client.post(
        "/v1/visual-readings", json={"upload_id": granted["upload_id"]}, headers=session
    )
    assert accepted.status_code == 202
    handle = await accepted.get_json()
    assert handle["poll"] == f"/v1/visual-readings/{handle['reading_id']}"
    for _ in range(500):
        reading = await (await client.get(handle["poll"], headers=session)).get_json()
        if reading["status"] in ("succeeded", "failed"):
            break
        await asyncio.sleep(0.02)
    assert reading["status"] == "succeeded"
    # Another account's upload is 404 here (the request's charge is refunded at once).
    upload_id, _, _ = await upload(client, key, data)
    refused = await client.post(
        "/v1/visual-readings", json={"upload_id": upload_id}, headers=session
    )
    assert refused.status_code == 404
    listed = await (await client.get("/v1/visual-readings", headers=session)).get_json()
    assert [r["id"] for r in listed["readings"]] == [handle["reading_id"]]
    assert (await Account.get(id=account_id)).credits == 95

    analytics = await client.get(
        "/v1/visual-readings/analytics?from=2020-01-01T00:00:00Z&to=2099-01-01T00:00:00Z",
        headers=session,
    )
    assert analytics.status_code == 400  # more than 366 days
    response = await client.get("/v1/visual-readings/analytics", headers=session)
    body = await response.get_json()
    face = next(p for p in body["by_product"] if p["product"] == "face_reading")
    palm = next(p for p in body["by_product"] if p["product"] == "palm_reading")
    ledger = await LedgerEntry.filter(account_id=account_id)
    assert sum(e.amount for e in ledger if e.kind != "top_up") == -5  # the refused one: net 0
    from astro_server.platform.models.jobs import Job

    job = await Job.get(id=reading["job_id"])
    debited = -sum(e.amount for e in ledger if e.id == job.ledger_entry_id)
    refunded = sum(e.amount for e in ledger if e.refund_of == job.ledger_entry_id)
    assert (face["jobs"], face["succeeded"], face["failed"]) == (1, 1, 0)
    assert (face["credits_charged"], face["credits_refunded"]) == (debited, refunded) == (5, 0)
    assert face["actual_cost_micros"] == reading["actual_cost_micros"] > 0
    assert face["estimated_cost_micros"] == reading["estimated_cost_micros"]
    assert palm["jobs"] == 0
    bad = await client.get("/v1/visual-readings/analytics?from=yesterday", headers=session)
    assert bad.status_code == 400
    assert (await bad.get_json())["details"][0]["field"] == "from"
    # group_by=day: every UTC day of the window (zeros included), summing to the totals.
    created = datetime.fromisoformat(reading["created_at"].replace("Z", "+00:00"))
    start = (created - timedelta(days=2)).replace(hour=12, minute=0, second=0, microsecond=0)
    end = start + timedelta(days=3)  # 12:00 two days before .. 12:00 the next day: 4 days
    window = {"from": start.isoformat(), "to": end.isoformat(), "group_by": "day"}
    daily = await (
        await client.get("/v1/visual-readings/analytics", query_string=window, headers=session)
    ).get_json()
    days = [d["date"] for d in daily["by_day"]]
    assert days == [(start.date() + timedelta(days=i)).isoformat() for i in range(4)]
    busy = [d for d in daily["by_day"] if any(p["jobs"] for p in d["by_product"])]
    assert [d["date"] for d in busy] == [created.date().isoformat()]
    assert busy[0]["by_product"] == daily["by_product"]
    assert next(p for p in daily["by_product"] if p["product"] == "face_reading") == face
    # The window's end is exclusive: ending at midnight does not add the next day.
    midnight = datetime.combine(created.date(), datetime.min.time(), tzinfo=UTC)
    edge = {"from": (midnight - timedelta(days=1)).isoformat(), "to": midnight.isoformat(),
            "group_by": "day"}  # fmt: skip
    one = await (
        await client.get("/v1/visual-readings/analytics", query_string=edge, headers=session)
    ).get_json()
    assert [d["date"] for d in one["by_day"]] == [(created.date() - timedelta(days=1)).isoformat()]
    assert "by_day" not in body  # only when asked
    wrong = await client.get("/v1/visual-readings/analytics?group_by=week", headers=session)
    assert wrong.status_code == 400
    assert (await wrong.get_json())["details"][0]["field"] == "group_by"


async def test_the_llm_writer_records_its_tokens_and_costs(
    database_url: str, tmp_path: Path
) -> None:
    """A local fake of an OpenAI-compatible chat-completions endpoint (loopback) phrases the
    reading; its usage is recorded and priced per million tokens."""
    import json

    from pytest_httpserver import HTTPServer
    from werkzeug import Request, Response

    asked: list[dict[str, Any]] = []

    def chat(request: Request) -> Response:
        asked.append(json.loads(request.get_data()))
        answer = {
            "choices": [{"message": {"role": "assistant", "content": "A calm, oval face."}}],
            "usage": {"prompt_tokens": 321, "completion_tokens": 123, "total_tokens": 444},
        }
        return Response(json.dumps(answer), content_type="application/json")

    server = HTTPServer(host="127.0.0.1", port=0)
    server.expect_request("/v1/chat/completions", method="POST").respond_with_handler(chat)
    server.start()
    settings = settings_for(
        database_url, tmp_path, llm_base_url=f"http://127.0.0.1:{server.port}/v1",
        llm_model="test-model", llm_api_key="sk-test",
        llm_input_micros_per_mtok=2_000_000, llm_output_micros_per_mtok=8_000_000,
    )  # fmt: skip
    try:
        async with running_app(settings) as application:
            client = application.test_client()
            _, key = await new_account("pro", 100)
            upload_id, _, _ = await upload(client, key, encode(grace_hopper()))
            handle = await (
                await client.post(READINGS, json={"upload_id": upload_id}, headers=key_headers(key))
            ).get_json()
            reading = await poll_reading(client, key, handle["reading_id"])
            await application.extensions["astro"].broker.wait_all()
    finally:
        server.clear()
        server.stop()
    assert reading["status"] == "succeeded"
    assert reading["writer"] == "llm"
    assert reading["reading"]["summary"] == "A calm, oval face."
    assert (reading["input_tokens"], reading["output_tokens"]) == (321, 123)
    assert reading["actual_cost_micros"] == 321 * 2 + 123 * 8  # micros per token
    assert reading["estimated_cost_micros"] == 900 * 2 + 600 * 8
    (request,) = asked
    assert request["model"] == "test-model"
    # Only the measured features' texts are sent: no image, no URL.
    prompt = request["messages"][0]["content"]
    assert "Face shape" in prompt
    assert "/files/" not in prompt
    assert "base64" not in prompt


async def test_drawn_principal_lines_are_found_and_the_missing_fate_line_is_not(
    client: Client, pro: tuple[str, str]
) -> None:
    _, key = pro
    upload_id, status, _ = await upload(client, key, encode(synthetic_hand(lines=True)), "palm")
    assert status == 200
    handle = await (
        await client.post(
            READINGS, json={"upload_id": upload_id, "hand": "left", "language": "th"},
            headers=key_headers(key),
        )
    ).get_json()  # fmt: skip
    reading = await poll_reading(client, key, handle["reading_id"])
    lines = reading["reading"]["features"]["lines"]
    # Heart, head and life creases were drawn (see _visual_support); the fate line was not.
    assert {name: line["found"] for name, line in lines.items()} == {
        "heart": True, "head": True, "life": True, "fate": False
    }  # fmt: skip
    assert lines["heart"]["breaks"] == 0
    assert 0.5 < lines["heart"]["length_to_palm_width"] < 1.3
    assert lines["head"]["confidence"] > 0.8
    texts = {s["feature"]: s["text"] for s in reading["reading"]["sections"]}
    assert texts["lines.fate"] == "ไม่พบเส้นวาสนา ชีวิตกำหนดด้วยการตัดสินใจของตนเองมากกว่าโชคชะตา"


async def test_without_the_visual_extra_the_routes_are_503_and_readyz_says_so(
    client: Client, pro: tuple[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    missing = lambda: ["mediapipe"]  # noqa: E731
    monkeypatch.setattr("astro_server.features.visual.routes.missing_visual_dependencies", missing)
    monkeypatch.setattr("astro_server.features.visual.missing_visual_dependencies", missing)
    response = await client.post(GRANTS, json=grant_body(b"x"), headers=key_headers(pro[1]))
    assert response.status_code == 503
    body = await response.get_json()
    assert body["error"] == "service_unavailable"
    assert "astro-server[visual]" in body["message"]
    ready = await (await client.get("/readyz")).get_json()
    assert ready["checks"]["visual"].startswith("missing (mediapipe)")
    # Everything else keeps working.
    assert (await client.get("/api/v3/jobs", headers=key_headers(pro[1]))).status_code == 200


async def test_photo_and_overlay_are_deleted_after_the_retention(
    client: Client, pro: tuple[str, str]
) -> None:
    _, key = pro
    upload_id, _, _ = await upload(client, key, encode(grace_hopper()))
    handle = await (
        await client.post(READINGS, json={"upload_id": upload_id}, headers=key_headers(key))
    ).get_json()
    reading = await poll_reading(client, key, handle["reading_id"])
    overlay = urlsplit(reading["overlay_url"])
    row = await VisualUpload.get(id=upload_id)
    later = files.service.now() + timedelta(hours=24, seconds=1)
    files.set_clock(lambda: later)
    try:
        assert await files.delete_expired_files() == 2  # the photo and the overlay
    finally:
        files.set_clock(None)
    assert (await StoredFile.get(id=row.photo_file_id)).deleted_at is not None
    assert (await client.get(f"{overlay.path}?{overlay.query}")).status_code == 410
    after = await (
        await client.get(f"{READINGS}/{reading['id']}", headers=key_headers(key))
    ).get_json()
    assert after["overlay_url"] is None
    assert after["reading"] == reading["reading"]  # the text stays


async def test_the_estimate_prices_a_reading_and_its_estimated_cost(
    client: Client, pro: tuple[str, str]
) -> None:
    response = await client.post(
        "/api/v3/estimates",
        json={"operation": "visual_readings.upload", "params": {"kind": "palm"}},
        headers=key_headers(pro[1]),
    )
    body = await response.get_json()
    assert (body["eligible"], body["estimated_credits"], body["tier_required"]) == (True, 5, "pro")
    assert body["estimated_cost_micros"] == 100  # one CPU second at the default price
