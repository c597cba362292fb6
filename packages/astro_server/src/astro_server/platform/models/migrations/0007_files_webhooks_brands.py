"""Stored files, account webhook endpoints (their deliveries share the feeds' table), brand profiles."""

from tortoise import migrations
from tortoise.migrations import operations as ops
import functools
from json import dumps, loads
from tortoise.fields.base import OnDelete
from tortoise import fields
from tortoise.indexes import Index
from tortoise.migrations.schema_editor.base import BaseSchemaEditor


async def restore_sqlite_indexes(apps: object, schema_editor: BaseSchemaEditor) -> None:
    """SQLite cannot drop NOT NULL in place: the AlterField rebuilds the table and loses its
    indexes, among them the unique (subscription_id, local_date) that makes scheduling
    idempotent. Put them back under the names 0003 gave them."""
    if schema_editor.client.capabilities.dialect != "sqlite":
        return
    await schema_editor.client.execute_script(
        'CREATE UNIQUE INDEX IF NOT EXISTS "uid_horoscope_f_subscri_524975"'
        ' ON "horoscope_feed_deliveries" ("subscription_id", "local_date");'
        ' CREATE INDEX IF NOT EXISTS "idx_horoscope_f_next_at_ff6214"'
        ' ON "horoscope_feed_deliveries" ("next_attempt_at");'
        ' CREATE INDEX IF NOT EXISTS "idx_horoscope_f_subscri_4f29b5"'
        ' ON "horoscope_feed_deliveries" ("subscription_id", "created_at");'
    )


async def nothing(apps: object, schema_editor: BaseSchemaEditor) -> None:
    return None


class Migration(migrations.Migration):
    dependencies = [('astro', '0006_replay_body_storage')]

    initial = False

    operations = [
        ops.CreateModel(
            name='BrandProfile',
            fields=[
                ('id', fields.CharField(primary_key=True, unique=True, db_index=True, max_length=40)),
                ('account_id', fields.CharField(max_length=40)),
                ('name', fields.CharField(max_length=120)),
                ('branding', fields.JSONField(default=dict, encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads)),
                ('logo_file_id', fields.CharField(null=True, max_length=40)),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
                ('updated_at', fields.DatetimeField(auto_now=True, auto_now_add=False)),
            ],
            options={'table': 'report_brand_profiles', 'app': 'astro', 'indexes': [Index(fields=['account_id', 'created_at'])], 'pk_attr': 'id'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='StoredFile',
            fields=[
                ('id', fields.CharField(primary_key=True, unique=True, db_index=True, max_length=40)),
                ('account_id', fields.CharField(db_index=True, max_length=40)),
                ('livemode', fields.BooleanField(default=True)),
                ('kind', fields.CharField(max_length=32)),
                ('content_type', fields.CharField(max_length=100)),
                ('byte_size', fields.BigIntField()),
                ('filename', fields.CharField(max_length=255)),
                ('storage_key', fields.CharField(max_length=300)),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
                ('expires_at', fields.DatetimeField(null=True, db_index=True, auto_now=False, auto_now_add=False)),
                ('deleted_at', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
            ],
            options={'table': 'stored_files', 'app': 'astro', 'indexes': [Index(fields=['account_id', 'created_at'])], 'pk_attr': 'id'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='WebhookEndpoint',
            fields=[
                ('id', fields.CharField(primary_key=True, unique=True, db_index=True, max_length=40)),
                ('account_id', fields.CharField(max_length=40)),
                ('livemode', fields.BooleanField(default=True)),
                ('destination_url', fields.CharField(max_length=2048)),
                ('event_types', fields.JSONField(default=list, encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads)),
                ('active', fields.BooleanField(default=True)),
                ('consecutive_failures', fields.IntField(default=0)),
                ('disabled_at', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                ('secret_ciphertext', fields.TextField(unique=False)),
                ('previous_secret_ciphertext', fields.TextField(null=True, unique=False)),
                ('previous_secret_expires_at', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
                ('updated_at', fields.DatetimeField(auto_now=True, auto_now_add=False)),
            ],
            options={'table': 'webhook_endpoints', 'app': 'astro', 'indexes': [Index(fields=['account_id', 'created_at'])], 'pk_attr': 'id'},
            bases=['Model'],
        ),
        ops.AlterField(
            model_name='FeedDelivery',
            name='subscription',
            field=fields.ForeignKeyField('astro.HoroscopeFeedSubscription', source_field='subscription_id', null=True, db_constraint=True, to_field='id', related_name='deliveries', on_delete=OnDelete.CASCADE),
        ),
        ops.AddField(
            model_name='FeedDelivery',
            name='endpoint',
            field=fields.ForeignKeyField('astro.WebhookEndpoint', source_field='endpoint_id', null=True, db_constraint=True, to_field='id', related_name='deliveries', on_delete=OnDelete.CASCADE),
        ),
        ops.AddField(
            model_name='FeedDelivery',
            name='event_type',
            field=fields.CharField(null=True, max_length=64),
        ),
        ops.AddIndex(
            model_name='FeedDelivery',
            index=Index(fields=['endpoint_id', 'created_at']),
        ),
        ops.RunPython(restore_sqlite_indexes, nothing),
    ]
