"""Generated reports (natal PDF and HTML)."""

from tortoise import migrations
from tortoise.migrations import operations as ops
import functools
from json import dumps, loads
from tortoise import fields
from tortoise.indexes import Index


class Migration(migrations.Migration):
    dependencies = [('astro', '0007_files_webhooks_brands')]

    initial = False

    operations = [
        ops.CreateModel(
            name='Report',
            fields=[
                ('id', fields.CharField(primary_key=True, unique=True, db_index=True, max_length=40)),
                ('account_id', fields.CharField(max_length=40)),
                ('livemode', fields.BooleanField(default=True)),
                ('customer_id', fields.CharField(null=True, max_length=40)),
                ('kind', fields.CharField(default='natal', max_length=32)),
                ('format', fields.CharField(default='pdf', max_length=8)),
                ('locale', fields.CharField(default='en', max_length=2)),
                ('status', fields.CharField(default='queued', max_length=16)),
                ('job_id', fields.CharField(null=True, max_length=40)),
                ('file_id', fields.CharField(null=True, max_length=40)),
                ('error', fields.JSONField(null=True, encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads)),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=False)),
                ('finished_at', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
            ],
            options={'table': 'reports', 'app': 'astro', 'indexes': [Index(fields=['account_id', 'created_at'])], 'pk_attr': 'id'},
            bases=['Model'],
        ),
    ]
