"""Security headers on the documentation and the portal (issue 36): a Content-Security-Policy
that lets no inline script run but the docs page's own (by SHA-256), no framing
(``frame-ancestors 'none'`` and ``X-Frame-Options: DENY``), ``Referrer-Policy``,
``X-Content-Type-Options: nosniff``."""

from __future__ import annotations

import base64
import hashlib
import re
from pathlib import Path

from _platform_support import running_app, settings_for


async def test_docs_and_portal_send_security_headers(tmp_path: Path) -> None:
    settings = settings_for(f"sqlite://{tmp_path / 'db.sqlite3'}", tmp_path)
    async with running_app(settings) as app:
        client = app.test_client()
        docs = await client.get("/docs")
        page = await docs.get_data()
        asset = await client.get("/docs/assets/swagger-ui.css")
        document = await client.get("/openapi.json")
        portal = await client.get("/portal/login")
    assert docs.status_code == 200
    csp = docs.headers["Content-Security-Policy"]
    inline = re.findall(rb"<script(?![^>]*\bsrc=)[^>]*>(.*?)</script>", page, re.S | re.I)
    assert inline, "the docs page starts Swagger UI with an inline script"
    for body in inline:
        digest = base64.b64encode(hashlib.sha256(body).digest()).decode()
        assert f"'sha256-{digest}'" in csp
    assert "'unsafe-inline'" not in csp.split("script-src", 1)[1].split(";", 1)[0]
    # No inline event handler (a hash does not cover those): the script is all there is.
    assert not re.search(rb"<[^>]+\son[a-z]+\s*=", page, re.I)
    for answer in (docs, asset, document, portal):
        assert answer.headers["X-Frame-Options"] == "DENY"
        assert answer.headers["X-Content-Type-Options"] == "nosniff"
        assert answer.headers["Referrer-Policy"] in ("no-referrer", "same-origin")
        assert "frame-ancestors 'none'" in answer.headers["Content-Security-Policy"]
    assert "default-src 'none'" in csp
