"""Palm measurements from the 21 hand points, and the principal lines found in the image.

Hand points (mediapipe): wrist 0; thumb 1-4; index 5-8; middle 9-12; ring 13-16; little 17-20.
Palm width = index knuckle (5) to little knuckle (17); palm length = wrist (0) to middle knuckle
(9); a finger's length is the sum of its three segments from the knuckle. The hand type of
Western palmistry (Cheiro; also the Thai ลายมือ books): palm square (length/width below
``square_palm``) or long, fingers short or long (middle finger / palm length below
``long_fingers``): earth = square + short, air = square + long, fire = long + short,
water = long + long.

Lines: inside the palm polygon (0, 1, 5, 9, 13, 17, shrunk 8 %), dark creases are enhanced by a
Hessian ridge filter (the larger eigenvalue of the grey image's Hessian at two scales, the
Sato/Frangi idea for dark tubular structures), thresholded and thinned to a skeleton. Each line
is sought only in its own region of the palm frame (``u`` across from the index side, ``v`` up
from the wrist, both 0..1) and with its expected direction; what is found there is reported
with its length (relative to the palm width), shape (straight or curved, from the chord/arc
ratio), breaks (gaps along it) and a confidence (coverage of the region's span x ridge
contrast). A region with too little ridge is "not found": no line is ever invented.
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np

from astro_server.features.visual.data import table

FINGERS = {
    "thumb": (1, 2, 3, 4),
    "index": (5, 6, 7, 8),
    "middle": (9, 10, 11, 12),
    "ring": (13, 14, 15, 16),
    "little": (17, 18, 19, 20),
}


def _chain(p: np.ndarray, ids: tuple[int, ...]) -> float:
    return float(sum(np.linalg.norm(p[a] - p[b]) for a, b in itertools.pairwise(ids)))


def measure_hand(p: np.ndarray) -> dict[str, Any]:
    rules = table("palm")["thresholds"]
    width = float(np.linalg.norm(p[5] - p[17]))
    length = float(np.linalg.norm(p[0] - p[9]))
    fingers = {name: round(_chain(p, ids) / length, 3) for name, ids in FINGERS.items()}
    palm_ratio = length / width
    square = palm_ratio < rules["square_palm"]
    long_fingers = fingers["middle"] >= rules["long_fingers"]
    hand_type = {
        (True, False): "earth",
        (True, True): "air",
        (False, False): "fire",
        (False, True): "water",
    }[(square, long_fingers)]
    margin = min(
        abs(palm_ratio - rules["square_palm"]), abs(fingers["middle"] - rules["long_fingers"])
    )
    digit_ratio = _chain(p, FINGERS["index"]) / _chain(p, FINGERS["ring"])
    return {
        "palm": {
            "width_px": round(width, 1),
            "length_px": round(length, 1),
            "length_to_width": round(palm_ratio, 3),
            "shape": "square" if square else "long",
        },
        "fingers": {"lengths_to_palm": fingers, "class": "long" if long_fingers else "short"},
        "index_to_ring": {
            "value": round(digit_ratio, 3),
            "longer": "index" if digit_ratio > 1.0 else "ring",
        },
        "thumb": {
            "length_to_palm": fingers["thumb"],
            "class": "long" if fingers["thumb"] >= rules["long_thumb"] else "short",
        },
        "hand_type": {"value": hand_type, "confidence": round(min(1.0, 0.5 + 5 * margin), 2)},
        "mounts": mount_regions(p),
    }


# The mounts of Western palmistry, each the centre of its region as a weighted mean of hand
# points: under each finger a little towards the wrist (Jupiter: index; Saturn: middle; Apollo:
# ring; Mercury: little), Venus at the ball of the thumb, Luna opposite it on the little-finger
# side above the wrist, Mars (plain) in the middle of the palm.
_MOUNTS: dict[str, tuple[tuple[int, float], ...]] = {
    "jupiter": ((5, 0.8), (0, 0.2)),
    "saturn": ((9, 0.8), (0, 0.2)),
    "apollo": ((13, 0.8), (0, 0.2)),
    "mercury": ((17, 0.8), (0, 0.2)),
    "venus": ((1, 0.55), (0, 0.25), (5, 0.2)),
    "luna": ((17, 0.45), (0, 0.55)),
    "mars": ((0, 0.4), (5, 0.2), (17, 0.2), (9, 0.2)),
}


def mount_regions(p: np.ndarray) -> dict[str, dict[str, float]]:
    """Centre of each mount's region in pixels (x, y) and its radius (a fifth of the palm
    width): where each mount is on this photo, for the overlay and for a writer."""
    radius = float(np.linalg.norm(p[5] - p[17])) / 5
    out = {}
    for name, weights in _MOUNTS.items():
        x, y = sum(p[i] * w for i, w in weights)
        out[name] = {"x": round(float(x), 1), "y": round(float(y), 1), "radius": round(radius, 1)}
    return out


def palm_frame(p: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Origin (wrist), ``u`` axis (index knuckle -> little knuckle) and ``v`` axis (wrist ->
    middle knuckle): palm coordinates are solved in this (possibly skewed) basis."""
    return p[0], p[17] - p[5], p[9] - p[0]


def to_palm(points_xy: np.ndarray, p: np.ndarray) -> np.ndarray:
    """Pixel (x, y) -> palm (u, v); u = 0 on the index side, v = 0 at the wrist."""
    origin, u_axis, v_axis = palm_frame(p)
    basis = np.stack([u_axis, v_axis], axis=1)
    uv = np.linalg.solve(basis, (points_xy - origin).T).T
    # u measured from the index knuckle's projection: shift so the index side is 0.
    index_u = np.linalg.solve(basis, p[5] - origin)[0]
    uv[:, 0] -= index_u
    return uv


def _skin_mask(rgb: np.ndarray, centre: np.ndarray) -> np.ndarray | None:
    """Pixels of the palm's own colour (within 3.5 standard deviations, per Lab channel, of a
    patch at the palm's centre), closed and eroded 6 px off the outline; None when the patch
    is off the image or almost nothing would be kept."""
    import cv2

    lab = cv2.cvtColor(rgb, cv2.COLOR_RGB2LAB).astype(np.float32)
    h, w = lab.shape[:2]
    x, y = int(centre[0]), int(centre[1])
    if not (10 <= x < w - 10 and 10 <= y < h - 10):
        return None
    patch = lab[y - 10 : y + 10, x - 10 : x + 10].reshape(-1, 3)
    mean, std = patch.mean(axis=0), patch.std(axis=0) + 4.0
    near = (np.abs(lab - mean) <= 3.5 * std).all(axis=2).astype(np.uint8)
    near = cv2.morphologyEx(near, cv2.MORPH_CLOSE, np.ones((9, 9), np.uint8))
    near = cv2.erode(near, np.ones((13, 13), np.uint8))
    return near if near.mean() > 0.02 else None


def ridge_map(grey: np.ndarray) -> np.ndarray:
    """Dark-line strength: max over two scales of the larger Hessian eigenvalue (positive on a
    dark valley), normalised to 0..1."""
    import cv2

    grey = grey.astype(np.float32) / 255.0
    best = np.zeros_like(grey)
    for sigma in (1.5, 3.0):
        smooth = cv2.GaussianBlur(grey, (0, 0), sigma)
        dxx = cv2.Sobel(smooth, cv2.CV_32F, 2, 0, ksize=3)
        dyy = cv2.Sobel(smooth, cv2.CV_32F, 0, 2, ksize=3)
        dxy = cv2.Sobel(smooth, cv2.CV_32F, 1, 1, ksize=3)
        root = np.sqrt((dxx - dyy) ** 2 + 4 * dxy**2)
        lam = 0.5 * (dxx + dyy + root) * sigma**2
        best = np.maximum(best, lam)
    top = float(np.percentile(best, 99.5)) or 1.0
    return np.clip(best / top, 0, 1)


def find_lines(rgb: np.ndarray, p: np.ndarray) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    """The four principal lines: their measures, and the skeleton pixels of each line found."""
    import cv2

    regions = table("palm")["line_regions"]
    grey = cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY)
    ridges = ridge_map(grey)
    # The palm: the hull of the wrist, thumb base and knuckles, widened 8 % (the thenar side
    # holding the life line lies beyond the landmarks' polygon), then eroded off the skin's
    # outline so the hand's own edge is never taken for a crease.
    hull = cv2.convexHull(p[[0, 1, 2, 5, 9, 13, 17]].astype(np.float32))[:, 0, :]
    centre = hull.mean(axis=0)
    widened = centre + (hull - centre) * 1.08
    mask = np.zeros(grey.shape, np.uint8)
    cv2.fillPoly(mask, [widened.astype(np.int32)], 1)
    skin = _skin_mask(rgb, p[[0, 5, 17]].mean(axis=0))
    if skin is not None:
        mask &= skin
    inside = ridges[mask > 0]
    level = max(0.25, float(np.percentile(inside, 92))) if inside.size else 1.0
    binary = ((ridges >= level) & (mask > 0)).astype(np.uint8) * 255
    skeleton = cv2.ximgproc.thinning(binary)
    ys, xs = np.nonzero(skeleton)
    width = float(np.linalg.norm(p[5] - p[17]))
    out: dict[str, Any] = {}
    traces: dict[str, np.ndarray] = {}
    if xs.size == 0:
        for name in regions:
            out[name] = {"found": False, "confidence": 0.0}
        return out, traces
    pix = np.stack([xs, ys], axis=1).astype(np.float64)
    uv = to_palm(pix, p)
    strength = ridges[ys, xs]
    for name, region in regions.items():
        (u0, u1), (v0, v1) = region["u"], region["v"]
        sel = (uv[:, 0] >= u0) & (uv[:, 0] <= u1) & (uv[:, 1] >= v0) & (uv[:, 1] <= v1)
        along = 0 if region["axis"] == "u" else 1
        span = (u1 - u0) if along == 0 else (v1 - v0)
        if sel.sum() < 5:
            out[name] = {"found": False, "confidence": 0.0}
            continue
        coords = uv[sel][:, along]
        bins = np.zeros(40, bool)
        idx = np.clip(((coords - (u0 if along == 0 else v0)) / span * 40).astype(int), 0, 39)
        bins[idx] = True
        coverage = float(bins.mean())
        contrast = float(strength[sel].mean())
        confidence = round(min(1.0, coverage * 1.2) * min(1.0, contrast * 1.5), 2)
        if coverage < region["min_coverage"]:
            out[name] = {"found": False, "confidence": confidence}
            continue
        runs = np.flatnonzero(np.diff(np.concatenate([[0], bins.astype(int), [0]])))
        segments = runs.reshape(-1, 2)
        gaps = [int(b - a) for a, b in zip(segments[:-1, 1], segments[1:, 0], strict=False)]
        breaks = sum(1 for g in gaps if g >= 3)
        points = pix[sel]
        order = np.argsort(coords)
        ordered = points[order]
        arc = float(np.linalg.norm(np.diff(ordered, axis=0), axis=1).clip(max=6).sum())
        chord = float(np.linalg.norm(ordered[-1] - ordered[0]))
        curved = arc > 0 and chord / arc < region["straight_ratio"]
        out[name] = {
            "found": True,
            "length_to_palm_width": round(chord / width, 3),
            "shape": "curved" if curved else "straight",
            "breaks": breaks,
            "coverage": round(coverage, 3),
            "confidence": confidence,
        }
        traces[name] = ordered
    return out, traces
