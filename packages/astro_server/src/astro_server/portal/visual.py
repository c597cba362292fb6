"""Portal pages for visual readings: the list and the browser upload, one reading (its job
followed, sections, measured features, overlay, photo deletion), the delivery subscriptions,
and the usage and cost analytics as server-drawn SVG charts.

Everything goes through the public session routes (``/v1/visual-readings``,
``/v1/visual-reading-deliveries``) as the rest of the portal does. The upload is JavaScript-only
(``static/portal.js``): the browser computes the photo's SHA-256 (SubtleCrypto, which needs a
secure context: https, or http on localhost/127.0.0.1), asks this server for the grant, PUTs the
bytes to the signed URL itself, then asks here to complete and to queue the reading. The three
portal steps are POSTs carrying the page's CSRF token and answer JSON. Without JavaScript the
page says so; there is no server-side fallback upload.
"""

from __future__ import annotations

import asyncio
import json
from datetime import date, timedelta
from typing import Any, Final

from quart import Response, request

from astro_server.portal import (
    NotFoundPage,
    _go,
    _local_path,
    api,
    api_found,
    blueprint,
    date_window,
    page,
    page_language,
    signed_in,
    t,
)
from astro_server.portal import charts as chart_layout
from astro_server.portal.client import ApiResult, call

READINGS: Final = "/v1/visual-readings"
DELIVERIES: Final = "/v1/visual-reading-deliveries"
EVENT_TYPES: Final = (
    "visual_reading.succeeded", "visual_reading.failed",
    "visual_upload.validated", "visual_upload.rejected",
)  # fmt: skip
PRODUCTS: Final = ("palm_reading", "face_reading")
#: The key of a feature's reading (its class) in the measured features: the first one holding a
#: code (a string or a yes/no) wins, else the first present (``index_to_ring``'s ``value`` is a
#: ratio, so ``longer`` is its class).
VALUE_KEYS: Final = ("value", "dominant", "class", "shape", "longer", "found")
#: A line's ``found: false`` is shown as this code (the writer's "missing" text).
NOT_FOUND: Final = "missing"


# --- JSON steps of the browser upload -----------------------------------------------------------


def _json(result: ApiResult, extra: dict[str, Any] | None = None) -> Response:
    """The API's answer for the page's script (status and body as the API gave them)."""
    body = {**result.body, **(extra or {})}
    if result.status == 401:
        body = {"message": t("notice.expired"), "login": "/portal/login?notice=expired"}
    return Response(json.dumps(body), status=result.status, content_type="application/json")


def _int(value: str) -> int | str:
    return int(value) if value.isdigit() else value


@blueprint.post("/visual/uploads")
@signed_in
async def visual_grant() -> Response:
    """Step 1: the upload grant for the photo the browser described (size, digest, type)."""
    form = await request.form
    body = {
        "content_length": _int(form.get("content_length", "")),
        "sha256": form.get("sha256", ""),
        "content_type": form.get("content_type", ""),
        "kind": form.get("kind", ""),
    }
    result = await call("POST", f"{READINGS}/uploads", json_body=body)
    if not result.ok:
        return _json(result)
    # The URL is signed for the host the in-process call named: the browser PUTs to this one.
    return _json(result, {"upload_url": _local_path(result.body["upload_url"])})


@blueprint.post("/visual/uploads/<upload_id>/complete")
@signed_in
async def visual_complete(upload_id: str) -> Response:
    """Step 3 (after the browser's PUT): validate the photo; a 422 carries every check."""
    return _json(await call("POST", f"{READINGS}/uploads/{upload_id}/complete"))


@blueprint.post("/visual/readings")
@signed_in
async def visual_create() -> Response:
    """Step 4: queue the reading; answers where the browser goes next."""
    form = await request.form
    body: dict[str, Any] = {
        "upload_id": form.get("upload_id", ""),
        "language": form.get("language", "en"),
    }
    if form.get("hand"):
        body["hand"] = form["hand"]
    result = await call("POST", READINGS, json_body=body)
    if not result.ok:
        return _json(result)
    return _json(result, {"page": f"/portal/visual/readings/{result.body['reading_id']}"})


# --- readings -----------------------------------------------------------------------------------


def _pending(reading: dict[str, Any]) -> bool:
    return reading["status"] in ("queued", "running")


@blueprint.get("/visual")
@signed_in
async def visual_list() -> Response:
    cursor = request.args.get("cursor") or None
    result = await api("GET", READINGS, query={"limit": 50, "cursor": cursor})
    readings = result.body.get("readings", [])
    return await page(
        "visual.html",
        readings=readings,
        next_cursor=result.body.get("next_cursor"),
        pending=any(_pending(r) for r in readings),
        available=result.ok,
        reason=result.message,
    )


def _feature_label(name: str) -> str:
    key = f"vfeature.{name}"
    label = t(key)
    return name.replace("_", " ") if label == key else label


def _scalars(prefix: str, values: dict[str, Any]) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for key, value in values.items():
        if key == "confidence":
            continue
        if isinstance(value, dict):
            out.extend(_scalars(f"{prefix}{key}.", value))
        else:
            out.append((f"{prefix}{key}", str(value)))
    return out


def value_code(value: str | bool) -> str:
    """The code of a feature's class: the API's string; a line's ``found: false`` is
    ``missing`` (``found: true`` never shows: the line's shape comes first)."""
    if isinstance(value, bool):
        return "found" if value else NOT_FOUND
    return str(value)


def value_label_key(name: str, code: str) -> str:
    """The messages key of a class code: ``vvalue.<feature>.<code>``, the feature being the
    group for grouped features (``lines.heart`` -> ``lines``), as the same code can read
    differently per feature (``balanced`` zones, ``balanced`` eyes)."""
    return f"vvalue.{name.split('.')[0]}.{code}"


def _shown(values: dict[str, Any]) -> tuple[str | None, bool]:
    """The key shown as a feature's class, and whether it holds a code (else a number)."""
    for key in VALUE_KEYS:
        if isinstance(values.get(key), str | bool):
            return key, True
    return next((k for k in VALUE_KEYS if k in values), None), False


def _feature_row(name: str, values: dict[str, Any]) -> dict[str, Any]:
    shown, is_code = _shown(values)
    confidence = values.get("confidence")
    value, code = "" if shown is None else str(values[shown]), None
    if shown is not None and is_code:
        raw = values[shown]
        key = value_label_key(name, value_code(raw))
        if t(key) != key:  # a code with no label yet is shown as it is
            value = t(key)
            code = f"{shown}: {str(raw).lower()}" if isinstance(raw, bool) else str(raw)
    return {
        "name": name,
        "label": " · ".join(_feature_label(part) for part in name.split(".")),
        "value": value,
        "code": code,
        "measures": sorted((k, v) for k, v in _scalars("", values) if k != shown),
        "confidence": None if confidence is None else round(float(confidence) * 100),
    }


def _members(features: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """Each feature (a group's members one by one) as ``(name, values)``."""
    out: list[tuple[str, dict[str, Any]]] = []
    for name, values in features.items():
        if not isinstance(values, dict):
            out.append((name, {"value": values}))
        elif values and all(isinstance(v, dict) for v in values.values()):
            out.extend((f"{name}.{sub}", inner) for sub, inner in values.items())
        else:
            out.append((name, values))
    return out


def value_label_keys(features: dict[str, Any]) -> set[str]:
    """The messages keys the reading page looks up for these features' class codes."""
    out: set[str] = set()
    for name, values in _members(features):
        shown, is_code = _shown(values)
        if shown is not None and is_code:
            out.add(value_label_key(name, value_code(values[shown])))
    return out


def feature_rows(features: dict[str, Any], order: list[str] | None = None) -> list[dict[str, Any]]:
    """The measured features as table rows: a feature's class (its label in the page's
    language, ``value``, with the API's ``code`` beside it), its measures and its confidence
    (0..1 shown as a percentage); groups (palm ``lines``, ``mounts``) one row per member. Rows
    follow ``order`` (the sections' features), the rest by name after them (the stored JSON
    keeps no order)."""
    rank = {name: i for i, name in enumerate(order or [])}
    rows = [_feature_row(name, values) for name, values in _members(features)]
    return sorted(rows, key=lambda row: (rank.get(row["name"], len(rank)), row["name"]))


async def _reading(reading_id: str) -> dict[str, Any]:
    result = await api("GET", f"{READINGS}/{reading_id}")
    if not result.ok:
        raise NotFoundPage()
    return result.body


@blueprint.get("/visual/readings/<reading_id>")
@signed_in
async def visual_detail(reading_id: str) -> Response:
    reading = await _reading(reading_id)
    body = reading.get("reading") or {}
    return await page(
        "visual_detail.html",
        reading=reading,
        pending=_pending(reading),
        overlay=_local_path(reading.get("overlay_url")),
        sections=body.get("sections", []),
        summary=body.get("summary", ""),
        features=feature_rows(
            body.get("features", {}), [s.get("feature", "") for s in body.get("sections", [])]
        ),
    )


@blueprint.post("/visual/readings/<reading_id>/delete-photo")
@signed_in
async def visual_delete_photo(reading_id: str) -> Response:
    await api_found("DELETE", f"{READINGS}/{reading_id}")
    return _go(f"/portal/visual/readings/{reading_id}", "photo_deleted")


# --- the dashboard's card -----------------------------------------------------------------------


async def dashboard_summary() -> dict[str, Any]:
    """The dashboard's visual-readings card: readings created in the last 30 days (one
    analytics call, its default window) and the newest reading (a one-item list), both asked
    at once. ``available`` is false when the server answers neither (no visual readings)."""
    usage, newest = await asyncio.gather(
        api("GET", f"{READINGS}/analytics"), api("GET", READINGS, query={"limit": 1})
    )
    latest = (newest.body.get("readings") or [None])[0] if newest.ok else None
    return {
        "available": usage.ok or newest.ok,
        "jobs": sum(r["jobs"] for r in usage.body.get("by_product", [])) if usage.ok else None,
        "latest": latest,
    }


# --- delivery subscriptions ---------------------------------------------------------------------


async def _deliveries_page(
    values: dict[str, Any], errors: dict[str, str], message: str = "", status: int = 200
) -> Response:
    listed = await api("GET", DELIVERIES)
    return await page(
        "visual_deliveries.html",
        status=status,
        subscriptions=listed.body.get("subscriptions", []),
        event_types=EVENT_TYPES,
        values=values,
        errors=errors,
        message=message,
    )


@blueprint.get("/visual/deliveries")
@signed_in
async def visual_deliveries() -> Response:
    return await _deliveries_page({"destination": "", "event_types": list(EVENT_TYPES[:2])}, {})


@blueprint.post("/visual/deliveries")
@signed_in
async def visual_delivery_create() -> Response:
    form = await request.form
    values = {
        "destination": form.get("destination", "").strip(),
        "event_types": [e for e in form.getlist("event_types") if e],
    }
    result = await api("POST", DELIVERIES, json_body=values)
    if not result.ok:
        errors = result.field_errors()
        if not values["event_types"]:
            errors.setdefault("event_types", t("vdelivery.need_event"))
        return await _deliveries_page(values, errors, result.message, 400)
    if result.body.get("signing_secret"):
        return await page(
            "secret.html",
            status=201,
            subscription=result.body["subscription"],
            secret=result.body["signing_secret"],
            previous_until=None,
            continue_url="/portal/visual/deliveries",
        )
    return _go("/portal/visual/deliveries", "delivery_created")


@blueprint.post("/visual/deliveries/<sub_id>/active")
@signed_in
async def visual_delivery_active(sub_id: str) -> Response:
    active = (await request.form).get("active") == "true"
    await api_found("PATCH", f"{DELIVERIES}/{sub_id}", json_body={"active": active})
    return _go("/portal/visual/deliveries", "delivery_resumed" if active else "delivery_paused")


@blueprint.post("/visual/deliveries/<sub_id>/delete")
@signed_in
async def visual_delivery_delete(sub_id: str) -> Response:
    await api_found("DELETE", f"{DELIVERIES}/{sub_id}")
    return _go("/portal/visual/deliveries", "delivery_deleted")


# --- usage and cost analytics -------------------------------------------------------------------


@blueprint.app_template_filter("money")
def money(micros: int) -> str:
    """Integer micros as the amount they are a millionth of, all six decimals kept (exact:
    ``13`` -> ``0.000013``, ``2500000`` -> ``2.500000``). No currency is configured
    (docs/decisions.md), so no currency name is added."""
    sign = "-" if micros < 0 else ""
    whole, fraction = divmod(abs(int(micros)), 1_000_000)
    return f"{sign}{whole:,}.{fraction:06d}"


def _api_window(start: str, end: str) -> dict[str, str] | None:
    """The API's ``[from, to)`` instants for inclusive dates; ``None`` if not dates."""
    try:
        first, last = date.fromisoformat(start), date.fromisoformat(end)
    except ValueError:
        return None
    return {
        "from": f"{first.isoformat()}T00:00:00Z",
        "to": f"{(last + timedelta(days=1)).isoformat()}T00:00:00Z",
    }


def _by(rows: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {row["product"]: row for row in rows}


@blueprint.get("/visual/analytics")
@signed_in
async def visual_analytics() -> Response:
    start, end = date_window()
    window = _api_window(start, end)
    errors: dict[str, str] = {}
    result = None
    if window is None:
        errors["from"] = t("vusage.bad_dates")
    else:
        result = await api("GET", f"{READINGS}/analytics", query={**window, "group_by": "day"})
        if not result.ok:
            errors = result.field_errors() or {"from": result.message}
    if result is None or not result.ok:
        return await page(
            "visual_analytics.html", status=400, start=start, end=end, errors=errors,
            charts=None, totals=[], days=[], products=PRODUCTS,
        )  # fmt: skip
    names = [t(f"vproduct.{p}") for p in PRODUCTS]
    totals = _by(result.body["by_product"])
    days = [(d["date"], _by(d["by_product"])) for d in result.body["by_day"]]
    dates = [d for d, _ in days]
    short = {d: d[5:] for d in dates}

    def daily(metric: str) -> chart_layout.Chart:
        series = [
            (n, [float(r[p][metric]) for _, r in days])
            for n, p in zip(names, PRODUCTS, strict=True)
        ]
        return chart_layout.bars(dates, series, short=short)

    def net(row: dict[str, Any]) -> float:
        return float(row["credits_charged"] - row["credits_refunded"])

    credits = [(n, [net(r[p]) for _, r in days]) for n, p in zip(names, PRODUCTS, strict=True)]
    charts = {
        "jobs_day": daily("jobs"),
        "credits_day": chart_layout.bars(dates, credits, short=short),
        "totals": chart_layout.hbars(
            names,
            [
                (t("vusage.jobs"), [float(totals[p]["jobs"]) for p in PRODUCTS]),
                (t("vusage.charged"), [float(totals[p]["credits_charged"]) for p in PRODUCTS]),
                (t("vusage.refunded"), [float(totals[p]["credits_refunded"]) for p in PRODUCTS]),
            ],
        ),
    }
    return await page(
        "visual_analytics.html",
        start=start,
        end=end,
        errors={},
        charts=charts,
        totals=[(t(f"vproduct.{p}"), totals[p]) for p in PRODUCTS],
        days=days,
        products=PRODUCTS,
        sums={
            "jobs": sum(r["jobs"] for r in totals.values()),
            "credits": sum(net(r) for r in totals.values()),
            "days": len(days),
            "actual_cost_micros": sum(r["actual_cost_micros"] for r in totals.values()),
        },
        lang_code=page_language(),
    )
