"""Models of signed file downloads (``GET /files/{file_id}?expires&signature``)."""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import Field

from astro_sdk.models._base import RequestModel, ResponseModel

__all__ = ["DownloadedFile", "FileBody", "SignedFileQuery"]


class SignedFileQuery(RequestModel):
    expires: int
    """Unix time (seconds) after which the URL is refused."""
    signature: str = Field()


class FileBody(ResponseModel):
    """The registry's stand-in for a body that is bytes, not JSON (see :class:`DownloadedFile`)."""


@dataclass(frozen=True)
class DownloadedFile:
    """A file fetched through its signed URL."""

    content: bytes
    content_type: str
    filename: str | None
    """From ``Content-Disposition`` (the RFC 5987 ``filename*`` when present)."""
