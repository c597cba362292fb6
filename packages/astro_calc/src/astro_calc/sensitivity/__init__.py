"""Birth-time sensitivity: how close each time-dependent result of a birth chart is to changing.

For a birth given exactly as the tradition's chart function takes it, each function returns a
:class:`Sensitivity`: per result (``ascendant.sign``, ``pillar.hour``, ``moon.pada`` ...) its
value, the nearest change before and after the given time within a horizon (780 minutes each
side by default: the largest uncertainty, 720 minutes, plus an hour) with the minutes to it, the
value it changes to and the UTC instant, and whether the result is certain within the caller's
``uncertainty_minutes``. Moving the birth moves the instant and the local clock together (the
given birth's UTC offset is kept).

Crossings are found by root finding on the same functions that compute the results (Newton and
Illinois steps on monotone coordinates, bisection of clock-driven step functions), to 1 second:
the value one second before a reported ``at`` is the current one and one second after it the new
one. :func:`rectification_window` lists every change of the angles' signs, the Moon's sign, the
nakshatra pada and the Chinese hour pillar inside a window of local times.

Charts built on several births (kundli matching; the server's synastry and composite) name
each birth's results with a prefix (:func:`combined`).
"""

from astro_calc.sensitivity._search import (
    DEFAULT_HORIZON_MINUTES,
    MAX_UNCERTAINTY_MINUTES,
    PRECISION_SECONDS,
    Sensitivity,
    SensitivityItem,
    TimeChange,
    combined,
)
from astro_calc.sensitivity.chinese import (
    bazi_sensitivity,
    pillar_sensitivity_at,
    qimen_sensitivity,
    saju_sensitivity,
)
from astro_calc.sensitivity.hr import hr_sensitivity
from astro_calc.sensitivity.human_design import human_design_sensitivity
from astro_calc.sensitivity.rectification import (
    RectificationEvent,
    RectificationWindow,
    rectification_window,
)
from astro_calc.sensitivity.thai import thai_sensitivity
from astro_calc.sensitivity.traditional import (
    traditional_sensitivity,
    traditional_sensitivity_at,
)
from astro_calc.sensitivity.uranian import uranian_sensitivity
from astro_calc.sensitivity.vedic import (
    dasha_sensitivity,
    matching_sensitivity,
    vedic_sensitivity,
)
from astro_calc.sensitivity.western import natal_sensitivity, natal_sensitivity_at
from astro_calc.sensitivity.ziwei import ziwei_sensitivity

__all__ = [
    "DEFAULT_HORIZON_MINUTES",
    "MAX_UNCERTAINTY_MINUTES",
    "PRECISION_SECONDS",
    "RectificationEvent",
    "RectificationWindow",
    "Sensitivity",
    "SensitivityItem",
    "TimeChange",
    "bazi_sensitivity",
    "combined",
    "dasha_sensitivity",
    "hr_sensitivity",
    "human_design_sensitivity",
    "matching_sensitivity",
    "natal_sensitivity",
    "natal_sensitivity_at",
    "pillar_sensitivity_at",
    "qimen_sensitivity",
    "rectification_window",
    "saju_sensitivity",
    "thai_sensitivity",
    "traditional_sensitivity",
    "traditional_sensitivity_at",
    "uranian_sensitivity",
    "vedic_sensitivity",
    "ziwei_sensitivity",
]
