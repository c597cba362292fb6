"""Encrypted client profiles (sealed fields, blind indexes for external id and tags), the
per-account data keys wrapped by the master key, team invitations, and customers' roles
(existing customers become owners).

Depends on 0009 (issue 22a's keys and audit log), the migration this branch was built on.
"""

from tortoise import migrations
from tortoise.migrations import operations as ops
from tortoise.fields.base import OnDelete
from tortoise import fields
from tortoise.indexes import Index

class Migration(migrations.Migration):
    dependencies = [('astro', '0009_keys_scopes_audit')]

    initial = False

    operations = [
        ops.CreateModel(
            name='AccountDataKey',
            fields=[
                ('id', fields.CharField(primary_key=True, unique=True, db_index=True, max_length=40)),
                ('account_id', fields.CharField(db_index=True, max_length=40)),
                ('wrapped_key', fields.CharField(null=True, max_length=200)),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
                ('destroyed_at', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
            ],
            options={'table': 'account_data_keys', 'app': 'astro', 'pk_attr': 'id'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='ClientProfile',
            fields=[
                ('id', fields.CharField(primary_key=True, unique=True, db_index=True, max_length=40)),
                ('account_id', fields.CharField(max_length=40)),
                ('livemode', fields.BooleanField(default=True)),
                ('data_key_id', fields.CharField(max_length=40)),
                ('sealed', fields.TextField(unique=False)),
                ('external_id_index', fields.CharField(null=True, max_length=64)),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=False)),
                ('updated_at', fields.DatetimeField(auto_now=False, auto_now_add=False)),
            ],
            options={'table': 'client_profiles', 'app': 'astro', 'indexes': [Index(fields=['account_id', 'livemode', 'id']), Index(fields=['account_id', 'external_id_index'])], 'pk_attr': 'id'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='ClientProfileTag',
            fields=[
                ('id', fields.BigIntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('profile', fields.ForeignKeyField('astro.ClientProfile', source_field='profile_id', db_constraint=True, to_field='id', related_name='tag_rows', on_delete=OnDelete.CASCADE)),
                ('account_id', fields.CharField(max_length=40)),
                ('tag_index', fields.CharField(max_length=64)),
            ],
            options={'table': 'client_profile_tags', 'app': 'astro', 'indexes': [Index(fields=['account_id', 'tag_index'])], 'pk_attr': 'id'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='TeamInvitation',
            fields=[
                ('id', fields.CharField(primary_key=True, unique=True, db_index=True, max_length=40)),
                ('account_id', fields.CharField(db_index=True, max_length=40)),
                ('email', fields.CharField(max_length=254)),
                ('role', fields.CharField(max_length=16)),
                ('token_hash', fields.CharField(unique=True, max_length=64)),
                ('invited_by', fields.CharField(max_length=40)),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=False)),
                ('expires_at', fields.DatetimeField(auto_now=False, auto_now_add=False)),
                ('accepted_at', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                ('customer_id', fields.CharField(null=True, max_length=40)),
            ],
            options={'table': 'team_invitations', 'app': 'astro', 'pk_attr': 'id', 'table_description': 'An invitation to become a login of an account: its token is stored only as a digest,'},
            bases=['Model'],
        ),
        ops.AddField(
            model_name='Customer',
            name='role',
            field=fields.CharField(default='owner', max_length=16),
        ),
    ]
