"""Typed Python client for the Astro astrology API."""

from astro_sdk._client import AstroClient

__version__ = "0.1.0"
__all__ = ["AstroClient", "__version__"]
