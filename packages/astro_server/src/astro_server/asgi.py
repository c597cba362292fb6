"""ASGI entry point for hypercorn: ``astro_server.asgi:app``."""

from astro_server.app import create_app

app = create_app()
