"""Files: one storage interface (data directory or S3 bucket) and signed URLs.

storage   the backends: :class:`DirectoryStorage`, :class:`S3Storage`, :func:`storage_for`
service   :func:`store_file`, :func:`signed_url`, expiry, the clock tests control
"""

from astro_server.platform.files.service import (
    FILE_ID_PATTERN,
    content_disposition,
    delete_expired_files,
    delete_file,
    read_file,
    set_clock,
    signature_valid,
    signed_url,
    storage,
    store_file,
)
from astro_server.platform.files.storage import (
    DirectoryStorage,
    S3Storage,
    Storage,
    StorageError,
    storage_for,
)

__all__ = [
    "FILE_ID_PATTERN",
    "DirectoryStorage",
    "S3Storage",
    "Storage",
    "StorageError",
    "content_disposition",
    "delete_expired_files",
    "delete_file",
    "read_file",
    "set_clock",
    "signature_valid",
    "signed_url",
    "storage",
    "storage_for",
    "store_file",
]
