"""The OpenAPI document's examples, from one set of fixtures: three births (Bangkok, London,
Delhi) and the requests built from them.

Every request body the API takes has an example here (:data:`REQUEST_EXAMPLES`, by operation
id), and every query parameter a realistic value (:data:`PARAMETER_EXAMPLES`): Swagger UI's
"Try it out" starts from them instead of values made up from the schema (latitude -90,
longitude -180, today's date, a time with seconds). Response examples are the answers these
requests got from the server itself, kept in ``data/openapi_response_examples.json`` (written
by ``scripts/openapi_examples.py``; ``tests/test_docs_examples.py`` runs every request example
against the app and checks each answer, and each stored example, against the response schema).

The births are real places with their IANA zones; the dates are ordinary days (no DST edge),
the times whole minutes.
"""

from __future__ import annotations

import copy
import json
import re
from functools import cache
from importlib import resources
from typing import Any, Final

#: Births the examples use: a local date and time, coordinates (degrees, north and east
#: positive) and the IANA zone of the place.
BANGKOK: Final = {
    "date": "1990-04-13",
    "time": "08:30",
    "latitude": 13.7563,
    "longitude": 100.5018,
    "timezone": "Asia/Bangkok",
}
LONDON: Final = {
    "date": "1985-11-02",
    "time": "14:45",
    "latitude": 51.5074,
    "longitude": -0.1278,
    "timezone": "Europe/London",
}
DELHI: Final = {
    "date": "1992-07-21",
    "time": "06:10",
    "latitude": 28.6139,
    "longitude": 77.209,
    "timezone": "Asia/Kolkata",
}

#: The window examples ask about (a quarter a few months ahead of the births; fixed, so the
#: document does not change from day to day).
START: Final = "2027-01-01"
END: Final = "2027-01-31"
#: A public https address only in form: examples never name a real receiver.
WEBHOOK_URL: Final = "https://hooks.example.com/astro"
BRANDING: Final = {
    "brand_name": "Siam Stars",
    "primary_color": "#6A3FB5",
    "contact_email": "hello@example.com",
    "contact_url": "https://example.com/contact",
}


def _uranian(birth: dict[str, Any], place: str) -> dict[str, Any]:
    return {
        "birth_date": birth["date"],
        "birth_time": birth["time"],
        "birth_lat": birth["latitude"],
        "birth_lon": birth["longitude"],
        "birth_place": place,
        "timezone": birth["timezone"],
    }


def _request_examples() -> dict[str, dict[str, Any]]:
    bangkok, london, delhi = dict(BANGKOK), dict(LONDON), dict(DELHI)
    pair = {"subject_a": london, "subject_b": bangkok}
    wheel = {"subject": london, "format": "svg", "size_px": 800}
    return {
        # Western
        "westernNatal": {"subject": london, "house_system": "P"},
        "westernNatalWheel": wheel,
        "westernRectificationWindow": {
            "date": "1990-06-15",
            "latitude": 51.5074,
            "longitude": -0.1278,
            "timezone": "Europe/London",
            "start_time": "06:00",
            "end_time": "10:00",
        },
        "westernSynastry": pair,
        "westernSynastryWheel": {**pair, "format": "svg", "size_px": 800},
        "westernComposite": pair,
        "westernTransits": {
            "subject": london,
            "start": f"{START}T00:00:00Z",
            "end": f"{END}T00:00:00Z",
        },
        "westernTransitsWheel": {**wheel, "at": f"{START}T12:00:00Z"},
        "westernProgressions": {"subject": london, "target_date": "2027-11-02T12:00:00Z"},
        "westernSkyEvents": {
            "start": START,
            "end": END,
            "kinds": ["eclipse", "lunation", "ingress", "station", "void_of_course"],
            "timezone": "Asia/Bangkok",
            "void_of_course_rule": "traditional",
        },
        "westernForecast": {"subject": london, "start": START, "end": END},
        "createCalendarFeed": {
            "kind": "sky_events",
            "name": "Moon and eclipses",
            "kinds": ["eclipse", "lunation"],
            "timezone": "Asia/Bangkok",
            "language": "en",
        },
        "westernReturns": {"subject": london, "kind": "solar", "year": 2027},
        "westernAstrocartography": {"subject": london, "bodies": ["sun", "moon", "venus"]},
        "westernAstrocartographyMap": {
            "subject": london,
            "cities": [1609350, {"name": "Home", "latitude": 48.8566, "longitude": 2.3522}],
            "format": "svg",
        },
        "westernRelocation": {"subject": london, "place": 1609350},
        "westernProfections": {"subject": london, "on_date": START},
        "westernZodiacalReleasing": {
            "subject": london,
            "lot": "spirit",
            "levels": 2,
            "start": START,
            "end": "2036-12-31",
        },
        "westernZodiacalReleasingChart": {
            "subject": london,
            "levels": 3,
            "start": "2020-01-01",
            "end": "2040-12-31",
            "format": "svg",
        },
        "westernFirdaria": {"subject": london, "on_date": START},
        # Vedic
        "vedicChart": {"subject": delhi, "divisional_charts": ["D9"]},
        "vedicChartDiagram": {"subject": delhi, "style": "north", "format": "svg"},
        "vedicDasha": {"subject": delhi, "depth": 2},
        "vedicKundliMatching": {"boy": delhi, "girl": bangkok},
        "vedicKundliMatchingBatch": {
            "records": [
                {"id": "pair-1", "boy": delhi, "girl": bangkok},
                {"id": "pair-2", "boy": london, "girl": delhi},
            ]
        },
        "vedicPanchanga": {
            "date": START,
            "time": "06:30",
            "latitude": DELHI["latitude"],
            "longitude": DELHI["longitude"],
            "timezone": DELHI["timezone"],
        },
        "vedicRemedies": {"subject": delhi},
        # Thai
        "thaiCalendar": {"date": "2027-04-13"},
        "thaiAuspiciousTimes": {
            "purpose": "business_opening",
            "start_date": START,
            "end_date": END,
            "birth_date": BANGKOK["date"],
            "birth_time": BANGKOK["time"],
        },
        "thaiLunar": {
            "moment": "2027-04-13T09:00:00+07:00",
            "latitude": BANGKOK["latitude"],
            "longitude": BANGKOK["longitude"],
            "timezone": BANGKOK["timezone"],
        },
        "thaiFestivals": {"year": 2027},
        "thaiWheel": {"subject": bangkok},
        "thaiWheelDiagram": {"subject": bangkok, "format": "svg", "language": "th"},
        # Chinese & Korean
        "chineseBazi": {"subject": bangkok, "gender": "female"},
        "chineseCalendar": {"date": "2027-02-06"},
        "chineseQimen": {"subject": bangkok},
        "koreanSaju": {"subject": london, "gender": "male"},
        # Human Design
        "humanDesignChart": {"subject": london},
        "humanDesignComposite": pair,
        "humanDesignTransits": {"subject": london, "moment": f"{START}T12:00:00Z"},
        "humanDesignBodygraph": {"subject": london, "format": "svg", "size_px": 800},
        "chineseZiwei": {"subject": bangkok, "gender": "female", "on_date": START},
        "chineseZiweiChart": {
            "subject": bangkok,
            "gender": "female",
            "on_date": START,
            "language": "zh",
            "format": "svg",
        },
        # Reports
        "reportsNatalPdf": {
            "name": "Emma Clarke",
            "birth_subject": london,
            "branding": BRANDING,
            "async": False,
        },
        "reportsHrScreening": {
            "candidate": {
                "name": "Somchai Rattanakul",
                "birth_date": BANGKOK["date"],
                "birth_time": BANGKOK["time"],
                "latitude": BANGKOK["latitude"],
                "longitude": BANGKOK["longitude"],
                "timezone": BANGKOK["timezone"],
            },
            "company": {"name": "Siam Stars Co., Ltd.", "founded_date": "2012-06-01"},
            "position": "Head of Marketing",
            "as_of": START,
        },
        "createWebhookEndpoint": {
            "url": WEBHOOK_URL,
            "event_types": ["report.succeeded", "report.failed"],
        },
        "updateWebhookEndpoint": {"active": False},
        # Tarot & Numerology
        "tarotDraw": {"spread": "three_card", "seed": "emma-2027-01-01"},
        "numerologyProfile": {"name": "Emma Clarke", "birth_date": LONDON["date"]},
        # Uranian
        "uranianChart": _uranian(london, "London, United Kingdom"),
        "uranianDial": {**_uranian(london, "London, United Kingdom"), "format": "svg"},
        "uranianMidpoints": _uranian(london, "London, United Kingdom"),
        "uranianPlanetaryPictures": _uranian(london, "London, United Kingdom"),
        # Developer workflow
        "createEstimate": {"operation": "western.natal", "params": {"subject": london}},
        "createApiKey": {"name": "reporting service", "scopes": ["western", "vedic"]},
        "rotateApiKey": {"grace_s": 3600},
        # Visual readings (the upload's id comes from the upload grant)
        "createVisualUploadGrant": {
            "kind": "palm",
            "content_type": "image/jpeg",
            "content_length": 482133,
            "sha256": "5d2f3b9c0a7e41d8b6c9e2f10a4b7c3d8e9f0a1b2c3d4e5f60718293a4b5c6d7",
        },
        "createVisualReading": {"upload_id": "upl_3f9a1c0b2d4e6f8091a2b3c4", "hand": "right"},
        "createCustomerVisualUploadGrant": {
            "kind": "face",
            "content_type": "image/png",
            "content_length": 391204,
            "sha256": "a1b2c3d4e5f60718293a4b5c6d7e8f90112233445566778899aabbccddeeff00",
        },
        "createCustomerVisualReading": {"upload_id": "upl_7c1e2a3b4d5f60718293a4b5"},
        # Customer reports, delivery, visual readings, team
        "createCustomerNatalReport": {
            "name": "Emma Clarke",
            "birth_subject": london,
            "async": False,
        },
        "createReportBrandProfile": {"name": "Siam Stars", "branding": BRANDING},
        "updateReportBrandProfile": {"name": "Siam Stars (2027)"},
        "createHoroscopeFeedSubscription": {
            "destination_url": WEBHOOK_URL,
            "sign": "aries",
            "language": "th",
            "timezone": "Asia/Bangkok",
            "delivery_time": "07:00",
        },
        "updateHoroscopeFeedSubscription": {"active": False},
        "createVisualReadingDelivery": {
            "destination": WEBHOOK_URL,
            "event_types": ["visual_reading.succeeded", "visual_reading.failed"],
        },
        "updateVisualReadingDelivery": {"active": False},
        "inviteMyTeamMember": {"email": "arjun@example.com", "role": "member"},
        "changeMyTeamMemberRole": {"role": "admin"},
        # Cultural Intelligence
        "culturalCalendar": {"market": "TH", "start": START, "end": END},
        "culturalBestDates": {
            "markets": ["TH", "SG"],
            "activity": "product_launch",
            "start": START,
            "end": "2027-03-31",
            "count": 3,
        },
        "createCampaign": {
            "name": "New Year 2027",
            "start": START,
            "end": END,
            "signs": ["aries", "taurus"],
            "languages": ["en", "th"],
            "markets": ["TH"],
            "delivery": {"time": "07:00", "timezone": "Asia/Bangkok"},
        },
        "updateCampaign": {"active": False},
        # Enterprise workflows
        "createProfile": {
            "name": "Priya Sharma",
            "birth": delhi,
            "external_id": "crm-10482",
            "tags": ["vip"],
        },
        "updateProfile": {"tags": ["vip", "2027"]},
        "inviteTeamMember": {"email": "priya@example.com", "role": "member"},
        "changeTeamMemberRole": {"role": "admin"},
        # Developer workflow for a signed-in customer (the portal's Developers area)
        "createDeveloperApiKey": {
            "name": "nightly reports",
            "environment": "live",
            "scopes": ["reports", "western"],
        },
        "rotateDeveloperApiKey": {"grace_s": 86400},
        "createDeveloperWebhookEndpoint": {
            "url": WEBHOOK_URL,
            "event_types": ["report.succeeded", "report.failed"],
        },
        "updateDeveloperWebhookEndpoint": {"event_types": ["report.failed"]},
        # Authentication
        "login": {"email": "emma@example.com", "password": "correct horse battery staple"},
        "updateMyPreferences": {"language": "th"},
        "acceptInvitation": {
            "token": "inv_tok_Q2x8mVn4pLr7sT1uWy3zA5bC6dE9fG0hJ2kL4mN6pQ8",
            "password": "correct horse battery staple",
        },
    }


#: Request bodies by operation id (deep copies: callers may change theirs).
REQUEST_EXAMPLES: Final[dict[str, dict[str, Any]]] = _request_examples()

#: Query parameter values by name (the same name means the same thing on every route).
PARAMETER_EXAMPLES: Final[dict[str, Any]] = {
    "date": START,
    "start": START,
    "end": END,
    "from": f"{START}T00:00:00Z",
    "to": f"{END}T00:00:00Z",
    "sign": "aries",
    "language": "en",
    "limit": 20,
    "market": "TH",
    "latitude": BANGKOK["latitude"],
    "longitude": BANGKOK["longitude"],
    "timezone": BANGKOK["timezone"],
    "q": "bangkok",
    "country": "TH",
}


_REQUEST_ID: Final = "req_4f1c2a9be07d3c55a1e0b7d2"

#: Error answers by status (the one error body, ``JsonError``), as the server words them.
ERROR_EXAMPLES: Final[dict[str, dict[str, Any]]] = {
    "400": {
        "error": "validation_error",
        "message": "subject.latitude: Input should be less than or equal to 90",
        "code": "validation_error",
        "request_id": _REQUEST_ID,
        "details": [
            {"field": "subject.latitude", "message": "Input should be less than or equal to 90"}
        ],
    },
    "401": {"error": "unauthorized", "message": "Missing or invalid API key."},
    "402": {
        "error": "payment_required",
        "message": "This call costs 1 credit; the balance is 0.",
        "code": "402",
    },
    "403": {"error": "forbidden", "message": "This key lacks the 'western' scope."},
    "404": {"error": "not_found", "message": "Job not found."},
    "409": {
        "error": "idempotency_conflict",
        "message": "This Idempotency-Key was used with a different request body.",
    },
    "410": {"error": "gone", "message": "The link has expired."},
    "413": {"error": "payload_too_large", "message": "Request body too large."},
    "415": {
        "error": "unsupported_media_type",
        "message": "Send the body as JSON with Content-Type: application/json.",
    },
    "416": {"error": "range_not_satisfiable", "message": "The range is outside the file."},
    "422": {"error": "unprocessable_entity", "message": "The photo shows no hand."},
    "429": {"error": "rate_limited", "message": "Rate limit exceeded; retry after 12 s."},
    "500": {
        "error": "internal_server_error",
        "message": "The server could not complete the request.",
        "code": "internal",
    },
    "503": {"error": "service_unavailable", "message": "The job queue is unavailable; retry."},
}
for _body in ERROR_EXAMPLES.values():
    _body.setdefault("code", None)
    _body.setdefault("request_id", _REQUEST_ID)


def request_example(operation_id: str) -> dict[str, Any] | None:
    example = REQUEST_EXAMPLES.get(operation_id)
    return copy.deepcopy(example) if example is not None else None


@cache
def response_examples() -> dict[str, dict[str, Any]]:
    """Stored answers by operation id, then status code (text)."""
    text = (
        resources.files("astro_server")
        .joinpath("data/openapi_response_examples.json")
        .read_text(encoding="utf-8")
    )
    loaded: dict[str, dict[str, Any]] = json.loads(text)
    return loaded


def shortened(value: Any, *, items: int = 3) -> Any:
    """A stored answer made short enough to read in the docs: every list cut to its first
    ``items`` entries (answers have no minimum list length above that), texts kept whole."""
    if isinstance(value, dict):
        return {key: shortened(item, items=items) for key, item in value.items()}
    if isinstance(value, list):
        return [shortened(item, items=items) for item in value[:items]]
    return value


# --- the document's fix-ups -------------------------------------------------------------------


def guide() -> str:
    """``info.description``: the getting-started text (``data/openapi_guide.md``)."""
    return (
        resources.files("astro_server")
        .joinpath("data/openapi_guide.md")
        .read_text(encoding="utf-8")
        .strip()
    )


def billable_operation(view: Any) -> str | None:
    """The price table's name for a route's ``@billable`` operation (the decorator's
    :class:`~astro_server.platform.billing.billable.Billed` attribute)."""
    from astro_server.platform.billing.billable import billed

    found = billed(view)
    return found.operation if found is not None else None


def billing_note(name: str) -> tuple[str, dict[str, Any]]:
    """The visible note on a billed operation (Markdown) and its ``x-astro-billing`` extension:
    price and tier from the price table, priced variants (interpretations), a test key."""
    from astro_server.platform.billing.pricing import OPERATIONS

    op = OPERATIONS[name]
    unit = f" per item of `{op.per_unit}`" if op.per_unit else " per call"
    credits = f"{op.credits} credit{'s' if op.credits != 1 else ''}{unit}"
    lines = [f"**Billed:** {credits}, `{name}`, tier {op.tier} or above."]
    variants = {
        key: row for key, row in OPERATIONS.items() if key.startswith(name + ".") and key != name
    }
    for key, row in sorted(variants.items()):
        lines.append(f"`{key}`: {row.credits} credits, tier {row.tier} or above.")
    lines.append(
        "Try it with a **test key** (`ak_test_...`): the call runs for real and debits nothing "
        "(`X-Credits-Charged: 0`, `X-Credits-Price` says what a live key pays). "
        "`POST /api/v3/estimates` prices a request for free."
    )
    extension: dict[str, Any] = {"operation": name, "credits": op.credits, "tier": op.tier}
    if op.per_unit:
        extension["per_unit"] = op.per_unit
    if variants:
        extension["variants"] = {
            key: {"credits": row.credits, "tier": row.tier} for key, row in sorted(variants.items())
        }
    return "\n\n".join(lines), extension


def _fits(value: Any, schema: dict[str, Any]) -> bool:
    """Whether an example value suits a parameter's schema (its enum, JSON type and date or
    date-time format)."""
    options = schema.get("anyOf") or [schema]
    kinds: dict[str, type | tuple[type, ...]] = {
        "string": str, "integer": int, "number": (int, float), "boolean": bool,
    }  # fmt: skip
    for option in options:
        if "enum" in option and value not in option["enum"]:
            continue
        kind = kinds.get(option.get("type", ""))
        if kind is None or not isinstance(value, kind):
            continue
        form = option.get("format")
        if form == "date" and not _DATE.fullmatch(str(value)):
            continue
        if form == "date-time" and "T" not in str(value):
            continue
        return True
    return False


_DATE: Final = re.compile(r"\d{4}-\d\d-\d\d")


def document_examples(document: dict[str, Any]) -> None:
    """Add the getting-started text, a request example on every JSON request body, an example
    value on known query parameters and the stored answer on every documented response.
    Only additions: nothing the document already says is changed."""
    document["info"].setdefault("description", guide())
    stored = response_examples()
    for item in document["paths"].values():
        for operation in item.values():
            operation_id = operation.get("operationId", "")
            body = operation.get("requestBody", {}).get("content", {}).get("application/json")
            example = request_example(operation_id)
            if body is not None and example is not None:
                body.setdefault("example", example)
            for parameter in operation.get("parameters", ()):
                value = PARAMETER_EXAMPLES.get(parameter["name"])
                if (
                    parameter.get("in") == "query"
                    and value is not None
                    and _fits(value, parameter.get("schema", {}))
                ):
                    parameter.setdefault("example", value)
            for status, response in operation.get("responses", {}).items():
                answer = stored.get(operation_id, {}).get(str(status))
                if answer is None and int(status) >= 400:
                    answer = copy.deepcopy(ERROR_EXAMPLES.get(str(status)))
                content = response.get("content", {}).get("application/json")
                if answer is not None and content is not None:
                    content.setdefault("example", answer)
