"""The delivery engine shared by every outbound webhook (horoscope feeds, reports, visual readings).

ssrf         destination checks: https only, every resolved address public
http         the attempt client: pinned address, TLS for the host name, no redirects, 15 s
signing      Standard Webhooks headers and secrets (``whsec_``), rotation overlap
secrets_box  signing secrets encrypted at rest under the server key
retry        retry schedule, consecutive failure counting, disabling
schedule     due-time logic for daily deliveries in a subscriber's time zone
"""

from astro_server.platform.delivery.http import AttemptResult, DeliveryClient
from astro_server.platform.delivery.retry import DEFAULT_POLICY, RetryPolicy, SubscriptionHealth
from astro_server.platform.delivery.secrets_box import SecretBox, SecretDecryptionError
from astro_server.platform.delivery.signing import new_message_id, new_signing_secret, sign_headers
from astro_server.platform.delivery.ssrf import (
    CheckedDestination,
    UnsafeDestination,
    check_destination,
    check_url_syntax,
)

__all__ = [
    "DEFAULT_POLICY",
    "AttemptResult",
    "CheckedDestination",
    "DeliveryClient",
    "RetryPolicy",
    "SecretBox",
    "SecretDecryptionError",
    "SubscriptionHealth",
    "UnsafeDestination",
    "check_destination",
    "check_url_syntax",
    "new_message_id",
    "new_signing_secret",
    "sign_headers",
]
