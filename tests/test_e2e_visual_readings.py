"""Visual readings end to end through the SDK against live processes (hypercorn API, a taskiq
worker, the scheduler) on PostgreSQL, Redis and the local S3 server (moto):

* ``client.visual_readings.upload`` (digest, grant, signed PUT, complete) of Grace Hopper's
  portrait, a face reading in Thai run by the worker, its overlay downloaded through the signed
  URL, and the ``visual_upload.validated`` and ``visual_reading.succeeded`` events received by a
  local HTTPS receiver and verified with ``astro_sdk.webhooks.verify`` (no photo in them);
* the signed PUT streamed in 1 KB chunks (one byte too many: 413, nothing kept) to S3;
* a photo with no face is refused at complete (422, ``visual_upload.rejected``);
* a reading whose photo is gone when the worker runs it (as after its retention) fails, is
  refunded exactly once and sends ``visual_reading.failed``;
* ``DELETE`` removes the photo and the overlay at once; another account's reading is 404.
"""

from __future__ import annotations

import email
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from email import policy
from email.message import EmailMessage
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest
import trustme
from aiosmtpd.controller import Controller
from pytest_httpserver import HTTPServer

import astro_sdk
from astro_sdk import AstroClient
from tests._support.accounts import create_account
from tests._support.receiver import receive
from tests._support.stack import ServerProcess, Stack, poll, s3_env

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "packages/astro_server/tests"))
from _visual_support import coffee, encode, grace_hopper

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.slow]

EVENTS = [
    "visual_reading.succeeded",
    "visual_reading.failed",
    "visual_upload.validated",
    "visual_upload.rejected",
]

DELETE_PHOTO = r"""
import asyncio, sys
from astro_server.platform.db import close_db, init_db
from astro_server.platform.models.files import StoredFile
from astro_server.features.visual.models import VisualUpload
from astro_server.platform import files
from astro_server.settings import Settings
from astro_server.registry import build_platform

async def main(upload_id):
    await init_db(build_platform(Settings.from_env()).settings)
    try:
        upload = await VisualUpload.get(id=upload_id)
        await files.delete_file(await StoredFile.get(id=upload.photo_file_id))
    finally:
        await close_db()

asyncio.run(main(sys.argv[1]))
"""


class MailSink:
    """An aiosmtpd handler keeping every message received (parsed, headers decoded)."""

    def __init__(self) -> None:
        self.messages: list[EmailMessage] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        parsed = email.message_from_bytes(envelope.content, policy=policy.default)
        assert isinstance(parsed, EmailMessage)
        self.messages.append(parsed)
        return "250 OK"


@pytest.fixture(scope="module")
def smtp_sink() -> Iterator[tuple[MailSink, int]]:
    with socket.socket() as probe:  # aiosmtpd's port=0 fails its own readiness check
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    sink = MailSink()
    controller = Controller(sink, hostname="127.0.0.1", port=port)
    controller.start()
    yield sink, port
    controller.stop()


@pytest.fixture(scope="module")
def ca() -> trustme.CA:
    """One CA for the module: its processes trust it, and each test's ``https_server`` (a new
    one per test) gets its certificate from it."""
    return trustme.CA()


@pytest.fixture(scope="module")
def env(
    s3_bucket_url: tuple[str, str],
    ca: trustme.CA,
    smtp_sink: tuple[MailSink, int],
    tmp_path_factory: pytest.TempPathFactory,
) -> dict[str, str]:
    ca_file = tmp_path_factory.mktemp("ca") / "test-ca.pem"
    ca.cert_pem.write_to_path(str(ca_file))
    return {
        **s3_env(s3_bucket_url),
        "ASTRO_ALLOW_LOOPBACK_DESTINATIONS": "1",
        "SSL_CERT_FILE": str(ca_file),
        "ASTRO_SMTP_URL": f"smtp://127.0.0.1:{smtp_sink[1]}",
        "ASTRO_MAIL_FROM": "readings@astro.test",
        "ASTRO_PUBLIC_URL": "https://astro.test",
    }


@pytest.fixture(scope="module")
def api(module_stack: Stack, env: dict[str, str]) -> ServerProcess:
    """API, worker and scheduler shared by the module's tests (each works in accounts of its
    own; the mail sink is cleared by the test that reads it)."""
    server = module_stack.server(env)
    module_stack.worker(env)
    module_stack.scheduler(env)
    return server


PASSWORD = "correct horse battery staple"


def _chunks(data: bytes, size: int) -> Iterator[bytes]:
    for start in range(0, len(data), size):
        yield data[start : start + size]


def test_face_reading_end_to_end_with_verified_events_refund_and_deletion(
    module_stack: Stack, api: ServerProcess, env: dict[str, str], https_server: HTTPServer
) -> None:
    inbox = receive(https_server, "/hooks")
    account = create_account(module_stack, tier="pro", credits=100, name="e2e")
    other = create_account(module_stack, tier="pro", credits=100, name="e2e")
    photo = encode(grace_hopper())
    with AstroClient(base_url=api.base_url, api_key=account["api_key"]) as client:
        secret = client.webhook_endpoints.create(
            url=f"https://localhost:{https_server.port}/hooks", event_types=EVENTS
        ).signing_secret

        upload = client.visual_readings.upload(photo, kind="face")
        assert upload.status == "validated"
        assert upload.byte_size == len(photo)
        assert upload.validation is not None
        assert upload.validation.valid
        accepted = client.visual_readings.create(upload.id, language="th")
        assert accepted.reading_id.startswith("vr_")
        job = client.jobs.wait(accepted.job_id, timeout_s=120, poll_interval_s=0.2)
        assert job.status == "succeeded"
        reading = client.visual_readings.get(accepted.reading_id)
        assert reading.status == "succeeded"
        assert reading.reading is not None
        assert reading.reading["features"]["face_shape"]["value"] == "oval"
        assert reading.reading["sections"][0]["title"] == "รูปหน้า"
        assert job.result is not None
        assert job.result["reading_id"] == reading.id
        assert reading.overlay_url is not None
        overlay = client.files.download(reading.overlay_url)
        assert overlay.content_type == "image/png"
        assert overlay.content[:4] == b"\x89PNG"

        with pytest.raises(astro_sdk.APIStatusError) as rejected:
            client.visual_readings.upload(encode(coffee()), kind="face")
        assert rejected.value.status_code == 422

        events = inbox.events(secret, 3)
        types = sorted(e["type"] for e in events)
        assert types == [
            "visual_reading.succeeded", "visual_upload.rejected", "visual_upload.validated"
        ]  # fmt: skip
        succeeded = next(e for e in events if e["type"] == "visual_reading.succeeded")
        assert succeeded["data"]["reading_id"] == reading.id
        raw = b"".join(body for body, _ in inbox.items)
        assert photo[:2000] not in raw
        assert b"overlay" not in raw

        # The signed PUT streams to S3 through hypercorn: a chunked body one byte too long is
        # 413 (nothing kept, the grant still open); the exact body in 1 KB chunks is stored.
        grant = client.visual_readings.create_upload_grant(photo, kind="face")
        signed = urlsplit(grant.upload_url)  # on ASTRO_PUBLIC_URL's host: sent to this server
        url = f"{api.base_url}{signed.path}?{signed.query}"
        headers = {k: v for k, v in grant.required_headers.items() if k.lower() != "content-length"}
        put = {"url": url, "headers": headers, "timeout": 60}  # chunked: no Content-Length
        assert httpx.put(content=_chunks(photo + b"x", 1024), **put).status_code == 413
        assert httpx.put(content=_chunks(photo, 1024), **put).status_code == 204
        second = client.visual_readings.complete_upload(grant.upload_id)
        assert second.byte_size == len(photo)

        # A reading whose photo is gone when the worker runs it fails and is refunded once.
        done = subprocess.run(
            [sys.executable, "-c", DELETE_PHOTO, second.id],
            env={**module_stack.env, **env}, capture_output=True, text=True, timeout=120,
            check=False,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr[-2000:]
        failing = client.visual_readings.create(second.id)
        with pytest.raises(astro_sdk.JobFailedError):
            client.jobs.wait(failing.job_id, timeout_s=120, poll_interval_s=0.2)
        failed_job = client.jobs.get(failing.job_id)
        assert (failed_job.credits_charged, failed_job.credits_refunded) == (5, 5)
        assert client.visual_readings.get(failing.reading_id).status == "failed"
        failed_events = [e for e in inbox.events(secret, 5) if e["type"] == "visual_reading.failed"]
        assert [e["data"]["reading_id"] for e in failed_events] == [failing.reading_id]

        # DELETE: photo and overlay gone at once, the text stays.
        deleted = client.visual_readings.delete(reading.id)
        assert deleted.overlay_url is None
        assert deleted.reading == reading.reading
        with pytest.raises(astro_sdk.APIStatusError) as gone:
            client.files.download(reading.overlay_url)
        assert gone.value.status_code == 410

    with AstroClient(base_url=api.base_url, api_key=other["api_key"]) as intruder:
        with pytest.raises(astro_sdk.NotFoundError):
            intruder.visual_readings.get(reading.id)
        with pytest.raises(astro_sdk.NotFoundError):
            intruder.visual_readings.complete_upload(upload.id)


def test_customer_reading_with_email_delivery_and_analytics(
    module_stack: Stack, api: ServerProcess, smtp_sink: tuple[MailSink, int]
) -> None:
    sink, _ = smtp_sink
    sink.messages.clear()
    create_account(
        module_stack, tier="pro", credits=100, name="e2e", customer_email="ana@example.com"
    )
    with AstroClient(base_url=api.base_url) as anonymous:
        ana = anonymous.auth.login("ana@example.com", PASSWORD)
        created = ana.visual_reading_deliveries.create(
            destination="ana@example.com", event_types=["visual_reading.succeeded"]
        )
        assert created.signing_secret is None
        assert created.subscription.channel == "email"
        upload = ana.customer_visual_readings.upload(encode(grace_hopper()), kind="face")
        accepted = ana.customer_visual_readings.create(upload.id, language="en")
        assert accepted.poll == f"/v1/visual-readings/{accepted.reading_id}"
        reading = ana.customer_visual_readings.wait(accepted.reading_id, poll_interval_s=0.2)
        assert reading.status == "succeeded"
        listed = ana.customer_visual_readings.list()
        assert [r.id for r in listed.readings] == [reading.id]

        deadline = time.monotonic() + 60
        while not sink.messages and time.monotonic() < deadline:
            time.sleep(0.1)
        (message,) = sink.messages
        assert message["To"] == "ana@example.com"
        assert message["Subject"] == "Your reading is ready / ผลการอ่านจากภาพของคุณพร้อมแล้ว"
        text = message.get_body(preferencelist=("plain",))
        assert text is not None
        content = text.get_content()
        assert f"https://astro.test/v1/visual-readings/{reading.id}" in content
        assert "Face reading:" in content
        assert all(part.get_content_maintype() != "image" for part in message.walk())

        usage = ana.customer_visual_readings.analytics()
        face = next(p for p in usage.by_product if p.product == "face_reading")
        assert (face.jobs, face.succeeded, face.failed) == (1, 1, 0)
        assert (
            (face.credits_charged, face.credits_refunded) == (reading.credits_charged, 0) == (5, 0)
        )
        assert face.actual_cost_micros == reading.actual_cost_micros
        assert face.estimated_cost_micros == reading.estimated_cost_micros
        assert usage.by_day is None
        daily = ana.customer_visual_readings.analytics(group_by="day")
        assert daily.by_day is not None
        assert len(daily.by_day) in (30, 31)  # the default 30 days, in whole UTC days
        (busy,) = [d for d in daily.by_day if any(p.jobs for p in d.by_product)]
        assert busy.date == reading.created_at.date()
        assert busy.by_product == usage.by_product
        (delivery,) = ana.visual_reading_deliveries.list(limit=1)
        assert (delivery.consecutive_failures, delivery.active) == (0, True)
        # Its delivery log (paged): the worker records the answer after the sink has the mail.
        (logged,) = poll(
            lambda: list(ana.visual_reading_deliveries.deliveries(delivery.id, limit=1)),
            lambda log: len(log) == 1 and log[0].status == "succeeded",
        )
        assert logged.event_type == "visual_reading.succeeded"
        assert [a.succeeded for a in logged.attempt_log] == [True]
