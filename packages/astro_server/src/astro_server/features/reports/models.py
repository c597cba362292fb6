"""Generated reports (``rep_`` + 24 hex). One row per report request: what was asked (kind,
format, locale), where it stands (``queued -> running -> succeeded | failed``), the job that
renders it and the stored file it produced. The person's name and birth data are not kept here
(only in the job's parameters); the file holds the document.
"""

from __future__ import annotations

from typing import Any

from tortoise import fields
from tortoise.models import Model


class Report(Model):
    id = fields.CharField(max_length=40, primary_key=True)
    account_id = fields.CharField(max_length=40)
    livemode = fields.BooleanField(default=True)
    # Set when a customer (session route) asked for it; NULL for API-key requests.
    customer_id = fields.CharField(max_length=40, null=True)
    kind = fields.CharField(max_length=32, default="natal")
    format = fields.CharField(max_length=8, default="pdf")  # pdf | html
    locale = fields.CharField(max_length=2, default="en")
    status = fields.CharField(max_length=16, default="queued")
    job_id = fields.CharField(max_length=40, null=True)
    file_id = fields.CharField(max_length=40, null=True)
    error: fields.Field[Any] = fields.JSONField(null=True)
    created_at = fields.DatetimeField()
    finished_at = fields.DatetimeField(null=True)

    class Meta:
        table = "reports"
        indexes = (("account_id", "created_at"),)
