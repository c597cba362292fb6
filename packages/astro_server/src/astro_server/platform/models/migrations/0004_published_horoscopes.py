import functools
from json import dumps, loads

from tortoise import fields, migrations
from tortoise.migrations import operations as ops


class Migration(migrations.Migration):
    dependencies = [("astro", "0003_horoscope_feeds")]

    initial = False

    operations = [
        ops.CreateModel(
            name="PublishedHoroscope",
            fields=[
                (
                    "id",
                    fields.IntField(generated=True, primary_key=True, unique=True, db_index=True),
                ),
                ("sign", fields.CharField(max_length=12)),
                ("date", fields.DateField()),
                ("language", fields.CharField(max_length=2)),
                (
                    "content",
                    fields.JSONField(
                        encoder=functools.partial(dumps, separators=(",", ":")), decoder=loads
                    ),
                ),
                ("generator", fields.CharField(max_length=40)),
                ("published_at", fields.DatetimeField(auto_now=False, auto_now_add=True)),
            ],
            options={
                "table": "published_horoscopes",
                "app": "astro",
                "unique_together": (("sign", "date", "language"),),
                "pk_attr": "id",
            },
            bases=["Model"],
        ),
    ]
