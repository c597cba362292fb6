"""The platform's tables (accounts, credentials, ledger, audit, jobs, files, deliveries).

Each feature keeps its own tables in ``features/<group>/models.py``; every model module is listed
once in :data:`astro_server.registry.MODEL_MODULES`, and all share one tortoise app
(``astro``) whose migrations live in ``platform/models/migrations``. Add a model: define it in
its feature's (or the platform's) ``models.py``, list a new module in ``MODEL_MODULES``, then run
``uv run tortoise -c astro_server.makemigrations_config.TORTOISE_ORM makemigrations``.
"""

from astro_server.platform.models.accounts import (
    Account,
    ApiKey,
    Customer,
    CustomerSession,
    TeamInvitation,
)
from astro_server.platform.models.audit import AuditEvent
from astro_server.platform.models.billing import (
    IdempotencyRecord,
    LedgerEntry,
    UsageDaily,
    UsageRollup,
)
from astro_server.platform.models.delivery import (
    FeedDelivery,
    FeedDeliveryAttempt,
    HoroscopeFeedSubscription,
    WebhookEndpoint,
)
from astro_server.platform.models.files import StoredFile
from astro_server.platform.models.jobs import Job

__all__ = [
    "Account",
    "ApiKey",
    "AuditEvent",
    "Customer",
    "CustomerSession",
    "FeedDelivery",
    "FeedDeliveryAttempt",
    "HoroscopeFeedSubscription",
    "IdempotencyRecord",
    "Job",
    "LedgerEntry",
    "StoredFile",
    "TeamInvitation",
    "UsageDaily",
    "UsageRollup",
    "WebhookEndpoint",
]
