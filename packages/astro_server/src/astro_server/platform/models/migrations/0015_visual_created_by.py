"""Who made a visual upload or reading (``created_by``: the login, NULL for an API key's), so
a member changes only its own and an admin any (``roles.may_manage``). Existing rows stay NULL:
made before the column, only an admin manages them."""

from tortoise import migrations
from tortoise.migrations import operations as ops
from tortoise import fields


class Migration(migrations.Migration):
    dependencies = [('astro', '0014_usage_daily_covering')]

    initial = False

    operations = [
        ops.AddField(
            model_name='VisualUpload',
            name='created_by',
            field=fields.CharField(null=True, max_length=40),
        ),
        ops.AddField(
            model_name='VisualReading',
            name='created_by',
            field=fields.CharField(null=True, max_length=40),
        ),
    ]
