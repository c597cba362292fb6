"""End to end through the SDK against live processes (hypercorn API, worker, scheduler) on
PostgreSQL, Redis and the local S3 server (moto):

* signed file URLs: a file stored by another process (as a report worker does) in the bucket
  is served by the API process; tampered and expired URLs are 403, a file deleted after its
  retention is 410, byte ranges work;
* account webhooks: an event emitted the way a report job emits it reaches a local HTTPS
  receiver through the broker and a worker, and verifies with ``astro_sdk.webhooks.verify``;
  the retry operation re-sends a failed delivery and is 409 on a succeeded one;
* brand profiles: the logo fetched by the API process from a local HTTPS server; private
  addresses, oversize logos refused; a script-bearing SVG stored sanitised;
* every id route answers 404 for another account.

The receivers' certificates come from a trustme CA the processes trust through
``SSL_CERT_FILE``; loopback destinations are allowed by the settings flag meant for tests.
"""

from __future__ import annotations

import base64
import io
import json
import subprocess
import sys
import time
from datetime import datetime
from typing import Any

import boto3
import httpx
import pytest
import trustme
from PIL import Image
from pytest_httpserver import HTTPServer

import astro_sdk
from astro_sdk import AstroClient
from astro_sdk.webhooks import verify
from tests._support.accounts import create_account
from tests._support.receiver import receive
from tests._support.stack import ServerProcess, Stack, poll, s3_env

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.slow]

PASSWORD = "correct horse battery staple"

# Run inside a process with the stack's environment: what a report worker does with files and
# events (store, sign, expire, emit), and what the renderer reads (branding_for).
WORKER_SIDE = r"""
import asyncio, base64, json, sys
from datetime import timedelta

from astro_server.platform.db import close_db, init_db
from astro_server.features.brands import service as brands
from astro_server.platform import files
from astro_server.platform.delivery import events
from astro_server.settings import Settings
from astro_server.platform import broker as broker_module
from astro_server.registry import build_platform


async def main(command, *args):
    settings = Settings.from_env()
    build_platform(settings)
    await init_db(settings)
    broker = broker_module.make_broker(settings)
    await broker.startup()
    broker_module.set_current(broker)
    try:
        if command == "store":
            account_id, ttl_s, retention_s = args[0], int(args[1]), float(args[2])
            data = base64.b64decode(args[3])
            stored = await files.store_file(
                account_id, data, "application/pdf", "รายงาน natal.pdf", "report_pdf",
                retention=timedelta(seconds=retention_s),
            )
            url, expires_at = files.signed_url(stored, ttl_s=ttl_s)
            out = {"file_id": stored.id, "url": url, "expires_at": expires_at.isoformat()}
        elif command == "expire":
            out = {"deleted": await files.delete_expired_files()}
        elif command == "emit":
            event_id = await events.emit_account_event(args[0], args[1], json.loads(args[2]), True)
            out = {"event_id": event_id}
        elif command == "branding":
            branding = await brands.branding_for(args[0], args[1])
            out = {
                "brand_name": branding.brand_name,
                "logo": base64.b64encode(branding.logo or b"").decode(),
                "logo_content_type": branding.logo_content_type,
            }
        print(json.dumps(out))
    finally:
        await broker.shutdown()
        await close_db()


asyncio.run(main(*sys.argv[1:]))
"""


def worker_side(stack: Stack, env: dict[str, str], *args: str) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, "-c", WORKER_SIDE, *args],
        env={**stack.env, **env},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


@pytest.fixture(scope="module")
def ca() -> trustme.CA:
    """One CA for the module: its processes trust it, and each test's ``https_server`` (a new
    one per test) gets its certificate from it."""
    return trustme.CA()


@pytest.fixture(scope="module")
def env(
    s3_bucket_url: tuple[str, str], ca: trustme.CA, tmp_path_factory: pytest.TempPathFactory
) -> dict[str, str]:
    ca_file = tmp_path_factory.mktemp("ca") / "test-ca.pem"
    ca.cert_pem.write_to_path(str(ca_file))
    return {
        **s3_env(s3_bucket_url),
        "ASTRO_ALLOW_LOOPBACK_DESTINATIONS": "1",
        "SSL_CERT_FILE": str(ca_file),
    }


@pytest.fixture(scope="module")
def api(module_stack: Stack, env: dict[str, str]) -> ServerProcess:
    """API, worker and scheduler on the S3 bucket, shared by the module's tests (each works in
    accounts of its own)."""
    server = module_stack.server(env)
    module_stack.worker(env)
    module_stack.scheduler(env)
    return server


PDF = b"%PDF-1.7\n" + bytes(range(256)) * 64 + b"\n%%EOF\n"


def test_signed_urls_serve_files_from_the_bucket(
    module_stack: Stack,
    api: ServerProcess,
    env: dict[str, str],
    s3_bucket_url: tuple[str, str],
) -> None:
    account = create_account(module_stack, tier="pro", credits=100, name="e2e")
    payload = base64.b64encode(PDF).decode()
    stored = worker_side(module_stack, env, "store", account["account_id"], "3600", "3600", payload)
    # The bytes are in the bucket (the production path), not in the API's data directory.
    endpoint, bucket_url = s3_bucket_url
    bucket, prefix = bucket_url.removeprefix("s3://").split("/", 1)
    s3 = boto3.client(
        "s3", endpoint_url=endpoint, aws_access_key_id="test", aws_secret_access_key="test",
        region_name="us-east-1",
    )  # fmt: skip
    obj = s3.get_object(Bucket=bucket, Key=f"{prefix}/{stored['file_id']}")
    assert obj["Body"].read() == PDF

    url = api.base_url + stored["url"]
    with AstroClient(base_url=api.base_url) as client:
        downloaded = client.files.download(url)
        assert downloaded.content == PDF
        assert downloaded.content_type == "application/pdf"
        assert downloaded.filename == "รายงาน natal.pdf"
        ranged = httpx.get(url, headers={"Range": "bytes=9-18"}, timeout=30)
        assert ranged.status_code == 206
        assert ranged.content == PDF[9:19]
        assert ranged.headers["Content-Range"] == f"bytes 9-18/{len(PDF)}"

        tampered = url.replace("signature=", "signature=A")
        with pytest.raises(astro_sdk.PermissionDeniedError) as refused:
            client.files.download(tampered)
        assert refused.value.error == "forbidden"
        longer = url.replace("expires=", "expires=9")
        with pytest.raises(astro_sdk.PermissionDeniedError):
            client.files.download(longer)

        short = worker_side(
            module_stack, env, "store", account["account_id"], "20", "3600", payload
        )
        assert client.files.download(api.base_url + short["url"]).content == PDF
        # Valid through its last second (expires is a whole second), refused after it.
        expires_at = datetime.fromisoformat(short["expires_at"]).timestamp()
        time.sleep(max(0.0, expires_at + 1.05 - time.time()))
        with pytest.raises(astro_sdk.PermissionDeniedError) as expired:
            client.files.download(api.base_url + short["url"])
        assert "expired" in expired.value.message

        kept_briefly = worker_side(
            module_stack, env, "store", account["account_id"], "3600", "1", payload
        )
        time.sleep(1.5)
        assert worker_side(module_stack, env, "expire")["deleted"] >= 1
        with pytest.raises(astro_sdk.APIStatusError) as gone:
            client.files.download(api.base_url + kept_briefly["url"])
        assert (gone.value.status_code, gone.value.error) == (410, "gone")
        with pytest.raises(s3.exceptions.NoSuchKey):
            s3.get_object(Bucket=bucket, Key=f"{prefix}/{kept_briefly['file_id']}")


def test_account_events_are_delivered_verified_and_retried(
    module_stack: Stack, api: ServerProcess, env: dict[str, str], https_server: HTTPServer
) -> None:
    inbox = receive(https_server, "/hooks")
    destination = f"https://localhost:{https_server.port}/hooks"
    account = create_account(module_stack, tier="pro", credits=100, name="e2e")
    other = create_account(module_stack, tier="pro", credits=100, name="e2e")

    with AstroClient(base_url=api.base_url, api_key=account["api_key"]) as client:
        created = client.webhook_endpoints.create(
            url=destination, event_types=["report.succeeded", "report.failed"]
        )
        secret, endpoint = created.signing_secret, created.endpoint
        assert endpoint.id.startswith("whe_")
        assert endpoint.active
        assert endpoint.livemode
        with pytest.raises(astro_sdk.BadRequestError) as unsafe:
            client.webhook_endpoints.create(url="https://10.0.0.1/x", event_types=["report.failed"])
        assert unsafe.value.code == "unsafe_destination"

        data = {"report_id": "rep_" + "a" * 24, "kind": "natal_pdf", "status": "succeeded"}
        emitted = worker_side(
            module_stack,
            env,
            "emit",
            account["account_id"],
            "report.succeeded",
            json.dumps(data),
        )
        items = inbox.wait_for(1, timeout_s=60)
        assert len(items) == 1, "the event did not arrive"
        body, headers = items[0]
        event = verify(body, headers, secret)
        assert (event["id"], event["type"], event["livemode"], event["data"]) == (
            emitted["event_id"], "report.succeeded", True, data,
        )  # fmt: skip

        # The receiver has the request before the worker records its answer: wait for that.
        (delivery,) = poll(
            lambda: client.webhook_endpoints.deliveries(endpoint.id).data,
            lambda found: found[0].status != "delivering",
        )
        assert delivery.status == "succeeded"
        assert delivery.event_id == emitted["event_id"]
        assert delivery.attempt_log[0].status_code == 200
        with pytest.raises(astro_sdk.ConflictError) as conflict:
            client.webhook_endpoints.retry_delivery(endpoint.id, delivery.id)
        assert conflict.value.code == "delivery_succeeded"

        # A failed delivery (the receiver answers 410: the endpoint is disabled and the
        # message abandoned), then the endpoint is reactivated and the retry re-sends it.
        inbox.status = 410
        failed_data = {"report_id": "rep_" + "b" * 24, "status": "failed", "error": "render"}
        worker_side(
            module_stack, env, "emit", account["account_id"], "report.failed",
            json.dumps(failed_data),
        )  # fmt: skip
        inbox.wait_for(2, timeout_s=60)
        deadline = time.monotonic() + 30
        while client.webhook_endpoints.get(endpoint.id).active and time.monotonic() < deadline:
            time.sleep(0.2)
        assert client.webhook_endpoints.get(endpoint.id).disabled_at is not None
        latest = poll(
            lambda: client.webhook_endpoints.deliveries(endpoint.id).data[0],
            lambda found: found.status != "delivering",
        )
        assert (latest.event_type, latest.status) == ("report.failed", "abandoned")
        inbox.status = 200
        assert client.webhook_endpoints.update(endpoint.id, active=True).active
        retried = client.webhook_endpoints.retry_delivery(endpoint.id, latest.id)
        assert retried.id == latest.id
        items = inbox.wait_for(3, timeout_s=60)
        assert len(items) == 3
        first_try, second_try = items[1], items[2]
        assert first_try[0] == second_try[0]  # the same body
        assert verify(second_try[0], second_try[1], secret)["data"] == failed_data
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            again = client.webhook_endpoints.deliveries(endpoint.id).data[0]
            if again.status == "succeeded":
                break
            time.sleep(0.2)
        assert again.status == "succeeded"
        assert again.attempts == 2

        rotated = client.webhook_endpoints.rotate_secret(endpoint.id)
        assert rotated.signing_secret.startswith("whsec_")

    with AstroClient(base_url=api.base_url, api_key=other["api_key"]) as intruder:
        assert intruder.webhook_endpoints.list().data == []
        for call in (
            lambda: intruder.webhook_endpoints.get(endpoint.id),
            lambda: intruder.webhook_endpoints.update(endpoint.id, active=False),
            lambda: intruder.webhook_endpoints.rotate_secret(endpoint.id),
            lambda: intruder.webhook_endpoints.deliveries(endpoint.id),
            lambda: intruder.webhook_endpoints.retry_delivery(endpoint.id, latest.id),
            lambda: intruder.webhook_endpoints.delete(endpoint.id),
        ):
            with pytest.raises(astro_sdk.NotFoundError):
                call()
    with AstroClient(base_url=api.base_url, api_key=account["api_key"]) as client:
        client.webhook_endpoints.delete(endpoint.id)
        with pytest.raises(astro_sdk.NotFoundError):
            client.webhook_endpoints.get(endpoint.id)


def png_bytes() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (120, 40), (180, 20, 60)).save(out, "PNG")
    return out.getvalue()


SCRIPTED_SVG = (
    b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10" onload="alert(1)">'
    b"<script>fetch('https://tracker.example/')</script>"
    b'<rect width="10" height="10" fill="#b4143c"/></svg>'
)


def test_brand_profiles_fetch_and_keep_the_logo(
    module_stack: Stack, api: ServerProcess, env: dict[str, str], https_server: HTTPServer
) -> None:
    logo = png_bytes()
    https_server.expect_request("/logo.png").respond_with_data(logo, content_type="image/png")
    https_server.expect_request("/big.png").respond_with_data(
        logo + b"\0" * (2 * 1024 * 1024), content_type="image/png"
    )
    https_server.expect_request("/logo.svg").respond_with_data(
        SCRIPTED_SVG, content_type="image/svg+xml"
    )
    base = f"https://localhost:{https_server.port}"
    account = create_account(
        module_stack,
        tier="pro",
        credits=100,
        name="e2e",
        customer_email="brand-owner@example.com",
    )
    create_account(
        module_stack,
        tier="pro",
        credits=100,
        name="e2e",
        customer_email="brand-intruder@example.com",
    )

    with AstroClient(base_url=api.base_url) as client:
        owner = client.auth.login("brand-owner@example.com", PASSWORD)
        profile = owner.brand_profiles.create(
            name="Main",
            branding={"brand_name": "Moon & Co", "primary_color": "#B4143C",
                      "contact_email": "hi@moon.example", "logo_url": f"{base}/logo.png"},
        )  # fmt: skip
        assert profile.id.startswith("brand_")
        assert profile.branding.brand_name == "Moon & Co"
        kept = worker_side(module_stack, env, "branding", profile.id, account["account_id"])
        assert base64.b64decode(kept["logo"]) == logo
        assert kept["logo_content_type"] == "image/png"

        updated = owner.brand_profiles.update(profile.id, branding={"primary_color": "#000000"})
        assert updated.branding.primary_color == "#000000"
        assert updated.branding.logo_url == f"{base}/logo.png"
        assert [p.id for p in owner.brand_profiles.list()] == [profile.id]

        for url, reason in (
            ("https://10.1.2.3/logo.png", "unsafe_destination"),
            ("https://192.168.0.10/logo.png", "unsafe_destination"),
            (f"{base}/big.png", "larger than 2 MB"),
        ):
            with pytest.raises(astro_sdk.BadRequestError) as refused:
                owner.brand_profiles.create(name="X", branding={"brand_name": "X", "logo_url": url})
            assert refused.value.code == "logo_refused"
            assert [d["field"] for d in refused.value.details] == ["branding.logo_url"]
            assert reason in refused.value.message

        svg_profile = owner.brand_profiles.create(
            name="Svg", branding={"brand_name": "S", "logo_url": f"{base}/logo.svg"}
        )
        stored_svg = worker_side(
            module_stack, env, "branding", svg_profile.id, account["account_id"]
        )
        text = base64.b64decode(stored_svg["logo"]).decode()
        assert "script" not in text
        assert "onload" not in text
        assert "tracker" not in text
        assert 'fill="#b4143c"' in text

        intruder = client.auth.login("brand-intruder@example.com", PASSWORD)
        assert intruder.brand_profiles.list().data == []
        for call in (
            lambda: intruder.brand_profiles.get(profile.id),
            lambda: intruder.brand_profiles.update(profile.id, name="Mine"),
            lambda: intruder.brand_profiles.delete(profile.id),
        ):
            with pytest.raises(astro_sdk.NotFoundError):
                call()
        owner.brand_profiles.delete(profile.id)
        with pytest.raises(astro_sdk.NotFoundError):
            owner.brand_profiles.get(profile.id)
