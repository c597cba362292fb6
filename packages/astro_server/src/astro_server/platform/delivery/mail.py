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
from urllib.parse import unquote, urlsplit

from astro_server.platform.delivery.http import AttemptResult
from astro_server.settings import Settings

SUBJECTS = {
    "visual_reading.succeeded": ("Your reading is ready", "ผลการอ่านของคุณพร้อมแล้ว"),
    "visual_reading.failed": ("Your reading could not be completed", "ไม่สามารถอ่านผลได้"),
    "visual_upload.validated": ("Your photo was accepted", "รูปภาพของคุณผ่านการตรวจสอบแล้ว"),
    "visual_upload.rejected": ("Your photo was not accepted", "รูปภาพของคุณไม่ผ่านการตรวจสอบ"),
}


def event_message(address: str, body: bytes, settings: Settings) -> EmailMessage:
    event = json.loads(body)
    data = event.get("data") or {}
    en, th = SUBJECTS.get(event["type"], (event["type"], event["type"]))
    lines = [en, th, ""]
    summary = data.get("summary")
    if summary:
        lines += [str(summary), ""]
    problems = data.get("problems") or []
    lines += [f"- {p}" for p in problems]
    link = None
    if data.get("reading_id"):
        base = settings.public_url or ""
        link = f"{base}/v1/visual-readings/{data['reading_id']}"
        lines += [f"Open your reading / เปิดดูผลการอ่าน: {link}"]
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
        parts.append("<ul>" + "".join(f"<li>{html.escape(p)}</li>" for p in problems) + "</ul>")
    if link:
        parts.append(f'<p><a href="{html.escape(link)}">Open your reading / เปิดดูผลการอ่าน</a></p>')
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
