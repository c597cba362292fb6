"""Who queued a job (``jobs.created_by``: the API key, or the login of a customer session), so
heavy jobs (report renders, visual readings, batch matching) are limited per key rather than per
account and mode (platform/jobs.py, ``Concurrency``); indexed with the status for that count.
Existing rows stay NULL and count against no one."""

from tortoise import migrations
from tortoise.migrations import operations as ops
from tortoise import fields
from tortoise.indexes import Index

class Migration(migrations.Migration):
    dependencies = [('astro', '0016_customer_language')]

    initial = False

    operations = [
        ops.AddField(
            model_name='Job',
            name='created_by',
            field=fields.CharField(null=True, max_length=40),
        ),
        ops.AddIndex(
            model_name='Job',
            index=Index(fields=['created_by', 'status']),
        ),
    ]
