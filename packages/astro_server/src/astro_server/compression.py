"""gzip for JSON responses the client accepts it for (``Accept-Encoding``, RFC 9110 §12.5.3).

A Uranian chart with its readings is about 650 KB of JSON and 100 KB gzipped; HTTP clients
(httpx, hence astro-sdk; browsers; curl --compressed) ask for gzip and inflate it transparently.
Bodies under :data:`MIN_BYTES` and bodies that are not JSON (PDFs and images are compressed
already) go out as they are. Level 1: most of the saving for the least CPU (~200 MB/s). A gzipped
response says ``Vary: Accept-Encoding``; one sent plain is the same for every client.
"""

from __future__ import annotations

import zlib

from quart import Response

MIN_BYTES = 1024
LEVEL = 1
_COMPRESSIBLE = frozenset({"application/json", "application/problem+json"})


def accepts_gzip(accept_encoding: str) -> bool:
    """Whether an ``Accept-Encoding`` value admits gzip: listed (or ``*``) with q > 0."""
    chosen: bool | None = None
    wildcard = False
    for item in accept_encoding.split(","):
        coding, _, params = item.strip().partition(";")
        coding = coding.strip().lower()
        quality = 1.0
        for param in params.split(";"):
            name, _, value = param.strip().partition("=")
            if name.strip().lower() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        if coding in ("gzip", "x-gzip"):
            chosen = quality > 0
        elif coding == "*":
            wildcard = quality > 0
    return chosen if chosen is not None else wildcard


def gzip_bytes(body: bytes) -> bytes:
    packer = zlib.compressobj(LEVEL, zlib.DEFLATED, 31)  # wbits 31: the gzip container
    return packer.compress(body) + packer.flush()


async def compress_if_accepted(response: Response, accept_encoding: str) -> Response:
    # Cheapest tests first: most API calls come from clients that don't ask, or are small.
    if not accept_encoding or not accepts_gzip(accept_encoding):
        return response
    if "Content-Encoding" in response.headers or response.status_code in (204, 304):
        return response
    if response.mimetype not in _COMPRESSIBLE:
        return response
    size = response.content_length
    if size is not None and size < MIN_BYTES:
        return response
    body = await response.get_data(as_text=False)
    if len(body) < MIN_BYTES:
        return response
    response.set_data(gzip_bytes(body))
    response.headers["Content-Encoding"] = "gzip"
    response.vary.add("Accept-Encoding")
    return response
