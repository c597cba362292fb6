"""ASTRO_TRUSTED_PROXIES on a real hypercorn process (embedded mode): the middleware wraps the
app that ``astro-server serve`` runs. This test process plays the proxy on 127.0.0.1.

Trusted: ``X-Forwarded-Proto: https`` makes the portal's cookies ``Secure``, and the forwarded
client (a private address) is no longer a loopback scraper for ``/metrics``. Not trusted (the
variable unset): the same headers change nothing.
"""

from __future__ import annotations

from collections.abc import Callable

import httpx
import pytest

from tests._support.stack import Stack

pytestmark = pytest.mark.slow

FORWARDED = {"X-Forwarded-For": "192.168.40.7", "X-Forwarded-Proto": "https"}


@pytest.mark.parametrize("trusted", [True, False])
def test_forwarded_headers_count_only_from_a_trusted_proxy(
    trusted: bool, stack_factory: Callable[..., Stack]
) -> None:
    stack = stack_factory()
    server = stack.server({"ASTRO_TRUSTED_PROXIES": "127.0.0.1/32, ::1"} if trusted else {})
    page = httpx.get(server.base_url + "/portal/login", headers=FORWARDED, timeout=30)
    assert page.status_code == 200
    cookies = page.headers.get_list("set-cookie")
    assert cookies
    assert all(("; Secure" in c or "; secure" in c) == trusted for c in cookies), cookies
    metrics = httpx.get(server.base_url + "/metrics", headers=FORWARDED, timeout=30)
    # Without ASTRO_METRICS_TOKEN only loopback clients may scrape: through the trusted proxy
    # the client is 192.168.40.7.
    assert metrics.status_code == (403 if trusted else 200)
    direct = httpx.get(server.base_url + "/metrics", timeout=30)
    assert direct.status_code == 200  # the proxy's own requests are still loopback
