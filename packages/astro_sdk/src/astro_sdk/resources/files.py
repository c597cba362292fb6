"""``client.files``: download a generated file (a report PDF, an HTML report) through the
signed URL the API gave you (``pdf_url``). The URL is the credential: no key is sent.

An expired or altered URL is a ``PermissionDeniedError`` (403; ask for a fresh URL); a file
deleted after its retention is an ``APIStatusError`` with status 410 and ``error == "gone"``.
"""

from __future__ import annotations

import re
from urllib.parse import parse_qs, unquote, urlsplit

import httpx

from astro_sdk._base import build_call, validate_request
from astro_sdk._exceptions import status_error
from astro_sdk._operation import Credential, Operation
from astro_sdk._resource import AsyncResource, SyncResource
from astro_sdk.models.files import DownloadedFile, FileBody, SignedFileQuery

__all__ = ["AsyncFiles", "Files"]

GET_FILE: Operation[FileBody] = Operation(
    operation_id="getFile",
    method="GET",
    path="/files/{file_id}",
    credential=Credential.NONE,
    response_model=FileBody,
    query_model=SignedFileQuery,
)
OPERATIONS = (GET_FILE,)
_FILENAME_STAR = re.compile(r"filename\*=UTF-8''([^;]+)", re.IGNORECASE)
_FILENAME = re.compile(r'filename="([^"]*)"', re.IGNORECASE)


def _parts(url: str) -> tuple[str, SignedFileQuery]:
    split = urlsplit(url)
    match = re.fullmatch(r".*/files/([^/]+)", split.path)
    if match is None:
        raise ValueError(f"not a signed file URL: {url!r}")
    query = parse_qs(split.query)
    fields = {name: values[0] for name, values in query.items() if name in ("expires", "signature")}
    return match.group(1), validate_request(SignedFileQuery, fields)


def _downloaded(response: httpx.Response) -> DownloadedFile:
    if not response.is_success:
        raise status_error(response)
    disposition = response.headers.get("Content-Disposition", "")
    star, plain = _FILENAME_STAR.search(disposition), _FILENAME.search(disposition)
    filename = unquote(star.group(1)) if star else (plain.group(1) if plain else None)
    return DownloadedFile(
        content=response.content,
        content_type=response.headers.get("Content-Type", "application/octet-stream"),
        filename=filename,
    )


class Files(SyncResource):
    operations = OPERATIONS

    def download(self, url: str) -> DownloadedFile:
        """The file behind a signed URL (sent to this client's base URL)."""
        file_id, query = _parts(url)
        call = build_call(
            self._client._config, GET_FILE, query=query, path_params={"file_id": file_id}
        )
        response, _ = self._client._send(call)
        return _downloaded(response)


class AsyncFiles(AsyncResource):
    operations = OPERATIONS

    async def download(self, url: str) -> DownloadedFile:
        """See :meth:`Files.download`."""
        file_id, query = _parts(url)
        call = build_call(
            self._client._config, GET_FILE, query=query, path_params={"file_id": file_id}
        )
        response, _ = await self._client._send(call)
        return _downloaded(response)
