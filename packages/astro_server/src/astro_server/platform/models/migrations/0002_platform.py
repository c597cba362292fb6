from tortoise import migrations
from tortoise.migrations import operations as ops
import functools
from json import dumps, loads
from tortoise.fields.base import OnDelete
from tortoise import fields
from tortoise.indexes import Index

class Migration(migrations.Migration):
    dependencies = [('astro', '0001_initial')]

    initial = False

    operations = [
        ops.CreateModel(
            name='ApiKey',
            fields=[
                ('id', fields.CharField(primary_key=True, unique=True, db_index=True, max_length=40)),
                ('account', fields.ForeignKeyField('astro.Account', source_field='account_id', db_constraint=True, to_field='id', related_name='api_keys', on_delete=OnDelete.CASCADE)),
                ('prefix', fields.CharField(db_index=True, max_length=16)),
                ('key_hash', fields.CharField(unique=True, max_length=64)),
                ('environment', fields.CharField(default='live', max_length=8)),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
                ('revoked_at', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
            ],
            options={'table': 'api_keys', 'app': 'astro', 'pk_attr': 'id'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='Customer',
            fields=[
                ('id', fields.CharField(primary_key=True, unique=True, db_index=True, max_length=40)),
                ('account', fields.ForeignKeyField('astro.Account', source_field='account_id', db_constraint=True, to_field='id', related_name='customers', on_delete=OnDelete.CASCADE)),
                ('email', fields.CharField(unique=True, max_length=254)),
                ('password_hash', fields.CharField(max_length=200)),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
                ('disabled_at', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
            ],
            options={'table': 'customers', 'app': 'astro', 'pk_attr': 'id'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='CustomerSession',
            fields=[
                ('id', fields.CharField(primary_key=True, unique=True, db_index=True, max_length=40)),
                ('customer', fields.ForeignKeyField('astro.Customer', source_field='customer_id', db_constraint=True, to_field='id', related_name='sessions', on_delete=OnDelete.CASCADE)),
                ('token_hash', fields.CharField(unique=True, max_length=64)),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
                ('expires_at', fields.DatetimeField(auto_now=False, auto_now_add=False)),
                ('revoked_at', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
            ],
            options={'table': 'customer_sessions', 'app': 'astro', 'pk_attr': 'id'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='IdempotencyRecord',
            fields=[
                ('id', fields.BigIntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('credential_id', fields.CharField(max_length=40)),
                ('method', fields.CharField(max_length=8)),
                ('path', fields.CharField(max_length=500)),
                ('key', fields.CharField(max_length=255)),
                ('request_hash', fields.CharField(max_length=64)),
                ('status', fields.CharField(default='in_progress', max_length=16)),
                ('response_status', fields.IntField(null=True)),
                ('response_body', fields.TextField(null=True, unique=False)),
                ('response_headers', fields.JSONField(null=True, encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads)),
                ('ledger_entry_id', fields.BigIntField(null=True)),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
                ('expires_at', fields.DatetimeField(db_index=True, auto_now=False, auto_now_add=False)),
            ],
            options={'table': 'idempotency_records', 'app': 'astro', 'unique_together': (('credential_id', 'method', 'path', 'key'),), 'pk_attr': 'id'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='Job',
            fields=[
                ('id', fields.CharField(primary_key=True, unique=True, db_index=True, max_length=40)),
                ('account_id', fields.CharField(max_length=40)),
                ('kind', fields.CharField(max_length=100)),
                ('status', fields.CharField(default='queued', db_index=True, max_length=16)),
                ('params', fields.JSONField(encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads)),
                ('result', fields.JSONField(null=True, encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads)),
                ('error', fields.JSONField(null=True, encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads)),
                ('progress', fields.FloatField(default=0.0)),
                ('credits_charged', fields.BigIntField(default=0)),
                ('credits_refunded', fields.BigIntField(default=0)),
                ('ledger_entry_id', fields.BigIntField(null=True)),
                ('attempts', fields.IntField(default=0)),
                ('lease_expires_at', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                ('created_at', fields.DatetimeField(db_index=True, auto_now=False, auto_now_add=False)),
                ('started_at', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                ('finished_at', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                ('updated_at', fields.DatetimeField(auto_now=True, auto_now_add=False)),
            ],
            options={'table': 'jobs', 'app': 'astro', 'indexes': [Index(fields=['account_id', 'created_at'])], 'pk_attr': 'id'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='LedgerEntry',
            fields=[
                ('id', fields.BigIntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('account_id', fields.CharField(db_index=True, max_length=40)),
                ('kind', fields.CharField(max_length=16)),
                ('amount', fields.BigIntField()),
                ('operation', fields.CharField(default='', max_length=100)),
                ('credential_id', fields.CharField(null=True, max_length=40)),
                ('job_id', fields.CharField(null=True, db_index=True, max_length=40)),
                ('request_id', fields.CharField(null=True, max_length=64)),
                ('refund_of', fields.BigIntField(null=True, unique=True)),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
            ],
            options={'table': 'ledger_entries', 'app': 'astro', 'pk_attr': 'id'},
            bases=['Model'],
        ),
    ]
