"""Report brand profiles (create, list, get, update, delete) and the Branding object.

Field rules (the spec is silent; decisions.md): ``name`` and ``brand_name`` 1..120 characters;
``primary_color`` ``#RRGGBB``; ``contact_email`` an address (local@domain.tld, 254 at most);
``contact_phone`` E.164 (``+`` and 7..15 digits); ``contact_url`` and ``logo_url`` https.

The logo is fetched once, when a profile is saved with a ``logo_url``, through the delivery
engine's client (https, public addresses only, the address pinned, no redirects followed),
within 10 s and 2 MB. It must be a PNG or JPEG (decoded by Pillow, at most 4096 x 4096) or an
SVG, which is sanitised: only drawing elements are kept (no ``script``, ``foreignObject``,
``iframe``...), every ``on*`` handler and every reference that is not inside the document
(``href`` to a URL, ``url(...)`` to a URL, ``@import``) is removed; a DOCTYPE is refused (no
entity tricks). The stored copy is what reports use: the URL is never fetched again. A logo
that cannot be fetched or decoded is a 400 naming ``branding.logo_url``.
"""

from __future__ import annotations

import io
import re
import secrets
import xml.etree.ElementTree as ET
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from astro_server.features.brands.models import BrandProfile
from astro_server.platform import clock, files
from astro_server.platform.delivery import common as delivery
from astro_server.platform.delivery.http import fetch
from astro_server.platform.errors import APIError, not_found, validation_error
from astro_server.platform.models.files import StoredFile
from astro_server.platform.paging import newest_first

BRANDING_FIELDS = (
    "brand_name",
    "logo_url",
    "primary_color",
    "contact_email",
    "contact_phone",
    "contact_url",
)
PROFILE_ID_PATTERN = r"^brand_[a-f0-9]{24}$"
NAME_MAX = 120
LOGO_MAX_BYTES = 2 * 1024 * 1024
LOGO_TIMEOUT_S = 10.0
LOGO_MAX_SIDE_PX = 4096

_COLOR = re.compile(r"^#[0-9A-Fa-f]{6}$")
_EMAIL = re.compile(
    r"^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$"
)
_PHONE = re.compile(r"^\+[0-9]{7,15}$")
_HTTPS = re.compile(r"^https://[^\s/?#]+[^\s]*$")


@dataclass(frozen=True)
class Branding:
    """What a report renderer needs: the fields, and the stored logo's bytes (never a URL)."""

    brand_name: str | None = None
    primary_color: str | None = None
    contact_email: str | None = None
    contact_phone: str | None = None
    contact_url: str | None = None
    logo_url: str | None = None
    logo: bytes | None = None
    logo_content_type: str | None = None


# --- field rules -----------------------------------------------------------------------------


def _problem(field: str, message: str) -> dict[str, str]:
    return {"field": field, "message": message}


def branding_problems(
    branding: Mapping[str, Any], prefix: str = "branding"
) -> list[dict[str, str]]:
    """Field-level problems of a Branding object (None values are absent fields)."""
    problems: list[dict[str, str]] = []
    for key in branding:
        if key not in BRANDING_FIELDS:
            problems.append(_problem(f"{prefix}.{key}", "Unknown branding field."))
    for key in BRANDING_FIELDS:
        value = branding.get(key)
        if value is None:
            continue
        field = f"{prefix}.{key}"
        if not isinstance(value, str):
            problems.append(_problem(field, "Must be a string."))
            continue
        if key == "brand_name" and not 1 <= len(value) <= NAME_MAX:
            problems.append(_problem(field, f"Must be 1 to {NAME_MAX} characters."))
        elif key == "primary_color" and not _COLOR.match(value):
            problems.append(_problem(field, "Must be a colour as #RRGGBB (hex digits)."))
        elif key == "contact_email" and (len(value) > 254 or not _EMAIL.match(value)):
            problems.append(_problem(field, "Must be an e-mail address (name@domain.tld)."))
        elif key == "contact_phone" and not _PHONE.match(value):
            problems.append(_problem(field, "Must be E.164: + followed by 7 to 15 digits."))
        elif key in ("contact_url", "logo_url") and (len(value) > 2048 or not _HTTPS.match(value)):
            problems.append(_problem(field, "Must be an https:// URL (2048 characters at most)."))
    return problems


def _name_problems(name: Any) -> list[dict[str, str]]:
    if not isinstance(name, str) or not 1 <= len(name) <= NAME_MAX:
        return [_problem("name", f"Must be a string of 1 to {NAME_MAX} characters.")]
    return []


# --- the logo --------------------------------------------------------------------------------


class LogoRefused(Exception):
    """The logo could not be fetched, or is not a PNG, JPEG or SVG we accept."""


_SVG_NS = "http://www.w3.org/2000/svg"
_XLINK_NS = "http://www.w3.org/1999/xlink"
# Drawing elements kept in a logo; anything else (script, foreignObject, iframe, a, image with
# a URL...) goes with its content.
_SVG_ELEMENTS = frozenset(
    [
        "svg",
        "g",
        "defs",
        "symbol",
        "use",
        "path",
        "rect",
        "circle",
        "ellipse",
        "line",
        "polyline",
        "polygon",
        "text",
        "tspan",
        "textPath",
        "title",
        "desc",
        "linearGradient",
        "radialGradient",
        "stop",
        "clipPath",
        "mask",
        "pattern",
        "style",
        "image",
        "filter",
        "feGaussianBlur",
        "feOffset",
        "feBlend",
        "feColorMatrix",
        "feFlood",
        "feComposite",
        "feMerge",
        "feMergeNode",
        "feMorphology",
        "marker",
    ]
)
#: The attributes a logo keeps (issue 50): geometry, paint, text and reference attributes of
#: the elements above; anything else (data-*, event handlers, xml:base, unknown names) goes.
_SVG_ATTRIBUTES: Final = frozenset(
    [
        "id",
        "class",
        "style",
        "transform",
        "viewBox",
        "preserveAspectRatio",
        "width",
        "height",
        "x",
        "y",
        "x1",
        "y1",
        "x2",
        "y2",
        "cx",
        "cy",
        "r",
        "rx",
        "ry",
        "d",
        "points",
        "dx",
        "dy",
        "rotate",
        "textLength",
        "lengthAdjust",
        "fill",
        "fill-opacity",
        "fill-rule",
        "stroke",
        "stroke-width",
        "stroke-opacity",
        "stroke-linecap",
        "stroke-linejoin",
        "stroke-miterlimit",
        "stroke-dasharray",
        "stroke-dashoffset",
        "opacity",
        "color",
        "display",
        "visibility",
        "overflow",
        "clip-path",
        "clip-rule",
        "mask",
        "filter",
        "marker-start",
        "marker-mid",
        "marker-end",
        "font-family",
        "font-size",
        "font-style",
        "font-weight",
        "font-variant",
        "text-anchor",
        "dominant-baseline",
        "alignment-baseline",
        "baseline-shift",
        "letter-spacing",
        "word-spacing",
        "text-decoration",
        "writing-mode",
        "direction",
        "href",
        "gradientUnits",
        "gradientTransform",
        "spreadMethod",
        "fx",
        "fy",
        "fr",
        "offset",
        "stop-color",
        "stop-opacity",
        "clipPathUnits",
        "maskUnits",
        "maskContentUnits",
        "patternUnits",
        "patternContentUnits",
        "patternTransform",
        "filterUnits",
        "primitiveUnits",
        "in",
        "in2",
        "result",
        "stdDeviation",
        "mode",
        "type",
        "values",
        "operator",
        "k1",
        "k2",
        "k3",
        "k4",
        "radius",
        "flood-color",
        "flood-opacity",
        "markerWidth",
        "markerHeight",
        "markerUnits",
        "refX",
        "refY",
        "orient",
        "version",
        "xmlns",
        "startOffset",
        "method",
        "spacing",
        "side",
        "path",
        "lang",
        "xml:space",
    ]
)
_EXTERNAL_URL = re.compile(r"url\(\s*['\"]?(?!#)", re.IGNORECASE)
_LOCAL_IMAGE = re.compile(r"^data:image/(png|jpeg);base64,[A-Za-z0-9+/=\s]+$")


_CSS_COMMENT = re.compile(r"/\*.*?(\*/|$)", re.S)
_CSS_ESCAPE = re.compile(r"\\(?:([0-9a-fA-F]{1,6})[ \t\n\r\f]?|(\r\n|[\n\r\f])|(.)|$)", re.S)
# What can make a style sheet fetch or pull in anything, once escapes and comments are gone:
# at-rules (@import, @font-face, @namespace...), url() other than a local url(#id) and its
# relatives (image-set, image, cross-fade, element, src), and legacy script hooks
# (expression, behavior, -moz-binding).
_CSS_FETCHES = re.compile(
    r"@|url\((?!\s*['\"]?#)|image-set|image\(|cross-fade|element\(|src\("
    r"|expression|behavior|binding",
)


def _css_unescape(css: str) -> str:
    """CSS text with escapes resolved (CSS Syntax 3, 4.3.7): ``\\69`` -> ``i``, ``\\r`` ->
    ``r``; an escaped newline is removed. Code points that are 0, surrogates or past U+10FFFF
    become U+FFFD, as a browser reads them."""

    def one(match: re.Match[str]) -> str:
        hexa, newline, other = match.groups()
        if hexa is not None:
            code = int(hexa, 16)
            if code == 0 or 0xD800 <= code <= 0xDFFF or code > 0x10FFFF:
                return "\ufffd"
            return chr(code)
        if newline is not None:
            return ""
        return other if other is not None else "\ufffd"

    return _CSS_ESCAPE.sub(one, css)


def css_may_fetch(css: str) -> bool:
    """Whether CSS (a ``<style>`` element's text or a ``style`` attribute) could load anything:
    checked after unescaping and removing comments, case-insensitively, so ``@\\69mport``,
    ``u\\72l(``, ``u\\rl(`` and ``@font-face`` are all caught. Conservative: a harmless sheet
    holding an ``@`` in a string is dropped too."""
    plain = _CSS_COMMENT.sub(" ", _css_unescape(css)).lower()
    return bool(_CSS_FETCHES.search(plain))


def _presentation_may_fetch(value: str) -> bool:
    """Whether a presentation attribute's value could load anything (issue 50: ``mask`` and
    ``cursor`` with ``image-set(...)`` fetched when the SVG was opened as a document): read as
    CSS (escapes resolved, comments gone), any ``url()`` but a local ``url(#id)`` and the
    image functions (``image-set``, ``image()``, ``cross-fade``, ``element()``, ``src()``)."""
    plain = _CSS_COMMENT.sub("", _css_unescape(value)).lower()
    return bool(_EXTERNAL_URL.search(plain) or _CSS_FETCHES.search(plain.replace("@", "")))


def _local_name(tag: str) -> tuple[str | None, str]:
    if tag.startswith("{"):
        namespace, _, name = tag[1:].partition("}")
        return namespace, name
    return None, tag


def sanitise_svg(data: bytes) -> bytes:
    """The SVG with only drawing elements and no script, handler or outside reference."""
    head = data[:4096].lower()
    if b"<!doctype" in head or b"<!entity" in data.lower():
        raise LogoRefused("an SVG with a DOCTYPE or entities is not accepted")
    try:
        # No DOCTYPE reached this point, so no entity can be declared or expanded: the attacks
        # defusedxml guards against need one.
        root = ET.fromstring(data)  # noqa: S314
    except ET.ParseError as exc:
        raise LogoRefused(f"not a well-formed SVG ({exc})") from None
    if _local_name(root.tag) != (_SVG_NS, "svg"):
        raise LogoRefused("not an SVG document (the root is not an svg element)")

    def clean(element: ET.Element) -> None:
        for child in list(element):
            namespace, name = _local_name(child.tag) if isinstance(child.tag, str) else (None, "")
            if namespace != _SVG_NS or name not in _SVG_ELEMENTS:
                element.remove(child)
                continue
            if name == "style" and (len(child) or css_may_fetch("".join(child.itertext()))):
                # A style sheet is text only: one holding elements (text can hide after them)
                # or anything that could fetch goes whole.
                element.remove(child)
                continue
            clean(child)
        for attribute in list(element.attrib):
            namespace, name = _local_name(attribute)
            value = element.attrib[attribute]
            lowered = name.lower()
            if (
                lowered.startswith("on")
                or namespace not in (None, _XLINK_NS)
                or name not in _SVG_ATTRIBUTES
                or (namespace == _XLINK_NS and name != "href")
            ):
                del element.attrib[attribute]
            elif lowered == "href":
                local_image = _local_name(element.tag)[1] == "image" and _LOCAL_IMAGE.match(value)
                if not value.startswith("#") and not local_image:
                    del element.attrib[attribute]
            elif (
                _EXTERNAL_URL.search(value)
                or "javascript:" in value.lower()
                or (lowered == "style" and css_may_fetch(value))
            ):
                del element.attrib[attribute]
            elif _presentation_may_fetch(value):
                del element.attrib[attribute]  # fill=u\rl(...), mask=image-set(...), ...

    clean(root)
    for attribute in [a for a in root.attrib if _local_name(a)[1].lower().startswith("on")]:
        del root.attrib[attribute]
    ET.register_namespace("", _SVG_NS)
    ET.register_namespace("xlink", _XLINK_NS)
    cleaned: bytes = ET.tostring(root, encoding="utf-8", xml_declaration=True)
    return cleaned


def decode_logo(data: bytes) -> tuple[bytes, str]:
    """(stored bytes, content type) of a PNG, JPEG or SVG logo; LogoRefused otherwise."""
    if data.startswith((b"\x89PNG\r\n\x1a\n", b"\xff\xd8\xff")):
        from PIL import Image

        try:
            with Image.open(io.BytesIO(data)) as image:
                kind = image.format
                width, height = image.size
                if max(width, height) > LOGO_MAX_SIDE_PX:
                    raise LogoRefused(f"larger than {LOGO_MAX_SIDE_PX} pixels on a side")
                image.load()  # decodes every pixel: a truncated or corrupt file fails here
        except LogoRefused:
            raise
        except Exception as exc:
            raise LogoRefused(f"the image cannot be decoded ({type(exc).__name__})") from None
        if kind not in ("PNG", "JPEG"):
            raise LogoRefused("only PNG, JPEG and SVG logos are accepted")
        return data, "image/png" if kind == "PNG" else "image/jpeg"
    text_start = data[:512].lstrip().lower()
    if text_start.startswith((b"<?xml", b"<svg", b"<!--")):
        return sanitise_svg(data), "image/svg+xml"
    raise LogoRefused("only PNG, JPEG and SVG logos are accepted")


async def fetch_logo(url: str) -> tuple[bytes, str]:
    """Fetch and decode a logo (see the module docstring); LogoRefused with the reason."""
    result = await fetch(delivery.client(), url, max_bytes=LOGO_MAX_BYTES, timeout_s=LOGO_TIMEOUT_S)
    if result.too_large:
        raise LogoRefused(f"the logo is larger than {LOGO_MAX_BYTES // (1024 * 1024)} MB")
    if result.error is not None:
        raise LogoRefused(f"the logo could not be fetched: {result.error}")
    return decode_logo(result.body)


async def store_logo(account_id: str, url: str) -> StoredFile:
    """Fetch, check and store a logo; a 400 naming ``branding.logo_url`` when refused."""
    try:
        data, content_type = await fetch_logo(url)
    except LogoRefused as exc:
        raise _logo_error(str(exc)) from None
    extension = {"image/png": "png", "image/jpeg": "jpg", "image/svg+xml": "svg"}[content_type]
    return await files.store_file(
        account_id, data, content_type, f"logo.{extension}", "brand_logo", keep=True
    )


def _logo_error(reason: str) -> APIError:
    err = validation_error(
        [_problem("branding.logo_url", f"Logo refused: {reason}.")], f"Logo refused: {reason}."
    )
    err.code = "logo_refused"
    return err


# --- profiles --------------------------------------------------------------------------------


def profile_view(profile: BrandProfile) -> dict[str, Any]:
    return {
        "id": profile.id,
        "name": profile.name,
        "branding": {k: profile.branding.get(k) for k in BRANDING_FIELDS},
        "created_at": clock.iso(profile.created_at),
        "updated_at": clock.iso(profile.updated_at),
    }


def _clean(branding: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in branding.items() if v is not None}


async def create_profile(account_id: str, name: Any, branding: Any) -> BrandProfile:
    problems = _name_problems(name)
    if not isinstance(branding, Mapping):
        problems.append(_problem("branding", "Must be a Branding object."))
    else:
        problems += branding_problems(branding)
        if branding.get("brand_name") is None:
            problems.append(_problem("branding.brand_name", "Required."))
    if problems:
        raise validation_error(problems)
    assert isinstance(branding, Mapping)
    stored = _clean(branding)
    logo = await store_logo(account_id, stored["logo_url"]) if stored.get("logo_url") else None
    try:
        return await BrandProfile.create(
            id="brand_" + secrets.token_hex(12),
            account_id=account_id,
            name=name,
            branding=stored,
            logo_file_id=logo.id if logo else None,
        )
    except BaseException:
        if logo is not None:
            await files.delete_file(logo)
        raise


async def update_profile(profile: BrandProfile, changes: Mapping[str, Any]) -> BrandProfile:
    """Fields given replace those stored; inside ``branding`` too (a field set to null is
    removed). A ``logo_url`` given is fetched again."""
    problems: list[dict[str, str]] = []
    for key in changes:
        if key not in ("name", "branding"):
            problems.append(_problem(key, "Unknown field; a profile has name and branding."))
    if "name" in changes:
        problems += _name_problems(changes["name"])
    branding = changes.get("branding")
    if "branding" in changes:
        if not isinstance(branding, Mapping):
            problems.append(_problem("branding", "Must be a Branding object."))
        else:
            problems += branding_problems(branding)
            if "brand_name" in branding and branding["brand_name"] is None:
                problems.append(_problem("branding.brand_name", "Cannot be removed."))
    if problems:
        raise validation_error(problems)
    merged = dict(profile.branding)
    new_logo: StoredFile | None = None
    logo_changed = False
    if isinstance(branding, Mapping):
        merged = _clean({**merged, **branding})
        if "logo_url" in branding:
            logo_changed = True
            if branding["logo_url"] is not None:
                new_logo = await store_logo(profile.account_id, branding["logo_url"])
    old_logo_id = profile.logo_file_id
    try:
        if "name" in changes:
            profile.name = changes["name"]
        profile.branding = merged
        if logo_changed:
            profile.logo_file_id = new_logo.id if new_logo else None
        await profile.save()
    except BaseException:
        if new_logo is not None:
            await files.delete_file(new_logo)
        raise
    if logo_changed and old_logo_id:
        await _delete_logo(old_logo_id)
    return profile


async def _delete_logo(file_id: str) -> None:
    old = await StoredFile.get_or_none(id=file_id)
    if old is not None and old.deleted_at is None:
        await files.delete_file(old)


async def delete_profile(profile: BrandProfile) -> None:
    await profile.delete()
    if profile.logo_file_id:
        await _delete_logo(profile.logo_file_id)


async def owned_profile(account_id: str, profile_id: str) -> BrandProfile:
    if not re.fullmatch(PROFILE_ID_PATTERN, profile_id):
        raise not_found("Report brand profile")
    profile = await BrandProfile.get_or_none(id=profile_id, account_id=account_id)
    if profile is None:
        raise not_found("Report brand profile")
    return profile


async def list_profiles(
    account_id: str, *, limit: int, cursor: str | None
) -> tuple[list[BrandProfile], str | None]:
    """Newest first; ``cursor`` is the id of the last item of the previous page."""
    query = BrandProfile.filter(account_id=account_id)
    return await newest_first(query, limit=limit, cursor=cursor)


async def branding_for(profile_id: str, account_id: str) -> Branding:
    """The profile's Branding with the stored logo's bytes (for the report renderer).

    Another account's profile is "not found" (404), as on every route.
    """
    profile = await owned_profile(account_id, profile_id)
    logo: bytes | None = None
    logo_type: str | None = None
    if profile.logo_file_id:
        stored = await StoredFile.get_or_none(id=profile.logo_file_id)
        if stored is not None and stored.deleted_at is None:
            logo, logo_type = await files.read_file(stored), stored.content_type
    fields = {k: profile.branding.get(k) for k in BRANDING_FIELDS}
    return Branding(**fields, logo=logo, logo_content_type=logo_type)
