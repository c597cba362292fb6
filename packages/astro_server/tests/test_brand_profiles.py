"""Report brand profiles (session routes): CRUD, spec endpoint 4's PATCH, the field rules at
their edges, the logo fetched once through the SSRF-safe client (private addresses, redirects,
size, format, SVG sanitising), tenant isolation, and ``branding_for`` for the renderer.
SQLite and PostgreSQL; logos served by a local HTTPS server with a test CA."""

from __future__ import annotations

import io
import re
import ssl
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
import trustme
from _platform_support import new_account, settings_for
from PIL import Image
from pytest_httpserver import HTTPServer
from quart import Quart
from quart.typing import TestClientProtocol as Client
from werkzeug import Request, Response

from astro_server.features.brands import service as brands
from astro_server.features.brands.models import BrandProfile
from astro_server.platform import files
from astro_server.platform.auth import accounts
from astro_server.platform.delivery import common as delivery_common
from astro_server.platform.delivery.http import DeliveryClient
from astro_server.platform.errors import APIError
from astro_server.platform.models.files import StoredFile
from astro_server.settings import Settings

BASE = "/v1/report-brand-profiles"
PASSWORD = "correct horse battery"


def png(width: int = 64, height: int = 32, color: tuple[int, int, int] = (200, 30, 90)) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (width, height), color).save(out, "PNG")
    return out.getvalue()


def jpeg() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (40, 40), (10, 120, 200)).save(out, "JPEG")
    return out.getvalue()


EVIL_SVG = b"""<?xml version="1.0"?>
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"
     viewBox="0 0 100 40" onload="alert(1)">
  <script>alert('x')</script>
  <style>@import url(https://tracker.example/a.css);</style>
  <defs><linearGradient id="g"><stop offset="0" stop-color="#123456"/></linearGradient></defs>
  <rect width="100" height="40" fill="url(#g)" onclick="steal()"/>
  <circle cx="20" cy="20" r="10" fill="url(https://tracker.example/p)"/>
  <use xlink:href="https://tracker.example/sprite.svg#x"/>
  <use href="#g"/>
  <a href="javascript:alert(1)"><text x="5" y="30">Brand</text></a>
  <foreignObject width="10" height="10"><body xmlns="http://www.w3.org/1999/xhtml">hi</body></foreignObject>
  <image href="https://tracker.example/pixel.png" width="1" height="1"/>
  <text x="40" y="30" font-family="sans-serif">Moon &amp; Co</text>
</svg>"""


@pytest.fixture(scope="module")
def ca() -> trustme.CA:
    return trustme.CA()


class Logos:
    """An HTTPS server on 127.0.0.1 serving logo bytes by path."""

    def __init__(self, ca: trustme.CA) -> None:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ca.issue_cert("localhost", "127.0.0.1").configure_cert(context)
        self.server = HTTPServer(host="127.0.0.1", port=0, ssl_context=context, threaded=True)
        self.hits: list[str] = []
        self.server.start()

    def serve(
        self,
        path: str,
        body: bytes,
        content_type: str = "image/png",
        status: int = 200,
        headers: dict[str, str] | None = None,
        delay_s: float = 0,
    ) -> str:
        def handler(request: Request) -> Response:
            self.hits.append(request.path)
            if delay_s:
                time.sleep(delay_s)
            return Response(body, status=status, content_type=content_type, headers=headers)

        self.server.expect_request(path, method="GET").respond_with_handler(handler)
        return f"https://localhost:{self.server.port}{path}"

    def stop(self) -> None:
        self.server.clear()
        if self.server.is_running():
            self.server.stop()


@pytest.fixture
def logos(ca: trustme.CA) -> Iterator[Logos]:
    started = Logos(ca)
    yield started
    started.stop()


@pytest.fixture
def app_settings(database_url: str, tmp_path: Path) -> Settings:
    return settings_for(database_url, tmp_path, allow_loopback_destinations=True)


@pytest.fixture(autouse=True)
async def delivery_client(app: Quart, ca: trustme.CA) -> AsyncIterator[None]:
    """The app fetches logos with a client that trusts the test CA."""
    context = ssl.create_default_context()
    ca.configure_trust(context)
    client = DeliveryClient(allow_loopback=True, ssl_context=context)
    delivery_common.set_client(client)
    yield
    delivery_common.set_client(None)
    await client.aclose()


async def login(client: Client, email: str) -> tuple[str, dict[str, str]]:
    account_id, _ = await new_account()
    await accounts.create_customer(account_id, email, PASSWORD)
    response = await client.post("/auth/login", json={"email": email, "password": PASSWORD})
    token = (await response.get_json())["token"]
    return account_id, {"Authorization": f"Bearer {token}"}


@pytest.fixture
async def ana(client: Client) -> tuple[str, dict[str, str]]:
    return await login(client, "ana@example.com")


async def create(client: Client, headers: dict[str, str], **body: Any) -> tuple[int, Any]:
    response = await client.post(BASE, json=body, headers=headers)
    return response.status_code, await response.get_json()


FULL = {
    "brand_name": "Moon & Co",
    "primary_color": "#1A2b3C",
    "contact_email": "hello@moon.example",
    "contact_phone": "+66812345678",
    "contact_url": "https://moon.example/contact",
}


async def test_create_get_list_patch_delete(
    client: Client, ana: tuple[str, dict[str, str]], logos: Logos
) -> None:
    account_id, headers = ana
    logo_url = logos.serve("/logo.png", png())
    status, body = await create(
        client, headers, name="Main", branding={**FULL, "logo_url": logo_url}
    )
    assert status == 201
    profile = body["profile"]
    assert re.fullmatch(r"brand_[a-f0-9]{24}", profile["id"])
    assert profile["name"] == "Main"
    assert profile["branding"] == {**FULL, "logo_url": logo_url}
    assert profile["created_at"].endswith("Z")
    assert profile["updated_at"].endswith("Z")
    assert logos.hits == ["/logo.png"]
    path = f"{BASE}/{profile['id']}"
    assert await (await client.get(path, headers=headers)).get_json() == {"profile": profile}
    listed = await (await client.get(BASE, headers=headers)).get_json()
    assert listed == {"profiles": [profile], "next_cursor": None}
    # PATCH: the fields given replace those stored; the logo is not fetched again.
    patched = await client.patch(
        path,
        json={"branding": {"primary_color": "#000000", "contact_phone": None}},
        headers=headers,
    )
    assert patched.status_code == 200
    changed = (await patched.get_json())["profile"]
    assert changed["name"] == "Main"
    assert changed["branding"]["primary_color"] == "#000000"
    assert changed["branding"]["contact_phone"] is None
    assert changed["branding"]["brand_name"] == "Moon & Co"
    renamed = await (await client.patch(path, json={"name": "Second"}, headers=headers)).get_json()
    assert renamed["profile"]["name"] == "Second"
    assert logos.hits == ["/logo.png"]
    branding = await brands.branding_for(profile["id"], account_id)
    assert branding.logo == png()
    assert branding.logo_content_type == "image/png"
    assert (branding.brand_name, branding.primary_color) == ("Moon & Co", "#000000")
    logo_file = await StoredFile.get(id=(await BrandProfile.get(id=profile["id"])).logo_file_id)
    assert logo_file.expires_at is None
    assert logo_file.kind == "brand_logo"
    deleted = await client.delete(path, headers=headers)
    assert deleted.status_code == 204
    assert (await client.get(path, headers=headers)).status_code == 404
    assert (await StoredFile.get(id=logo_file.id)).deleted_at is not None
    assert await files.storage().size(logo_file.storage_key) is None


async def test_a_new_logo_url_replaces_the_stored_logo(
    client: Client, ana: tuple[str, dict[str, str]], logos: Logos
) -> None:
    account_id, headers = ana
    first = logos.serve("/a.png", png(color=(1, 2, 3)))
    second = logos.serve("/b.jpg", jpeg(), "image/jpeg")
    _, body = await create(
        client, headers, name="M", branding={"brand_name": "M", "logo_url": first}
    )
    old_file = (await BrandProfile.get(id=body["profile"]["id"])).logo_file_id
    await client.patch(
        f"{BASE}/{body['profile']['id']}", json={"branding": {"logo_url": second}}, headers=headers
    )
    branding = await brands.branding_for(body["profile"]["id"], account_id)
    assert branding.logo == jpeg()
    assert branding.logo_content_type == "image/jpeg"
    assert (await StoredFile.get(id=old_file)).deleted_at is not None


@pytest.mark.parametrize(
    ("branding", "field"),
    [
        ({"brand_name": ""}, "branding.brand_name"),
        ({"brand_name": "x" * 121}, "branding.brand_name"),
        ({"brand_name": "B", "primary_color": "#12345"}, "branding.primary_color"),
        ({"brand_name": "B", "primary_color": "#12345G"}, "branding.primary_color"),
        ({"brand_name": "B", "primary_color": "red"}, "branding.primary_color"),
        ({"brand_name": "B", "contact_email": "no-at-sign.example"}, "branding.contact_email"),
        ({"brand_name": "B", "contact_email": "a@localhost"}, "branding.contact_email"),
        ({"brand_name": "B", "contact_phone": "+123456"}, "branding.contact_phone"),
        ({"brand_name": "B", "contact_phone": "+1234567890123456"}, "branding.contact_phone"),
        ({"brand_name": "B", "contact_phone": "0812345678"}, "branding.contact_phone"),
        ({"brand_name": "B", "contact_url": "http://moon.example"}, "branding.contact_url"),
        ({"brand_name": "B", "logo_url": "http://moon.example/l.png"}, "branding.logo_url"),
        ({"brand_name": "B", "tagline": "x"}, "branding.tagline"),
        ({"primary_color": "#123456"}, "branding.brand_name"),
    ],
)
async def test_field_rules_are_400_naming_the_field(
    client: Client, ana: tuple[str, dict[str, str]], branding: dict[str, Any], field: str
) -> None:
    status, body = await create(client, ana[1], name="P", branding=branding)
    assert status == 400
    assert body["error"] == "validation_error"
    assert field in [d["field"] for d in body["details"]]
    assert await BrandProfile.all().count() == 0


@pytest.mark.parametrize(
    ("name", "branding"),
    [
        ("x" * 120, {"brand_name": "y" * 120}),
        ("x", {"brand_name": "y", "contact_phone": "+1234567", "contact_email": "a@b.co"}),
        ("x", {"brand_name": "y", "contact_phone": "+123456789012345"}),
        ("x", {"brand_name": "y", "primary_color": "#abcDEF"}),
    ],
)
async def test_values_at_the_limits_are_accepted(
    client: Client, ana: tuple[str, dict[str, str]], name: str, branding: dict[str, Any]
) -> None:
    status, _ = await create(client, ana[1], name=name, branding=branding)
    assert status == 201


@pytest.mark.parametrize("name", ["", "x" * 121])
async def test_name_out_of_range_is_400(
    client: Client, ana: tuple[str, dict[str, str]], name: str
) -> None:
    status, body = await create(client, ana[1], name=name, branding={"brand_name": "B"})
    assert status == 400
    assert body["details"][0]["field"] == "name"


async def logo_refusal(client: Client, headers: dict[str, str], url: str) -> dict[str, Any]:
    status, body = await create(
        client, headers, name="P", branding={"brand_name": "B", "logo_url": url}
    )
    assert status == 400, body
    assert body["code"] == "logo_refused"
    assert [d["field"] for d in body["details"]] == ["branding.logo_url"]
    assert await BrandProfile.all().count() == 0
    assert await StoredFile.all().count() == 0
    return body


@pytest.mark.parametrize(
    "url",
    [
        "https://10.0.0.7/logo.png",
        "https://192.168.1.1/logo.png",
        "https://169.254.169.254/latest/meta-data/",
        "https://[::ffff:10.0.0.1]/logo.png",
        "https://[fd00::1]/logo.png",
    ],
)
async def test_a_logo_on_a_private_address_is_refused(
    client: Client, ana: tuple[str, dict[str, str]], url: str
) -> None:
    body = await logo_refusal(client, ana[1], url)
    assert "unsafe_destination" in body["message"]


async def test_a_redirect_is_not_followed(
    client: Client, ana: tuple[str, dict[str, str]], logos: Logos
) -> None:
    url = logos.serve("/moved.png", b"", status=302, headers={"Location": "https://10.0.0.1/x.png"})
    body = await logo_refusal(client, ana[1], url)
    assert "redirect" in body["message"]


async def test_the_size_limit_is_2_mb_on_both_sides(
    client: Client, ana: tuple[str, dict[str, str]], logos: Logos
) -> None:
    exact = png()
    padded = exact + b"\0" * (brands.LOGO_MAX_BYTES - len(exact))  # a PNG ignores trailing bytes
    assert len(padded) == 2 * 1024 * 1024
    status, _ = await create(
        client,
        ana[1],
        name="P",
        branding={"brand_name": "B", "logo_url": logos.serve("/max.png", padded)},
    )
    assert status == 201
    await BrandProfile.all().delete()
    await StoredFile.all().delete()
    body = await logo_refusal(client, ana[1], logos.serve("/big.png", padded + b"\0"))
    assert "larger than 2 MB" in body["message"]


async def test_a_slow_logo_times_out(
    client: Client, ana: tuple[str, dict[str, str]], logos: Logos, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(brands, "LOGO_TIMEOUT_S", 0.3)
    body = await logo_refusal(client, ana[1], logos.serve("/slow.png", png(), delay_s=1.0))
    assert "timeout" in body["message"]


@pytest.mark.parametrize(
    ("payload", "reason"),
    [
        (png()[:60], "cannot be decoded"),
        (b"GIF89a" + b"\0" * 40, "only PNG, JPEG and SVG"),
        (b"<html><script>alert(1)</script></html>", "only PNG, JPEG and SVG"),
        (b'<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaa">]><svg/>', "DOCTYPE"),
        (b"<svg xmlns='http://www.w3.org/2000/svg'><rect></svg>", "well-formed"),
        (b"<?xml version='1.0'?><html xmlns='http://www.w3.org/1999/xhtml'/>", "not an SVG"),
    ],
    ids=["truncated-png", "gif", "html", "svg-doctype", "svg-malformed", "xhtml"],
)
async def test_a_logo_that_does_not_decode_is_refused(
    client: Client, ana: tuple[str, dict[str, str]], logos: Logos, payload: bytes, reason: str
) -> None:
    body = await logo_refusal(client, ana[1], logos.serve("/logo", payload, "image/png"))
    assert reason in body["message"]


async def test_an_oversized_image_is_refused(
    client: Client, ana: tuple[str, dict[str, str]], logos: Logos
) -> None:
    body = await logo_refusal(client, ana[1], logos.serve("/huge.png", png(4097, 10)))
    assert "4096" in body["message"]


async def test_a_script_bearing_svg_is_stored_sanitised(
    client: Client, ana: tuple[str, dict[str, str]], logos: Logos
) -> None:
    account_id, headers = ana
    status, body = await create(
        client,
        headers,
        name="P",
        branding={
            "brand_name": "B",
            "logo_url": logos.serve("/logo.svg", EVIL_SVG, "image/svg+xml"),
        },
    )
    assert status == 201
    branding = await brands.branding_for(body["profile"]["id"], account_id)
    assert branding.logo_content_type == "image/svg+xml"
    stored = branding.logo
    assert stored is not None
    text = stored.decode()
    for banned in (
        "script",
        "alert",
        "onload",
        "onclick",
        "steal",
        "tracker.example",
        "@import",
        "foreignObject",
        "javascript",
        "xhtml",
    ):
        assert banned not in text, banned
    # The drawing itself survives: the gradient, the shapes, the in-document reference, the text.
    for kept in ('id="g"', "<rect", "<circle", 'href="#g"', "Moon &amp; Co", 'fill="url(#g)"'):
        assert kept in text, kept


async def test_every_id_route_is_404_for_another_account(
    client: Client, ana: tuple[str, dict[str, str]]
) -> None:
    _account_id, headers = ana
    _, body = await create(client, headers, name="P", branding={"brand_name": "B"})
    path = f"{BASE}/{body['profile']['id']}"
    _, intruder = await login(client, "eve@example.com")
    for method, payload in (("GET", None), ("PATCH", {"name": "Mine"}), ("DELETE", None)):
        response = await client.open(path, method=method, headers=intruder, json=payload)
        assert response.status_code == 404, method
        assert (await response.get_json())["error"] == "not_found"
    assert (await (await client.get(BASE, headers=intruder)).get_json())["profiles"] == []
    assert (await BrandProfile.get(id=body["profile"]["id"])).name == "P"
    with pytest.raises(APIError) as raised:
        await brands.branding_for(body["profile"]["id"], "acct_someone_else")
    assert raised.value.status == 404
    for bad_id in ("brand_123", "hfs_" + "0" * 24, "brand_" + "0" * 24):
        assert (await client.get(f"{BASE}/{bad_id}", headers=headers)).status_code == 404


async def test_an_api_key_is_refused(client: Client) -> None:
    _, key = await new_account()
    response = await client.get(BASE, headers={"X-API-Key": key})
    assert response.status_code == 401


async def test_list_pages_with_a_cursor(client: Client, ana: tuple[str, dict[str, str]]) -> None:
    _, headers = ana
    made = [
        (await create(client, headers, name=f"P{n}", branding={"brand_name": "B"}))[1]["profile"][
            "id"
        ]
        for n in range(3)
    ]
    first = await (await client.get(f"{BASE}?limit=2", headers=headers)).get_json()
    second = await (
        await client.get(f"{BASE}?limit=2&cursor={first['next_cursor']}", headers=headers)
    ).get_json()
    assert second["next_cursor"] is None
    assert sorted(p["id"] for p in first["profiles"] + second["profiles"]) == sorted(made)


async def test_patch_refuses_unknown_fields_and_removing_the_brand_name(
    client: Client, ana: tuple[str, dict[str, str]]
) -> None:
    _, headers = ana
    _, body = await create(client, headers, name="P", branding={"brand_name": "B"})
    path = f"{BASE}/{body['profile']['id']}"
    unknown = await client.patch(path, json={"colour": "#000000"}, headers=headers)
    assert unknown.status_code == 400
    removed = await client.patch(path, json={"branding": {"brand_name": None}}, headers=headers)
    assert removed.status_code == 400
    assert (await removed.get_json())["details"][0]["field"] == "branding.brand_name"
