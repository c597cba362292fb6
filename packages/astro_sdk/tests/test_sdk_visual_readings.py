"""``client.visual_readings.upload``: the digest and size in the grant request, the PUT to the
signed URL with the grant's headers and no API key, then complete; sync and async alike; a
rejected photo raises with the validation problems."""

from __future__ import annotations

import hashlib
import json
from typing import Any

import httpx
import pytest
from sdk_testkit import API_KEY, BASE_URL, Script, async_client, error, reply, sync_client

import astro_sdk

PHOTO = b"\xff\xd8\xff\xe0" + bytes(range(256)) * 4
UPLOAD_ID = "upl_" + "a" * 24
GRANT = {
    "upload_id": UPLOAD_ID,
    "method": "PUT",
    "upload_url": f"{BASE_URL}/uploads/{UPLOAD_ID}?expires=1900000000&signature=c2ln",
    "required_headers": {"Content-Type": "image/jpeg", "Content-Length": str(len(PHOTO))},
    "expires_at": "2030-01-01T00:15:00Z",
}
UPLOAD: dict[str, Any] = {
    "upload": {
        "id": UPLOAD_ID, "kind": "face", "status": "validated", "byte_size": len(PHOTO),
        "expires_at": "2030-01-01T00:15:00Z",
        "validation": {"valid": True, "checks": [], "problems": []},
    }
}  # fmt: skip


def check_requests(requests: list[httpx.Request]) -> None:
    grant, put, complete = requests
    assert (grant.method, grant.url.path) == ("POST", "/api/v3/visual-readings/uploads")
    assert json.loads(grant.content) == {
        "content_length": len(PHOTO),
        "sha256": hashlib.sha256(PHOTO).hexdigest(),
        "content_type": "image/jpeg",
        "kind": "face",
    }
    assert grant.headers["X-API-Key"] == API_KEY
    assert (put.method, put.url.path) == ("PUT", f"/uploads/{UPLOAD_ID}")
    assert dict(put.url.params) == {"expires": "1900000000", "signature": "c2ln"}
    assert put.content == PHOTO
    assert put.headers["Content-Type"] == "image/jpeg"
    assert "X-API-Key" not in put.headers  # the signed URL is the credential
    assert complete.url.path == f"/api/v3/visual-readings/uploads/{UPLOAD_ID}/complete"


def test_upload_grants_puts_and_completes() -> None:
    script = Script(reply(201, GRANT), httpx.Response(204), reply(200, UPLOAD))
    with sync_client(script) as client:
        upload = client.visual_readings.upload(PHOTO, kind="face")
    assert upload.status == "validated"
    check_requests(script.requests)


async def test_async_upload_does_the_same() -> None:
    script = Script(reply(201, GRANT), httpx.Response(204), reply(200, UPLOAD))
    async with async_client(script) as client:
        upload = await client.visual_readings.upload(PHOTO, kind="face")
    assert upload.byte_size == len(PHOTO)
    check_requests(script.requests)


def test_a_rejected_photo_raises_with_the_problems() -> None:
    rejected = error(
        422, "validation_failed", "The photo failed validation",
        validation={"valid": False, "checks": [], "problems": ["too blurred"]},
    )  # fmt: skip
    script = Script(reply(201, GRANT), httpx.Response(204), rejected)
    with sync_client(script) as client, pytest.raises(astro_sdk.APIStatusError) as raised:
        client.visual_readings.upload(PHOTO, kind="face")
    assert raised.value.status_code == 422
    assert raised.value.error == "validation_failed"


def test_a_photo_of_unknown_format_is_refused_before_any_request() -> None:
    script = Script()
    with sync_client(script) as client, pytest.raises(ValueError, match="not a JPEG"):
        client.visual_readings.upload(b"GIF89a....", kind="face")
    assert script.requests == []
