"""The customer portal: the session routes as a web application under ``/portal``.

Server-rendered Jinja2 pages with a little vanilla JavaScript (``static/portal.js``), every asset
served from this package. Each page reaches the platform only through the public API's routes,
called in-process with the signed-in customer's session token (:mod:`.client`).

Security (docs/decisions.md, "Customer portal"):

* The session token from ``POST /auth/login`` is kept in an ``HttpOnly``, ``SameSite=Lax``
  cookie scoped to ``/portal``, ``Secure`` when the request came over https; it expires with
  the session. Sign-out calls ``POST /auth/logout`` (the session is revoked in the one session
  table) and clears the cookie.
* Every state-changing request (POST) carries a CSRF token in a hidden field, checked here
  before anything else: HMAC-SHA256 of the session token under the server's secret key, so it
  is per session and needs no storage. The sign-in form uses a double-submit token (a random
  cookie equal to a hidden field) since there is no session yet.
* Pages answer with a Content-Security-Policy allowing only this origin's scripts and styles,
  ``frame-ancestors 'none'`` and ``Cache-Control: no-store``.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import re
import secrets
import zoneinfo
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from functools import cache, wraps
from pathlib import Path
from typing import Any, Final, TypeVar, cast
from urllib.parse import urlencode

from quart import (
    Blueprint,
    Response,
    current_app,
    g,
    redirect,
    render_template,
    request,
    send_from_directory,
)
from quart_schema import hide

from astro_server.platform.auth.guards import checks_credential, limit_unauthenticated
from astro_server.platform.hosts import public_base
from astro_server.portal import i18n, places
from astro_server.portal.client import ApiResult, call

blueprint = Blueprint(
    "portal",
    __name__,
    url_prefix="/portal",
    template_folder="templates",
)
STATIC_DIR: Final = Path(__file__).parent / "static"

SESSION_COOKIE: Final = "astro_portal_session"
WHO_COOKIE: Final = "astro_portal_who"
LANG_COOKIE: Final = "astro_portal_lang"
LOGIN_CSRF_COOKIE: Final = "astro_portal_login_csrf"
CSRF_FIELD: Final = "csrf_token"
FEEDS: Final = "/v1/horoscope-feed-subscriptions"
BRANDS: Final = "/v1/report-brand-profiles"
REPORTS: Final = "/v1/reports"
TEAM: Final = "/v1/team/members"
ROLES: Final = ("viewer", "member", "admin", "owner")
SIGNS: Final = (
    "aries", "taurus", "gemini", "cancer", "leo", "virgo",
    "libra", "scorpio", "sagittarius", "capricorn", "aquarius", "pisces",
)  # fmt: skip
#: Notices a redirect may name (``?notice=``); anything else is ignored.
NOTICES: Final = frozenset(
    {
        "signed_out", "expired", "paused", "resumed", "deleted", "retried",
        "test_sent", "test_failed", "saved", "profile_deleted", "ordered",
        "role_changed", "removed", "joined", "photo_deleted", "delivery_created",
        "delivery_paused", "delivery_resumed", "delivery_deleted",
        # The Developers area (developers.py).
        "key_revoked", "endpoint_paused", "endpoint_resumed", "endpoint_deleted",
    }
)  # fmt: skip
_CSP: Final = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' https: data:; "
    "form-action 'self'; frame-ancestors 'none'; base-uri 'none'; object-src 'none'"
)

F = TypeVar("F", bound=Callable[..., Awaitable[Any]])


class SignInRequired(Exception):
    """The session cookie is missing, or the API no longer accepts its token."""

    def __init__(self, notice: str | None = None) -> None:
        super().__init__(notice or "")
        self.notice = notice


def _secure() -> bool:
    return request.scheme == "https"


def csrf_token_for(session_token: str) -> str:
    """The per-session CSRF token: HMAC-SHA256(secret key, "portal-csrf:" + session token)."""
    key = current_app.config["ASTRO_SETTINGS"].secret_key.encode()
    return hmac.new(key, b"portal-csrf:" + session_token.encode(), hashlib.sha256).hexdigest()


def t(key: str, **values: object) -> str:
    return i18n.translate(g.get("portal_lang", i18n.DEFAULT), key, **values)


@cache
def time_zones() -> tuple[str, ...]:
    """IANA names offered by the time-zone picker (the server accepts these and UTC)."""
    return ("UTC", *sorted(z for z in zoneinfo.available_timezones() if "/" in z))


def _language() -> str:
    """The page's language: the language cookie (the visitor's last choice, or the login's stored
    one set at sign-in), else the best of the browser's ``Accept-Language``, else English."""
    chosen = request.cookies.get(LANG_COOKIE, "")
    if chosen in i18n.LANGUAGES:
        return chosen
    return request.accept_languages.best_match(i18n.LANGUAGES) or i18n.DEFAULT


def page_language() -> str:
    """The language of the page being served (chosen once per request by the portal's context)."""
    return cast(str, g.portal_lang)


def has_session_cookie() -> bool:
    """Whether the request carries the portal's session cookie (signed in, as far as it shows)."""
    return bool(g.get("portal_token"))


@blueprint.before_request
async def _portal_context() -> Response | None:
    g.portal_lang = _language()
    g.portal_token = request.cookies.get(SESSION_COOKIE) or None
    if request.method == "POST":
        sent = (await request.form).get(CSRF_FIELD, "")
        if request.endpoint in ("portal.login_submit", "portal.accept_submit"):
            expected = request.cookies.get(LOGIN_CSRF_COOKIE, "")
        else:
            expected = csrf_token_for(g.portal_token) if g.portal_token else ""
        if not expected or not sent or not hmac.compare_digest(sent, expected):
            page = await render_template("portal/error.html", title=t("csrf.title"))
            return Response(page, status=403, content_type="text/html; charset=utf-8")
    return None


@blueprint.after_request
async def _headers(response: Response) -> Response:
    preview = request.endpoint == "portal.brand_preview"  # framed by the brand form only
    response.headers["Content-Security-Policy"] = _PREVIEW_CSP if preview else _CSP
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Referrer-Policy"] = "same-origin"
    # frame-ancestors for older browsers
    response.headers["X-Frame-Options"] = "SAMEORIGIN" if preview else "DENY"
    if request.endpoint not in ("portal.static", "portal.font"):
        response.headers["Cache-Control"] = "no-store"
    return response


@blueprint.app_template_global("t")
def _template_t(key: str, **values: object) -> str:
    return t(key, **values)


@blueprint.app_template_filter("when")
def _when(value: str | None) -> str:
    """An API instant (ISO 8601, UTC) as "2026-11-24 22:53 UTC" for reading; in Thai a Buddhist
    Era date with the Thai month's abbreviation, "24 พ.ย. 2569 22:53 น. ตามเวลาสากล" (issue 35)."""
    instant = _parse_instant(value)
    if instant is None:
        return ""
    if g.get("portal_lang") == "th":
        from astro_calc.glossary import date_text

        utc = instant.astimezone(UTC)
        return f"{date_text(utc.date(), 'th', short=True)} {utc:%H:%M} น. ตามเวลาสากล"
    return instant.strftime("%Y-%m-%d %H:%M UTC")


@blueprint.context_processor
async def _template_context() -> dict[str, Any]:
    token = g.get("portal_token")
    who = request.cookies.get(WHO_COOKIE, "")
    return {
        "lang": g.get("portal_lang", i18n.DEFAULT),
        "csrf_token": csrf_token_for(token) if token else "",
        "signed_in_as": who if token else "",
        "current_path": request.full_path.rstrip("?"),
    }


@blueprint.errorhandler(SignInRequired)
async def _to_sign_in(error: SignInRequired) -> Response:
    target = "/portal/login" + (f"?notice={error.notice}" if error.notice else "")
    response = _go(target)
    _clear_session(response)
    return response


def signed_in(func: F) -> F:
    """Page decorator: a session cookie is required (the API decides whether it is valid)."""

    @wraps(func)
    async def wrapper(*args: Any, **kwargs: Any) -> Any:
        if not g.get("portal_token"):
            await limit_unauthenticated()  # keyless: counted against the address
            raise SignInRequired()
        return await func(*args, **kwargs)

    # The session is checked (and rate limited) by the API calls the page makes; without a
    # cookie the page only redirects. Not counted as keyless traffic (guards.limit_keyless).
    return cast(F, checks_credential(hide(wrapper)))


class Refused(Exception):
    """The API answered 403 (the login's role does not allow it)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


async def api(method: str, path: str, **kwargs: Any) -> ApiResult:
    """An API call for the signed-in customer; a 401 sends the browser to the sign-in page, a
    403 on a change shows the API's refusal."""
    result = await call(method, path, **kwargs)
    if result.status == 401:
        raise SignInRequired("expired")
    if result.status == 403 and method != "GET":
        raise Refused(result.message)
    return result


async def api_found(method: str, path: str, **kwargs: Any) -> ApiResult:
    """:func:`api` for an object named in the page's URL: its 404 is the portal's 404 page."""
    result = await api(method, path, **kwargs)
    if result.status == 404:
        raise NotFoundPage()
    return result


async def my_role() -> str | None:
    """The signed-in login's role, from the team list the API offers to every role; ``None``
    when the API lists no team for this account (below the enterprise tier: one login)."""
    if "portal_role" not in g:
        g.portal_role = None
        if g.get("portal_token") and request.endpoint not in _PUBLIC_PAGES:
            result = await call("GET", TEAM)  # a refused token is dealt with by the page
            who = request.cookies.get(WHO_COOKIE, "")
            for member in result.body.get("members", []) if result.ok else []:
                if member["email"] == who:
                    g.portal_role = member["role"]
    return cast("str | None", g.portal_role)


_PUBLIC_PAGES: Final = frozenset(
    {"portal.login_form", "portal.login_submit", "portal.accept_form", "portal.accept_submit"}
)


def can(needed: str) -> bool:
    """Whether the page shows a control needing ``needed`` (the API decides in any case)."""
    role = g.get("portal_role")
    return role is None or ROLES.index(role) >= ROLES.index(needed)


async def page(template: str, status: int = 200, **context: Any) -> Response:
    notice = request.args.get("notice", "")
    context.setdefault("notice", notice if notice in NOTICES else "")
    await my_role()
    context["can"] = can
    context["my_role"] = g.get("portal_role")
    html = await render_template(f"portal/{template}", **context)
    return Response(html, status=status, content_type="text/html; charset=utf-8")


def _go(path: str, notice: str | None = None) -> Response:
    target = path + ("?" + urlencode({"notice": notice}) if notice else "")
    return cast(Response, redirect(target, 303))


def _clear_session(response: Response) -> None:
    for name in (SESSION_COOKIE, WHO_COOKIE):
        response.delete_cookie(name, path="/portal", secure=_secure(), httponly=True)


def _safe_next(value: str | None) -> str:
    """A same-site portal path to return to (never another origin: no ``//`` or scheme)."""
    if value and value.startswith("/portal") and "//" not in value and "\\" not in value:
        return value
    return "/portal/"


#: The date window a usage page shows when its URL names none: the last 30 days, today included.
DEFAULT_WINDOW_DAYS: Final = 30


def date_window() -> tuple[str, str]:
    """The page's ``from``/``to`` query (ISO dates, both inclusive), as given; by default the
    last :data:`DEFAULT_WINDOW_DAYS` UTC days up to today (the date form of ``_charts.html``)."""
    today = datetime.now(UTC).date()
    default_start = today - timedelta(days=DEFAULT_WINDOW_DAYS - 1)
    start = request.args.get("from") or default_start.isoformat()
    end = request.args.get("to") or today.isoformat()
    return start, end


def _parse_instant(value: str | None) -> datetime | None:
    if not value:
        return None
    return datetime.fromisoformat(value.replace("Z", "+00:00"))


@blueprint.get("/static/<path:filename>")
@hide
async def static(filename: str) -> Response:
    """The portal's CSS and JavaScript, from this package (no CDN); cached for an hour."""
    response = await send_from_directory(STATIC_DIR, filename)
    response.cache_control.max_age = 3600
    response.cache_control.public = True
    return response


FONT_MAX_AGE_S: Final = 30 * 24 * 3600


@blueprint.get("/fonts/<name>")
@hide
async def font(name: str) -> Response:
    """A bundled Noto face (TrueType: WOFF2 would need brotli, not a dependency), the same files
    the PDF reports embed (the portal's CSS names the Noto Sans faces, the brand preview every
    report face); cached for 30 days (their names carry no version, so not forever)."""
    from astro_server.features.reports.render.html import FONT_FACES, fonts_directory

    if name not in {face[2] for face in FONT_FACES}:
        raise NotFoundPage()
    response = await send_from_directory(fonts_directory(), name, mimetype="font/ttf")
    response.cache_control.max_age = FONT_MAX_AGE_S
    response.cache_control.public = True
    return response


# --- sign in and out, language ---------------------------------------------------------------


@blueprint.get("/")
@hide
async def index() -> Response:
    return _go("/portal/dashboard" if g.get("portal_token") else "/portal/login")


@blueprint.get("/login")
@hide
async def login_form() -> Response:
    return await _login_page({}, {}, "")


async def _login_page(values: dict[str, str], errors: dict[str, str], message: str) -> Response:
    token = secrets.token_urlsafe(24)
    response = await page(
        "login.html",
        status=401 if message else 200,
        values=values,
        errors=errors,
        message=message,
        login_csrf=token,
    )
    response.set_cookie(
        LOGIN_CSRF_COOKIE, token, path="/portal", httponly=True, secure=_secure(), samesite="Lax"
    )
    return response


@blueprint.post("/login")
@hide
async def login_submit() -> Response:
    form = await request.form
    email, password = form.get("email", "").strip(), form.get("password", "")
    result = await call(
        "POST", "/auth/login", json_body={"email": email, "password": password}, token=""
    )
    if not result.ok:
        errors = result.field_errors()
        message = t("login.failed") if result.status == 401 else result.message
        return await _login_page({"email": email}, errors, message)
    expires = _parse_instant(result.body["expires_at"])
    response = _go("/portal/dashboard")
    stored = result.body["customer"].get("language")
    if stored in i18n.LANGUAGES:
        _set_language_cookie(response, stored)  # the login's own choice, on any browser
    for name, value in (
        (SESSION_COOKIE, result.body["token"]),
        (WHO_COOKIE, result.body["customer"]["email"]),
    ):
        response.set_cookie(
            name,
            value,
            expires=expires,
            path="/portal",
            httponly=True,
            secure=_secure(),
            samesite="Lax",
        )
    response.delete_cookie(LOGIN_CSRF_COOKIE, path="/portal")
    return response


@blueprint.post("/logout")
@hide
async def logout() -> Response:
    if g.get("portal_token"):
        await call("POST", "/auth/logout")
    response = _go("/portal/login", "signed_out")
    _clear_session(response)
    return response


@blueprint.get("/language/<lang>")
@hide
async def language(lang: str) -> Response:
    """Switch the language: a preference cookie, and for a signed-in visitor the login's stored
    language too (``PATCH /auth/me``), so the next sign-in, on any browser, keeps it. A plain
    link with no CSRF token: the most a forged link can do is switch the language."""
    response = _go(_safe_next(request.args.get("next")))
    if lang in i18n.LANGUAGES:
        _set_language_cookie(response, lang)
        if g.get("portal_token"):
            await call("PATCH", "/auth/me", json_body={"language": lang})
    return response


def _set_language_cookie(response: Response, lang: str) -> None:
    response.set_cookie(
        LANG_COOKIE,
        lang,
        max_age=365 * 24 * 3600,
        path="/portal",
        secure=_secure(),
        samesite="Lax",
    )


# --- dashboard ----------------------------------------------------------------------------------


async def _all(path: str, key: str, limit: int = 100) -> list[dict[str, Any]]:
    """Every item of a cursor-paged list route."""
    items: list[dict[str, Any]] = []
    cursor: str | None = None
    while True:
        result = await api("GET", path, query={"limit": limit, "cursor": cursor})
        if not result.ok:
            return items
        items.extend(result.body.get(key, []))
        cursor = result.body.get("next_cursor")
        if not cursor:
            return items


@blueprint.get("/dashboard")
@signed_in
async def dashboard() -> Response:
    from astro_server.portal.visual import dashboard_summary

    subscriptions, profiles, visual = await asyncio.gather(
        _all(FEEDS, "subscriptions"), _all(BRANDS, "profiles"), dashboard_summary()
    )
    counts = {
        "total": len(subscriptions),
        "active": sum(1 for s in subscriptions if s["active"]),
        "paused": sum(1 for s in subscriptions if not s["active"] and not s["disabled_at"]),
        "disabled": sum(1 for s in subscriptions if s["disabled_at"]),
        "failing": sum(1 for s in subscriptions if s["consecutive_failures"]),
    }
    return await page(
        "dashboard.html",
        counts=counts,
        profiles=len(profiles),
        recent=subscriptions[:5],
        visual=visual,
    )


# --- horoscope feeds ----------------------------------------------------------------------------


@blueprint.get("/feeds")
@signed_in
async def feeds() -> Response:
    cursor = request.args.get("cursor") or None
    result = await api("GET", FEEDS, query={"limit": 100, "cursor": cursor})
    return await page(
        "feeds.html",
        subscriptions=result.body.get("subscriptions", []),
        next_cursor=result.body.get("next_cursor"),
    )


def _feed_form(values: dict[str, str], errors: dict[str, str], message: str = "") -> dict[str, Any]:
    return {
        "values": values,
        "errors": errors,
        "message": message,
        "signs": SIGNS,
        "zones": time_zones(),
    }


@blueprint.get("/feeds/new")
@signed_in
async def feed_new() -> Response:
    defaults = {"language": g.portal_lang, "timezone": "UTC", "delivery_time": "08:00"}
    return await page("feed_new.html", **_feed_form(defaults, {}))


@blueprint.post("/feeds")
@signed_in
async def feed_create() -> Response:
    form = await request.form
    values = {
        name: form.get(name, "").strip()
        for name in ("destination_url", "sign", "language", "timezone", "delivery_time")
    }
    result = await api("POST", FEEDS, json_body=values)
    if not result.ok:
        return await page(
            "feed_new.html", status=400, **_feed_form(values, result.field_errors(), result.message)
        )
    return await page(
        "secret.html",
        status=201,
        subscription=result.body["subscription"],
        secret=result.body["signing_secret"],
        previous_until=None,
    )


async def _subscription(sub_id: str) -> dict[str, Any]:
    result = await api("GET", f"{FEEDS}/{sub_id}")
    if not result.ok:
        raise NotFoundPage()
    return cast(dict[str, Any], result.body["subscription"])


class NotFoundPage(Exception):
    """The API answered 404 (not this customer's, or gone)."""


@blueprint.errorhandler(Refused)
async def _refused(error: Refused) -> Response:
    return await page("error.html", status=403, title=t("error.forbidden"), detail=error.message)


@blueprint.errorhandler(NotFoundPage)
async def _not_found(_error: NotFoundPage) -> Response:
    return await page("error.html", status=404, title=t("error.not_found"))


@blueprint.get("/feeds/<sub_id>")
@signed_in
async def feed_detail(sub_id: str) -> Response:
    subscription = await _subscription(sub_id)
    log = await api(
        "GET",
        f"{FEEDS}/{sub_id}/deliveries",
        query={"limit": 20, "cursor": request.args.get("cursor") or None},
    )
    return await page(
        "feed_detail.html",
        subscription=subscription,
        deliveries=log.body.get("deliveries", []),
        next_cursor=log.body.get("next_cursor"),
    )


@blueprint.post("/feeds/<sub_id>/active")
@signed_in
async def feed_active(sub_id: str) -> Response:
    active = (await request.form).get("active") == "true"
    await api_found("PATCH", f"{FEEDS}/{sub_id}", json_body={"active": active})
    return _go(f"/portal/feeds/{sub_id}", "resumed" if active else "paused")


@blueprint.post("/feeds/<sub_id>/delete")
@signed_in
async def feed_delete(sub_id: str) -> Response:
    await api_found("DELETE", f"{FEEDS}/{sub_id}")
    return _go("/portal/feeds", "deleted")


@blueprint.post("/feeds/<sub_id>/rotate-secret")
@signed_in
async def feed_rotate(sub_id: str) -> Response:
    result = await api("POST", f"{FEEDS}/{sub_id}/rotate-secret")
    if not result.ok:
        raise NotFoundPage()
    return await page(
        "secret.html",
        subscription=result.body["subscription"],
        secret=result.body["signing_secret"],
        previous_until=result.body["previous_secret_expires_at"],
    )


@blueprint.post("/feeds/<sub_id>/test")
@signed_in
async def feed_test(sub_id: str) -> Response:
    result = await api_found("POST", f"{FEEDS}/{sub_id}/test")
    succeeded = result.ok and result.body["delivery"]["status"] == "succeeded"
    return _go(f"/portal/feeds/{sub_id}", "test_sent" if succeeded else "test_failed")


@blueprint.post("/feeds/<sub_id>/deliveries/<delivery_id>/retry")
@signed_in
async def feed_retry(sub_id: str, delivery_id: str) -> Response:
    result = await api_found("POST", f"{FEEDS}/{sub_id}/deliveries/{delivery_id}/retry")
    if not result.ok:
        return await page("error.html", status=result.status, title=result.message)
    return _go(f"/portal/feeds/{sub_id}", "retried")


# --- brand profiles -----------------------------------------------------------------------------

BRANDING_FIELDS: Final = (
    "brand_name", "logo_url", "primary_color", "contact_email", "contact_phone", "contact_url",
)  # fmt: skip


@blueprint.get("/brands")
@signed_in
async def brands() -> Response:
    profiles = await _all(BRANDS, "profiles")
    return await page("brands.html", profiles=profiles)


def _brand_values(form: Any) -> dict[str, str]:
    return {name: form.get(name, "").strip() for name in ("name", *BRANDING_FIELDS)}


def _brand_body(values: dict[str, str], creating: bool) -> dict[str, Any]:
    """The API body: empty fields are left out on create and removed (null) on edit."""
    branding: dict[str, Any] = {}
    for name in BRANDING_FIELDS:
        if values[name]:
            branding[name] = values[name]
        elif not creating:
            branding[name] = None
    return {"name": values["name"], "branding": branding}


@blueprint.get("/brands/new")
@signed_in
async def brand_new() -> Response:
    values = dict.fromkeys(("name", *BRANDING_FIELDS), "")
    values["primary_color"] = "#5b3cc4"
    return await page("brand_form.html", values=values, errors={}, message="", profile=None)


@blueprint.post("/brands")
@signed_in
async def brand_create() -> Response:
    values = _brand_values(await request.form)
    result = await api("POST", BRANDS, json_body=_brand_body(values, creating=True))
    if not result.ok:
        return await page(
            "brand_form.html",
            status=400,
            values=values,
            errors=result.field_errors(),
            message=result.message,
            profile=None,
        )
    return _go(f"/portal/brands/{result.body['profile']['id']}", "saved")


async def _profile(profile_id: str) -> dict[str, Any]:
    result = await api("GET", f"{BRANDS}/{profile_id}")
    if not result.ok:
        raise NotFoundPage()
    return cast(dict[str, Any], result.body["profile"])


@blueprint.get("/brands/<profile_id>")
@signed_in
async def brand_edit(profile_id: str) -> Response:
    profile = await _profile(profile_id)
    values = {"name": profile["name"]}
    values.update({k: profile["branding"].get(k) or "" for k in BRANDING_FIELDS})
    return await page("brand_form.html", values=values, errors={}, message="", profile=profile)


@blueprint.post("/brands/<profile_id>")
@signed_in
async def brand_update(profile_id: str) -> Response:
    profile = await _profile(profile_id)
    values = _brand_values(await request.form)
    result = await api(
        "PATCH", f"{BRANDS}/{profile_id}", json_body=_brand_body(values, creating=False)
    )
    if not result.ok:
        return await page(
            "brand_form.html",
            status=400,
            values=values,
            errors=result.field_errors(),
            message=result.message,
            profile=profile,
        )
    return _go(f"/portal/brands/{profile_id}", "saved")


_PREVIEW_CSP: Final = (
    "default-src 'none'; style-src 'unsafe-inline'; font-src 'self'; img-src https: data:; "
    "frame-ancestors 'self'; base-uri 'none'; form-action 'none'"
)


@cache
def _preview_chart(lang: str) -> Any:
    """The preview's sample birth: the API docs' London example, Bangkok for Thai."""
    from datetime import date

    from astro_calc.western import BirthSubject, natal_chart
    from astro_server.platform.docs_examples import BANGKOK, LONDON

    birth: dict[str, Any] = BANGKOK if lang == "th" else LONDON
    subject = BirthSubject(
        date=date.fromisoformat(birth["date"]), time=birth["time"], latitude=birth["latitude"],
        longitude=birth["longitude"], timezone=birth["timezone"],
    )  # fmt: skip
    return natal_chart(subject, house_system="P", include_minor=False)


@cache
def _preview_fonts_css() -> str:
    """The report's font families, from the portal's font route (cached by the browser)."""
    from astro_server.features.reports.render.html import FONT_FACES

    return "\n".join(
        f'@font-face{{font-family:"{family}";font-weight:{weight};font-style:normal;'
        f'src:url("/portal/fonts/{filename}") format("truetype");}}'
        for family, weight, filename, _postscript in FONT_FACES
    )


@blueprint.get("/brands/preview")
@signed_in
async def brand_preview() -> Response:
    """The live cover preview of the brand form (an iframe): the report's own cover template
    and stylesheet (features/reports/render/cover.html.j2), drawn with the form's values on a
    sample birth, so it is the PDF's cover."""
    from astro_server.features.reports.render.branding import DEFAULT_COLOR, ReportBrand
    from astro_server.features.reports.render.natal import cover_preview_html

    args = request.args
    lang = args.get("lang", g.portal_lang)
    lang = lang if lang in i18n.LANGUAGES else g.portal_lang
    colour = args.get("primary_color", "")
    if not re.fullmatch(r"#[0-9A-Fa-f]{6}", colour):
        colour = DEFAULT_COLOR
    brand = ReportBrand(
        name=args.get("brand_name", "").strip()[:120] or None,
        primary_color=colour,
        contact_email=args.get("contact_email", "").strip()[:254] or None,
        contact_phone=args.get("contact_phone", "").strip()[:32] or None,
        contact_url=args.get("contact_url", "").strip()[:2048] or None,
    )
    logo = args.get("logo_url", "").strip()
    html = cover_preview_html(
        await asyncio.to_thread(_preview_chart, lang),
        person_name=i18n.translate(lang, "brand.sample_person"),
        locale=cast(Any, lang),
        brand=brand,
        generated_at=datetime.now(UTC),
        logo_url=logo if logo.startswith("https://") and len(logo) <= 2048 else None,
        fonts_css=_preview_fonts_css(),
    )
    return Response(html, content_type="text/html; charset=utf-8")


@blueprint.post("/brands/<profile_id>/delete")
@signed_in
async def brand_delete(profile_id: str) -> Response:
    await api_found("DELETE", f"{BRANDS}/{profile_id}")
    return _go("/portal/brands", "profile_deleted")


# --- reports ------------------------------------------------------------------------------------

REPORT_FIELDS: Final = (
    "name", "date", "time", "place", "latitude", "longitude", "timezone", "house_system",
    "locale", "format", "brand_profile_id",
)  # fmt: skip


def _local_path(url: str | None) -> str | None:
    """A signed file URL as a path on this server (the API signs it for the host it saw)."""
    if not url:
        return None
    _scheme, _, rest = url.partition("://")
    return "/" + rest.partition("/")[2] if rest else url


def _report_view(report: dict[str, Any]) -> dict[str, Any]:
    return {
        **report,
        "names": ", ".join(report.get("subject_names") or []),
        "download": _local_path(report.get("pdf_url") or report.get("html_url")),
        "pending": report["status"] in ("queued", "running"),
    }


@blueprint.get("/reports")
@signed_in
async def reports_list() -> Response:
    cursor = request.args.get("cursor") or None
    result = await api("GET", REPORTS, query={"limit": 50, "cursor": cursor})
    listed = [_report_view(r) for r in result.body.get("reports", [])]
    return await page(
        "reports.html",
        reports=listed,
        next_cursor=result.body.get("next_cursor"),
        pending=any(r["pending"] for r in listed),
    )


#: The price-table row a portal natal report is charged as (either format).
REPORT_OPERATION: Final = "reports.natal_pdf"


def report_price() -> dict[str, Any]:
    """What the order form shows before submitting: the price and the least tier, read from
    the one price table (platform/billing/pricing.py)."""
    from astro_server.platform.billing.pricing import OPERATIONS

    row = OPERATIONS[REPORT_OPERATION]
    return {"credits": row.credits, "tier": row.tier}


async def _report_form(
    values: dict[str, str], errors: dict[str, str], message: str = "", status: int = 200
) -> Response:
    profiles = await _all(BRANDS, "profiles")
    return await page(
        "report_new.html",
        status=status,
        values=values,
        errors=errors,
        message=message,
        profiles=profiles,
        price=report_price(),
    )


@blueprint.get("/reports/new")
@signed_in
async def report_new() -> Response:
    values = dict.fromkeys(REPORT_FIELDS, "")
    values.update({"house_system": "P", "locale": g.portal_lang, "format": "pdf"})
    return await _report_form(values, {})


def _report_body(values: dict[str, str]) -> tuple[dict[str, Any], dict[str, str]]:
    """The API body from the form; coordinates that are not numbers are named here (the API
    takes numbers only)."""
    errors: dict[str, str] = {}
    subject: dict[str, Any] = {"date": values["date"], "time": values["time"]}
    for name in ("latitude", "longitude"):
        try:
            subject[name] = float(values[name])
        except ValueError:
            errors[name] = t("report.need_coordinates")
    if values["timezone"]:
        subject["timezone"] = values["timezone"]
    body: dict[str, Any] = {
        "birth_subject": subject,
        "name": values["name"],
        "house_system": values["house_system"] or "P",
        "locale": values["locale"] or "en",
        "format": values["format"] or "pdf",
        "async": True,
    }
    if values["brand_profile_id"]:
        body["brand_profile_id"] = values["brand_profile_id"]
    return body, errors


@blueprint.post("/reports")
@signed_in
async def report_create() -> Response:
    form = await request.form
    values = {name: form.get(name, "").strip() for name in REPORT_FIELDS}
    body, errors = _report_body(values)
    if errors:
        return await _report_form(values, errors, t("report.check_fields"), 400)
    result = await call("POST", f"{REPORTS}/natal", json_body=body)
    if result.status == 401:
        raise SignInRequired("expired")
    if result.status == 403 and result.code == "tier_required":
        # The account's tier, not the login's role: say so in the page's language and keep
        # what was typed.
        tier = t("tier." + report_price()["tier"])
        return await _report_form(values, {}, t("report.tier_required", tier=tier), 403)
    if result.status == 403:
        raise Refused(result.message)
    if not result.ok:
        return await _report_form(values, result.field_errors(), result.message, result.status)
    return _go(f"/portal/reports/{result.body['report_id']}", "ordered")


@blueprint.get("/reports/<report_id>")
@signed_in
async def report_detail(report_id: str) -> Response:
    result = await api_found("GET", f"{REPORTS}/{report_id}")
    if result.status == 410:
        return await page("error.html", status=410, title=t("report.gone"))
    return await page("report_detail.html", report=_report_view(result.body))


@blueprint.get("/places")
@signed_in
async def place_search() -> Response:
    """Place suggestions for the birth form (JSON), from the bundled gazetteer."""
    query = request.args.get("q", "")
    found = await asyncio.to_thread(places.search, query, g.portal_lang)
    response = Response(json.dumps({"places": found}), content_type="application/json")
    return response


# --- team ---------------------------------------------------------------------------------------


@blueprint.get("/team")
@signed_in
async def team() -> Response:
    result = await api("GET", TEAM)
    return await page(
        "team.html",
        available=result.ok,
        reason=result.message,
        members=result.body.get("members", []),
        invitations=result.body.get("invitations", []),
        roles=ROLES,
        invited=None,
        errors={},
        values={"email": "", "role": "member"},
    )


@blueprint.post("/team/invitations")
@signed_in
async def team_invite() -> Response:
    form = await request.form
    values = {"email": form.get("email", "").strip(), "role": form.get("role", "")}
    result = await api("POST", TEAM, json_body=values)
    listed = await api("GET", TEAM)
    invited = None
    if result.ok:
        token = result.body["token"]
        invited = {
            **result.body["invitation"],
            "link": f"{public_base()}/portal/accept-invitation?" + urlencode({"token": token}),
        }
    return await page(
        "team.html",
        status=201 if result.ok else 400,
        available=listed.ok,
        reason=listed.message,
        members=listed.body.get("members", []),
        invitations=listed.body.get("invitations", []),
        roles=ROLES,
        invited=invited,
        errors=result.field_errors() if not result.ok else {},
        message="" if result.ok else result.message,
        values=values if not result.ok else {"email": "", "role": "member"},
    )


@blueprint.post("/team/members/<member_id>/role")
@signed_in
async def team_role(member_id: str) -> Response:
    role = (await request.form).get("role", "")
    result = await api_found("PATCH", f"{TEAM}/{member_id}", json_body={"role": role})
    if not result.ok:
        return await page("error.html", status=result.status, title=result.message)
    return _go("/portal/team", "role_changed")


@blueprint.post("/team/members/<member_id>/delete")
@signed_in
async def team_remove(member_id: str) -> Response:
    result = await api_found("DELETE", f"{TEAM}/{member_id}")
    if not result.ok:
        return await page("error.html", status=result.status, title=result.message)
    return _go("/portal/team", "removed")


@blueprint.get("/accept-invitation")
@hide
async def accept_form() -> Response:
    return await _accept_page(request.args.get("token", ""), {}, "")


async def _accept_page(token: str, errors: dict[str, str], message: str) -> Response:
    login_token = secrets.token_urlsafe(24)
    response = await page(
        "accept.html",
        status=400 if message else 200,
        token=token,
        errors=errors,
        message=message,
        login_csrf=login_token,
    )
    response.set_cookie(
        LOGIN_CSRF_COOKIE, login_token, path="/portal", httponly=True, secure=_secure(),
        samesite="Lax",
    )  # fmt: skip
    return response


@blueprint.post("/accept-invitation")
@hide
async def accept_submit() -> Response:
    form = await request.form
    token = form.get("token", "")
    result = await call(
        "POST",
        "/auth/accept-invitation",
        json_body={"token": token, "password": form.get("password", "")},
        token="",
    )
    if not result.ok:
        return await _accept_page(token, result.field_errors(), result.message)
    return _go("/portal/login", "joined")


@blueprint.route("/<path:unknown>", methods=["GET", "HEAD"])
@hide
async def unknown_page(unknown: str) -> Response:
    """Any other ``/portal/...`` address: the portal's 404 page in the page's language (the
    app's JSON 404 is for API clients). The most specific rule wins, so every real page's
    route, and those registered after this one, still match first."""
    raise NotFoundPage()


# The visual-reading pages register their routes on this blueprint.
# The Developers area (balance, usage, ledger, keys, webhooks, audit) and the test-mode switch.
from astro_server.portal import developers as _developers  # noqa: E402, F401
from astro_server.portal import visual as _visual  # noqa: E402, F401
