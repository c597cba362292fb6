"""``client.western``: natal, synastry, composite, returns, progressions, transits, and the
Hellenistic timing techniques (profections, zodiacal releasing, firdaria). Every route is
billable (an ``Idempotency-Key`` per call, reused on retries)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from typing import Any, Literal

from astro_sdk._base import validate_request
from astro_sdk._operation import Credential, Operation
from astro_sdk._resource import AsyncResource, SyncResource
from astro_sdk.models.astrocartography import (
    AstrocartographyMapRequest,
    AstrocartographyRequest,
    InterpretedAstrocartography,
    InterpretedRelocatedChart,
    MapCity,
    RelocationRequest,
)
from astro_sdk.models.interpretations import InterpretationLanguage, InterpretationLevel
from astro_sdk.models.pictures import (
    ChartImage,
    ImageBody,
    NatalWheelRequest,
    PictureFormat,
    SynastryWheelRequest,
    TransitsWheelRequest,
)
from astro_sdk.models.sensitivity import (
    RectificationRequest,
    RectificationWindow,
    SensitivityOption,
)
from astro_sdk.models.traditional import (
    FirdariaRequest,
    InterpretedProfections,
    InterpretedZodiacalReleasing,
    ProfectionsRequest,
    ReleasingLot,
    SensitiveFirdaria,
    ZodiacalReleasingChartRequest,
    ZodiacalReleasingRequest,
)
from astro_sdk.models.western import (
    AspectName,
    Body,
    CompositeRequest,
    HouseSystem,
    InterpretedCompositeChart,
    InterpretedNatalChart,
    InterpretedProgressionsResult,
    InterpretedReturnChart,
    InterpretedSynastry,
    InterpretedTransitReport,
    NatalRequest,
    PairRequest,
    ProgressionsRequest,
    ReturnsRequest,
    TransitsRequest,
    WesternSubject,
)
from astro_sdk.resources._pictures import (
    Colors,
    Language,
    Theme,
    picture_fields,
    picture_operation,
)
from astro_sdk.resources._sky_events import (
    FORECAST,
    PLANETARY_HOURS,
    SKY_EVENTS,
    AsyncSkyEventsMixin,
    SkyEventsMixin,
)

__all__ = ["AsyncWestern", "Western"]

Subject = WesternSubject | Mapping[str, Any]


def _post(name: str, path: str, response: type[Any], request: type[Any]) -> Any:
    return Operation(
        operation_id=name,
        method="POST",
        path=path,
        credential=Credential.API_KEY,
        response_model=response,
        request_model=request,
        billable=True,
    )


NATAL: Operation[InterpretedNatalChart] = _post(
    "westernNatal", "/api/v3/western/natal", InterpretedNatalChart, NatalRequest
)
SYNASTRY: Operation[InterpretedSynastry] = _post(
    "westernSynastry", "/api/v3/western/synastry", InterpretedSynastry, PairRequest
)
COMPOSITE: Operation[InterpretedCompositeChart] = _post(
    "westernComposite", "/api/v3/western/composite", InterpretedCompositeChart, CompositeRequest
)
RETURNS: Operation[InterpretedReturnChart] = _post(
    "westernReturns", "/api/v3/western/returns", InterpretedReturnChart, ReturnsRequest
)
PROGRESSIONS: Operation[InterpretedProgressionsResult] = _post(
    "westernProgressions",
    "/api/v3/western/progressions",
    InterpretedProgressionsResult,
    ProgressionsRequest,
)
TRANSITS: Operation[InterpretedTransitReport] = _post(
    "westernTransits", "/api/v3/western/transits", InterpretedTransitReport, TransitsRequest
)
RECTIFICATION_WINDOW: Operation[RectificationWindow] = _post(
    "westernRectificationWindow",
    "/api/v3/western/rectification-window",
    RectificationWindow,
    RectificationRequest,
)
NATAL_WHEEL: Operation[ImageBody] = picture_operation(
    "westernNatalWheel", "/api/v3/western/natal/wheel", NatalWheelRequest
)
SYNASTRY_WHEEL: Operation[ImageBody] = picture_operation(
    "westernSynastryWheel", "/api/v3/western/synastry/wheel", SynastryWheelRequest
)
TRANSITS_WHEEL: Operation[ImageBody] = picture_operation(
    "westernTransitsWheel", "/api/v3/western/transits/wheel", TransitsWheelRequest
)
ASTROCARTOGRAPHY: Operation[InterpretedAstrocartography] = _post(
    "westernAstrocartography",
    "/api/v3/western/astrocartography",
    InterpretedAstrocartography,
    AstrocartographyRequest,
)
ASTROCARTOGRAPHY_MAP: Operation[ImageBody] = picture_operation(
    "westernAstrocartographyMap",
    "/api/v3/western/astrocartography/map",
    AstrocartographyMapRequest,
)
RELOCATION: Operation[InterpretedRelocatedChart] = _post(
    "westernRelocation",
    "/api/v3/western/relocation",
    InterpretedRelocatedChart,
    RelocationRequest,
)
PROFECTIONS: Operation[InterpretedProfections] = _post(
    "westernProfections", "/api/v3/western/profections", InterpretedProfections, ProfectionsRequest
)
ZODIACAL_RELEASING: Operation[InterpretedZodiacalReleasing] = _post(
    "westernZodiacalReleasing",
    "/api/v3/western/zodiacal-releasing",
    InterpretedZodiacalReleasing,
    ZodiacalReleasingRequest,
)
ZODIACAL_RELEASING_CHART: Operation[ImageBody] = picture_operation(
    "westernZodiacalReleasingChart",
    "/api/v3/western/zodiacal-releasing/chart",
    ZodiacalReleasingChartRequest,
)
FIRDARIA: Operation[SensitiveFirdaria] = _post(
    "westernFirdaria", "/api/v3/western/firdaria", SensitiveFirdaria, FirdariaRequest
)
OPERATIONS = (
    NATAL,
    SYNASTRY,
    COMPOSITE,
    RETURNS,
    PROGRESSIONS,
    TRANSITS,
    RECTIFICATION_WINDOW,
    NATAL_WHEEL,
    SYNASTRY_WHEEL,
    TRANSITS_WHEEL,
    SKY_EVENTS,
    PLANETARY_HOURS,
    FORECAST,
    ASTROCARTOGRAPHY,
    ASTROCARTOGRAPHY_MAP,
    RELOCATION,
    PROFECTIONS,
    ZODIACAL_RELEASING,
    ZODIACAL_RELEASING_CHART,
    FIRDARIA,
)


class AsyncWestern(AsyncSkyEventsMixin, AsyncResource):
    """``client.western``: natal, synastry, composite, returns, progressions, transits, sky
    events and forecasts, astrocartography and relocation, profections, zodiacal releasing,
    firdaria."""

    operations = OPERATIONS

    async def natal(
        self,
        *,
        subject: Subject,
        house_system: HouseSystem | None = None,
        bodies: Sequence[Body] | None = None,
        aspects: Sequence[AspectName] | None = None,
        orbs: Mapping[AspectName, float] | None = None,
        include_minor: bool | None = None,
        lots: bool | None = None,
        interpretations: InterpretationLevel | None = None,
        language: InterpretationLanguage | None = None,
        sensitivity: SensitivityOption | Mapping[str, Any] | None = None,
        idempotency_key: str | None = None,
    ) -> InterpretedNatalChart:
        """``POST /api/v3/western/natal``: bodies, houses, angles, aspects, dignities, balance.
        ``lots=True`` adds ``sect``, the seven Hermetic ``lots`` and the classical planets'
        triplicity, bound and face (same price). ``sensitivity={"uncertainty_minutes": N}``
        (0 to 720) adds the birth-time sensitivity (+1 credit)."""
        body = validate_request(
            NatalRequest,
            {
                "lots": lots,
                "interpretations": interpretations,
                "language": language,
                "sensitivity": sensitivity,
                "subject": subject,
                "house_system": house_system,
                "bodies": bodies,
                "aspects": aspects,
                "orbs": orbs,
                "include_minor": include_minor,
            },
        )
        return await self._client.request(NATAL, body=body, idempotency_key=idempotency_key)

    async def rectification_window(
        self,
        *,
        date: dt.date | str,
        latitude: float,
        longitude: float,
        start_time: str,
        end_time: str,
        timezone: str | None = None,
        timezone_offset_minutes: int | None = None,
        ayanamsa: str | None = None,
        idempotency_key: str | None = None,
    ) -> RectificationWindow:
        """``POST /api/v3/western/rectification-window``: every change of ascendant, midheaven
        and Moon sign, nakshatra pada and Chinese hour pillar between ``start_time`` and
        ``end_time`` (local; the next day when not after the start; at most 24 hours), each to
        1 second, in time order."""
        body = validate_request(
            RectificationRequest,
            {
                "date": date,
                "latitude": latitude,
                "longitude": longitude,
                "start_time": start_time,
                "end_time": end_time,
                "timezone": timezone,
                "timezoneOffsetMinutes": timezone_offset_minutes,
                "ayanamsa": ayanamsa,
            },
        )
        return await self._client.request(
            RECTIFICATION_WINDOW, body=body, idempotency_key=idempotency_key
        )

    async def synastry(
        self,
        *,
        subject_a: Subject,
        subject_b: Subject,
        house_system: HouseSystem | None = None,
        include_minor: bool | None = None,
        interpretations: InterpretationLevel | None = None,
        language: InterpretationLanguage | None = None,
        sensitivity: SensitivityOption | Mapping[str, Any] | None = None,
        idempotency_key: str | None = None,
    ) -> InterpretedSynastry:
        """``POST /api/v3/western/synastry``: inter-aspects, house overlays, compatibility score.
        ``sensitivity={"uncertainty_minutes": N}`` (0 to 720) adds the natal inputs'
        birth-time sensitivity (+1 credit)."""
        body = validate_request(
            PairRequest,
            {
                "interpretations": interpretations,
                "language": language,
                "sensitivity": sensitivity,
                "subject_a": subject_a,
                "subject_b": subject_b,
                "house_system": house_system,
                "include_minor": include_minor,
            },
        )
        return await self._client.request(SYNASTRY, body=body, idempotency_key=idempotency_key)

    async def composite(
        self,
        *,
        subject_a: Subject,
        subject_b: Subject,
        method: Literal["midpoint", "davison"] | None = None,
        house_system: HouseSystem | None = None,
        interpretations: InterpretationLevel | None = None,
        language: InterpretationLanguage | None = None,
        sensitivity: SensitivityOption | Mapping[str, Any] | None = None,
        idempotency_key: str | None = None,
    ) -> InterpretedCompositeChart:
        """``POST /api/v3/western/composite``: midpoint composite or Davison chart.
        ``sensitivity={"uncertainty_minutes": N}`` (0 to 720) adds the natal inputs'
        birth-time sensitivity (+1 credit)."""
        body = validate_request(
            CompositeRequest,
            {
                "interpretations": interpretations,
                "language": language,
                "sensitivity": sensitivity,
                "subject_a": subject_a,
                "subject_b": subject_b,
                "method": method,
                "house_system": house_system,
            },
        )
        return await self._client.request(COMPOSITE, body=body, idempotency_key=idempotency_key)

    async def returns(
        self,
        *,
        subject: Subject,
        kind: Literal["solar", "lunar"],
        year: int | None = None,
        after: dt.datetime | str | None = None,
        latitude: float | None = None,
        longitude: float | None = None,
        timezone: str | None = None,
        house_system: HouseSystem | None = None,
        interpretations: InterpretationLevel | None = None,
        language: InterpretationLanguage | None = None,
        sensitivity: SensitivityOption | Mapping[str, Any] | None = None,
        idempotency_key: str | None = None,
    ) -> InterpretedReturnChart:
        """``POST /api/v3/western/returns``: solar return for ``year`` or lunar return ``after``.
        ``sensitivity={"uncertainty_minutes": N}`` (0 to 720) adds the natal inputs'
        birth-time sensitivity (+1 credit)."""
        body = validate_request(
            ReturnsRequest,
            {
                "interpretations": interpretations,
                "language": language,
                "sensitivity": sensitivity,
                "subject": subject,
                "kind": kind,
                "year": year,
                "after": after,
                "latitude": latitude,
                "longitude": longitude,
                "timezone": timezone,
                "house_system": house_system,
            },
        )
        return await self._client.request(RETURNS, body=body, idempotency_key=idempotency_key)

    async def progressions(
        self,
        *,
        subject: Subject,
        target_date: dt.datetime | str,
        method: Literal["secondary", "solar_arc"] | None = None,
        mc_method: Literal["naibod", "solar_arc"] | None = None,
        house_system: HouseSystem | None = None,
        orb_deg: float | None = None,
        interpretations: InterpretationLevel | None = None,
        language: InterpretationLanguage | None = None,
        sensitivity: SensitivityOption | Mapping[str, Any] | None = None,
        idempotency_key: str | None = None,
    ) -> InterpretedProgressionsResult:
        """``POST /api/v3/western/progressions``: secondary progressions or solar-arc directions.
        ``sensitivity={"uncertainty_minutes": N}`` (0 to 720) adds the natal inputs'
        birth-time sensitivity (+1 credit)."""
        body = validate_request(
            ProgressionsRequest,
            {
                "interpretations": interpretations,
                "language": language,
                "sensitivity": sensitivity,
                "subject": subject,
                "target_date": target_date,
                "method": method,
                "mc_method": mc_method,
                "house_system": house_system,
                "orb_deg": orb_deg,
            },
        )
        return await self._client.request(PROGRESSIONS, body=body, idempotency_key=idempotency_key)

    async def transits(
        self,
        *,
        subject: Subject,
        start: dt.datetime | str,
        end: dt.datetime | str,
        transiting_bodies: Sequence[Body] | None = None,
        aspects: Sequence[AspectName] | None = None,
        include_ingresses: bool | None = None,
        include_stations: bool | None = None,
        interpretations: InterpretationLevel | None = None,
        language: InterpretationLanguage | None = None,
        sensitivity: SensitivityOption | Mapping[str, Any] | None = None,
        idempotency_key: str | None = None,
    ) -> InterpretedTransitReport:
        """``POST /api/v3/western/transits``: exact aspects, ingresses, stations (<= 366 days).
        ``sensitivity={"uncertainty_minutes": N}`` (0 to 720) adds the natal inputs'
        birth-time sensitivity (+1 credit)."""
        body = validate_request(
            TransitsRequest,
            {
                "interpretations": interpretations,
                "language": language,
                "sensitivity": sensitivity,
                "subject": subject,
                "start": start,
                "end": end,
                "transiting_bodies": transiting_bodies,
                "aspects": aspects,
                "include_ingresses": include_ingresses,
                "include_stations": include_stations,
            },
        )
        return await self._client.request(TRANSITS, body=body, idempotency_key=idempotency_key)

    async def natal_wheel(
        self,
        *,
        subject: Subject,
        house_system: HouseSystem | None = None,
        bodies: Sequence[Body] | None = None,
        aspects: Sequence[AspectName] | None = None,
        orbs: Mapping[AspectName, float] | None = None,
        include_minor: bool | None = None,
        format: PictureFormat | None = None,
        size_px: int | None = None,
        theme: Theme | None = None,
        colors: Colors | None = None,
        language: Language | None = None,
        idempotency_key: str | None = None,
    ) -> ChartImage:
        """``POST /api/v3/western/natal/wheel``: the natal wheel picture (SVG or PNG)."""
        body = validate_request(
            NatalWheelRequest,
            {
                "subject": subject,
                "house_system": house_system,
                "bodies": bodies,
                "aspects": aspects,
                "orbs": orbs,
                "include_minor": include_minor,
                **picture_fields(format, size_px, theme, colors, language),
            },
        )
        return await self._client.request_image(
            NATAL_WHEEL, body=body, idempotency_key=idempotency_key
        )

    async def synastry_wheel(
        self,
        *,
        subject_a: Subject,
        subject_b: Subject,
        house_system: HouseSystem | None = None,
        include_minor: bool | None = None,
        format: PictureFormat | None = None,
        size_px: int | None = None,
        theme: Theme | None = None,
        colors: Colors | None = None,
        language: Language | None = None,
        idempotency_key: str | None = None,
    ) -> ChartImage:
        """``POST /api/v3/western/synastry/wheel``: A inside, B outside, inter-aspects."""
        body = validate_request(
            SynastryWheelRequest,
            {
                "subject_a": subject_a,
                "subject_b": subject_b,
                "house_system": house_system,
                "include_minor": include_minor,
                **picture_fields(format, size_px, theme, colors, language),
            },
        )
        return await self._client.request_image(
            SYNASTRY_WHEEL, body=body, idempotency_key=idempotency_key
        )

    async def transits_wheel(
        self,
        *,
        subject: Subject,
        at: dt.datetime | str,
        house_system: HouseSystem | None = None,
        transiting_bodies: Sequence[Body] | None = None,
        aspects: Sequence[AspectName] | None = None,
        format: PictureFormat | None = None,
        size_px: int | None = None,
        theme: Theme | None = None,
        colors: Colors | None = None,
        language: Language | None = None,
        idempotency_key: str | None = None,
    ) -> ChartImage:
        """``POST /api/v3/western/transits/wheel``: natal inside, the sky at ``at`` outside."""
        body = validate_request(
            TransitsWheelRequest,
            {
                "subject": subject,
                "at": at,
                "house_system": house_system,
                "transiting_bodies": transiting_bodies,
                "aspects": aspects,
                **picture_fields(format, size_px, theme, colors, language),
            },
        )
        return await self._client.request_image(
            TRANSITS_WHEEL, body=body, idempotency_key=idempotency_key
        )

    async def astrocartography(
        self,
        *,
        subject: Subject,
        bodies: Sequence[Body] | None = None,
        zodiacal: bool | None = None,
        parans: bool | None = None,
        local_space: bool | None = None,
        step_deg: float | None = None,
        paran_orb_deg: float | None = None,
        interpretations: InterpretationLevel | None = None,
        language: InterpretationLanguage | None = None,
        idempotency_key: str | None = None,
    ) -> InterpretedAstrocartography:
        """``POST /api/v3/western/astrocartography``: each body's MC, IC, ASC and DSC lines at
        birth (in mundo; ``zodiacal=True`` for the ecliptic degree), points every ``step_deg``
        of latitude (0.1 to 2); ``parans`` and ``local_space`` add those."""
        body = validate_request(
            AstrocartographyRequest,
            {
                "interpretations": interpretations,
                "language": language,
                "subject": subject,
                "bodies": bodies,
                "zodiacal": zodiacal,
                "parans": parans,
                "local_space": local_space,
                "step_deg": step_deg,
                "paran_orb_deg": paran_orb_deg,
            },
        )
        return await self._client.request(
            ASTROCARTOGRAPHY, body=body, idempotency_key=idempotency_key
        )

    async def astrocartography_map(
        self,
        *,
        subject: Subject,
        bodies: Sequence[Body] | None = None,
        zodiacal: bool | None = None,
        step_deg: float | None = None,
        cities: Sequence[int | MapCity | Mapping[str, Any]] | None = None,
        format: PictureFormat | None = None,
        size_px: int | None = None,
        theme: Theme | None = None,
        language: Language | None = None,
        idempotency_key: str | None = None,
    ) -> ChartImage:
        """``POST /api/v3/western/astrocartography/map``: the lines on a world map (SVG or PNG,
        default 1600 px), the birth place marked, up to 20 ``cities`` (place ids or
        ``{name, latitude, longitude}``)."""
        body = validate_request(
            AstrocartographyMapRequest,
            {
                "subject": subject,
                "bodies": bodies,
                "zodiacal": zodiacal,
                "step_deg": step_deg,
                "cities": cities,
                **picture_fields(format, size_px, theme, None, language),
            },
        )
        return await self._client.request_image(
            ASTROCARTOGRAPHY_MAP, body=body, idempotency_key=idempotency_key
        )

    async def relocation(
        self,
        *,
        subject: Subject,
        latitude: float | None = None,
        longitude: float | None = None,
        place: int | None = None,
        house_system: HouseSystem | None = None,
        bodies: Sequence[Body] | None = None,
        line_bodies: Sequence[Body] | None = None,
        line_orb_km: float | None = None,
        interpretations: InterpretationLevel | None = None,
        language: InterpretationLanguage | None = None,
        idempotency_key: str | None = None,
    ) -> InterpretedRelocatedChart:
        """``POST /api/v3/western/relocation``: the natal chart cast at another place (``latitude``
        and ``longitude``, or a ``place`` id) at the same instant, with ``relocation``: the
        angles' shift, the bodies that changed house and the lines within ``line_orb_km``."""
        body = validate_request(
            RelocationRequest,
            {
                "interpretations": interpretations,
                "language": language,
                "subject": subject,
                "latitude": latitude,
                "longitude": longitude,
                "place": place,
                "house_system": house_system,
                "bodies": bodies,
                "line_bodies": line_bodies,
                "line_orb_km": line_orb_km,
            },
        )
        return await self._client.request(RELOCATION, body=body, idempotency_key=idempotency_key)

    async def profections(
        self,
        *,
        subject: Subject,
        on_date: dt.date | str,
        interpretations: InterpretationLevel | None = None,
        language: InterpretationLanguage | None = None,
        sensitivity: SensitivityOption | Mapping[str, Any] | None = None,
        idempotency_key: str | None = None,
    ) -> InterpretedProfections:
        """``POST /api/v3/western/profections``: the age, profected sign and whole-sign house,
        lord of the year and twelve months of the year holding ``on_date``. ``interpretations``
        reads the lord of the year (tier pro); ``sensitivity`` (+1 credit) the ascendant's
        sign."""
        body = validate_request(
            ProfectionsRequest,
            {
                "interpretations": interpretations,
                "language": language,
                "sensitivity": sensitivity,
                "subject": subject,
                "on_date": on_date,
            },
        )
        return await self._client.request(PROFECTIONS, body=body, idempotency_key=idempotency_key)

    async def zodiacal_releasing(
        self,
        *,
        subject: Subject,
        lot: ReleasingLot | None = None,
        levels: int | None = None,
        start: dt.date | str | None = None,
        end: dt.date | str | None = None,
        year_length_days: float | None = None,
        interpretations: InterpretationLevel | None = None,
        language: InterpretationLanguage | None = None,
        sensitivity: SensitivityOption | Mapping[str, Any] | None = None,
        idempotency_key: str | None = None,
    ) -> InterpretedZodiacalReleasing:
        """``POST /api/v3/western/zodiacal-releasing``: releasing from Spirit (default) or
        Fortune to ``levels`` 1-4 (default 2), with the loosing of the bond and the peaks,
        clipped to ``start``..``end`` (at level 4 at most 3660 days). ``year_length_days`` 360
        (default) or 365.25. ``interpretations`` reads the periods at the window's start (tier
        pro); ``sensitivity`` (+1 credit) the sect and the lots' signs."""
        body = validate_request(
            ZodiacalReleasingRequest,
            {
                "interpretations": interpretations,
                "language": language,
                "sensitivity": sensitivity,
                "subject": subject,
                "lot": lot,
                "levels": levels,
                "start": start,
                "end": end,
                "year_length_days": year_length_days,
            },
        )
        return await self._client.request(
            ZODIACAL_RELEASING, body=body, idempotency_key=idempotency_key
        )

    async def zodiacal_releasing_chart(
        self,
        *,
        subject: Subject,
        lot: ReleasingLot | None = None,
        levels: int | None = None,
        start: dt.date | str | None = None,
        end: dt.date | str | None = None,
        year_length_days: float | None = None,
        format: PictureFormat | None = None,
        size_px: int | None = None,
        theme: Theme | None = None,
        colors: Colors | None = None,
        language: Language | None = None,
        idempotency_key: str | None = None,
    ) -> ChartImage:
        """``POST /api/v3/western/zodiacal-releasing/chart``: the releasing timeline picture
        (SVG or PNG), one band per level."""
        body = validate_request(
            ZodiacalReleasingChartRequest,
            {
                "subject": subject,
                "lot": lot,
                "levels": levels,
                "start": start,
                "end": end,
                "year_length_days": year_length_days,
                **picture_fields(format, size_px, theme, colors, language),
            },
        )
        return await self._client.request_image(
            ZODIACAL_RELEASING_CHART, body=body, idempotency_key=idempotency_key
        )

    async def firdaria(
        self,
        *,
        subject: Subject,
        on_date: dt.date | str | None = None,
        node_placement: Literal["after_mars", "after_mercury"] | None = None,
        year_length_days: float | None = None,
        sensitivity: SensitivityOption | Mapping[str, Any] | None = None,
        idempotency_key: str | None = None,
    ) -> SensitiveFirdaria:
        """``POST /api/v3/western/firdaria``: the firdaria (day or night sequence by sect, seven
        Chaldean sub-periods each) and, with ``on_date``, the ``current`` ones.
        ``node_placement`` after_mars (default) or after_mercury; ``year_length_days`` 365.25
        (default), 365.2422 or 360; ``sensitivity`` (+1 credit) the sect."""
        body = validate_request(
            FirdariaRequest,
            {
                "sensitivity": sensitivity,
                "subject": subject,
                "on_date": on_date,
                "node_placement": node_placement,
                "year_length_days": year_length_days,
            },
        )
        return await self._client.request(FIRDARIA, body=body, idempotency_key=idempotency_key)


# --- Generated by scripts/unasync.py from the Async classes above: do not edit below. ---


class Western(SkyEventsMixin, SyncResource):
    """``client.western``: natal, synastry, composite, returns, progressions, transits, sky
    events and forecasts, astrocartography and relocation, profections, zodiacal releasing,
    firdaria."""

    operations = OPERATIONS

    def natal(
        self,
        *,
        subject: Subject,
        house_system: HouseSystem | None = None,
        bodies: Sequence[Body] | None = None,
        aspects: Sequence[AspectName] | None = None,
        orbs: Mapping[AspectName, float] | None = None,
        include_minor: bool | None = None,
        lots: bool | None = None,
        interpretations: InterpretationLevel | None = None,
        language: InterpretationLanguage | None = None,
        sensitivity: SensitivityOption | Mapping[str, Any] | None = None,
        idempotency_key: str | None = None,
    ) -> InterpretedNatalChart:
        """``POST /api/v3/western/natal``: bodies, houses, angles, aspects, dignities, balance.
        ``lots=True`` adds ``sect``, the seven Hermetic ``lots`` and the classical planets'
        triplicity, bound and face (same price). ``sensitivity={"uncertainty_minutes": N}``
        (0 to 720) adds the birth-time sensitivity (+1 credit)."""
        body = validate_request(
            NatalRequest,
            {
                "lots": lots,
                "interpretations": interpretations,
                "language": language,
                "sensitivity": sensitivity,
                "subject": subject,
                "house_system": house_system,
                "bodies": bodies,
                "aspects": aspects,
                "orbs": orbs,
                "include_minor": include_minor,
            },
        )
        return self._client.request(NATAL, body=body, idempotency_key=idempotency_key)

    def rectification_window(
        self,
        *,
        date: dt.date | str,
        latitude: float,
        longitude: float,
        start_time: str,
        end_time: str,
        timezone: str | None = None,
        timezone_offset_minutes: int | None = None,
        ayanamsa: str | None = None,
        idempotency_key: str | None = None,
    ) -> RectificationWindow:
        """``POST /api/v3/western/rectification-window``: every change of ascendant, midheaven
        and Moon sign, nakshatra pada and Chinese hour pillar between ``start_time`` and
        ``end_time`` (local; the next day when not after the start; at most 24 hours), each to
        1 second, in time order."""
        body = validate_request(
            RectificationRequest,
            {
                "date": date,
                "latitude": latitude,
                "longitude": longitude,
                "start_time": start_time,
                "end_time": end_time,
                "timezone": timezone,
                "timezoneOffsetMinutes": timezone_offset_minutes,
                "ayanamsa": ayanamsa,
            },
        )
        return self._client.request(
            RECTIFICATION_WINDOW, body=body, idempotency_key=idempotency_key
        )

    def synastry(
        self,
        *,
        subject_a: Subject,
        subject_b: Subject,
        house_system: HouseSystem | None = None,
        include_minor: bool | None = None,
        interpretations: InterpretationLevel | None = None,
        language: InterpretationLanguage | None = None,
        sensitivity: SensitivityOption | Mapping[str, Any] | None = None,
        idempotency_key: str | None = None,
    ) -> InterpretedSynastry:
        """``POST /api/v3/western/synastry``: inter-aspects, house overlays, compatibility score.
        ``sensitivity={"uncertainty_minutes": N}`` (0 to 720) adds the natal inputs'
        birth-time sensitivity (+1 credit)."""
        body = validate_request(
            PairRequest,
            {
                "interpretations": interpretations,
                "language": language,
                "sensitivity": sensitivity,
                "subject_a": subject_a,
                "subject_b": subject_b,
                "house_system": house_system,
                "include_minor": include_minor,
            },
        )
        return self._client.request(SYNASTRY, body=body, idempotency_key=idempotency_key)

    def composite(
        self,
        *,
        subject_a: Subject,
        subject_b: Subject,
        method: Literal["midpoint", "davison"] | None = None,
        house_system: HouseSystem | None = None,
        interpretations: InterpretationLevel | None = None,
        language: InterpretationLanguage | None = None,
        sensitivity: SensitivityOption | Mapping[str, Any] | None = None,
        idempotency_key: str | None = None,
    ) -> InterpretedCompositeChart:
        """``POST /api/v3/western/composite``: midpoint composite or Davison chart.
        ``sensitivity={"uncertainty_minutes": N}`` (0 to 720) adds the natal inputs'
        birth-time sensitivity (+1 credit)."""
        body = validate_request(
            CompositeRequest,
            {
                "interpretations": interpretations,
                "language": language,
                "sensitivity": sensitivity,
                "subject_a": subject_a,
                "subject_b": subject_b,
                "method": method,
                "house_system": house_system,
            },
        )
        return self._client.request(COMPOSITE, body=body, idempotency_key=idempotency_key)

    def returns(
        self,
        *,
        subject: Subject,
        kind: Literal["solar", "lunar"],
        year: int | None = None,
        after: dt.datetime | str | None = None,
        latitude: float | None = None,
        longitude: float | None = None,
        timezone: str | None = None,
        house_system: HouseSystem | None = None,
        interpretations: InterpretationLevel | None = None,
        language: InterpretationLanguage | None = None,
        sensitivity: SensitivityOption | Mapping[str, Any] | None = None,
        idempotency_key: str | None = None,
    ) -> InterpretedReturnChart:
        """``POST /api/v3/western/returns``: solar return for ``year`` or lunar return ``after``.
        ``sensitivity={"uncertainty_minutes": N}`` (0 to 720) adds the natal inputs'
        birth-time sensitivity (+1 credit)."""
        body = validate_request(
            ReturnsRequest,
            {
                "interpretations": interpretations,
                "language": language,
                "sensitivity": sensitivity,
                "subject": subject,
                "kind": kind,
                "year": year,
                "after": after,
                "latitude": latitude,
                "longitude": longitude,
                "timezone": timezone,
                "house_system": house_system,
            },
        )
        return self._client.request(RETURNS, body=body, idempotency_key=idempotency_key)

    def progressions(
        self,
        *,
        subject: Subject,
        target_date: dt.datetime | str,
        method: Literal["secondary", "solar_arc"] | None = None,
        mc_method: Literal["naibod", "solar_arc"] | None = None,
        house_system: HouseSystem | None = None,
        orb_deg: float | None = None,
        interpretations: InterpretationLevel | None = None,
        language: InterpretationLanguage | None = None,
        sensitivity: SensitivityOption | Mapping[str, Any] | None = None,
        idempotency_key: str | None = None,
    ) -> InterpretedProgressionsResult:
        """``POST /api/v3/western/progressions``: secondary progressions or solar-arc directions.
        ``sensitivity={"uncertainty_minutes": N}`` (0 to 720) adds the natal inputs'
        birth-time sensitivity (+1 credit)."""
        body = validate_request(
            ProgressionsRequest,
            {
                "interpretations": interpretations,
                "language": language,
                "sensitivity": sensitivity,
                "subject": subject,
                "target_date": target_date,
                "method": method,
                "mc_method": mc_method,
                "house_system": house_system,
                "orb_deg": orb_deg,
            },
        )
        return self._client.request(PROGRESSIONS, body=body, idempotency_key=idempotency_key)

    def transits(
        self,
        *,
        subject: Subject,
        start: dt.datetime | str,
        end: dt.datetime | str,
        transiting_bodies: Sequence[Body] | None = None,
        aspects: Sequence[AspectName] | None = None,
        include_ingresses: bool | None = None,
        include_stations: bool | None = None,
        interpretations: InterpretationLevel | None = None,
        language: InterpretationLanguage | None = None,
        sensitivity: SensitivityOption | Mapping[str, Any] | None = None,
        idempotency_key: str | None = None,
    ) -> InterpretedTransitReport:
        """``POST /api/v3/western/transits``: exact aspects, ingresses, stations (<= 366 days).
        ``sensitivity={"uncertainty_minutes": N}`` (0 to 720) adds the natal inputs'
        birth-time sensitivity (+1 credit)."""
        body = validate_request(
            TransitsRequest,
            {
                "interpretations": interpretations,
                "language": language,
                "sensitivity": sensitivity,
                "subject": subject,
                "start": start,
                "end": end,
                "transiting_bodies": transiting_bodies,
                "aspects": aspects,
                "include_ingresses": include_ingresses,
                "include_stations": include_stations,
            },
        )
        return self._client.request(TRANSITS, body=body, idempotency_key=idempotency_key)

    def natal_wheel(
        self,
        *,
        subject: Subject,
        house_system: HouseSystem | None = None,
        bodies: Sequence[Body] | None = None,
        aspects: Sequence[AspectName] | None = None,
        orbs: Mapping[AspectName, float] | None = None,
        include_minor: bool | None = None,
        format: PictureFormat | None = None,
        size_px: int | None = None,
        theme: Theme | None = None,
        colors: Colors | None = None,
        language: Language | None = None,
        idempotency_key: str | None = None,
    ) -> ChartImage:
        """``POST /api/v3/western/natal/wheel``: the natal wheel picture (SVG or PNG)."""
        body = validate_request(
            NatalWheelRequest,
            {
                "subject": subject,
                "house_system": house_system,
                "bodies": bodies,
                "aspects": aspects,
                "orbs": orbs,
                "include_minor": include_minor,
                **picture_fields(format, size_px, theme, colors, language),
            },
        )
        return self._client.request_image(NATAL_WHEEL, body=body, idempotency_key=idempotency_key)

    def synastry_wheel(
        self,
        *,
        subject_a: Subject,
        subject_b: Subject,
        house_system: HouseSystem | None = None,
        include_minor: bool | None = None,
        format: PictureFormat | None = None,
        size_px: int | None = None,
        theme: Theme | None = None,
        colors: Colors | None = None,
        language: Language | None = None,
        idempotency_key: str | None = None,
    ) -> ChartImage:
        """``POST /api/v3/western/synastry/wheel``: A inside, B outside, inter-aspects."""
        body = validate_request(
            SynastryWheelRequest,
            {
                "subject_a": subject_a,
                "subject_b": subject_b,
                "house_system": house_system,
                "include_minor": include_minor,
                **picture_fields(format, size_px, theme, colors, language),
            },
        )
        return self._client.request_image(
            SYNASTRY_WHEEL, body=body, idempotency_key=idempotency_key
        )

    def transits_wheel(
        self,
        *,
        subject: Subject,
        at: dt.datetime | str,
        house_system: HouseSystem | None = None,
        transiting_bodies: Sequence[Body] | None = None,
        aspects: Sequence[AspectName] | None = None,
        format: PictureFormat | None = None,
        size_px: int | None = None,
        theme: Theme | None = None,
        colors: Colors | None = None,
        language: Language | None = None,
        idempotency_key: str | None = None,
    ) -> ChartImage:
        """``POST /api/v3/western/transits/wheel``: natal inside, the sky at ``at`` outside."""
        body = validate_request(
            TransitsWheelRequest,
            {
                "subject": subject,
                "at": at,
                "house_system": house_system,
                "transiting_bodies": transiting_bodies,
                "aspects": aspects,
                **picture_fields(format, size_px, theme, colors, language),
            },
        )
        return self._client.request_image(
            TRANSITS_WHEEL, body=body, idempotency_key=idempotency_key
        )

    def astrocartography(
        self,
        *,
        subject: Subject,
        bodies: Sequence[Body] | None = None,
        zodiacal: bool | None = None,
        parans: bool | None = None,
        local_space: bool | None = None,
        step_deg: float | None = None,
        paran_orb_deg: float | None = None,
        interpretations: InterpretationLevel | None = None,
        language: InterpretationLanguage | None = None,
        idempotency_key: str | None = None,
    ) -> InterpretedAstrocartography:
        """``POST /api/v3/western/astrocartography``: each body's MC, IC, ASC and DSC lines at
        birth (in mundo; ``zodiacal=True`` for the ecliptic degree), points every ``step_deg``
        of latitude (0.1 to 2); ``parans`` and ``local_space`` add those."""
        body = validate_request(
            AstrocartographyRequest,
            {
                "interpretations": interpretations,
                "language": language,
                "subject": subject,
                "bodies": bodies,
                "zodiacal": zodiacal,
                "parans": parans,
                "local_space": local_space,
                "step_deg": step_deg,
                "paran_orb_deg": paran_orb_deg,
            },
        )
        return self._client.request(ASTROCARTOGRAPHY, body=body, idempotency_key=idempotency_key)

    def astrocartography_map(
        self,
        *,
        subject: Subject,
        bodies: Sequence[Body] | None = None,
        zodiacal: bool | None = None,
        step_deg: float | None = None,
        cities: Sequence[int | MapCity | Mapping[str, Any]] | None = None,
        format: PictureFormat | None = None,
        size_px: int | None = None,
        theme: Theme | None = None,
        language: Language | None = None,
        idempotency_key: str | None = None,
    ) -> ChartImage:
        """``POST /api/v3/western/astrocartography/map``: the lines on a world map (SVG or PNG,
        default 1600 px), the birth place marked, up to 20 ``cities`` (place ids or
        ``{name, latitude, longitude}``)."""
        body = validate_request(
            AstrocartographyMapRequest,
            {
                "subject": subject,
                "bodies": bodies,
                "zodiacal": zodiacal,
                "step_deg": step_deg,
                "cities": cities,
                **picture_fields(format, size_px, theme, None, language),
            },
        )
        return self._client.request_image(
            ASTROCARTOGRAPHY_MAP, body=body, idempotency_key=idempotency_key
        )

    def relocation(
        self,
        *,
        subject: Subject,
        latitude: float | None = None,
        longitude: float | None = None,
        place: int | None = None,
        house_system: HouseSystem | None = None,
        bodies: Sequence[Body] | None = None,
        line_bodies: Sequence[Body] | None = None,
        line_orb_km: float | None = None,
        interpretations: InterpretationLevel | None = None,
        language: InterpretationLanguage | None = None,
        idempotency_key: str | None = None,
    ) -> InterpretedRelocatedChart:
        """``POST /api/v3/western/relocation``: the natal chart cast at another place (``latitude``
        and ``longitude``, or a ``place`` id) at the same instant, with ``relocation``: the
        angles' shift, the bodies that changed house and the lines within ``line_orb_km``."""
        body = validate_request(
            RelocationRequest,
            {
                "interpretations": interpretations,
                "language": language,
                "subject": subject,
                "latitude": latitude,
                "longitude": longitude,
                "place": place,
                "house_system": house_system,
                "bodies": bodies,
                "line_bodies": line_bodies,
                "line_orb_km": line_orb_km,
            },
        )
        return self._client.request(RELOCATION, body=body, idempotency_key=idempotency_key)

    def profections(
        self,
        *,
        subject: Subject,
        on_date: dt.date | str,
        interpretations: InterpretationLevel | None = None,
        language: InterpretationLanguage | None = None,
        sensitivity: SensitivityOption | Mapping[str, Any] | None = None,
        idempotency_key: str | None = None,
    ) -> InterpretedProfections:
        """``POST /api/v3/western/profections``: the age, profected sign and whole-sign house,
        lord of the year and twelve months of the year holding ``on_date``. ``interpretations``
        reads the lord of the year (tier pro); ``sensitivity`` (+1 credit) the ascendant's
        sign."""
        body = validate_request(
            ProfectionsRequest,
            {
                "interpretations": interpretations,
                "language": language,
                "sensitivity": sensitivity,
                "subject": subject,
                "on_date": on_date,
            },
        )
        return self._client.request(PROFECTIONS, body=body, idempotency_key=idempotency_key)

    def zodiacal_releasing(
        self,
        *,
        subject: Subject,
        lot: ReleasingLot | None = None,
        levels: int | None = None,
        start: dt.date | str | None = None,
        end: dt.date | str | None = None,
        year_length_days: float | None = None,
        interpretations: InterpretationLevel | None = None,
        language: InterpretationLanguage | None = None,
        sensitivity: SensitivityOption | Mapping[str, Any] | None = None,
        idempotency_key: str | None = None,
    ) -> InterpretedZodiacalReleasing:
        """``POST /api/v3/western/zodiacal-releasing``: releasing from Spirit (default) or
        Fortune to ``levels`` 1-4 (default 2), with the loosing of the bond and the peaks,
        clipped to ``start``..``end`` (at level 4 at most 3660 days). ``year_length_days`` 360
        (default) or 365.25. ``interpretations`` reads the periods at the window's start (tier
        pro); ``sensitivity`` (+1 credit) the sect and the lots' signs."""
        body = validate_request(
            ZodiacalReleasingRequest,
            {
                "interpretations": interpretations,
                "language": language,
                "sensitivity": sensitivity,
                "subject": subject,
                "lot": lot,
                "levels": levels,
                "start": start,
                "end": end,
                "year_length_days": year_length_days,
            },
        )
        return self._client.request(ZODIACAL_RELEASING, body=body, idempotency_key=idempotency_key)

    def zodiacal_releasing_chart(
        self,
        *,
        subject: Subject,
        lot: ReleasingLot | None = None,
        levels: int | None = None,
        start: dt.date | str | None = None,
        end: dt.date | str | None = None,
        year_length_days: float | None = None,
        format: PictureFormat | None = None,
        size_px: int | None = None,
        theme: Theme | None = None,
        colors: Colors | None = None,
        language: Language | None = None,
        idempotency_key: str | None = None,
    ) -> ChartImage:
        """``POST /api/v3/western/zodiacal-releasing/chart``: the releasing timeline picture
        (SVG or PNG), one band per level."""
        body = validate_request(
            ZodiacalReleasingChartRequest,
            {
                "subject": subject,
                "lot": lot,
                "levels": levels,
                "start": start,
                "end": end,
                "year_length_days": year_length_days,
                **picture_fields(format, size_px, theme, colors, language),
            },
        )
        return self._client.request_image(
            ZODIACAL_RELEASING_CHART, body=body, idempotency_key=idempotency_key
        )

    def firdaria(
        self,
        *,
        subject: Subject,
        on_date: dt.date | str | None = None,
        node_placement: Literal["after_mars", "after_mercury"] | None = None,
        year_length_days: float | None = None,
        sensitivity: SensitivityOption | Mapping[str, Any] | None = None,
        idempotency_key: str | None = None,
    ) -> SensitiveFirdaria:
        """``POST /api/v3/western/firdaria``: the firdaria (day or night sequence by sect, seven
        Chaldean sub-periods each) and, with ``on_date``, the ``current`` ones.
        ``node_placement`` after_mars (default) or after_mercury; ``year_length_days`` 365.25
        (default), 365.2422 or 360; ``sensitivity`` (+1 credit) the sect."""
        body = validate_request(
            FirdariaRequest,
            {
                "sensitivity": sensitivity,
                "subject": subject,
                "on_date": on_date,
                "node_placement": node_placement,
                "year_length_days": year_length_days,
            },
        )
        return self._client.request(FIRDARIA, body=body, idempotency_key=idempotency_key)
