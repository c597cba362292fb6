"""One settings object, read from ``ASTRO_*`` environment variables with embedded defaults.

Unset ``ASTRO_DATABASE_URL`` and ``ASTRO_REDIS_URL`` select the embedded mode (SQLite under the
data directory, in-process broker and scheduler); set, they select production (PostgreSQL through
asyncpg, taskiq-redis). Every variable is documented in the README.
"""

from __future__ import annotations

import ipaddress
import math
import os
import secrets
import string
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import timedelta
from pathlib import Path
from typing import Any, Final

from astro_server.platform.billing.pricing import TIERS

IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network

DEFAULT_RATE_LIMITS = {"free": 60, "starter": 300, "pro": 1200, "enterprise": 6000}


def _bool(value: str) -> bool:
    return value.strip().lower() in {"1", "true", "yes", "on"}


#: The strength ``ASTRO_SECRET_KEY`` needs in production: 32 random bytes.
SECRET_KEY_MIN_BITS: Final = 256
#: Words that mark a key someone typed or copied from an example rather than generated
#: (matched case-insensitively anywhere in the key, so ``changeme-changeme-...`` is caught too;
#: six letters or more, so a random key contains one with negligible probability).
_PLACEHOLDER_WORDS: Final = (
    "changeme", "change-me", "change_me", "secret", "password", "passw0rd", "example",
    "insecure", "default", "replace", "placeholder", "dummy", "qwerty", "123456", "letmein",
    "notsecure",
)  # fmt: skip
GENERATE_HINT: Final = "make one with `astro-server generate-secret`"


_BASE64URL: Final = frozenset(string.ascii_letters + string.digits + "-_")


def secret_key_bits(key: str) -> float:
    """An upper estimate of the randomness in ``key``, in bits: the length of its shortest
    repeating unit (``abcabcabc`` counts 3) times log2 of the alphabet its characters span:
    64 for URL-safe base64 with both cases and digits (``secrets.token_urlsafe``), otherwise
    the sum of its classes (digits 10, lower 26, upper 26, other printable ASCII 33; 256 with
    any non-ASCII character); at most log2 of its distinct characters per character when it
    has fewer than ten (``aaaa``, ``abab``). ``token_urlsafe(32)`` (43 characters) and
    ``token_hex(32)`` (64) score at least 256. An estimate, not a proof: it cannot tell a
    random-looking but known string from a random one."""
    if not key:
        return 0.0
    length = len(key)
    for period in range(1, length // 2 + 1):
        if length % period == 0 and key[:period] * (length // period) == key:
            length = period
            break
    digits = any(c in string.digits for c in key)
    lower = any(c in string.ascii_lowercase for c in key)
    upper = any(c in string.ascii_uppercase for c in key)
    if digits and lower and upper and set(key) <= _BASE64URL:
        alphabet = 64
    else:
        alphabet = 10 * digits + 26 * lower + 26 * upper
        if any(c.isascii() and not c.isalnum() for c in key):
            alphabet += 33
        if not key.isascii():
            alphabet = 256
    per_char = math.log2(max(alphabet, 2))
    distinct = len(set(key))
    if distinct < 10:
        per_char = min(per_char, math.log2(max(distinct, 2)))
    return length * per_char


def secret_key_problem(key: str) -> str | None:
    """Why ``key`` is unfit as a production ``ASTRO_SECRET_KEY``, in one line, or None."""
    if not key:
        return f"ASTRO_SECRET_KEY is not set; production needs one ({GENERATE_HINT})"
    lowered = key.lower()
    for word in _PLACEHOLDER_WORDS:
        if word in lowered:
            return (
                f"ASTRO_SECRET_KEY looks like a placeholder (it contains {word!r}); {GENERATE_HINT}"
            )
    bits = secret_key_bits(key)
    if bits < SECRET_KEY_MIN_BITS:
        return (
            f"ASTRO_SECRET_KEY is too weak (about {int(bits)} bits; production needs "
            f"{SECRET_KEY_MIN_BITS}, 32 random bytes); {GENERATE_HINT}"
        )
    return None


def generate_secret_key() -> str:
    """A new key: 48 random bytes, URL-safe base64 (64 characters, 384 bits)."""
    while True:
        key = secrets.token_urlsafe(48)
        if secret_key_problem(key) is None:  # a placeholder word by chance: draw again
            return key


def parse_trusted_proxies(raw: str) -> tuple[IPNetwork, ...]:
    """``ASTRO_TRUSTED_PROXIES``: addresses or CIDRs separated by commas or spaces
    (``127.0.0.1, 10.0.0.0/8, fd00::/8``). A bare address is a one-address network."""
    networks: list[IPNetwork] = []
    for item in raw.replace(",", " ").split():
        try:
            networks.append(ipaddress.ip_network(item, strict=False))
        except ValueError:
            raise ValueError(
                f"ASTRO_TRUSTED_PROXIES: {item!r} is not an IP address or CIDR "
                "(e.g. 127.0.0.1 or 10.0.0.0/8)"
            ) from None
    return tuple(networks)


@dataclass(frozen=True)
class Settings:
    data_dir: Path = Path("./var")
    database_url: str | None = None
    redis_url: str | None = None
    secret_key: str = ""
    host: str = "127.0.0.1"
    port: int = 8000
    max_body_bytes: int = 1_048_576
    rate_limits: Mapping[str, int] = field(default_factory=lambda: dict(DEFAULT_RATE_LIMITS))
    allow_loopback_destinations: bool = False
    local_webhooks: bool = False
    log_level: str = "INFO"
    session_lifetime: timedelta = timedelta(hours=24)
    login_rate_limit: int = 10
    job_lease_s: float = 30.0
    job_max_attempts: int = 3
    sweep_interval_s: float = 10.0
    worker_concurrency: int = 4
    db_pool_size: int = 20
    # Deadlines of every dependency call (a hung PostgreSQL or Redis answers 503 in seconds).
    db_command_timeout_s: float = 3.0
    db_connect_timeout_s: float = 3.0
    db_acquire_timeout_s: float = 2.0
    redis_socket_timeout_s: float = 2.0
    redis_connect_timeout_s: float = 2.0
    # An in-progress idempotency claim's lease: a claim whose process died is refunded after it.
    claim_lease_s: float = 15.0
    # How long a stopping API process (SIGTERM) lets its in-flight requests finish.
    graceful_timeout_s: float = 10.0
    # Requests one API process serves at once; past it a fast 503 (platform/shedding.py).
    max_concurrent_requests: int = 64
    api_key_cache_s: float = 5.0
    # Requests per minute of each test key (ak_test_), whatever the account's tier.
    test_rate_limit: int = 100
    metrics_token: str | None = None
    max_subscriptions_per_customer: int = 100
    # Files (services/files): unset storage_url keeps them under <data_dir>/files.
    storage_url: str | None = None
    s3_endpoint_url: str | None = None
    s3_access_key_id: str | None = None
    s3_secret_access_key: str | None = None
    s3_region: str = "us-east-1"
    file_url_ttl_s: int = 86_400
    file_retention_hours: float = 168.0
    public_url: str | None = None
    # Where the deployment sells credits (ASTRO_BUY_CREDITS_URL): the portal links to it.
    buy_credits_url: str | None = None
    # Host headers answered (ASTRO_ALLOWED_HOSTS, comma-separated, lower case); empty: any.
    allowed_hosts: tuple[str, ...] = ()
    # Visual readings (services/visual): photo and overlay retention, the optional LLM writer.
    visual_retention_hours: float = 24.0
    visual_cpu_micros_per_s: int = 100
    llm_base_url: str | None = None
    llm_model: str | None = None
    llm_api_key: str | None = None
    llm_input_micros_per_mtok: int = 0
    llm_output_micros_per_mtok: int = 0
    # E-mail deliveries (visual readings): smtp://[user:password@]host:port, or smtps://.
    smtp_url: str | None = None
    mail_from: str = "astro@localhost"
    # PDFs a test key's account may render per UTC day (real renders, watermarked "TEST").
    test_pdf_daily_allowance: int = 20
    # Heavy jobs one API key (or one customer login) may have queued or running at once.
    renders_per_key: int = 4
    visual_readings_per_key: int = 4
    batches_per_key: int = 20
    # Reverse proxies whose X-Forwarded-*/Forwarded headers count (platform/proxy.py).
    trusted_proxies: tuple[IPNetwork, ...] = ()
    extra: Mapping[str, Any] = field(default_factory=dict)

    @property
    def embedded(self) -> bool:
        return self.database_url is None

    @property
    def production(self) -> bool:
        """PostgreSQL or Redis configured: the settings a real deployment runs with."""
        return bool(self.database_url or self.redis_url)

    def problems(self) -> list[str]:
        """Combinations the server refuses to start with, one line each (empty: fine)."""
        found: list[str] = []
        if self.production:
            if self.local_webhooks:
                found.append(
                    "ASTRO_LOCAL_WEBHOOKS is for local development in the embedded mode only; "
                    "unset it when ASTRO_DATABASE_URL or ASTRO_REDIS_URL is set"
                )
            weak = secret_key_problem(self.secret_key)
            if weak:
                found.append(weak)
        if self.storage_url:
            from urllib.parse import urlsplit

            url = urlsplit(self.storage_url)
            if url.scheme != "s3" or not url.netloc:
                found.append("ASTRO_STORAGE_URL must look like s3://bucket/prefix")
            elif bool(self.s3_access_key_id) != bool(self.s3_secret_access_key):
                found.append(
                    "set both ASTRO_S3_ACCESS_KEY_ID and ASTRO_S3_SECRET_ACCESS_KEY, or neither "
                    "(the AWS default credential chain)"
                )
        for name, value in (
            ("ASTRO_PUBLIC_URL", self.public_url),
            ("ASTRO_S3_ENDPOINT_URL", self.s3_endpoint_url),
            ("ASTRO_BUY_CREDITS_URL", self.buy_credits_url),
        ):
            if value and not value.startswith(("http://", "https://")):
                found.append(f"{name} must start with http:// or https://")
        if self.worker_concurrency < 1:
            found.append("ASTRO_WORKER_CONCURRENCY must be >= 1")
        if self.test_pdf_daily_allowance < 0:
            found.append("ASTRO_TEST_PDF_DAILY_ALLOWANCE must be >= 0")
        for setting, limit in (
            ("ASTRO_RENDERS_PER_KEY", self.renders_per_key),
            ("ASTRO_VISUAL_READINGS_PER_KEY", self.visual_readings_per_key),
            ("ASTRO_BATCHES_PER_KEY", self.batches_per_key),
        ):
            if limit < 1:
                found.append(f"{setting} must be >= 1")
        if self.db_pool_size < 1:
            found.append("ASTRO_DB_POOL_SIZE must be >= 1")
        for setting, seconds in (
            ("ASTRO_DB_COMMAND_TIMEOUT_S", self.db_command_timeout_s),
            ("ASTRO_DB_CONNECT_TIMEOUT_S", self.db_connect_timeout_s),
            ("ASTRO_DB_ACQUIRE_TIMEOUT_S", self.db_acquire_timeout_s),
            ("ASTRO_REDIS_SOCKET_TIMEOUT_S", self.redis_socket_timeout_s),
            ("ASTRO_REDIS_CONNECT_TIMEOUT_S", self.redis_connect_timeout_s),
            ("ASTRO_CLAIM_LEASE_S", self.claim_lease_s),
        ):
            if not seconds > 0:
                found.append(f"{setting} must be > 0")
        return found

    def serving_problems(self) -> list[str]:
        """What the API server refuses to start with: :meth:`problems`, and in production
        neither ``ASTRO_PUBLIC_URL`` nor ``ASTRO_ALLOWED_HOSTS`` (absolute URLs, signed file
        links and invitation links, would follow whatever ``Host`` a client sends). Other
        commands (migrate, workers, the CLI) build no URL and need neither."""
        found = self.problems()
        if self.production and not self.public_url and not self.allowed_hosts:
            found.append(
                "production needs ASTRO_PUBLIC_URL (the address clients use, e.g. "
                "https://api.example) or ASTRO_ALLOWED_HOSTS (the Host names this server "
                "answers): absolute URLs must not follow a client's Host header"
            )
        return found

    def warnings(self) -> list[str]:
        """Combinations that run but are probably not what was meant (``check-config``)."""
        found: list[str] = []
        if self.s3_endpoint_url and not self.storage_url:
            found.append(
                "ASTRO_S3_ENDPOINT_URL is set but ASTRO_STORAGE_URL is not: files go to the "
                "data directory; set ASTRO_STORAGE_URL=s3://bucket/prefix"
            )
        if self.redis_url and not self.database_url:
            found.append(
                "ASTRO_REDIS_URL is set without ASTRO_DATABASE_URL: workers cannot reach the "
                "API's SQLite database; set both (production) or neither (embedded)"
            )
        if self.storage_url and not self.s3_endpoint_url:
            found.append(
                "ASTRO_STORAGE_URL without ASTRO_S3_ENDPOINT_URL: AWS S3 in ASTRO_S3_REGION "
                f"({self.s3_region}); set the endpoint for MinIO, Ceph RGW or another store"
            )
        if self.production:
            if not self.storage_url:
                found.append(
                    "production without ASTRO_STORAGE_URL: files stay in this machine's data "
                    "directory, which other API processes and workers cannot read"
                )
            if self.public_url and self.public_url.startswith("http://"):
                found.append("ASTRO_PUBLIC_URL is http://: clients' keys would cross in clear")
        elif self.secret_key and secret_key_problem(self.secret_key):
            found.append(
                "embedded mode with a weak ASTRO_SECRET_KEY (production would refuse it): "
                + (secret_key_problem(self.secret_key) or "")
            )
        return found

    @property
    def effective_database_url(self) -> str:
        if self.database_url:
            return self.database_url
        return f"sqlite://{(self.data_dir / 'astro.sqlite3').resolve()}"

    def with_overrides(self, **changes: Any) -> Settings:
        return replace(self, **changes)

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None, *, check: bool = True) -> Settings:
        """The settings of ``environ`` (default: this process's environment). ``check``: raise
        ValueError naming every problem (:meth:`problems`); ``check-config`` and
        ``rotate-master-key`` (which must run on a weak key to replace it) pass False."""
        settings = cls._read_env(os.environ if environ is None else environ)
        found = settings.problems() if check else []
        if found:
            raise ValueError("; ".join(found))
        return settings

    @classmethod
    def _read_env(cls, env: Mapping[str, str]) -> Settings:
        data_dir = Path(env.get("ASTRO_DATA_DIR", "./var"))
        rate_limits = dict(DEFAULT_RATE_LIMITS)
        for tier in TIERS:
            raw = env.get(f"ASTRO_RATE_LIMIT_{tier.upper()}")
            if raw:
                rate_limits[tier] = int(raw)
        database_url = env.get("ASTRO_DATABASE_URL") or None
        redis_url = env.get("ASTRO_REDIS_URL") or None
        local_webhooks = _bool(env.get("ASTRO_LOCAL_WEBHOOKS", ""))
        secret_key = env.get("ASTRO_SECRET_KEY", "")
        if not secret_key and not (database_url or redis_url):
            # Embedded: works with no configuration. Production never falls back to a key in
            # one machine's data directory (problems() names the missing key instead).
            secret_key = _embedded_secret_key(data_dir)
        return cls(
            data_dir=data_dir,
            database_url=database_url,
            redis_url=redis_url,
            secret_key=secret_key,
            host=env.get("ASTRO_HOST", "127.0.0.1"),
            port=int(env.get("ASTRO_PORT", "8000")),
            max_body_bytes=int(env.get("ASTRO_MAX_BODY_BYTES", "1048576")),
            rate_limits=rate_limits,
            # Local webhook development: destinations on this machine, as webhook-listen serves.
            allow_loopback_destinations=local_webhooks
            or _bool(env.get("ASTRO_ALLOW_LOOPBACK_DESTINATIONS", "")),
            local_webhooks=local_webhooks,
            log_level=env.get("ASTRO_LOG_LEVEL", "INFO"),
            session_lifetime=timedelta(hours=float(env.get("ASTRO_SESSION_LIFETIME_HOURS", "24"))),
            login_rate_limit=int(env.get("ASTRO_LOGIN_RATE_LIMIT", "10")),
            job_lease_s=float(env.get("ASTRO_JOB_LEASE_S", "30")),
            job_max_attempts=int(env.get("ASTRO_JOB_MAX_ATTEMPTS", "3")),
            sweep_interval_s=float(env.get("ASTRO_SWEEP_INTERVAL_S", "10")),
            worker_concurrency=int(env.get("ASTRO_WORKER_CONCURRENCY", "4")),
            db_pool_size=int(env.get("ASTRO_DB_POOL_SIZE", "20")),
            db_command_timeout_s=float(env.get("ASTRO_DB_COMMAND_TIMEOUT_S", "3")),
            db_connect_timeout_s=float(env.get("ASTRO_DB_CONNECT_TIMEOUT_S", "3")),
            db_acquire_timeout_s=float(env.get("ASTRO_DB_ACQUIRE_TIMEOUT_S", "2")),
            redis_socket_timeout_s=float(env.get("ASTRO_REDIS_SOCKET_TIMEOUT_S", "2")),
            redis_connect_timeout_s=float(env.get("ASTRO_REDIS_CONNECT_TIMEOUT_S", "2")),
            claim_lease_s=float(env.get("ASTRO_CLAIM_LEASE_S", "15")),
            graceful_timeout_s=float(env.get("ASTRO_GRACEFUL_TIMEOUT_S", "10")),
            max_concurrent_requests=int(env.get("ASTRO_MAX_CONCURRENT_REQUESTS", "64")),
            api_key_cache_s=float(env.get("ASTRO_API_KEY_CACHE_S", "5")),
            test_rate_limit=int(env.get("ASTRO_RATE_LIMIT_TEST", "100")),
            metrics_token=env.get("ASTRO_METRICS_TOKEN") or None,
            max_subscriptions_per_customer=int(
                env.get("ASTRO_MAX_SUBSCRIPTIONS_PER_CUSTOMER", "100")
            ),
            storage_url=env.get("ASTRO_STORAGE_URL") or None,
            s3_endpoint_url=env.get("ASTRO_S3_ENDPOINT_URL") or None,
            s3_access_key_id=env.get("ASTRO_S3_ACCESS_KEY_ID") or None,
            s3_secret_access_key=env.get("ASTRO_S3_SECRET_ACCESS_KEY") or None,
            s3_region=env.get("ASTRO_S3_REGION") or "us-east-1",
            file_url_ttl_s=int(env.get("ASTRO_FILE_URL_TTL_S", "86400")),
            file_retention_hours=float(env.get("ASTRO_FILE_RETENTION_HOURS", "168")),
            public_url=(env.get("ASTRO_PUBLIC_URL") or "").rstrip("/") or None,
            buy_credits_url=env.get("ASTRO_BUY_CREDITS_URL") or None,
            allowed_hosts=tuple(
                h.strip().lower()
                for h in env.get("ASTRO_ALLOWED_HOSTS", "").split(",")
                if h.strip()
            ),
            visual_retention_hours=float(env.get("ASTRO_VISUAL_RETENTION_HOURS", "24")),
            visual_cpu_micros_per_s=int(env.get("ASTRO_VISUAL_CPU_MICROS_PER_S", "100")),
            llm_base_url=(env.get("ASTRO_LLM_BASE_URL") or "").rstrip("/") or None,
            llm_model=env.get("ASTRO_LLM_MODEL") or None,
            llm_api_key=env.get("ASTRO_LLM_API_KEY") or None,
            llm_input_micros_per_mtok=int(env.get("ASTRO_LLM_INPUT_MICROS_PER_MTOK", "0")),
            llm_output_micros_per_mtok=int(env.get("ASTRO_LLM_OUTPUT_MICROS_PER_MTOK", "0")),
            smtp_url=env.get("ASTRO_SMTP_URL") or None,
            mail_from=env.get("ASTRO_MAIL_FROM") or "astro@localhost",
            test_pdf_daily_allowance=int(env.get("ASTRO_TEST_PDF_DAILY_ALLOWANCE", "20")),
            renders_per_key=int(env.get("ASTRO_RENDERS_PER_KEY", "4")),
            visual_readings_per_key=int(env.get("ASTRO_VISUAL_READINGS_PER_KEY", "4")),
            batches_per_key=int(env.get("ASTRO_BATCHES_PER_KEY", "20")),
            trusted_proxies=parse_trusted_proxies(env.get("ASTRO_TRUSTED_PROXIES", "")),
        )


def _embedded_secret_key(data_dir: Path) -> str:
    """Generate the server key once and keep it in the data directory (mode 0600)."""
    path = data_dir / "secret_key"
    if path.exists():
        return path.read_text().strip()
    data_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
    key = secrets.token_urlsafe(48)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as fh:
        fh.write(key)
    return key
