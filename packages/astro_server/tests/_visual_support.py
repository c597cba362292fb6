"""Test photos for the visual readings.

Faces: ``skimage.data.astronaut()`` (Eileen Collins, NASA: public domain) and matplotlib's
``sample_data/grace_hopper.jpg`` (US Navy: public domain). No installed package ships a hand
photo, so :func:`synthetic_hand` draws one: a skin-toned palm (rounded rectangle), four
fingers (with joint creases) and a thumb as capsules, shaded by the distance to the outline
(so it reads as a rounded 3-D hand to mediapipe's palm detector; without shading and the
creases it is not detected), with the heart, head and life lines drawn as darker creases
(optional; no fate line), a Gaussian blur and sensor-like noise. Made here: no licence.
"""

from __future__ import annotations

import io
import math

import numpy as np
from PIL import Image, ImageDraw, ImageFilter

SKIN = (224, 172, 140)
CREASE = (150, 95, 80)


def encode(image: Image.Image, fmt: str = "JPEG", **options: object) -> bytes:
    out = io.BytesIO()
    image.save(out, fmt, **options)
    return out.getvalue()


def grace_hopper() -> Image.Image:
    import matplotlib.cbook as cbook

    with cbook.get_sample_data("grace_hopper.jpg") as fh:
        return Image.open(fh).convert("RGB")


def astronaut() -> Image.Image:
    import skimage.data

    return Image.fromarray(skimage.data.astronaut())


def coffee() -> Image.Image:
    """A cup of coffee (skimage, CC0): a sharp, well-exposed photo with no face or hand."""
    import skimage.data

    return Image.fromarray(skimage.data.coffee())


def _flat_hand(
    width: int, height: int, lines: bool, background: tuple[int, int, int]
) -> Image.Image:
    img = Image.new("RGB", (width, height), background)
    d = ImageDraw.Draw(img)
    cx, h = width / 2, height
    d.rounded_rectangle([cx - 150, h * 0.42, cx + 140, h * 0.85], radius=70, fill=SKIN)
    d.polygon([(cx - 110, h * 0.8), (cx + 100, h * 0.8), (cx + 80, h), (cx - 90, h)], fill=SKIN)
    for base_x, length, thickness, angle_deg in (
        (cx - 110, 230, 58, -8),
        (cx - 35, 260, 60, -2),
        (cx + 40, 245, 58, 3),
        (cx + 108, 190, 52, 9),
    ):
        angle = math.radians(angle_deg)
        tip = (base_x + length * math.sin(angle), h * 0.45 - length * math.cos(angle))
        d.line([(base_x, h * 0.47), tip], fill=SKIN, width=thickness)
        r = thickness / 2
        d.ellipse([tip[0] - r, tip[1] - r, tip[0] + r, tip[1] + r], fill=SKIN)
        for fraction in (0.33, 0.63):  # the finger joints' creases
            x = base_x + (tip[0] - base_x) * fraction
            y = h * 0.47 + (tip[1] - h * 0.47) * fraction
            d.line([(x - r * 0.7, y), (x + r * 0.7, y)], fill=(190, 140, 115), width=3)
    thumb_tip = (cx - 290, h * 0.45)
    d.line([(cx - 150, h * 0.72), thumb_tip], fill=SKIN, width=78)
    d.ellipse(
        [thumb_tip[0] - 39, thumb_tip[1] - 39, thumb_tip[0] + 39, thumb_tip[1] + 39], fill=SKIN
    )
    if lines:
        heart = [
            (cx + 140, h * 0.53),
            (cx + 60, h * 0.52),
            (cx - 20, h * 0.535),
            (cx - 90, h * 0.5),
        ]
        head = [
            (cx - 145, h * 0.59),
            (cx - 40, h * 0.61),
            (cx + 60, h * 0.635),
            (cx + 110, h * 0.66),
        ]
        life = [
            (cx - 60 - 85 * math.cos(t), h * 0.60 + 230 * math.sin(t))
            for t in np.linspace(0.1, 1.45, 25)
        ]
        for line in (heart, head, life):
            d.line(line, fill=CREASE, width=5, joint="curve")
    return img.filter(ImageFilter.GaussianBlur(1.2))


def synthetic_hand(lines: bool = True, width: int = 640, height: int = 800) -> Image.Image:
    import cv2

    background = (120, 120, 120)
    flat = np.asarray(_flat_hand(width, height, lines, (40, 60, 90))).astype(float)
    mask = (np.abs(flat - np.array([40, 60, 90])).sum(2) > 60).astype(np.uint8)
    depth = np.clip(cv2.distanceTransform(mask, cv2.DIST_L2, 5) / 30, 0, 1)
    flat = np.clip(flat + np.random.default_rng(1).normal(0, 4, flat.shape), 0, 255).astype(
        np.uint8
    )
    shaded = np.where(
        mask[..., None] > 0,
        flat * (0.55 + 0.45 * np.sqrt(depth))[..., None],
        np.array(background, float),
    )
    hand = Image.fromarray(np.clip(shaded, 0, 255).astype(np.uint8))
    canvas = Image.new("RGB", (width, height), background)
    small = hand.resize((int(width * 0.8), int(height * 0.8)))
    canvas.paste(small, (int(width * 0.1), int(height * 0.1)))
    return canvas
