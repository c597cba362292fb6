"""Tortoise models of the astro app. Migrations live in ``models/migrations``."""

from astro_server.models.accounts import Account

__all__ = ["Account"]
