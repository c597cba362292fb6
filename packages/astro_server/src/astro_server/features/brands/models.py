"""Report brand profiles (spec: Report brand profile). One belongs to an account; its logo is
the copy fetched once when the profile was saved (``logo_file_id``), never the URL again."""

from __future__ import annotations

from typing import Any

from tortoise import fields
from tortoise.models import Model


class BrandProfile(Model):
    id = fields.CharField(max_length=40, primary_key=True)
    account_id = fields.CharField(max_length=40)
    name = fields.CharField(max_length=120)
    # The Branding object as given (brand_name, logo_url, primary_color, contact_*).
    branding: fields.Field[Any] = fields.JSONField(default=dict)
    logo_file_id = fields.CharField(max_length=40, null=True)
    created_at = fields.DatetimeField(auto_now_add=True)
    updated_at = fields.DatetimeField(auto_now=True)

    class Meta:
        table = "report_brand_profiles"
        indexes = (("account_id", "created_at"),)
