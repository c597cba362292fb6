"""The portal's Developers area: balance and usage, the ledger, API keys, webhook endpoints
and the audit log (issue 31), over the session routes ``/v1/developer/...``.

As every portal page, these reach the platform only through the public API in-process
(:mod:`.client`); the API decides what a login may do (owner and admin manage, member and
viewer read) and the pages only hide the controls a role cannot use.

Test mode: the header's switch (a POST carrying the CSRF token) sets the ``astro_portal_mode``
cookie; while it says ``test`` these pages ask the API for ``mode=test`` (test keys, test
endpoints; test calls leave no ledger rows) and every page shows a test-mode banner.
"""

from __future__ import annotations

import asyncio
from datetime import date, timedelta
from typing import Any, Final

from quart import Response, request

from astro_server.portal import (
    _go,
    _safe_next,
    _secure,
    api,
    api_found,
    blueprint,
    date_window,
    has_session_cookie,
    page,
    signed_in,
    t,
)
from astro_server.portal import charts as chart_layout

MODE_COOKIE: Final = "astro_portal_mode"
DEV: Final = "/v1/developer"
HOOKS: Final = f"{DEV}/webhook-endpoints"
#: The scopes a key can be given (the API's one list, platform/auth/scopes.py).
SCOPES: Final = (
    "western", "vedic", "thai", "chinese", "uranian", "tarot", "human_design", "horoscopes",
    "reports",
    "visual_readings", "cultural", "profiles", "team", "keys", "webhooks",
)  # fmt: skip
EVENT_TYPES: Final = (
    "report.succeeded", "report.failed", "visual_reading.succeeded", "visual_reading.failed",
    "visual_upload.validated", "visual_upload.rejected", "campaign.content_ready",
)  # fmt: skip
#: Grace periods offered when rotating a key (seconds; the API allows 0 to 7 days).
GRACES: Final = (0, 3600, 86400, 7 * 86400)
AUDIT_ACTIONS: Final = ("key.created", "key.rotated", "key.revoked")


def current_mode() -> str:
    """``test`` while the header's switch is on, else ``live``."""
    return "test" if request.cookies.get(MODE_COOKIE) == "test" else "live"


def _mode() -> dict[str, str]:
    return {"mode": current_mode()}


@blueprint.context_processor
async def _mode_context() -> dict[str, Any]:
    return {"test_mode": has_session_cookie() and current_mode() == "test"}


@blueprint.post("/mode")
@signed_in
async def switch_mode() -> Response:
    """The header's test-mode switch: remember the mode in a cookie, back to the page."""
    form = await request.form
    mode = "test" if form.get("mode") == "test" else "live"
    response = _go(_safe_next(form.get("next")))
    response.set_cookie(
        MODE_COOKIE,
        mode,
        max_age=365 * 24 * 3600,
        path="/portal",
        httponly=True,
        secure=_secure(),
        samesite="Lax",
    )
    return response


# --- overview: balance, tier, month, usage charts ------------------------------------------------


def _days(start: str, end: str) -> list[str] | None:
    """Every day of the inclusive window, or ``None`` when the dates do not parse or run
    backwards."""
    try:
        first, last = date.fromisoformat(start), date.fromisoformat(end)
    except ValueError:
        return None
    if last < first:
        return None
    return [(first + timedelta(days=i)).isoformat() for i in range((last - first).days + 1)]


def usage_charts(
    by_operation: list[dict[str, Any]], by_day: list[dict[str, Any]], days: list[str]
) -> dict[str, chart_layout.Chart]:
    """Horizontal bars per operation (calls, net credits) and vertical bars per day (calls,
    net credits); days without calls are drawn as zero."""
    operations = [row["key"] for row in by_operation]
    per_day = {row["key"]: row for row in by_day}
    calls, net = t("dev.calls"), t("dev.net_credits")
    return {
        "operations": chart_layout.hbars(
            operations,
            [
                (calls, [float(r["calls"]) for r in by_operation]),
                (net, [float(r["net_credits"]) for r in by_operation]),
            ],
        ),
        "days": chart_layout.bars(
            days,
            [
                (calls, [float(per_day.get(d, {}).get("calls", 0)) for d in days]),
                (net, [float(per_day.get(d, {}).get("net_credits", 0)) for d in days]),
            ],
            short={d: d[5:] for d in days},
        ),
    }


@blueprint.get("/developers")
@signed_in
async def developers() -> Response:
    start, end = date_window()
    days = _days(start, end)
    errors: dict[str, str] = {}
    charts = None
    by_operation: list[dict[str, Any]] = []
    by_day: dict[str, dict[str, Any]] = {}
    if days is None:
        errors["from"] = t("dev.bad_dates")
        overview = await api("GET", f"{DEV}/overview", query=_mode())
    else:
        window = {
            "from": f"{days[0]}T00:00:00Z",
            "to": f"{(date.fromisoformat(days[-1]) + timedelta(days=1)).isoformat()}T00:00:00Z",
            **_mode(),
        }
        # Three independent API calls at once (each its own in-process request).
        overview, ops, per_day = await asyncio.gather(
            api("GET", f"{DEV}/overview", query=_mode()),
            api("GET", f"{DEV}/usage", query={**window, "group_by": "operation"}),
            api("GET", f"{DEV}/usage", query={**window, "group_by": "day"}),
        )
        if not ops.ok:
            errors = ops.field_errors() or {"from": ops.message}
        else:
            by_operation = ops.body["groups"]
            by_day = {row["key"]: row for row in per_day.body.get("groups", [])}
            charts = usage_charts(by_operation, list(by_day.values()), days)
    return await page(
        "developers/overview.html",
        status=400 if errors else 200,
        overview=overview.body,
        start=start,
        end=end,
        errors=errors,
        charts=charts,
        by_operation=by_operation,
        by_day=[(d, by_day.get(d)) for d in days or []],
        totals={
            "calls": sum(r["calls"] for r in by_operation),
            "net": sum(r["net_credits"] for r in by_operation),
        },
    )


# --- ledger and jobs -----------------------------------------------------------------------------


@blueprint.get("/developers/ledger")
@signed_in
async def developers_ledger() -> Response:
    cursor = request.args.get("cursor") or None
    result = await api("GET", f"{DEV}/ledger", query={"limit": 50, "cursor": cursor, **_mode()})
    return await page(
        "developers/ledger.html",
        entries=result.body.get("entries", []),
        next_cursor=result.body.get("next_cursor"),
        first_page=cursor is None,
    )


@blueprint.get("/developers/jobs/<job_id>")
@signed_in
async def developers_job(job_id: str) -> Response:
    result = await api_found("GET", f"{DEV}/jobs/{job_id}", query=_mode())
    return await page("developers/job.html", job=result.body)


# --- API keys ------------------------------------------------------------------------------------


async def _keys_page(
    status: int = 200, errors: dict[str, str] | None = None, message: str = "",
    values: dict[str, Any] | None = None,
) -> Response:  # fmt: skip
    cursor = request.args.get("cursor") or None
    listed = await api("GET", f"{DEV}/keys", query={"limit": 100, "cursor": cursor, **_mode()})
    return await page(
        "developers/keys.html",
        status=status,
        keys=listed.body.get("keys", []),
        next_cursor=listed.body.get("next_cursor"),
        scopes=SCOPES,
        graces=GRACES,
        errors=errors or {},
        message=message,
        values=values or {"name": "", "environment": current_mode(), "scopes": ["*"]},
    )


@blueprint.get("/developers/keys")
@signed_in
async def developers_keys() -> Response:
    return await _keys_page()


@blueprint.post("/developers/keys")
@signed_in
async def developers_key_create() -> Response:
    form = await request.form
    environment = form.get("environment", "live")
    wanted = form.getlist("scopes")
    scopes = ["*"] if "*" in wanted else wanted
    values = {"name": form.get("name", "").strip(), "environment": environment, "scopes": scopes}
    result = await api("POST", f"{DEV}/keys", json_body=values)
    if not result.ok:
        errors = result.field_errors()
        if not scopes:
            errors.setdefault("scopes", t("dev.key_need_scope"))
        return await _keys_page(400, errors, result.message, values)
    return await page(
        "developers/key_secret.html",
        status=201,
        key=result.body["key"],
        secret=result.body["secret"],
        previous=None,
    )


def _grace(value: str) -> int:
    try:
        grace = int(value)
    except ValueError:
        return 0
    return grace if grace in GRACES else 0


@blueprint.post("/developers/keys/<key_id>/rotate")
@signed_in
async def developers_key_rotate(key_id: str) -> Response:
    grace = _grace((await request.form).get("grace_s", "0"))
    result = await api_found(
        "POST", f"{DEV}/keys/{key_id}/rotate", json_body={"grace_s": grace}, query=_mode()
    )
    if not result.ok:
        return await page("error.html", status=result.status, title=result.message)
    return await page(
        "developers/key_secret.html",
        key=result.body["key"],
        secret=result.body["secret"],
        previous=result.body["previous"],
    )


@blueprint.post("/developers/keys/<key_id>/revoke")
@signed_in
async def developers_key_revoke(key_id: str) -> Response:
    await api_found("DELETE", f"{DEV}/keys/{key_id}", query=_mode())
    return _go("/portal/developers/keys", "key_revoked")


# --- webhook endpoints ---------------------------------------------------------------------------


async def _hooks_page(
    status: int = 200, errors: dict[str, str] | None = None, message: str = "",
    values: dict[str, Any] | None = None,
) -> Response:  # fmt: skip
    listed = await api("GET", HOOKS, query={"limit": 100, **_mode()})
    return await page(
        "developers/webhooks.html",
        status=status,
        endpoints=listed.body.get("endpoints", []),
        event_types=EVENT_TYPES,
        errors=errors or {},
        message=message,
        values=values or {"url": "", "event_types": ["report.succeeded", "report.failed"]},
    )


@blueprint.get("/developers/webhooks")
@signed_in
async def developers_webhooks() -> Response:
    return await _hooks_page()


@blueprint.post("/developers/webhooks")
@signed_in
async def developers_webhook_create() -> Response:
    form = await request.form
    values = {"url": form.get("url", "").strip(), "event_types": form.getlist("event_types")}
    result = await api("POST", HOOKS, json_body=values, query=_mode())
    if not result.ok:
        errors = result.field_errors()
        if not values["event_types"]:
            errors.setdefault("event_types", t("dev.hook_need_event"))
        return await _hooks_page(400, errors, result.message, values)
    endpoint = result.body["endpoint"]
    return await page(
        "secret.html",
        status=201,
        subscription=endpoint,
        secret=result.body["signing_secret"],
        previous_until=None,
        continue_url=f"/portal/developers/webhooks/{endpoint['id']}",
    )


@blueprint.get("/developers/webhooks/<endpoint_id>")
@signed_in
async def developers_webhook(endpoint_id: str) -> Response:
    found = await api_found("GET", f"{HOOKS}/{endpoint_id}", query=_mode())
    log = await api(
        "GET",
        f"{HOOKS}/{endpoint_id}/deliveries",
        query={"limit": 20, "cursor": request.args.get("cursor") or None, **_mode()},
    )
    return await page(
        "developers/webhook.html",
        endpoint=found.body["endpoint"],
        deliveries=log.body.get("deliveries", []),
        next_cursor=log.body.get("next_cursor"),
        event_types=EVENT_TYPES,
        errors={},
    )


@blueprint.post("/developers/webhooks/<endpoint_id>/events")
@signed_in
async def developers_webhook_events(endpoint_id: str) -> Response:
    chosen = (await request.form).getlist("event_types")
    result = await api_found(
        "PATCH", f"{HOOKS}/{endpoint_id}", json_body={"event_types": chosen}, query=_mode()
    )
    if not result.ok:
        found = await api_found("GET", f"{HOOKS}/{endpoint_id}", query=_mode())
        return await page(
            "developers/webhook.html",
            status=400,
            endpoint={**found.body["endpoint"], "event_types": chosen},
            deliveries=[],
            next_cursor=None,
            event_types=EVENT_TYPES,
            errors={"event_types": t("dev.hook_need_event")},
        )
    return _go(f"/portal/developers/webhooks/{endpoint_id}", "saved")


@blueprint.post("/developers/webhooks/<endpoint_id>/active")
@signed_in
async def developers_webhook_active(endpoint_id: str) -> Response:
    active = (await request.form).get("active") == "true"
    await api_found("PATCH", f"{HOOKS}/{endpoint_id}", json_body={"active": active}, query=_mode())
    notice = "endpoint_resumed" if active else "endpoint_paused"
    return _go(f"/portal/developers/webhooks/{endpoint_id}", notice)


@blueprint.post("/developers/webhooks/<endpoint_id>/rotate-secret")
@signed_in
async def developers_webhook_rotate(endpoint_id: str) -> Response:
    result = await api_found("POST", f"{HOOKS}/{endpoint_id}/rotate-secret", query=_mode())
    return await page(
        "secret.html",
        subscription=result.body["endpoint"],
        secret=result.body["signing_secret"],
        previous_until=result.body["previous_secret_expires_at"],
        continue_url=f"/portal/developers/webhooks/{endpoint_id}",
    )


@blueprint.post("/developers/webhooks/<endpoint_id>/test")
@signed_in
async def developers_webhook_test(endpoint_id: str) -> Response:
    result = await api_found("POST", f"{HOOKS}/{endpoint_id}/test", query=_mode())
    succeeded = result.ok and result.body["delivery"]["status"] == "succeeded"
    notice = "test_sent" if succeeded else "test_failed"
    return _go(f"/portal/developers/webhooks/{endpoint_id}", notice)


@blueprint.post("/developers/webhooks/<endpoint_id>/deliveries/<delivery_id>/retry")
@signed_in
async def developers_webhook_retry(endpoint_id: str, delivery_id: str) -> Response:
    result = await api_found(
        "POST", f"{HOOKS}/{endpoint_id}/deliveries/{delivery_id}/retry", query=_mode()
    )
    if not result.ok:
        return await page("error.html", status=result.status, title=result.message)
    return _go(f"/portal/developers/webhooks/{endpoint_id}", "retried")


@blueprint.post("/developers/webhooks/<endpoint_id>/delete")
@signed_in
async def developers_webhook_delete(endpoint_id: str) -> Response:
    await api_found("DELETE", f"{HOOKS}/{endpoint_id}", query=_mode())
    return _go("/portal/developers/webhooks", "endpoint_deleted")


# --- audit log -----------------------------------------------------------------------------------


@blueprint.get("/developers/audit")
@signed_in
async def developers_audit() -> Response:
    filters = {
        name: request.args.get(name, "").strip() for name in ("action", "actor", "from", "to")
    }
    query: dict[str, Any] = {"limit": 50, "cursor": request.args.get("cursor") or None}
    errors: dict[str, str] = {}
    for name in ("action", "actor"):
        if filters[name]:
            query[name] = filters[name]
    for name, shift in (("from", 0), ("to", 1)):
        if filters[name]:
            try:
                day = date.fromisoformat(filters[name]) + timedelta(days=shift)
            except ValueError:
                errors[name] = t("dev.bad_dates")
                continue
            query[name] = f"{day.isoformat()}T00:00:00Z"
    result = None
    if not errors:
        result = await api("GET", f"{DEV}/audit-log", query=query)
        if not result.ok:
            errors = result.field_errors() or {"action": result.message}
    more = {k: v for k, v in filters.items() if v}
    return await page(
        "developers/audit.html",
        status=400 if errors else 200,
        filters=filters,
        errors=errors,
        events=result.body.get("events", []) if result is not None and result.ok else [],
        next_cursor=result.body.get("next_cursor") if result is not None else None,
        more=more,
        actions=AUDIT_ACTIONS,
    )
