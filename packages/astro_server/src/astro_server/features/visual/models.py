"""Visual readings: upload grants (``upl_``) and readings (``vr_``).

An upload moves ``granted -> uploaded -> validated | rejected``; ``raw_key`` names the bytes as
PUT (deleted once the complete call has looked at them), ``photo_file_id`` the stored copy that
passed validation (EXIF orientation applied, every metadata block removed). A reading moves
``queued -> running -> succeeded | failed`` with its job; its photo and overlay are deleted after
``ASTRO_VISUAL_RETENTION_HOURS`` or by ``DELETE``, the text stays.
"""

from __future__ import annotations

from typing import Any

from tortoise import fields
from tortoise.models import Model


class VisualUpload(Model):
    id = fields.CharField(max_length=40, primary_key=True)
    account_id = fields.CharField(max_length=40)
    livemode = fields.BooleanField(default=True)
    # The login (``cus_``) that asked for it; NULL for an API key's (only an admin manages it).
    created_by = fields.CharField(max_length=40, null=True)
    kind = fields.CharField(max_length=8)  # palm | face
    content_type = fields.CharField(max_length=20)
    content_length = fields.IntField()
    sha256 = fields.CharField(max_length=64)
    status = fields.CharField(max_length=12, default="granted")
    raw_key = fields.CharField(max_length=60, null=True)
    byte_size = fields.IntField(null=True)
    photo_file_id = fields.CharField(max_length=40, null=True)
    validation: fields.Field[Any] = fields.JSONField(null=True)
    expires_at = fields.DatetimeField()
    created_at = fields.DatetimeField(auto_now_add=True)
    uploaded_at = fields.DatetimeField(null=True)
    completed_at = fields.DatetimeField(null=True)

    class Meta:
        table = "visual_uploads"
        indexes = (("account_id", "created_at"),)


class VisualReading(Model):
    id = fields.CharField(max_length=40, primary_key=True)
    account_id = fields.CharField(max_length=40)
    livemode = fields.BooleanField(default=True)
    # The login (``cus_``) that asked for it; NULL for an API key's (only an admin manages it).
    created_by = fields.CharField(max_length=40, null=True)
    upload_id = fields.CharField(max_length=40, unique=True)
    kind = fields.CharField(max_length=8)
    language = fields.CharField(max_length=4)
    hand = fields.CharField(max_length=8, null=True)
    job_id = fields.CharField(max_length=40, null=True)
    status = fields.CharField(max_length=12, default="queued")
    reading: fields.Field[Any] = fields.JSONField(null=True)
    error: fields.Field[Any] = fields.JSONField(null=True)
    photo_file_id = fields.CharField(max_length=40, null=True)
    overlay_file_id = fields.CharField(max_length=40, null=True)
    writer = fields.CharField(max_length=20, default="builtin")
    credits_charged = fields.IntField(default=0)
    input_tokens = fields.IntField(default=0)
    output_tokens = fields.IntField(default=0)
    estimated_cost_micros = fields.BigIntField(default=0)
    actual_cost_micros = fields.BigIntField(default=0)
    created_at = fields.DatetimeField(auto_now_add=True)
    finished_at = fields.DatetimeField(null=True)
    images_deleted_at = fields.DatetimeField(null=True)

    class Meta:
        table = "visual_readings"
        indexes = (("account_id", "created_at"),)
