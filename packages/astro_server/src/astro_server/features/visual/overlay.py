"""Overlay PNGs: the landmarks (and the traced palm lines) drawn over the stored photo."""

from __future__ import annotations

import io

import numpy as np
from PIL import Image, ImageDraw

from astro_server.features.visual.face import FACE_OUTLINE

LINE_COLOURS = {
    "heart": (230, 40, 70),
    "head": (40, 120, 230),
    "life": (40, 170, 70),
    "fate": (200, 150, 20),
}
HAND_BONES = [
    (0, 1),
    (1, 2),
    (2, 3),
    (3, 4),
    (0, 5),
    (5, 6),
    (6, 7),
    (7, 8),
    (5, 9),
    (9, 10),
    (10, 11),
    (11, 12),
    (9, 13),
    (13, 14),
    (14, 15),
    (15, 16),
    (13, 17),
    (17, 18),
    (18, 19),
    (19, 20),
    (0, 17),
]


def _png(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


def face_overlay(rgb: np.ndarray, points: np.ndarray) -> bytes:
    image = Image.fromarray(rgb).convert("RGB")
    draw = ImageDraw.Draw(image)
    r = max(1.0, min(image.size) / 400)
    for x, y in points:
        draw.ellipse([x - r, y - r, x + r, y + r], fill=(0, 230, 255))
    draw.line([tuple(points[i]) for i in FACE_OUTLINE], fill=(255, 200, 0), width=max(1, int(r)))
    for a, b in ((10, 9), (9, 2), (2, 152)):  # the three zones' boundaries along the midline
        for i in (a, b):
            x, y = points[i]
            draw.line([(x - 30 * r, y), (x + 30 * r, y)], fill=(255, 60, 60), width=max(1, int(r)))
    return _png(image)


def palm_overlay(rgb: np.ndarray, points: np.ndarray, traces: dict[str, np.ndarray]) -> bytes:
    image = Image.fromarray(rgb).convert("RGB")
    draw = ImageDraw.Draw(image)
    r = max(2.0, min(image.size) / 150)
    for a, b in HAND_BONES:
        draw.line([tuple(points[a]), tuple(points[b])], fill=(255, 255, 255), width=2)
    for x, y in points:
        draw.ellipse([x - r, y - r, x + r, y + r], fill=(0, 200, 255))
    for centre in features_mounts(points):
        x, y, radius = centre
        draw.ellipse([x - radius, y - radius, x + radius, y + radius], outline=(255, 230, 120))
    for name, pixels in traces.items():
        for x, y in pixels:
            draw.rectangle([x - 1, y - 1, x + 1, y + 1], fill=LINE_COLOURS[name])
    return _png(image)


def features_mounts(points: np.ndarray) -> list[tuple[float, float, float]]:
    from astro_server.features.visual.palm import mount_regions

    return [(m["x"], m["y"], m["radius"]) for m in mount_regions(points).values()]
