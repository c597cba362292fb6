"""The one price table: every billable operation's tier and credit price.

Both the real debit (:func:`astro_server.platform.billing.billable.billable`) and the free preflight
(``POST /api/v3/estimates``) read :data:`OPERATIONS`, so they cannot disagree. Adding a billable
endpoint is one row here plus ``@billable("<name>")`` on its handler::

    "western.natal": Operation(tier="free", credits=1, description="Western natal chart"),
    "vedic.kundli_matching_batch": Operation(
        tier="starter", credits=2, per_unit="records", description="Kundli matching, per pair"
    ),

Tiers, lowest first: ``free < starter < pro < enterprise``. A per-unit operation costs
``credits * quantity``; the quantity comes from the request (``len(params[per_unit])`` for the
estimate, the ``quantity`` callable given to ``billable`` for the real call).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from typing import Any

from astro_server.platform.errors import APIError, validation_error

TIERS: tuple[str, ...] = ("free", "starter", "pro", "enterprise")
_TIER_RANK = {name: rank for rank, name in enumerate(TIERS)}


@dataclass(frozen=True)
class Operation:
    """One billable operation: the lowest tier allowed and its price in credits.

    ``per_unit`` names the request field whose length multiplies the price (``"records"``);
    ``None`` means a flat price per call.
    """

    tier: str
    credits: int
    description: str
    per_unit: str | None = None
    max_quantity: int | None = None

    def __post_init__(self) -> None:
        if self.tier not in _TIER_RANK:
            raise ValueError(f"unknown tier {self.tier!r}")
        if self.credits < 0:
            raise ValueError("credits must be >= 0")


#: The interpretation levels that are priced as their own operations, and what each adds to the
#: bare calculation's price. Both need :data:`INTERPRETATION_TIER`.
INTERPRETATION_LEVELS: tuple[str, ...] = ("summary", "full")
INTERPRETATION_EXTRA_CREDITS: dict[str, int] = {"summary": 1, "full": 2}
INTERPRETATION_TIER = "pro"


def _interpretation_rows(bases: Mapping[str, tuple[str, int]]) -> dict[str, Operation]:
    """``<base>.interpretations_summary`` and ``_full`` for each base (description, credits)."""
    rows: dict[str, Operation] = {}
    for name, (description, credits) in bases.items():
        for level in INTERPRETATION_LEVELS:
            rows[f"{name}.interpretations_{level}"] = Operation(
                tier=INTERPRETATION_TIER,
                credits=credits + INTERPRETATION_EXTRA_CREDITS[level],
                description=f"{description}, with {level} interpretations",
            )
    return rows


#: What the birth-time ``sensitivity`` option (issue 34) adds to a calculation's price. It keeps
#: the calculation's tier (it is more of the same calculation, not a premium text), and combines
#: with interpretations additively: ``<op>.interpretations_<level>.sensitivity`` costs the
#: interpretation row plus this, at the interpretation row's tier.
SENSITIVITY_EXTRA_CREDITS = 1
SENSITIVITY_SUFFIX = "sensitivity"


def _sensitivity_rows(
    table: Mapping[str, Operation], bases: tuple[str, ...]
) -> dict[str, Operation]:
    """``<base>.sensitivity`` for each base, and ``<base>.interpretations_<level>.sensitivity``
    for each of its interpretation rows: the row it extends plus the surcharge, at that row's
    tier (so the two options' surcharges add up)."""
    rows: dict[str, Operation] = {}
    for base in bases:
        extended = [base] + [f"{base}.interpretations_{level}" for level in INTERPRETATION_LEVELS]
        for name in extended:
            row = table.get(name)
            if row is None:
                continue
            rows[f"{name}.{SENSITIVITY_SUFFIX}"] = Operation(
                tier=row.tier,
                credits=row.credits + SENSITIVITY_EXTRA_CREDITS,
                description=f"{row.description}, with birth-time sensitivity",
            )
    return rows


OPERATIONS: dict[str, Operation] = {
    # Developer workflow: preflight is free for everyone.
    "estimates.create": Operation(tier="free", credits=0, description="Eligibility and estimate"),
    # Calculations (flat price per call).
    "western.natal": Operation(tier="free", credits=1, description="Western natal chart"),
    "western.synastry": Operation(tier="free", credits=2, description="Western synastry"),
    "western.composite": Operation(
        tier="free", credits=2, description="Western composite or Davison chart"
    ),
    "western.returns": Operation(tier="free", credits=1, description="Solar or lunar return"),
    "western.progressions": Operation(
        tier="free", credits=1, description="Secondary progressions or solar-arc directions"
    ),
    "western.transits": Operation(
        tier="free", credits=2, description="Transits over a range of up to a year"
    ),
    "western.astrocartography": Operation(
        tier="starter", credits=2, description="Astrocartography lines (parans, local space)"
    ),
    "western.relocation": Operation(
        tier="starter", credits=2, description="Relocated natal chart and what moved"
    ),
    "western.rectification_window": Operation(
        tier="free",
        credits=2,
        description="Rectification window: sign, pada and hour-pillar changes within 24 hours",
    ),
    # Hellenistic timing (issue 46).
    "western.profections": Operation(
        tier="free", credits=1, description="Annual and monthly profections, lord of the year"
    ),
    "western.zodiacal_releasing": Operation(
        tier="free", credits=2, description="Zodiacal releasing from Spirit or Fortune"
    ),
    "western.firdaria": Operation(tier="free", credits=1, description="Firdaria periods of life"),
    "uranian.chart": Operation(
        tier="free", credits=2, description="Uranian chart with interpreted planetary pictures"
    ),
    "western.sky_events": Operation(
        tier="free",
        credits=2,
        description="Eclipses, lunations, ingresses, stations, void-of-course Moon, up to 366 days",
    ),
    "western.planetary_hours": Operation(
        tier="free", credits=1, description="Planetary hours of a local date"
    ),
    "western.forecast": Operation(
        tier="free", credits=2, description="Personal transit forecast, up to 366 days"
    ),
    # A calendar feed's read (GET /calendar/{token}.ics) is free; its zero-credit ledger row
    # makes the reads show in usage.
    "western.calendar_feed_read": Operation(
        tier="free", credits=0, description="Calendar feed read by a calendar app (free)"
    ),
    "uranian.midpoints": Operation(tier="free", credits=1, description="Uranian midpoints"),
    "uranian.planetary_pictures": Operation(
        tier="free", credits=2, description="Uranian planetary pictures"
    ),
    "vedic.chart": Operation(tier="free", credits=1, description="Vedic sidereal chart"),
    "vedic.kundli_matching": Operation(
        tier="free", credits=1, description="Kundli matching (Ashtakoota), one pair"
    ),
    "vedic.dasha": Operation(tier="free", credits=1, description="Vimshottari dasha"),
    "vedic.panchanga": Operation(tier="free", credits=1, description="Panchanga"),
    "vedic.remedies": Operation(tier="free", credits=1, description="Vedic remedies"),
    "chinese.bazi": Operation(
        tier="free", credits=1, description="BaZi chart with luck and annual pillars, readings"
    ),
    "chinese.qimen": Operation(tier="free", credits=1, description="Qi Men Dun Jia hourly chart"),
    "chinese.calendar": Operation(
        tier="free", credits=1, description="Chinese date, or a year's solar terms and months"
    ),
    "korean.saju": Operation(tier="free", credits=1, description="Korean Saju chart, readings"),
    "human_design.chart": Operation(tier="free", credits=1, description="Human Design chart"),
    "human_design.composite": Operation(
        tier="free", credits=2, description="Human Design composite of two charts"
    ),
    "human_design.transits": Operation(
        tier="free", credits=1, description="Human Design transits against a chart"
    ),
    "chinese.ziwei": Operation(
        tier="free",
        credits=1,
        description="Zi Wei Dou Shu chart with horoscopes and readings",
    ),
    "thai.calendar": Operation(tier="free", credits=1, description="Thai lunar calendar"),
    "thai.festivals": Operation(tier="free", credits=1, description="Thai festivals of a year"),
    "thai.lunar": Operation(tier="free", credits=1, description="Moon phase and Thai lunar date"),
    "thai.wheel": Operation(tier="free", credits=1, description="Taksa wheel of a birth"),
    "thai.auspicious_times": Operation(
        tier="free", credits=2, description="Thai auspicious days and hours, up to 366 days"
    ),
    "cultural.calendar": Operation(
        tier="starter", credits=3, description="Cultural market calendar, up to 366 days"
    ),
    "cultural.best_dates": Operation(
        tier="starter", credits=5, description="Best dates for an activity across markets"
    ),
    # Chart pictures (SVG, or PNG rendered from it).
    "western.natal_wheel": Operation(
        tier="free", credits=2, description="Natal wheel picture (SVG or PNG)"
    ),
    "western.synastry_wheel": Operation(
        tier="free", credits=3, description="Synastry bi-wheel picture (SVG or PNG)"
    ),
    "western.transits_wheel": Operation(
        tier="free", credits=3, description="Transits bi-wheel picture (SVG or PNG)"
    ),
    "western.astrocartography_map": Operation(
        tier="starter", credits=4, description="Astrocartography world map picture (SVG or PNG)"
    ),
    "western.zodiacal_releasing_chart": Operation(
        tier="free", credits=2, description="Zodiacal releasing timeline picture (SVG or PNG)"
    ),
    "uranian.dial": Operation(tier="free", credits=2, description="Uranian dial picture"),
    "vedic.chart_diagram": Operation(
        tier="free", credits=2, description="Vedic North or South Indian chart picture"
    ),
    "thai.wheel_diagram": Operation(tier="free", credits=2, description="Taksa wheel picture"),
    "human_design.bodygraph": Operation(
        tier="free", credits=2, description="Human Design bodygraph picture (SVG or PNG)"
    ),
    "chinese.ziwei_chart": Operation(
        tier="free", credits=2, description="Zi Wei Dou Shu square chart picture (SVG or PNG)"
    ),
    "tarot.draw": Operation(tier="free", credits=1, description="Tarot draw, any spread"),
    "numerology.profile": Operation(tier="free", credits=1, description="Numerology profile"),
    "horoscopes.daily": Operation(tier="free", credits=1, description="Published daily horoscope"),
    "horoscopes.range": Operation(
        tier="free", credits=2, description="Published horoscopes, up to 31 days"
    ),
    # Premium interpretations: each interpreted endpoint's texts are their own operations, at a
    # higher tier and price than the bare calculation (which keeps its own row).
    **_interpretation_rows(
        {
            "western.natal": ("Western natal chart", 1),
            "western.synastry": ("Western synastry", 2),
            "western.composite": ("Western composite or Davison chart", 2),
            "western.returns": ("Solar or lunar return", 1),
            "western.progressions": ("Secondary progressions or solar-arc directions", 1),
            "western.transits": ("Transits over a range of up to a year", 2),
            "western.astrocartography": ("Astrocartography lines", 2),
            "western.relocation": ("Relocated natal chart", 2),
            "western.profections": ("Annual and monthly profections, lord of the year", 1),
            "western.zodiacal_releasing": ("Zodiacal releasing from Spirit or Fortune", 2),
            "vedic.chart": ("Vedic sidereal chart", 1),
            "vedic.dasha": ("Vimshottari dasha", 1),
            "vedic.kundli_matching": ("Kundli matching (Ashtakoota), one pair", 1),
            "human_design.chart": ("Human Design chart", 1),
        }
    ),
    # Batch jobs are priced per record.
    "vedic.kundli_matching_batch": Operation(
        tier="starter",
        credits=2,
        per_unit="records",
        max_quantity=50,
        description="Kundli matching batch, per record",
    ),
    # Premium interpretation, PDF and visual workflows need a higher tier.
    "reports.natal_pdf": Operation(tier="pro", credits=10, description="Natal chart PDF report"),
    "reports.hr_screening": Operation(
        tier="pro", credits=20, description="HR talent assessment report"
    ),
    "visual_readings.upload": Operation(
        tier="pro", credits=5, description="Private visual reading (palm or face)"
    ),
    # Enterprise workflows. A campaign is paid once, at creation, per day of its range (any
    # signs, languages and markets within the limits); its content and deliveries are free.
    "campaigns.create": Operation(
        tier="enterprise",
        credits=2,
        per_unit="days",
        max_quantity=92,
        description="Campaign content calendar, per campaign day",
    ),
}


#: The birth-based calculations that offer the ``sensitivity`` option (issue 34).
SENSITIVE_OPERATIONS: tuple[str, ...] = (
    "western.natal",
    "chinese.bazi",
    "vedic.chart",
    "thai.wheel",
    "uranian.chart",
    "korean.saju",
    "chinese.qimen",
    "chinese.ziwei",
    # The derived Western charts: the sensitivity of the natal inputs they are computed from.
    "western.synastry",
    "western.composite",
    "western.returns",
    "western.progressions",
    "western.transits",
    "vedic.dasha",
    "vedic.kundli_matching",
    "thai.auspicious_times",
    "reports.hr_screening",
    "human_design.chart",
    # Hellenistic timing: the ascendant's sign, the sect and the lots move with the birth time.
    "western.profections",
    "western.zodiacal_releasing",
    "western.firdaria",
)
OPERATIONS.update(_sensitivity_rows(OPERATIONS, SENSITIVE_OPERATIONS))


def variant_of(name: str, params: Mapping[str, Any]) -> str:
    """The operation a request of ``name`` is charged as, the most specific row the table has:
    ``<name>.interpretations_<level>`` when ``params`` ask for interpretations (``summary`` or
    ``full``), then ``.sensitivity`` appended when they ask for birth-time sensitivity (a
    ``sensitivity`` object) and that row exists; ``name`` itself for no option or an operation
    without the rows. An unknown level is a 400 naming ``params.interpretations``; a
    ``sensitivity`` that is not an object one naming ``params.sensitivity``."""
    variant = name
    level = params.get("interpretations", "none")
    if level != "none":
        if level not in INTERPRETATION_LEVELS:
            raise validation_error(
                [{"field": "params.interpretations", "message": "must be none, summary or full"}]
            )
        interpreted = f"{name}.interpretations_{level}"
        variant = interpreted if interpreted in OPERATIONS else name
    sensitivity = params.get("sensitivity")
    if sensitivity is not None:
        if not isinstance(sensitivity, Mapping):
            raise validation_error(
                [
                    {
                        "field": "params.sensitivity",
                        "message": 'must be an object such as {"uncertainty_minutes": 30}',
                    }
                ]
            )
        sensitive = f"{variant}.{SENSITIVITY_SUFFIX}"
        if sensitive in OPERATIONS:
            variant = sensitive
    return variant


def tier_allows(account_tier: str, required_tier: str) -> bool:
    return _TIER_RANK.get(account_tier, -1) >= _TIER_RANK[required_tier]


def get_operation(name: str) -> Operation:
    try:
        return OPERATIONS[name]
    except KeyError:
        raise APIError(
            400,
            f"Unknown operation {name!r}.",
            error="validation_error",
            details=[{"field": "operation", "message": "not a billable operation"}],
        ) from None


def price(operation: Operation, quantity: int = 1) -> int:
    """Credits for ``quantity`` units (1 for flat-priced operations)."""
    return operation.credits * (quantity if operation.per_unit else 1)


def _days_in_range(params: Mapping[str, Any]) -> int:
    """Days of ``params.start..params.end`` counting both ends (ISO dates)."""
    found: dict[str, date] = {}
    for name in ("start", "end"):
        try:
            found[name] = date.fromisoformat(str(params[name]))
        except (KeyError, ValueError):
            raise validation_error(
                [{"field": f"params.{name}", "message": "an ISO date (YYYY-MM-DD) is required"}]
            ) from None
    days = (found["end"] - found["start"]).days + 1
    if days < 1:
        raise validation_error([{"field": "params.end", "message": "must not be before start"}])
    return days


def quantity_from_params(operation: Operation, params: Mapping[str, Any]) -> int:
    """The unit count an estimate uses: ``len(params[per_unit])`` (an int is taken as is);
    for ``days`` without a ``days`` field, the days of ``params.start..params.end``."""
    if not operation.per_unit:
        return 1
    field = f"params.{operation.per_unit}"
    value = params.get(operation.per_unit)
    if operation.per_unit == "days" and value is None:
        value = _days_in_range(params)
    if isinstance(value, bool) or value is None:
        raise validation_error([{"field": field, "message": "required to price this operation"}])
    count = value if isinstance(value, int) else len(value) if isinstance(value, list) else None
    if count is None or count < 1:
        raise validation_error([{"field": field, "message": "must be a non-empty list"}])
    if operation.max_quantity is not None and count > operation.max_quantity:
        raise validation_error(
            [{"field": field, "message": f"at most {operation.max_quantity} allowed"}]
        )
    return count
