"""Where file bytes live: one async interface, two backends.

* :class:`DirectoryStorage`: ``<data dir>/files`` (the embedded mode). Writes go to a temporary
  file in the same directory and are renamed into place, so a reader never sees half a file.
* :class:`S3Storage`: an S3-compatible bucket (``ASTRO_STORAGE_URL=s3://bucket/prefix``), so
  every API node serves every file. boto3 is blocking: each call runs in a worker thread
  (``asyncio.to_thread``); the client itself is thread-safe and made once.

Keys are relative (``file_<hex>``); a backend refuses a key that could leave its root.
``read(key, start, end)`` takes an inclusive byte range as HTTP does. ``put`` takes bytes, an
async iterable of chunks, or a seekable binary file (copied from its start in a worker thread,
never read whole into memory: the visual upload spools its body to one).
"""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import tempfile
from collections.abc import AsyncIterable
from pathlib import Path
from typing import IO, Any, Protocol, cast
from urllib.parse import urlsplit

from astro_server.settings import Settings

_KEY = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.-]{0,199}$")

Payload = bytes | AsyncIterable[bytes] | IO[bytes]


class StorageError(Exception):
    """The backend failed (unreachable bucket, disk error)."""


def _checked_key(key: str) -> str:
    if not _KEY.match(key) or ".." in key:
        raise ValueError(f"invalid storage key {key!r}")
    return key


async def _collect(data: bytes | AsyncIterable[bytes]) -> bytes:
    if isinstance(data, bytes):
        return data
    parts = [chunk async for chunk in data]
    return b"".join(parts)


def _as_file(data: Payload) -> IO[bytes] | None:
    """The payload as a binary file, or None when it is bytes or an async iterable."""
    if isinstance(data, bytes) or not hasattr(data, "read"):
        return None
    return cast("IO[bytes]", data)


async def _as_bytes(data: Payload) -> bytes:
    return await _collect(cast("bytes | AsyncIterable[bytes]", data))


def _file_size(fh: IO[bytes]) -> int:
    fh.seek(0, os.SEEK_END)
    size = fh.tell()
    fh.seek(0)
    return size


class Storage(Protocol):
    """The interface every backend implements."""

    name: str

    async def put(self, key: str, data: Payload, content_type: str) -> int:
        """Store the bytes under ``key`` (replacing any); returns the size written."""
        ...

    async def read(self, key: str, start: int = 0, end: int | None = None) -> bytes:
        """Bytes ``start..end`` (inclusive; ``end`` None: to the end). FileNotFoundError."""
        ...

    async def size(self, key: str) -> int | None:
        """The stored size, or None when there is no such object."""
        ...

    async def delete(self, key: str) -> None:
        """Remove the object; a missing one is not an error."""
        ...

    async def check(self) -> None:
        """Raise when the backend cannot be used (``/readyz``)."""
        ...


class DirectoryStorage:
    name = "directory"

    def __init__(self, root: Path) -> None:
        self.root = root

    async def check(self) -> None:
        """Readiness (``/readyz``): the folder exists (made if need be) and can be written."""

        def check() -> None:
            self.root.mkdir(mode=0o700, parents=True, exist_ok=True)
            if not os.access(self.root, os.W_OK | os.X_OK):
                raise PermissionError(f"{self.root} is not writable")

        await asyncio.to_thread(check)

    def _path(self, key: str) -> Path:
        return self.root / _checked_key(key)

    async def put(self, key: str, data: Payload, content_type: str) -> int:
        path = self._path(key)
        source = _as_file(data)
        payload = b"" if source is not None else await _as_bytes(data)

        def write() -> int:
            self.root.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=self.root, prefix=".part-")
            try:
                with os.fdopen(fd, "wb") as fh:
                    if source is None:
                        fh.write(payload)
                    else:
                        source.seek(0)
                        shutil.copyfileobj(source, fh)
                    written = fh.tell()
                os.replace(tmp, path)
            except BaseException:
                Path(tmp).unlink(missing_ok=True)
                raise
            return written

        return await asyncio.to_thread(write)

    async def read(self, key: str, start: int = 0, end: int | None = None) -> bytes:
        path = self._path(key)

        def read() -> bytes:
            with path.open("rb") as fh:
                fh.seek(start)
                return fh.read() if end is None else fh.read(end - start + 1)

        return await asyncio.to_thread(read)

    async def size(self, key: str) -> int | None:
        path = self._path(key)
        try:
            return (await asyncio.to_thread(path.stat)).st_size
        except FileNotFoundError:
            return None

    async def delete(self, key: str) -> None:
        await asyncio.to_thread(self._path(key).unlink, missing_ok=True)


class S3Storage:
    name = "s3"

    def __init__(
        self,
        bucket: str,
        prefix: str = "",
        *,
        endpoint_url: str | None = None,
        access_key_id: str | None = None,
        secret_access_key: str | None = None,
        region: str = "us-east-1",
    ) -> None:
        import boto3
        from botocore.config import Config

        self.bucket = bucket
        self.prefix = prefix.strip("/")
        self.client: Any = boto3.session.Session().client(
            "s3",
            endpoint_url=endpoint_url,
            aws_access_key_id=access_key_id,
            aws_secret_access_key=secret_access_key,
            region_name=region,
            config=Config(
                connect_timeout=5,
                read_timeout=30,
                retries={"max_attempts": 3, "mode": "standard"},
                s3={"addressing_style": "path"},
            ),
        )

    async def check(self) -> None:
        """Readiness (``/readyz``): the bucket exists and these credentials may reach it."""
        await asyncio.to_thread(self.client.head_bucket, Bucket=self.bucket)

    def _key(self, key: str) -> str:
        key = _checked_key(key)
        return f"{self.prefix}/{key}" if self.prefix else key

    @staticmethod
    def _missing(exc: Exception) -> bool:
        response = getattr(exc, "response", None) or {}
        code = str(response.get("Error", {}).get("Code", ""))
        return code in {"404", "NoSuchKey", "NotFound"}

    async def put(self, key: str, data: Payload, content_type: str) -> int:
        source = _as_file(data)
        body: bytes | IO[bytes]
        if source is not None:
            size = await asyncio.to_thread(_file_size, source)
            body = source  # botocore reads (and signs) it in chunks
        else:
            body = await _as_bytes(data)
            size = len(body)
        await asyncio.to_thread(
            self.client.put_object,
            Bucket=self.bucket,
            Key=self._key(key),
            Body=body,
            ContentLength=size,
            ContentType=content_type,
        )
        return size

    async def read(self, key: str, start: int = 0, end: int | None = None) -> bytes:
        def read() -> bytes:
            ranged = start > 0 or end is not None
            extra = {"Range": f"bytes={start}-{'' if end is None else end}"} if ranged else {}
            try:
                answer = self.client.get_object(Bucket=self.bucket, Key=self._key(key), **extra)
            except Exception as exc:
                if self._missing(exc):
                    raise FileNotFoundError(key) from None
                raise
            body: bytes = answer["Body"].read()
            return body

        return await asyncio.to_thread(read)

    async def size(self, key: str) -> int | None:
        def head() -> int | None:
            try:
                answer = self.client.head_object(Bucket=self.bucket, Key=self._key(key))
            except Exception as exc:
                if self._missing(exc):
                    return None
                raise
            return int(answer["ContentLength"])

        return await asyncio.to_thread(head)

    async def delete(self, key: str) -> None:
        await asyncio.to_thread(self.client.delete_object, Bucket=self.bucket, Key=self._key(key))


def storage_for(settings: Settings) -> Storage:
    """The backend the settings select: ``ASTRO_STORAGE_URL`` (s3://bucket/prefix), or the
    data directory's ``files`` folder."""
    if not settings.storage_url:
        return DirectoryStorage(settings.data_dir / "files")
    url = urlsplit(settings.storage_url)
    if url.scheme != "s3" or not url.netloc:
        raise ValueError("ASTRO_STORAGE_URL must look like s3://bucket/prefix")
    return S3Storage(
        url.netloc,
        url.path,
        endpoint_url=settings.s3_endpoint_url,
        access_key_id=settings.s3_access_key_id,
        secret_access_key=settings.s3_secret_access_key,
        region=settings.s3_region,
    )
