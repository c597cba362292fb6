"""E-mail deliveries of visual-reading events, and notices (team invitations), by SMTP
(aiosmtplib).

An e-mail destination is a webhook-endpoint row whose ``destination_url`` is
``mailto:<address>``; the delivery pipeline sends its event by :func:`send_event_mail` instead
of an HTTP POST and records the outcome exactly as for a webhook (attempt log, retries, failure
count, disabling). The message is bilingual (English, then Thai), plain text and HTML, with the
reading's summary and a link to it; never the photo or the overlay. ``ASTRO_SMTP_URL`` is
``smtp://[user:password@]host:port`` (STARTTLS when the server offers it) or ``smtps://``.
"""

from __future__ import annotations

import html
import json
import time
from collections.abc import Callable
from email.message import EmailMessage
from functools import cache
from importlib import resources
from typing import Any
from urllib.parse import unquote, urlsplit

from astro_server.platform.delivery.http import AttemptResult
from astro_server.settings import Settings


@cache
def mail_texts() -> dict[str, Any]:
    """The e-mails' texts (``data/mail.json``), English and Thai."""
    raw = resources.files("astro_server").joinpath("data/mail.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(raw)
    return data


def _pair(texts: dict[str, Any], key: str) -> tuple[str, str]:
    return str(texts[key]["en"]), str(texts[key]["th"])


def event_message(address: str, body: bytes, settings: Settings) -> EmailMessage:
    """The bilingual message of one event: English, then Thai; a succeeded reading carries its
    summary and its disclaimer (face or palm reading) in both languages."""
    from astro_calc.disclaimers import disclaimer

    texts = mail_texts()
    event = json.loads(body)
    data = event.get("data") or {}
    subject = texts["subjects"].get(event["type"])
    en, th = (str(subject["en"]), str(subject["th"])) if subject else (event["type"],) * 2
    lines = [en, th, ""]
    summary = data.get("summary")
    if summary:
        lines += [str(summary), ""]
    notes: list[str] = []
    kind = texts["disclaimer_kinds"].get(str(data.get("kind")))
    if summary and kind:
        notes = [disclaimer(kind, "en"), disclaimer(kind, "th")]
    problems = data.get("problems") or []
    heading_en, heading_th = _pair(texts, "problems_heading")
    if problems:
        lines += [heading_en, heading_th]
    lines += [f"- {p}" for p in problems]
    link = None
    open_en, open_th = _pair(texts, "open_reading")
    if data.get("reading_id"):
        base = settings.public_url or ""
        link = f"{base}/v1/visual-readings/{data['reading_id']}"
        lines += [f"{open_en} / {open_th}: {link}"]
    if notes:
        lines += ["", *notes]
    message = EmailMessage()
    message["From"] = settings.mail_from
    message["To"] = address
    message["Subject"] = f"{en} / {th}"
    message["Message-ID"] = f"<{event['id']}@astro>"
    message.set_content("\n".join(lines))
    parts = [f"<p><strong>{html.escape(en)}</strong><br>{html.escape(th)}</p>"]
    if summary:
        parts.append(f"<p>{html.escape(str(summary))}</p>")
    if problems:
        parts.append(f"<p>{html.escape(heading_en)}<br>{html.escape(heading_th)}</p>")
        parts.append("<ul>" + "".join(f"<li>{html.escape(p)}</li>" for p in problems) + "</ul>")
    if link:
        label = html.escape(f"{open_en} / {open_th}")
        parts.append(f'<p><a href="{html.escape(link)}">{label}</a></p>')
    for note in notes:
        parts.append(f"<p><small>{html.escape(note)}</small></p>")
    message.add_alternative("<html><body>" + "".join(parts) + "</body></html>", subtype="html")
    return message


async def send_event_mail(address: str, body: bytes, settings: Settings) -> AttemptResult:
    """Send one event by e-mail; never raises (a failure is an AttemptResult with ``error``)."""
    return await send_message(lambda: event_message(address, body, settings), settings)


def notice_message(address: str, subject: str, text: str, settings: Settings) -> EmailMessage:
    """A plain-text notice to one address (team invitations)."""
    message = EmailMessage()
    message["From"] = settings.mail_from
    message["To"] = address
    message["Subject"] = subject
    message.set_content(text)
    return message


async def send_message(build: Callable[[], EmailMessage], settings: Settings) -> AttemptResult:
    """Build and send one message through ``ASTRO_SMTP_URL``; never raises (a failure, or no
    SMTP configured, is an AttemptResult with ``error``)."""
    import aiosmtplib

    started = time.perf_counter()

    def elapsed_ms() -> int:
        return round((time.perf_counter() - started) * 1000)

    if not settings.smtp_url:
        return AttemptResult(None, 0, "", "e-mail is not configured (ASTRO_SMTP_URL)")
    url = urlsplit(settings.smtp_url)
    try:
        message = build()
        await aiosmtplib.send(
            message,
            hostname=url.hostname,
            port=url.port or (465 if url.scheme == "smtps" else 25),
            username=unquote(url.username) if url.username else None,
            password=unquote(url.password) if url.password else None,
            use_tls=url.scheme == "smtps",
            timeout=15,
        )
    except Exception as exc:
        return AttemptResult(None, elapsed_ms(), "", f"smtp: {type(exc).__name__}: {exc}"[:500])
    return AttemptResult(250, elapsed_ms(), "accepted", None)
