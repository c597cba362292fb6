"""One settings object, read from ``ASTRO_*`` environment variables with embedded defaults.

Unset ``ASTRO_DATABASE_URL`` and ``ASTRO_REDIS_URL`` select the embedded mode (SQLite under the
data directory, in-process broker and scheduler); set, they select production (PostgreSQL through
asyncpg, taskiq-redis). Every variable is documented in the README.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import timedelta
from pathlib import Path
from typing import Any

TIERS = ("free", "starter", "pro", "enterprise")
DEFAULT_RATE_LIMITS = {"free": 60, "starter": 300, "pro": 1200, "enterprise": 6000}


def _bool(value: str) -> bool:
    return value.strip().lower() in {"1", "true", "yes", "on"}


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
    extra: Mapping[str, Any] = field(default_factory=dict)

    @property
    def embedded(self) -> bool:
        return self.database_url is None

    @property
    def effective_database_url(self) -> str:
        if self.database_url:
            return self.database_url
        return f"sqlite://{(self.data_dir / 'astro.sqlite3').resolve()}"

    def with_overrides(self, **changes: Any) -> Settings:
        return replace(self, **changes)

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Settings:
        env = os.environ if environ is None else environ
        data_dir = Path(env.get("ASTRO_DATA_DIR", "./var"))
        rate_limits = dict(DEFAULT_RATE_LIMITS)
        for tier in TIERS:
            raw = env.get(f"ASTRO_RATE_LIMIT_{tier.upper()}")
            if raw:
                rate_limits[tier] = int(raw)
        database_url = env.get("ASTRO_DATABASE_URL") or None
        redis_url = env.get("ASTRO_REDIS_URL") or None
        local_webhooks = _bool(env.get("ASTRO_LOCAL_WEBHOOKS", ""))
        if local_webhooks and (database_url or redis_url):
            raise ValueError(
                "ASTRO_LOCAL_WEBHOOKS is for local development in the embedded mode only; "
                "unset it when ASTRO_DATABASE_URL or ASTRO_REDIS_URL is set"
            )
        secret_key = env.get("ASTRO_SECRET_KEY") or _embedded_secret_key(data_dir)
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
