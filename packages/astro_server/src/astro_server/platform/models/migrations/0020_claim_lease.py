"""A lease on in-progress idempotency claims (issue 52): a request that runs longer than
``ASTRO_CLAIM_LEASE_S`` renews it (its API process's heartbeat), so a claim whose process died
is found and refunded within seconds instead of after ten minutes. NULL: never renewed, the
lease counts from ``created_at``. Indexed with the status for the sweep."""

from tortoise import migrations
from tortoise.migrations import operations as ops
from tortoise import fields
from tortoise.indexes import Index

class Migration(migrations.Migration):
    dependencies = [('astro', '0019_calendar_feeds')]

    initial = False

    operations = [
        ops.AddField(
            model_name='IdempotencyRecord',
            name='lease_expires_at',
            field=fields.DatetimeField(null=True),
        ),
        ops.AddIndex(
            model_name='IdempotencyRecord',
            index=Index(fields=['status', 'lease_expires_at']),
        ),
    ]
