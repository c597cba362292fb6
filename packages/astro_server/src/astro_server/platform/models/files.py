"""Stored files: generated reports, logos, uploads. The bytes live in the storage backend
(``services/files/storage.py``); this row says whose they are and how long they are kept.

``expires_at`` is the retention deadline (NULL: kept until its owner deletes it, e.g. a brand
logo); past it the scheduler deletes the bytes and sets ``deleted_at``, and the signed URL
answers 410 ``gone``. The row itself stays, so a late URL is told "gone", not "not found".
"""

from __future__ import annotations

from tortoise import fields
from tortoise.models import Model


class StoredFile(Model):
    id = fields.CharField(max_length=40, primary_key=True)
    account_id = fields.CharField(max_length=40, db_index=True)
    livemode = fields.BooleanField(default=True)
    kind = fields.CharField(max_length=32)  # report_pdf | report_html | brand_logo | ...
    content_type = fields.CharField(max_length=100)
    byte_size = fields.BigIntField()
    # The name offered in Content-Disposition (may hold any Unicode: sent RFC 5987-encoded).
    filename = fields.CharField(max_length=255)
    # The object's key in the backend, relative to the backend's root or prefix.
    storage_key = fields.CharField(max_length=300)
    created_at = fields.DatetimeField(auto_now_add=True)
    expires_at = fields.DatetimeField(null=True, db_index=True)
    deleted_at = fields.DatetimeField(null=True)

    class Meta:
        table = "stored_files"
        indexes = (("account_id", "created_at"),)
