"""Campaigns and the (campaign, local date) rows that make their daily delivery exactly-once."""

from tortoise import migrations
from tortoise.migrations import operations as ops
import functools
from json import dumps, loads
from tortoise.fields.base import OnDelete
from tortoise import fields
from tortoise.indexes import Index


class Migration(migrations.Migration):
    dependencies = [('astro', '0011_profiles_teams')]

    initial = False

    operations = [
        ops.CreateModel(
            name='Campaign',
            fields=[
                ('id', fields.CharField(primary_key=True, unique=True, db_index=True, max_length=40)),
                ('account_id', fields.CharField(max_length=40)),
                ('livemode', fields.BooleanField(default=True)),
                ('name', fields.CharField(max_length=120)),
                ('start', fields.DateField()),
                ('end', fields.DateField()),
                ('signs', fields.JSONField(default=list, encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads)),
                ('languages', fields.JSONField(default=list, encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads)),
                ('markets', fields.JSONField(default=list, encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads)),
                ('delivery_time', fields.CharField(default='08:00', max_length=5)),
                ('timezone', fields.CharField(default='UTC', max_length=64)),
                ('active', fields.BooleanField(default=True)),
                ('next_due_at', fields.DatetimeField(null=True, db_index=True, auto_now=False, auto_now_add=False)),
                ('credits_charged', fields.IntField(default=0)),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
                ('updated_at', fields.DatetimeField(auto_now=True, auto_now_add=False)),
            ],
            options={'table': 'campaigns', 'app': 'astro', 'indexes': [Index(fields=['account_id', 'created_at'])], 'pk_attr': 'id'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='CampaignDay',
            fields=[
                ('id', fields.BigIntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('campaign', fields.ForeignKeyField('astro.Campaign', source_field='campaign_id', db_constraint=True, to_field='id', related_name='days', on_delete=OnDelete.CASCADE)),
                ('local_date', fields.DateField()),
                ('event_id', fields.CharField(max_length=40)),
                ('endpoints', fields.IntField(default=0)),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
            ],
            options={'table': 'campaign_days', 'app': 'astro', 'unique_together': (('campaign_id', 'local_date'),), 'pk_attr': 'id'},
            bases=['Model'],
        ),
    ]
