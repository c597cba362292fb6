"""Calendar feeds (issue 45): revocable iCalendar subscription URLs of sky events and personal
forecasts, their token stored only as a SHA-256 digest (unique: the public read looks it up)."""

from tortoise import migrations
from tortoise.migrations import operations as ops
import functools
from json import dumps, loads
from tortoise import fields
from tortoise.indexes import Index


class Migration(migrations.Migration):
    dependencies = [('astro', '0018_key_maker')]

    initial = False

    operations = [
        ops.CreateModel(
            name='CalendarFeed',
            fields=[
                ('id', fields.CharField(primary_key=True, unique=True, db_index=True, max_length=40)),
                ('account_id', fields.CharField(max_length=40)),
                ('livemode', fields.BooleanField(default=True)),
                ('feed_kind', fields.CharField(max_length=16)),
                ('name', fields.CharField(default='', max_length=120)),
                ('token_digest', fields.CharField(unique=True, max_length=64)),
                ('kinds', fields.JSONField(default=list, encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads)),
                ('bodies', fields.JSONField(null=True, encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads)),
                ('void_of_course_rule', fields.CharField(default='traditional', max_length=16)),
                ('timezone', fields.CharField(default='UTC', max_length=64)),
                ('language', fields.CharField(default='en', max_length=8)),
                ('profile_id', fields.CharField(null=True, max_length=40)),
                ('orb_deg', fields.JSONField(null=True, encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads)),
                ('created_by', fields.CharField(null=True, max_length=40)),
                ('read_count', fields.BigIntField(default=0)),
                ('last_read_at', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                ('revoked_at', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
            ],
            options={'table': 'calendar_feeds', 'app': 'astro', 'indexes': [Index(fields=['account_id', 'created_at'])], 'pk_attr': 'id'},
            bases=['Model'],
        ),
    ]
