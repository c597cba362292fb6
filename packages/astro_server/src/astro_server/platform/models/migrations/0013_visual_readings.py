"""Visual readings: upload grants and readings; webhook endpoints gain ``purpose`` (account
webhooks, or visual-reading deliveries by webhook or e-mail)."""

from tortoise import migrations
from tortoise.migrations import operations as ops
import functools
from json import dumps, loads
from tortoise import fields
from tortoise.indexes import Index

class Migration(migrations.Migration):
    dependencies = [('astro', '0012_campaigns')]

    initial = False

    operations = [
        ops.CreateModel(
            name='VisualReading',
            fields=[
                ('id', fields.CharField(primary_key=True, unique=True, db_index=True, max_length=40)),
                ('account_id', fields.CharField(max_length=40)),
                ('livemode', fields.BooleanField(default=True)),
                ('upload_id', fields.CharField(unique=True, max_length=40)),
                ('kind', fields.CharField(max_length=8)),
                ('language', fields.CharField(max_length=4)),
                ('hand', fields.CharField(null=True, max_length=8)),
                ('job_id', fields.CharField(null=True, max_length=40)),
                ('status', fields.CharField(default='queued', max_length=12)),
                ('reading', fields.JSONField(null=True, encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads)),
                ('error', fields.JSONField(null=True, encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads)),
                ('photo_file_id', fields.CharField(null=True, max_length=40)),
                ('overlay_file_id', fields.CharField(null=True, max_length=40)),
                ('writer', fields.CharField(default='builtin', max_length=20)),
                ('credits_charged', fields.IntField(default=0)),
                ('input_tokens', fields.IntField(default=0)),
                ('output_tokens', fields.IntField(default=0)),
                ('estimated_cost_micros', fields.BigIntField(default=0)),
                ('actual_cost_micros', fields.BigIntField(default=0)),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
                ('finished_at', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                ('images_deleted_at', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
            ],
            options={'table': 'visual_readings', 'app': 'astro', 'indexes': [Index(fields=['account_id', 'created_at'])], 'pk_attr': 'id'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='VisualUpload',
            fields=[
                ('id', fields.CharField(primary_key=True, unique=True, db_index=True, max_length=40)),
                ('account_id', fields.CharField(max_length=40)),
                ('livemode', fields.BooleanField(default=True)),
                ('kind', fields.CharField(max_length=8)),
                ('content_type', fields.CharField(max_length=20)),
                ('content_length', fields.IntField()),
                ('sha256', fields.CharField(max_length=64)),
                ('status', fields.CharField(default='granted', max_length=12)),
                ('raw_key', fields.CharField(null=True, max_length=60)),
                ('byte_size', fields.IntField(null=True)),
                ('photo_file_id', fields.CharField(null=True, max_length=40)),
                ('validation', fields.JSONField(null=True, encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads)),
                ('expires_at', fields.DatetimeField(auto_now=False, auto_now_add=False)),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
                ('uploaded_at', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                ('completed_at', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
            ],
            options={'table': 'visual_uploads', 'app': 'astro', 'indexes': [Index(fields=['account_id', 'created_at'])], 'pk_attr': 'id'},
            bases=['Model'],
        ),
        ops.AddField(
            model_name='WebhookEndpoint',
            name='purpose',
            field=fields.CharField(default='account', max_length=20),
        ),
    ]
