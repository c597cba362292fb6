"""Validation of an uploaded photo (the complete call), and the clean copy that is kept.

Checks, in order (each reported ``{check, value, verdict, message}``; the first failure of the
integrity or decoding checks stops the rest):

* ``byte_size`` and ``sha256`` equal the grant;
* ``format`` sniffed from the bytes' signature (JPEG ``FF D8 FF``, PNG ``89 PNG``, WebP
  ``RIFF....WEBP``), not from the declared header, and equal to the grant's ``content_type``;
* ``decode``: Pillow decodes every pixel, with ``Image.MAX_IMAGE_PIXELS`` = 40 megapixels (a
  larger header, e.g. a bomb claiming 100,000 x 100,000, is refused before decoding);
* ``dimensions``: the short side is at least 320 px (after EXIF orientation);
* ``sharpness``: variance of the Laplacian of the grey image scaled to 640 px on the long side
  (at least 20: below, the photo is too blurred to measure anything);
* ``exposure``: mean grey level in 40..220 and under 25 % of pixels clipped at either end;
* ``subject``: exactly one face or hand of the declared kind (:mod:`.detect`).

The kept copy is re-encoded from the pixels (PNG for PNG, else JPEG quality 92) after
``ImageOps.exif_transpose``: no EXIF (GPS included), XMP, ICC or text chunk survives.
"""

from __future__ import annotations

import hashlib
import io
import warnings
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from PIL import Image, ImageOps

from astro_server.features.visual.detect import Detection, detect

MAX_PIXELS = 40_000_000
MIN_SHORT_SIDE = 320
MIN_SHARPNESS = 20.0
EXPOSURE_RANGE = (40.0, 220.0)
MAX_CLIPPED = 0.25
_FORMATS = {"JPEG": "image/jpeg", "PNG": "image/png", "WEBP": "image/webp"}


def sniff_format(data: bytes) -> str | None:
    """The media type named by the file's signature bytes, or None."""
    if data[:3] == b"\xff\xd8\xff":
        return "image/jpeg"
    if data[:8] == b"\x89PNG\r\n\x1a\n":
        return "image/png"
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "image/webp"
    return None


@dataclass
class Outcome:
    checks: list[dict[str, Any]] = field(default_factory=list)
    clean_bytes: bytes | None = None
    clean_type: str | None = None
    rgb: np.ndarray | None = None
    detection: Detection | None = None

    @property
    def valid(self) -> bool:
        return all(c["verdict"] == "pass" for c in self.checks)

    def add(self, check: str, value: Any, ok: bool, message: str) -> bool:
        self.checks.append(
            {
                "check": check,
                "value": value,
                "verdict": "pass" if ok else "fail",
                "message": message,
            }
        )
        return ok

    def view(self) -> dict[str, Any]:
        problems = [c["message"] for c in self.checks if c["verdict"] == "fail"]
        return {"valid": self.valid, "checks": self.checks, "problems": problems}


def grey_quality(rgb: np.ndarray) -> tuple[float, float, float]:
    """(Laplacian variance at 640 px, mean grey 0..255, clipped fraction) of an RGB image."""
    import cv2

    grey = cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY)
    scale = 640.0 / max(grey.shape)
    if scale < 1:
        grey = cv2.resize(grey, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    sharpness = float(cv2.Laplacian(grey, cv2.CV_64F).var())
    clipped = float(((grey <= 5) | (grey >= 250)).mean())
    return sharpness, float(grey.mean()), clipped


def validate_photo(
    data: bytes, *, content_length: int, sha256: str, content_type: str, kind: str
) -> Outcome:
    """Run every check on the uploaded bytes; on success ``clean_bytes`` is the copy to keep."""
    out = Outcome()
    if not out.add(
        "byte_size",
        len(data),
        len(data) == content_length,
        f"the upload has {len(data)} bytes; the grant said {content_length}",
    ):
        return out
    digest = hashlib.sha256(data).hexdigest()
    if not out.add(
        "sha256", digest, digest == sha256, "the SHA-256 of the bytes differs from the grant's"
    ):
        return out
    sniffed = sniff_format(data)
    if not out.add(
        "format",
        sniffed,
        sniffed == content_type,
        f"the bytes are {sniffed or 'not a JPEG, PNG or WebP image'}; the grant said "
        f"{content_type}",
    ):
        return out
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            previous = Image.MAX_IMAGE_PIXELS
            Image.MAX_IMAGE_PIXELS = MAX_PIXELS
            try:
                with Image.open(io.BytesIO(data)) as opened:
                    if opened.width * opened.height > MAX_PIXELS:
                        raise Image.DecompressionBombError("too many pixels")
                    opened.load()
                    upright = ImageOps.exif_transpose(opened).convert("RGB")
            finally:
                Image.MAX_IMAGE_PIXELS = previous
    except (Image.DecompressionBombError, Image.DecompressionBombWarning) as exc:
        out.add("decode", "too_large", False, f"the image has more than {MAX_PIXELS} pixels")
        del exc
        return out
    except Exception:
        out.add("decode", "failed", False, "the image could not be decoded (truncated or damaged)")
        return out
    out.add("decode", "ok", True, "decoded fully")
    short = min(upright.size)
    if not out.add(
        "dimensions",
        {"width": upright.width, "height": upright.height},
        short >= MIN_SHORT_SIDE,
        f"the short side is {short} px; at least {MIN_SHORT_SIDE} px are needed",
    ):
        return out
    rgb = np.asarray(upright)
    sharpness, mean, clipped = grey_quality(rgb)
    out.add(
        "sharpness",
        round(sharpness, 1),
        sharpness >= MIN_SHARPNESS,
        f"the photo is too blurred (Laplacian variance {sharpness:.1f} < {MIN_SHARPNESS})",
    )
    out.add(
        "exposure",
        {"mean": round(mean, 1), "clipped": round(clipped, 3)},
        EXPOSURE_RANGE[0] <= mean <= EXPOSURE_RANGE[1] and clipped <= MAX_CLIPPED,
        "the photo is too dark or too bright",
    )
    detection = detect(rgb, kind)
    subject = "face" if kind == "face" else "hand"
    out.add(
        "subject",
        {"kind": kind, "count": detection.count},
        detection.count == 1,
        f"exactly one {subject} must be visible; found {detection.count}",
    )
    out.detection = detection
    if out.valid:
        buffer = io.BytesIO()
        if content_type == "image/png":
            upright.save(buffer, "PNG", optimize=False)
            out.clean_type = "image/png"
        else:
            upright.save(buffer, "JPEG", quality=92)
            out.clean_type = "image/jpeg"
        out.clean_bytes = buffer.getvalue()
        out.rgb = rgb
    return out
