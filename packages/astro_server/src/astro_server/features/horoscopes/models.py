"""Published horoscopes: one row per (sign, date, language), written once and never changed.

``content`` is the JSON of :class:`astro_calc.horoscope.DailyHoroscope` as first published;
``generator`` names the template/composition version that wrote it. The unique constraint is what
makes publishing safe from several workers at once (see ``services.horoscopes``).
"""

from __future__ import annotations

from typing import Any

from tortoise import fields
from tortoise.models import Model


class PublishedHoroscope(Model):
    id = fields.IntField(primary_key=True)
    sign = fields.CharField(max_length=12)
    date = fields.DateField()
    language = fields.CharField(max_length=2)
    content: fields.Field[Any] = fields.JSONField()
    generator = fields.CharField(max_length=40)
    published_at = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "published_horoscopes"
        unique_together = (("sign", "date", "language"),)
