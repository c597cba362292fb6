"""Tortoise models of the astro app. Migrations live in ``models/migrations``.

Add a model: define it in a module here, import it below, then run
``uv run tortoise -c astro_server.models.makemigrations_config.TORTOISE_ORM makemigrations``.
"""

from astro_server.models.accounts import Account, ApiKey, Customer, CustomerSession
from astro_server.models.billing import IdempotencyRecord, LedgerEntry
from astro_server.models.brands import BrandProfile
from astro_server.models.delivery import (
    FeedDelivery,
    FeedDeliveryAttempt,
    HoroscopeFeedSubscription,
    WebhookEndpoint,
)
from astro_server.models.files import StoredFile
from astro_server.models.horoscopes import PublishedHoroscope
from astro_server.models.jobs import Job
from astro_server.models.visual import VisualReading, VisualUpload

__all__ = [
    "Account",
    "ApiKey",
    "BrandProfile",
    "Customer",
    "CustomerSession",
    "FeedDelivery",
    "FeedDeliveryAttempt",
    "HoroscopeFeedSubscription",
    "IdempotencyRecord",
    "Job",
    "LedgerEntry",
    "PublishedHoroscope",
    "StoredFile",
    "VisualReading",
    "VisualUpload",
    "WebhookEndpoint",
]
