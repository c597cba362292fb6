"""Stored files and their signed URLs.

A signed URL is ``/files/{file_id}?expires=<unix s>&signature=<sig>`` where ``sig`` is the
unpadded base64url HMAC-SHA256 of ``"{file_id}.{expires}"`` under a key derived from the server
key with HKDF-SHA256 (its own ``info`` label: no other use of the server key shares it). The URL
is the only credential: whoever holds it may read the file until ``expires``.

Time comes from :func:`now`, which tests replace with :func:`set_clock`. Files past their
retention deadline (``ASTRO_FILE_RETENTION_HOURS``) are deleted by :func:`delete_expired_files`
(a periodic task); their rows stay, marked ``deleted_at``, so a late URL is a 410.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import logging
import secrets
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from urllib.parse import quote

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from astro_server.platform import runtime
from astro_server.platform.files.storage import Payload, Storage, storage_for
from astro_server.platform.models.files import StoredFile
from astro_server.settings import Settings

log = logging.getLogger("astro_server.files")

FILE_ID_PATTERN = r"^file_[a-f0-9]{24}$"
_INFO = b"astro signed file urls v1"

_storage: tuple[Settings, Storage] | None = None
_keys: dict[str, bytes] = {}


def _utc_now() -> datetime:
    return datetime.now(UTC)


_clock: Callable[[], datetime] = _utc_now


def now() -> datetime:
    return _clock()


def set_clock(clock: Callable[[], datetime] | None) -> None:
    """Replace the clock (tests); None restores the real one."""
    global _clock
    _clock = clock or _utc_now


def current_settings() -> Settings:
    """The settings of this process's platform (:func:`astro_server.platform.runtime.settings`)."""
    return runtime.settings()


def storage() -> Storage:
    """The backend of the current settings (made once per settings object)."""
    global _storage
    settings = current_settings()
    if _storage is None or _storage[0] is not settings:
        _storage = (settings, storage_for(settings))
    return _storage[1]


def _url_key(settings: Settings) -> bytes:
    key = _keys.get(settings.secret_key)
    if key is None:
        if not settings.secret_key:
            raise ValueError("the server secret key is empty")
        if len(_keys) >= 8:  # tests make a key per app; a server has one
            _keys.clear()
        key = _keys[settings.secret_key] = HKDF(
            algorithm=hashes.SHA256(), length=32, salt=None, info=_INFO
        ).derive(settings.secret_key.encode())
    return key


def url_signature(file_id: str, expires: int, settings: Settings | None = None) -> str:
    mac = hmac.new(
        _url_key(settings or current_settings()), f"{file_id}.{expires}".encode(), hashlib.sha256
    )
    return base64.urlsafe_b64encode(mac.digest()).rstrip(b"=").decode("ascii")


def signature_valid(file_id: str, expires: int, signature: str) -> bool:
    return hmac.compare_digest(url_signature(file_id, expires).encode(), signature.encode())


def _base_url(settings: Settings) -> str:
    return settings.public_url.rstrip("/") if settings.public_url else ""


def signed_url(
    file: StoredFile, *, ttl_s: int | None = None, base_url: str | None = None
) -> tuple[str, datetime]:
    """A URL for ``file`` valid ``ttl_s`` seconds (``ASTRO_FILE_URL_TTL_S``), and its expiry.

    The URL starts with ``base_url`` (a route passes the address it was called at), else with
    ``ASTRO_PUBLIC_URL``, else it is a path. It never outlives the file's retention.
    """
    settings = current_settings()
    expires_at = now() + timedelta(seconds=settings.file_url_ttl_s if ttl_s is None else ttl_s)
    if file.expires_at is not None and file.expires_at < expires_at:
        expires_at = file.expires_at
    expires = int(expires_at.timestamp())
    base = _base_url(settings) if base_url is None else base_url.rstrip("/")
    signature = url_signature(file.id, expires, settings)
    url = f"{base}/files/{file.id}?expires={expires}&signature={signature}"
    return url, datetime.fromtimestamp(expires, UTC)


async def store_file(
    account_id: str,
    data: Payload,
    content_type: str,
    filename: str,
    kind: str,
    *,
    livemode: bool = True,
    retention: timedelta | None = None,
    keep: bool = False,
) -> StoredFile:
    """Store the bytes and record them. Kept ``ASTRO_FILE_RETENTION_HOURS`` (or ``retention``);
    ``keep=True``: until deleted (a brand logo). The bytes are written before the row, so a
    failure leaves no row pointing at nothing (and the orphan bytes are removed)."""
    settings = current_settings()
    file_id = "file_" + secrets.token_hex(12)
    backend = storage()
    size = await backend.put(file_id, data, content_type)
    created = now()
    if keep:
        expires_at = None
    else:
        expires_at = created + (retention or timedelta(hours=settings.file_retention_hours))
    try:
        return await StoredFile.create(
            id=file_id,
            account_id=account_id,
            livemode=livemode,
            kind=kind,
            content_type=content_type,
            byte_size=size,
            filename=filename[:255] or file_id,
            storage_key=file_id,
            created_at=created,
            expires_at=expires_at,
        )
    except BaseException:
        await backend.delete(file_id)
        raise


async def read_file(file: StoredFile) -> bytes:
    """The whole file (e.g. a stored logo for the renderer)."""
    return await storage().read(file.storage_key)


async def delete_file(file: StoredFile) -> None:
    """Delete the bytes now; the row stays, marked deleted (its URLs become 410)."""
    await storage().delete(file.storage_key)
    await StoredFile.filter(id=file.id).update(deleted_at=now())


async def delete_expired_files(*, batch: int = 500) -> int:
    """Delete every file past its retention deadline; returns how many."""
    deleted = 0
    backend = storage()
    while True:
        due = (
            await StoredFile.filter(expires_at__lte=now(), deleted_at__isnull=True)
            .order_by("expires_at")
            .limit(batch)
        )
        for file in due:
            await backend.delete(file.storage_key)
        if due:
            await StoredFile.filter(id__in=[f.id for f in due]).update(deleted_at=now())
        deleted += len(due)
        if len(due) < batch:
            return deleted


def content_disposition(filename: str, disposition: str = "attachment") -> str:
    """RFC 6266: an ASCII ``filename`` fallback and, when the name is not plain ASCII, the exact
    name as RFC 5987 ``filename*`` (UTF-8, percent-encoded)."""
    fallback = "".join(c if 32 <= ord(c) < 127 and c not in '"\\' else "_" for c in filename)
    header = f'{disposition}; filename="{fallback}"'
    if fallback != filename:
        header += f"; filename*=UTF-8''{quote(filename, safe='')}"
    return header
