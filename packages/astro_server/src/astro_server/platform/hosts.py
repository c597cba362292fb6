"""Where absolute URLs point, and which ``Host`` headers this server answers.

Signed file URLs, report URLs and invitation links are absolute. Their base is
``ASTRO_PUBLIC_URL`` when set; otherwise the request's own ``Host``, which is trusted only when
``ASTRO_ALLOWED_HOSTS`` lists it (``Host: attacker.invalid`` would otherwise give
``http://attacker.invalid/files/...``). With ``ASTRO_ALLOWED_HOSTS`` set, a request naming
another host is refused (400) before any route runs. In production (``ASTRO_DATABASE_URL`` or
``ASTRO_REDIS_URL`` set) the server refuses to start without one of them
(:meth:`~astro_server.settings.Settings.serving_problems`: ``serve``, ``asgi.py`` and
``check-config``); an app built in-process from such settings (tests) only warns.
"""

from __future__ import annotations

import logging

from quart import Quart, current_app, request

from astro_server.platform.errors import APIError
from astro_server.settings import Settings

log = logging.getLogger("astro_server.hosts")


def host_allowed(host: str, allowed: tuple[str, ...]) -> bool:
    """Whether ``host`` (``name`` or ``name:port``, any case) is listed; an entry without a port
    allows every port of that name."""
    host = host.strip().lower()
    name = host.rsplit(":", 1)[0] if not host.endswith("]") else host
    return host in allowed or name in allowed


def public_base() -> str:
    """The base of absolute URLs for the current request (no trailing slash)."""
    settings: Settings = current_app.config["ASTRO_SETTINGS"]
    if settings.public_url:
        return settings.public_url.rstrip("/")
    return request.host_url.rstrip("/")


def install(app: Quart, settings: Settings) -> None:
    """Refuse unknown ``Host`` headers when ``ASTRO_ALLOWED_HOSTS`` is set; warn in production
    when neither it nor ``ASTRO_PUBLIC_URL`` is."""
    if not settings.embedded and not settings.public_url and not settings.allowed_hosts:
        log.warning(
            "neither ASTRO_PUBLIC_URL nor ASTRO_ALLOWED_HOSTS is set: absolute URLs follow the "
            "request's Host header"
        )
    if not settings.allowed_hosts:
        return

    @app.before_request
    async def _check_host() -> None:
        if not host_allowed(request.host, settings.allowed_hosts):
            raise APIError(400, "This server does not answer for that Host.", error="bad_request")


__all__ = ["host_allowed", "install", "public_base"]
