"""Premium interpretations through the SDK against the live stack (PostgreSQL + Redis).

Every interpreted endpoint (Western natal, synastry, composite, returns, progressions, transits;
Vedic chart, dasha, kundli matching) at each level (none, summary, full) through the sync or the
async SDK: the charge is the price table's row for the level, ``none`` leaves the body as the
bare calculation's, the texts are astro_calc's (the natal ones are the natal PDF's source,
:func:`astro_calc.western.interpretation.natal_interpretation`), Thai texts are Thai and free of
slots. Tier and price at their edges; estimates price the option; a chart with no patterns gets
no pattern text (checked with a pattern finder written here from the response's aspect list).
"""

from __future__ import annotations

import datetime as dt
import re
from itertools import combinations
from typing import Any

import httpx
import pytest

import astro_sdk
from astro_calc.western import BirthSubject, natal_chart
from astro_calc.western.interpretation import natal_interpretation
from astro_sdk import AstroClient, AsyncAstroClient
from tests._support.accounts import create_account
from tests._support.stack import ServerProcess, Stack

pytestmark = [pytest.mark.postgres, pytest.mark.redis]

_SLOT = re.compile(r"\{[a-z_]*\}")
_THAI = re.compile(r"[\u0E00-\u0E7F]")
SUBJECT = {"date": "1993-01-12", "time": "08:40", "latitude": 5.63, "longitude": 34.09,
           "timezoneOffsetMinutes": 0}  # fmt: skip
PLAIN = {"date": "1965-10-18", "time": "04:23", "latitude": 51.59, "longitude": 3.25,
         "timezoneOffsetMinutes": 0}  # fmt: skip
OTHER = {"date": "1961-07-01", "time": "19:45", "latitude": 52.83, "longitude": 0.5,
         "timezone": "Europe/London"}  # fmt: skip
BOY = {"date": "1985-07-21", "time": "14:35", "latitude": 13.08, "longitude": 80.27,
       "timezoneOffsetMinutes": 330}  # fmt: skip
GIRL = {"date": "1988-02-09", "time": "06:10", "latitude": 28.61, "longitude": 77.21,
        "timezoneOffsetMinutes": 330}  # fmt: skip
PRICE = {
    "western.natal": 1, "western.synastry": 2, "western.composite": 2, "western.returns": 1,
    "western.progressions": 1, "western.transits": 2, "vedic.chart": 1, "vedic.dasha": 1,
    "vedic.kundli_matching": 1,
}  # fmt: skip
EXTRA = {"none": 0, "summary": 1, "full": 2}
PLANETS = ("sun", "moon", "mercury", "venus", "mars", "jupiter", "saturn", "uranus", "neptune",
           "pluto")  # fmt: skip


def _check(result: Any, operation: str, level: str, language: str) -> None:
    assert result.api_response.credits_charged == PRICE[operation] + EXTRA[level]
    if level == "none":
        assert result.interpretations is None
        assert "interpretations" not in result.api_response.http_response.json()
        return
    found = result.interpretations
    assert found is not None
    assert (found.language, found.level) == (language, level)
    assert found.items
    for item in found.items:
        assert item.key
        assert item.title
        assert item.text
        assert not _SLOT.search(item.title + item.text), item
        if language == "th":
            assert _THAI.search(item.text), item
        assert item.basis.model_dump(exclude_none=True), item


def test_western_endpoints_at_each_level_through_the_sdk(
    shared_stack: Stack, shared_server: ServerProcess
) -> None:
    account = create_account(shared_stack, tier="pro", credits=200, name="interp-pro")
    levels = [("none", "en"), ("summary", "en"), ("full", "th")]
    with AstroClient(api_key=account["api_key"], base_url=shared_server.base_url) as client:
        for level, language in levels:
            opts: dict[str, Any] = {"interpretations": level, "language": language}
            natal = client.western.natal(subject=SUBJECT, **opts)
            _check(natal, "western.natal", level, language)
            syn = client.western.synastry(subject_a=SUBJECT, subject_b=OTHER, **opts)
            _check(syn, "western.synastry", level, language)
            comp = client.western.composite(subject_a=SUBJECT, subject_b=OTHER, **opts)
            _check(comp, "western.composite", level, language)
            ret = client.western.returns(subject=SUBJECT, kind="solar", year=2026, **opts)
            _check(ret, "western.returns", level, language)
            prog = client.western.progressions(
                subject=SUBJECT, target_date="2026-06-01T00:00:00Z", method="solar_arc", **opts
            )
            _check(prog, "western.progressions", level, language)
            tr = client.western.transits(
                subject=SUBJECT, start="2026-01-01T00:00:00Z", end="2026-04-01T00:00:00Z",
                transiting_bodies=["sun", "mars", "saturn"], **opts,
            )  # fmt: skip
            _check(tr, "western.transits", level, language)
            if level == "none":
                continue
            # One source: the natal texts are astro_calc's natal interpretation, item by item.
            expected = natal_interpretation(
                natal_chart(BirthSubject(dt.date(1993, 1, 12), "08:40", 5.63, 34.09, 0)),
                language=language,  # type: ignore[arg-type]
                level=level,  # type: ignore[arg-type]
            )
            assert natal.interpretations is not None
            assert [(i.key, i.title, i.text) for i in natal.interpretations.items] == [
                (i.key, i.title, i.text) for i in expected.items
            ]
            sections = {i.section for i in syn.interpretations.items}  # type: ignore[union-attr]
            assert {"inter_aspects", "house_overlays", "compatibility"} <= sections
            aspect_events = [e for e in tr.events if e.kind == "aspect"]
            interpreted = [
                i for i in tr.interpretations.items  # type: ignore[union-attr]
                if i.basis.kind == "aspect"
            ]  # fmt: skip
            assert [(i.basis.body, i.basis.natal_point) for i in interpreted] == [
                (e.transiting, e.natal_point) for e in aspect_events
            ]
            assert all(i.basis.orb_days for i in interpreted)


async def test_vedic_endpoints_at_each_level_through_the_async_sdk(
    shared_stack: Stack, shared_server: ServerProcess
) -> None:
    account = create_account(shared_stack, tier="pro", credits=100, name="interp-pro")
    async with AsyncAstroClient(
        api_key=account["api_key"], base_url=shared_server.base_url
    ) as client:
        for level, language in [("none", "th"), ("summary", "th"), ("full", "en")]:
            opts: dict[str, Any] = {"interpretations": level, "language": language}
            chart = await client.vedic.chart(subject=BOY, **opts)
            _check(chart, "vedic.chart", level, language)
            dasha = await client.vedic.dasha(subject=BOY, at="2025-01-01T00:00:00Z", **opts)
            _check(dasha, "vedic.dasha", level, language)
            match = await client.vedic.kundli_matching(boy=BOY, girl=GIRL, **opts)
            _check(match, "vedic.kundli_matching", level, language)
            if level == "none":
                continue
            assert chart.interpretations is not None
            rashi = {i.basis.graha: i.basis.sign for i in chart.interpretations.items
                     if i.section == "graha_rashi"}  # fmt: skip
            assert rashi == {g.name: g.sign for g in chart.grahas}
            assert match.interpretations is not None
            kootas = [i.basis.koota for i in match.interpretations.items if i.basis.koota]
            assert kootas == [k.name for k in match.kootas]
            assert dasha.interpretations is not None
            lords = [i.basis.lord for i in dasha.interpretations.items
                     if i.key.startswith("mahadasha")]  # fmt: skip
            assert lords == [m.lord for m in dasha.mahadashas]


def _patterns(chart: Any) -> set[tuple[str, frozenset[str], str | None]]:
    """Chart patterns from the response's own aspect list (the definitions of
    astro_calc.western.patterns, written again here): grand trine, grand cross, T-square (not
    inside a grand cross), yod, and stelliums of four or more planets by sign and by house."""
    kind: dict[frozenset[str], str] = {}
    for a in chart.aspects:
        if a.body1 in PLANETS and a.body2 in PLANETS:
            kind[frozenset((a.body1, a.body2))] = a.aspect

    def is_(x: str, y: str, name: str) -> bool:
        return kind.get(frozenset((x, y))) == name

    found: set[tuple[str, frozenset[str], str | None]] = set()
    for trio in combinations(PLANETS, 3):
        if all(is_(x, y, "trine") for x, y in combinations(trio, 2)):
            found.add(("grand_trine", frozenset(trio), None))
    crosses = []
    for four in combinations(PLANETS, 4):
        pairs = [(x, y) for x, y in combinations(four, 2)]
        opp = [p for p in pairs if is_(*p, "opposition")]
        sq = [p for p in pairs if is_(*p, "square")]
        if len(opp) == 2 and len(sq) == 4:
            crosses.append(frozenset(four))
            found.add(("grand_cross", frozenset(four), None))
    for x, y in combinations(PLANETS, 2):
        for apex in PLANETS:
            if apex in (x, y):
                continue
            trio = frozenset((x, y, apex))
            t_square = is_(x, y, "opposition") and is_(x, apex, "square") and is_(y, apex, "square")
            if t_square and not any(trio <= c for c in crosses):
                found.add(("t_square", trio, apex))
            if is_(x, y, "sextile") and is_(x, apex, "quincunx") and is_(y, apex, "quincunx"):
                found.add(("yod", trio, apex))
    by_sign: dict[str, set[str]] = {}
    by_house: dict[int, set[str]] = {}
    for p in chart.planets:
        if p.name in PLANETS:
            by_sign.setdefault(p.sign, set()).add(p.name)
            by_house.setdefault(p.house, set()).add(p.name)
    for group in (*by_sign.values(), *by_house.values()):
        if len(group) >= 4:
            found.add(("stellium", frozenset(group), None))
    return found


def test_patterns_are_the_charts_own_and_none_are_invented(
    shared_stack: Stack, shared_server: ServerProcess
) -> None:
    account = create_account(shared_stack, tier="pro", credits=20, name="interp-pro")
    with AstroClient(api_key=account["api_key"], base_url=shared_server.base_url) as client:
        plain = client.western.natal(subject=PLAIN, interpretations="full")
        rich = client.western.natal(subject=SUBJECT, interpretations="summary", language="th")
    for chart in (plain, rich):
        assert chart.interpretations is not None
        items = [i for i in chart.interpretations.items if i.section == "patterns"]
        told = {(i.basis.pattern, frozenset(i.basis.bodies or ()), i.basis.apex) for i in items}
        assert told == _patterns(chart)
    assert not _patterns(plain)
    assert not [i for i in plain.interpretations.items if i.section == "patterns"]  # type: ignore[union-attr]
    assert {k for k, _b, _a in _patterns(rich)} >= {"t_square", "yod", "stellium"}


def test_tier_and_price_at_their_edges(shared_stack: Stack, shared_server: ServerProcess) -> None:
    base = shared_server.base_url
    free = create_account(shared_stack, tier="free", credits=10, name="interp-free")
    starter = create_account(shared_stack, tier="starter", credits=10, name="interp-starter")
    with AstroClient(api_key=free["api_key"], base_url=base) as client:
        bare = client.western.natal(subject=SUBJECT)
        assert bare.api_response.credits_charged == 1
        assert client.vedic.chart(subject=BOY, interpretations="none").interpretations is None
        estimate = client.estimates.create(
            operation="western.natal", params={"interpretations": "full"}
        )
        assert (estimate.operation, estimate.tier_required, estimate.estimated_credits) == (
            "western.natal.interpretations_full", "pro", 3,
        )  # fmt: skip
        assert not estimate.eligible
        assert "'pro'" in estimate.reasons[0]
        plain_estimate = client.estimates.create(
            operation="western.natal", params={"interpretations": "none"}
        )
        assert (plain_estimate.operation, plain_estimate.estimated_credits) == ("western.natal", 1)
        assert plain_estimate.eligible
        with pytest.raises(astro_sdk.BadRequestError) as bad:
            client.estimates.create(operation="western.natal", params={"interpretations": "all"})
        assert bad.value.details[0]["field"] == "params.interpretations"
        with pytest.raises(astro_sdk.RequestValidationError):
            client.western.natal(subject=SUBJECT, interpretations="all")  # type: ignore[arg-type]
    for account in (free, starter):
        with AstroClient(api_key=account["api_key"], base_url=base) as client:
            for level in ("summary", "full"):
                with pytest.raises(astro_sdk.PermissionDeniedError) as denied:
                    client.western.natal(subject=SUBJECT, interpretations=level)
                assert "'pro' tier" in str(denied.value.message)
                assert f"western.natal.interpretations_{level}" in str(denied.value.message)
                with pytest.raises(astro_sdk.PermissionDeniedError):
                    client.vedic.kundli_matching(boy=BOY, girl=GIRL, interpretations=level)
    # Nothing was charged for the refusals.
    with AstroClient(api_key=starter["api_key"], base_url=base) as client:
        assert client.estimates.create(operation="vedic.chart").balance == 10
    # A pro account with exactly the price of full: charged to zero, then refused with 402.
    pro = create_account(shared_stack, tier="pro", credits=3, name="interp-pro")
    with AstroClient(api_key=pro["api_key"], base_url=base) as client:
        full = client.western.natal(subject=SUBJECT, interpretations="full", language="th")
        assert full.api_response.credits_charged == 3
        assert full.api_response.credits_remaining == 0
        with pytest.raises(astro_sdk.InsufficientCreditsError):
            client.western.natal(subject=SUBJECT, interpretations="summary")
    # The server refuses an unknown level itself (a field-level 400, nothing charged).
    rich = create_account(shared_stack, tier="pro", credits=5, name="interp-pro")
    response = httpx.post(
        f"{base}/api/v3/western/natal",
        headers={"X-API-Key": rich["api_key"]},
        json={"subject": SUBJECT, "interpretations": "verbose"},
    )
    assert response.status_code == 400
    assert response.json()["details"][0]["field"] == "interpretations"
    assert response.headers.get("X-Credits-Charged", "0") == "0"
