"""Face measurements from the 478 face-mesh points, read by Chinese face reading (面相) and Thai
โหงวเฮ้ง (the Teochew name of the same physiognomy).

Points (mediapipe face-mesh indices): mesh top 10, glabella 9, nose tip 1, subnasale 2, chin 152;
cheekbones 234/454; jaw 172/397; temples 54/284; eyes 33-133 and 362-263 (corners), 159/145 and
386/374 (lids); brows 70..107 and 300..336; nose wings 64/294; mouth corners 61/291, lips 0/17.
The three zones (三停, ซาม เท้ง) are measured from the mesh top (about the hairline; the mesh
stops short of it, so the upper zone reads slightly short) to the glabella, to the subnasale, and
to the chin. Ratios are unitless (distances divided by the face width or height), so the scale of
the photo does not matter. Thresholds are in ``data/face.json`` beside the texts.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from astro_server.features.visual.data import table


def _d(p: np.ndarray, a: int, b: int) -> float:
    return float(np.linalg.norm(p[a] - p[b]))


def _band(value: float, bands: list[list[Any]]) -> str:
    """The label of the first ``[upper_bound, label]`` band holding ``value``."""
    for bound, label in bands:
        if bound is None or value < bound:
            return str(label)
    return str(bands[-1][1])


def measure_face(p: np.ndarray) -> dict[str, Any]:
    """Ratios and classes of one face (478 points in pixels)."""
    rules = table("face")["thresholds"]
    height = _d(p, 10, 152)
    width = _d(p, 234, 454)
    jaw = _d(p, 172, 397)
    temples = _d(p, 54, 284)
    upper = float(abs(p[9][1] - p[10][1]))
    middle = float(abs(p[2][1] - p[9][1]))
    lower = float(abs(p[152][1] - p[2][1]))
    total = upper + middle + lower
    zones = {"upper": upper / total, "middle": middle / total, "lower": lower / total}
    length_ratio = height / width
    jaw_ratio = jaw / width
    forehead_ratio = temples / width
    if length_ratio >= rules["long_face"]:
        shape = "long"
    elif jaw_ratio >= rules["square_jaw"] and length_ratio < rules["round_face"] + 0.1:
        shape = "square"
    elif length_ratio < rules["round_face"]:
        shape = "round"
    elif forehead_ratio - jaw_ratio >= rules["heart_taper"]:
        shape = "heart"
    elif forehead_ratio < rules["narrow_forehead"] and jaw_ratio < rules["narrow_forehead"]:
        shape = "diamond"
    else:
        shape = "oval"
    # The mesh top is mid-forehead, not the hairline: the upper zone is reported as measured but
    # only the middle and lower zones (both fully inside the mesh) decide the dominant one.
    spread = abs(zones["middle"] - zones["lower"])
    dominant = (
        "balanced"
        if spread < rules["zone_balance"]
        else max(("middle", "lower"), key=zones.__getitem__)
    )
    eye_w = (_d(p, 33, 133) + _d(p, 362, 263)) / 2
    eye_h = (_d(p, 159, 145) + _d(p, 386, 374)) / 2
    eye_gap = _d(p, 133, 362)
    brow_len = (_d(p, 70, 107) + _d(p, 300, 336)) / 2
    brow_gap = _d(p, 107, 336)
    nose_len = float(abs(p[2][1] - p[168][1]))
    nose_w = _d(p, 64, 294)
    mouth_w = _d(p, 61, 291)
    lips = _d(p, 0, 17)
    features = {
        "face_shape": {
            "value": shape,
            "length_to_width": round(length_ratio, 3),
            "jaw_to_cheek": round(jaw_ratio, 3),
            "forehead_to_cheek": round(forehead_ratio, 3),
        },
        "zones": {"dominant": dominant, **{k: round(v, 3) for k, v in zones.items()}},
        "eyebrows": {
            "value": _band(brow_len / eye_w, rules["brow_length"]),
            "length_to_eye": round(brow_len / eye_w, 3),
            "gap_to_eye": round(brow_gap / eye_w, 3),
        },
        "eyes": {
            "value": _band(eye_gap / eye_w, rules["eye_spacing"]),
            "spacing_to_eye_width": round(eye_gap / eye_w, 3),
            "openness": round(eye_h / eye_w, 3),
        },
        "nose": {
            "value": _band(nose_len / height, rules["nose_length"]),
            "length_to_face": round(nose_len / height, 3),
            "width_to_eye_gap": round(nose_w / eye_gap, 3),
        },
        "mouth": {
            "value": _band(mouth_w / nose_w, rules["mouth_width"]),
            "width_to_nose": round(mouth_w / nose_w, 3),
            "lips_to_width": round(lips / mouth_w, 3),
        },
    }
    # Confidence: how far the deciding ratio sits from its nearest class boundary (a ratio on a
    # boundary could read either way): 0.5 on the boundary, 1.0 at 0.1 or more away.
    deciding = {
        "face_shape": (length_ratio, [rules["long_face"], rules["round_face"]]),
        "zones": (spread, [rules["zone_balance"]]),
        "eyebrows": (brow_len / eye_w, [b for b, _ in rules["brow_length"] if b is not None]),
        "eyes": (eye_gap / eye_w, [b for b, _ in rules["eye_spacing"] if b is not None]),
        "nose": (nose_len / height, [b for b, _ in rules["nose_length"] if b is not None]),
        "mouth": (mouth_w / nose_w, [b for b, _ in rules["mouth_width"] if b is not None]),
    }
    for name, (value, bounds) in deciding.items():
        margin = min(abs(value - b) for b in bounds)
        features[name]["confidence"] = round(min(1.0, 0.5 + 5 * margin), 2)
    return features


FACE_OUTLINE = [
    10,
    338,
    297,
    332,
    284,
    251,
    389,
    356,
    454,
    323,
    361,
    288,
    397,
    365,
    379,
    378,
    400,
    377,
    152,
    148,
    176,
    149,
    150,
    136,
    172,
    58,
    132,
    93,
    234,
    127,
    162,
    21,
    54,
    103,
    67,
    109,
    10,
]
