"""Face and hand landmarks from mediapipe's bundled models (offline; CPU).

``mp.solutions.face_mesh`` gives 478 face points (468 mesh + 10 iris, ``refine_landmarks``) and
``mp.solutions.hands`` 21 hand points, both normalised to the image (x right, y down). The
solution objects are not thread-safe: each is made once per process and used under a lock.
Detection counts up to two subjects so "exactly one" can be checked.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

import numpy as np

_lock = threading.Lock()
_models: dict[str, Any] = {}


@dataclass(frozen=True)
class Detection:
    count: int
    points: np.ndarray | None  # (n, 2) pixel coordinates of the first subject
    score: float  # detector confidence of the first subject (0..1)
    handedness: str | None = None  # "left" | "right" as mediapipe labels the image


def _model(kind: str) -> Any:
    model = _models.get(kind)
    if model is None:
        import mediapipe as mp

        if kind == "face":
            model = mp.solutions.face_mesh.FaceMesh(
                static_image_mode=True,
                max_num_faces=2,
                refine_landmarks=True,
                min_detection_confidence=0.5,
            )
        else:
            model = mp.solutions.hands.Hands(
                static_image_mode=True,
                max_num_hands=2,
                model_complexity=1,
                # The palm detector scores an open palm facing the camera lower than a side
                # view; 0.3 (measured here) keeps flat palms while a photo of a cup finds none.
                min_detection_confidence=0.3,
            )
        _models[kind] = model
    return model


def load_models() -> None:
    """Load both models now (a worker at start, so the first reading is not slower)."""
    with _lock:
        _model("face")
        _model("palm")


def detect(rgb: np.ndarray, kind: str) -> Detection:
    """Find faces (``kind="face"``) or hands (``"palm"``) in an RGB uint8 image."""
    height, width = rgb.shape[:2]
    with _lock:
        result = _model(kind).process(np.ascontiguousarray(rgb))
    found = result.multi_face_landmarks if kind == "face" else result.multi_hand_landmarks
    if not found:
        return Detection(0, None, 0.0)
    first = found[0].landmark
    points = np.array([[p.x * width, p.y * height] for p in first], dtype=np.float64)
    if kind == "face":
        return Detection(len(found), points, 1.0)
    label = result.multi_handedness[0].classification[0]
    return Detection(len(found), points, float(label.score), str(label.label).lower())
