"""zstd or gzip for JSON responses the client accepts it for (``Accept-Encoding``, RFC 9110
§12.5.3; zstd per RFC 8878).

A Uranian chart with its readings is about 650 KB of JSON: 70 KB as zstd, 100 KB gzipped. HTTP
clients ask for one of them and inflate it transparently: httpx (hence astro-sdk) asks for gzip,
and for zstd too when the ``zstandard`` package is installed; browsers and ``curl --compressed``
likewise. When both are acceptable, zstd wins ties of quality (it is 3x cheaper to produce).
Bodies under :data:`MIN_BYTES` and bodies that are not JSON (PDFs and images are compressed
already) go out as they are. Level 1 for both: most of the saving for the least CPU. A
compressed response says ``Vary: Accept-Encoding``; one sent plain is the same for every client.
"""

from __future__ import annotations

import zlib

import zstandard
from quart import Response

MIN_BYTES = 1024
LEVEL = 1
_COMPRESSIBLE = frozenset({"application/json", "application/problem+json"})
_OURS = ("zstd", "gzip")  # in order of preference at equal quality
_ALIASES = {"x-gzip": "gzip"}
_zstd = zstandard.ZstdCompressor(level=LEVEL, write_content_size=True)


def _qualities(accept_encoding: str) -> tuple[dict[str, float], float | None]:
    named: dict[str, float] = {}
    wildcard: float | None = None
    for item in accept_encoding.split(","):
        coding, _, params = item.strip().partition(";")
        coding = _ALIASES.get(coding.strip().lower(), coding.strip().lower())
        quality = 1.0
        for param in params.split(";"):
            name, _, value = param.strip().partition("=")
            if name.strip().lower() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        if coding == "*":
            wildcard = quality
        elif coding:
            named[coding] = quality
    return named, wildcard


def chosen_encoding(accept_encoding: str) -> str | None:
    """The coding to send: the acceptable one (listed, or under ``*``, with q > 0) of highest
    quality among zstd and gzip, zstd first at equal quality; None for none of them."""
    named, wildcard = _qualities(accept_encoding)
    best: str | None = None
    best_quality = 0.0
    for coding in _OURS:
        quality = named.get(coding, wildcard if wildcard is not None else 0.0)
        if quality > best_quality:
            best, best_quality = coding, quality
    return best


def gzip_bytes(body: bytes) -> bytes:
    packer = zlib.compressobj(LEVEL, zlib.DEFLATED, 31)  # wbits 31: the gzip container
    return packer.compress(body) + packer.flush()


def zstd_bytes(body: bytes) -> bytes:
    return _zstd.compress(body)


async def compress_if_accepted(response: Response, accept_encoding: str) -> Response:
    # Cheapest tests first: most API calls come from clients that don't ask, or are small; the
    # Accept-Encoding header is parsed only for a response that could be compressed.
    if not accept_encoding:
        return response
    size = response.content_length
    if size is not None and size < MIN_BYTES:
        return response
    if "Content-Encoding" in response.headers or response.status_code in (204, 304):
        return response
    if response.mimetype not in _COMPRESSIBLE:
        return response
    coding = chosen_encoding(accept_encoding)
    if coding is None:
        return response
    body = await response.get_data(as_text=False)
    if len(body) < MIN_BYTES:
        return response
    response.set_data(zstd_bytes(body) if coding == "zstd" else gzip_bytes(body))
    response.headers["Content-Encoding"] = coding
    response.vary.add("Accept-Encoding")
    return response
