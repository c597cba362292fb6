"""Tortoise models of the astro app. Migrations live in ``models/migrations``.

Add a model: define it in a module here, import it below, then run
``uv run tortoise -c astro_server.models.makemigrations_config.TORTOISE_ORM makemigrations``.
"""

from astro_server.models.accounts import (
    Account,
    ApiKey,
    Customer,
    CustomerSession,
    TeamInvitation,
)
from astro_server.models.audit import AuditEvent
from astro_server.models.billing import IdempotencyRecord, LedgerEntry, UsageDaily, UsageRollup
from astro_server.models.brands import BrandProfile
from astro_server.models.campaigns import Campaign, CampaignDay
from astro_server.models.delivery import (
    FeedDelivery,
    FeedDeliveryAttempt,
    HoroscopeFeedSubscription,
    WebhookEndpoint,
)
from astro_server.models.files import StoredFile
from astro_server.models.horoscopes import PublishedHoroscope
from astro_server.models.jobs import Job
from astro_server.models.profiles import AccountDataKey, ClientProfile, ClientProfileTag
from astro_server.models.reports import Report
from astro_server.models.visual import VisualReading, VisualUpload

__all__ = [
    "Account",
    "AccountDataKey",
    "ApiKey",
    "AuditEvent",
    "BrandProfile",
    "Campaign",
    "CampaignDay",
    "ClientProfile",
    "ClientProfileTag",
    "Customer",
    "CustomerSession",
    "FeedDelivery",
    "FeedDeliveryAttempt",
    "HoroscopeFeedSubscription",
    "IdempotencyRecord",
    "Job",
    "LedgerEntry",
    "PublishedHoroscope",
    "Report",
    "StoredFile",
    "TeamInvitation",
    "UsageDaily",
    "UsageRollup",
    "VisualReading",
    "VisualUpload",
    "WebhookEndpoint",
]
