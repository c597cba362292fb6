"""The synchronous client."""

from __future__ import annotations

import os
from typing import Any

import httpx


class AstroClient:
    """Client for the Astro API. ``base_url`` defaults to ``ASTRO_BASE_URL``."""

    def __init__(
        self,
        *,
        api_key: str | None = None,
        base_url: str | None = None,
        timeout: float = 30.0,
        http_client: httpx.Client | None = None,
    ) -> None:
        self.api_key = api_key or os.environ.get("ASTRO_API_KEY")
        self.base_url = (base_url or os.environ.get("ASTRO_BASE_URL") or "").rstrip("/")
        if not self.base_url:
            raise ValueError("base_url is required (or set ASTRO_BASE_URL)")
        self._http = http_client or httpx.Client(timeout=timeout)

    def health(self) -> dict[str, Any]:
        response = self._http.get(f"{self.base_url}/healthz")
        response.raise_for_status()
        body: dict[str, Any] = response.json()
        return body

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> AstroClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
