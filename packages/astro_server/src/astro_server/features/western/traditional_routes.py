"""Western tag group, Hellenistic timing: profections, zodiacal releasing (and its timeline
picture), firdaria. Issue 46; DESIGN.md "Hellenistic timing and lots".

Each route is one :func:`~astro_server.features.common.calculation.calculation` declaration on
the astro_calc.western.traditional computation it runs (conventions and sources in its module
docstrings; docs/decisions.md "Hellenistic timing"). The request bodies are in
:mod:`astro_server.features.western.traditional_requests`. ``sensitivity`` answers the
birth-time results each technique reads (:func:`technique_sensitivity`): the ascendant's sign
for profections; the sect and the released lot's and Fortune's signs for releasing; the sect
for firdaria.
"""

from __future__ import annotations

from collections.abc import Collection
from datetime import UTC, datetime, timedelta
from typing import Final

import msgspec
from quart import Blueprint

from astro_calc.disclaimers import DisclaimerNote, disclaimer_for
from astro_calc.errors import CalcInputError
from astro_calc.sensitivity import Sensitivity, traditional_sensitivity
from astro_calc.western.traditional import (
    Firdaria,
    Profections,
    ZodiacalReleasing,
    profections,
)
from astro_calc.western.traditional.readings import (
    profection_interpretation,
    releasing_interpretation,
)
from astro_calc.western.traditional.timing import (
    MAX_LEVELS,
    MAX_WINDOW_DAYS,
    birth_basics,
    firdaria_at,
    zodiacal_releasing_at,
)
from astro_server.drawing.releasing import releasing_timeline_svg
from astro_server.features.common.calculation import calculations
from astro_server.features.western.requests import WesternSubject
from astro_server.features.western.traditional_requests import (
    MAX_LEVEL4_WINDOW_DAYS,
    FirdariaRequest,
    ProfectionsRequest,
    ReleasingFields,
    ZodiacalReleasingChartRequest,
    ZodiacalReleasingRequest,
)

blueprint = Blueprint("western_traditional", __name__)
TAG = ["Western"]
route = calculations(blueprint, tags=TAG)

#: The disclaimer code of the timing readings (astro_calc.disclaimers' route table).
DISCLAIMER_CODE: Final = "traditional_timing"


class ProfectionsAnswer(Profections, frozen=True, gc=False):
    """The profections of :func:`astro_calc.western.traditional.profections`, and the
    ``disclaimer`` of a timing reading in the request's ``language``."""

    disclaimer: DisclaimerNote


class ZodiacalReleasingAnswer(ZodiacalReleasing, frozen=True, gc=False):
    """The releasing of :func:`astro_calc.western.traditional.zodiacal_releasing`, and the
    ``disclaimer`` of a timing reading in the request's ``language``."""

    disclaimer: DisclaimerNote


#: The sensitivity results each technique reads (astro_calc.sensitivity.traditional's names).
PROFECTION_RESULTS: Final = ("ascendant.sign",)
FIRDARIA_RESULTS: Final = ("sect",)


def releasing_results(lot: str) -> tuple[str, ...]:
    """The sect (it reverses the lots), the released lot's sign and Fortune's (the peaks)."""
    return ("sect", f"lot.{lot}.sign", "lot.fortune.sign")


def only(found: Sensitivity, results: Collection[str]) -> Sensitivity:
    """``found`` keeping only the items (and uncertain names) in ``results``."""
    return msgspec.structs.replace(
        found,
        items=tuple(i for i in found.items if i.result in results),
        uncertain=tuple(name for name in found.uncertain if name in results),
    )


def technique_sensitivity(
    subject: WesternSubject, minutes: float, results: Collection[str]
) -> Sensitivity:
    """The traditional sensitivity of a birth (astro_calc.sensitivity.traditional: root finding
    to 1 second) narrowed to the results a technique reads."""
    found = traditional_sensitivity(subject.to_calc(), uncertainty_minutes=minutes)
    return only(found, results)


@route(
    "POST /api/v3/western/profections",
    "westernProfections",
    price="western.profections",
    body=ProfectionsRequest,
    result=ProfectionsAnswer,
    interpret=lambda found, data: profection_interpretation(
        found, language=data.language, level=data.interpretations
    ),
    sensitivity=lambda data, minutes: technique_sensitivity(
        data.subject, minutes, PROFECTION_RESULTS
    ),
    names_subject=True,
)
def western_profections(data: ProfectionsRequest) -> ProfectionsAnswer:
    """Annual and monthly profections: the age, the profected sign and whole-sign house, the
    lord of the year and the twelve months of the year holding ``on_date``.

    The year of life that began at the ``age``-th birthday is profected ``age`` whole signs from
    the ascendant's sign (Valens IV.11; Brennan 2017 ch. 18): house ``age mod 12 + 1``, lord of
    the year its domicile ruler (classical rulers); twelve equal months, one sign further each.
    ``interpretations`` (summary or full, ``language`` en or th) reads the lord of the year and
    the profected house (tier pro); ``sensitivity`` (+1 credit) says how close the ascendant's
    sign, which decides the profected signs, is to changing with the birth time. Every answer
    carries ``disclaimer`` (``traditional_timing``) in ``language``.
    """
    found = profections(data.subject.to_calc(), data.on_date)
    note = disclaimer_for(DISCLAIMER_CODE, data.language)
    return ProfectionsAnswer(**msgspec.structs.asdict(found), disclaimer=note)


def releasing_of(data: ReleasingFields) -> ZodiacalReleasing:
    """Zodiacal releasing for the request, the level-4 window cap applied: at level 4 the window
    is at most :data:`MAX_LEVEL4_WINDOW_DAYS` days (a longer one is a 400 naming ``end``) and an
    omitted ``end`` is the longest window from the start (within 150 years of the birth)."""
    basics = birth_basics(data.subject.to_calc())
    end = data.end
    if data.levels == MAX_LEVELS:
        birth = basics.echo.utc.astimezone(UTC)
        lo = birth
        if data.start is not None:
            lo = max(birth, datetime(data.start.year, data.start.month, data.start.day, tzinfo=UTC))
        cap = timedelta(days=MAX_LEVEL4_WINDOW_DAYS)
        if end is None:
            last = min(lo + cap, birth + timedelta(days=MAX_WINDOW_DAYS))
            end = last.date() - timedelta(days=1)
        else:
            hi = datetime(end.year, end.month, end.day, tzinfo=UTC) + timedelta(days=1)
            if hi - lo > cap:
                raise CalcInputError(
                    "end",
                    f"at level 4 the window (start to end, from the birth when start is "
                    f"earlier) is at most {MAX_LEVEL4_WINDOW_DAYS} days",
                )
    return zodiacal_releasing_at(
        basics,
        lot=data.lot,
        levels=data.levels,
        start=data.start,
        end=end,
        year_length_days=float(data.year_length_days),
    )


@route(
    "POST /api/v3/western/zodiacal-releasing",
    "westernZodiacalReleasing",
    price="western.zodiacal_releasing",
    body=ZodiacalReleasingRequest,
    result=ZodiacalReleasingAnswer,
    interpret=lambda found, data: releasing_interpretation(
        found, language=data.language, level=data.interpretations
    ),
    sensitivity=lambda data, minutes: technique_sensitivity(
        data.subject, minutes, releasing_results(data.lot)
    ),
    names_subject=True,
)
def western_zodiacal_releasing(data: ZodiacalReleasingRequest) -> ZodiacalReleasingAnswer:
    """Zodiacal releasing from the Lot of Spirit or Fortune, to 1-4 levels, with the loosing of
    the bond and the peak periods, clipped to the window ``start``..``end``.

    From the lot's sign the signs are released in zodiacal order for their minor years (Valens
    IV.4-10; Brennan 2017 ch. 17), each period dividing into sub-periods of 1/12, 1/144 and
    1/1728 of those spans; after twelve signs a sub-level jumps to the opposite sign (the
    loosing of the bond); periods in the signs angular to Fortune are peaks. Years of 360 days
    (Valens, default) or 365.25. At level 4 the window is at most 3660 days. ``interpretations``
    (summary or full, ``language`` en or th) reads the periods running at the window's start
    (tier pro); ``sensitivity`` (+1 credit) says how close the sect, the lot's sign and
    Fortune's sign are to changing with the birth time. Every answer carries ``disclaimer``
    (``traditional_timing``) in ``language``.
    """
    found = releasing_of(data)
    note = disclaimer_for(DISCLAIMER_CODE, data.language)
    return ZodiacalReleasingAnswer(**msgspec.structs.asdict(found), disclaimer=note)


@route(
    "POST /api/v3/western/zodiacal-releasing/chart",
    "westernZodiacalReleasingChart",
    picture=True,
    price="western.zodiacal_releasing_chart",
    body=ZodiacalReleasingChartRequest,
    names_subject=True,
)
def western_zodiacal_releasing_chart(data: ZodiacalReleasingChartRequest) -> str:
    """Zodiacal releasing timeline picture: one band per level across the window, each period a
    box with its sign, peaks and the loosing of the bond marked; SVG, or PNG rendered from it.
    The periods are those of ``POST /api/v3/western/zodiacal-releasing`` with the same body."""
    return releasing_timeline_svg(releasing_of(data), **data.drawing_options())


@route(
    "POST /api/v3/western/firdaria",
    "westernFirdaria",
    price="western.firdaria",
    body=FirdariaRequest,
    result=Firdaria,
    sensitivity=lambda data, minutes: technique_sensitivity(
        data.subject, minutes, FIRDARIA_RESULTS
    ),
    names_subject=True,
)
def western_firdaria(data: FirdariaRequest) -> Firdaria:
    """Firdaria: the Persian periods of life (75 years), day or night sequence by the chart's
    sect, seven Chaldean sub-periods in each planetary period, and the current ones on
    ``on_date``.

    Abu Ma'shar (tr. Dykes 2019): by day Sun 10, Venus 8, Mercury 13, Moon 9, Saturn 11, Jupiter
    12, Mars 7, then the North Node 3 and South Node 2 years; by night from the Moon, the nodes
    after Mars (default) or after Mercury (``node_placement``). Years of ``year_length_days``
    (365.25 default) from the birth instant. ``sensitivity`` (+1 credit) says how close the
    sect, which picks the sequence, is to changing with the birth time.
    """
    basics = birth_basics(data.subject.to_calc())
    return firdaria_at(
        basics.echo,
        basics.sect,
        on_date=data.on_date,
        node_placement=data.node_placement,
        year_length_days=float(data.year_length_days),
    )
