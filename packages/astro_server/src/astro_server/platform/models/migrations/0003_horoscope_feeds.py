from tortoise import migrations
from tortoise.migrations import operations as ops
from tortoise.fields.base import OnDelete
from tortoise import fields
from tortoise.indexes import Index

class Migration(migrations.Migration):
    dependencies = [('astro', '0002_platform')]

    initial = False

    operations = [
        ops.CreateModel(
            name='HoroscopeFeedSubscription',
            fields=[
                ('id', fields.CharField(primary_key=True, unique=True, db_index=True, max_length=40)),
                ('account_id', fields.CharField(db_index=True, max_length=40)),
                ('customer_id', fields.CharField(max_length=40)),
                ('destination_url', fields.CharField(max_length=2048)),
                ('destination_hash', fields.CharField(max_length=64)),
                ('sign', fields.CharField(max_length=12)),
                ('language', fields.CharField(default='en', max_length=2)),
                ('timezone', fields.CharField(default='UTC', max_length=64)),
                ('delivery_time', fields.CharField(default='08:00', max_length=5)),
                ('active', fields.BooleanField(default=True)),
                ('consecutive_failures', fields.IntField(default=0)),
                ('disabled_at', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                ('secret_ciphertext', fields.TextField(unique=False)),
                ('previous_secret_ciphertext', fields.TextField(null=True, unique=False)),
                ('previous_secret_expires_at', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                ('next_due_at', fields.DatetimeField(null=True, db_index=True, auto_now=False, auto_now_add=False)),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
                ('updated_at', fields.DatetimeField(auto_now=True, auto_now_add=False)),
            ],
            options={'table': 'horoscope_feed_subscriptions', 'app': 'astro', 'unique_together': (('customer_id', 'destination_hash', 'sign', 'language'),), 'indexes': [Index(fields=['customer_id', 'created_at'])], 'pk_attr': 'id'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='FeedDelivery',
            fields=[
                ('id', fields.CharField(primary_key=True, unique=True, db_index=True, max_length=40)),
                ('subscription', fields.ForeignKeyField('astro.HoroscopeFeedSubscription', source_field='subscription_id', db_constraint=True, to_field='id', related_name='deliveries', on_delete=OnDelete.CASCADE)),
                ('kind', fields.CharField(default='scheduled', max_length=16)),
                ('local_date', fields.DateField(null=True)),
                ('message_id', fields.CharField(unique=True, max_length=40)),
                ('status', fields.CharField(default='pending', max_length=16)),
                ('attempts', fields.IntField(default=0)),
                ('round_attempts', fields.IntField(default=0)),
                ('due_at', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                ('next_attempt_at', fields.DatetimeField(null=True, db_index=True, auto_now=False, auto_now_add=False)),
                ('lease_expires_at', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                ('lease_token', fields.CharField(null=True, max_length=32)),
                ('body', fields.TextField(null=True, unique=False)),
                ('last_status_code', fields.IntField(null=True)),
                ('last_error', fields.CharField(null=True, max_length=500)),
                ('delivered_at', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
                ('updated_at', fields.DatetimeField(auto_now=True, auto_now_add=False)),
            ],
            options={'table': 'horoscope_feed_deliveries', 'app': 'astro', 'unique_together': (('subscription_id', 'local_date'),), 'indexes': [Index(fields=['subscription_id', 'created_at'])], 'pk_attr': 'id'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='FeedDeliveryAttempt',
            fields=[
                ('id', fields.BigIntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('delivery', fields.ForeignKeyField('astro.FeedDelivery', source_field='delivery_id', db_constraint=True, to_field='id', related_name='attempt_log', on_delete=OnDelete.CASCADE)),
                ('number', fields.IntField()),
                ('started_at', fields.DatetimeField(auto_now=False, auto_now_add=False)),
                ('status_code', fields.IntField(null=True)),
                ('duration_ms', fields.IntField()),
                ('response_body', fields.TextField(unique=False)),
                ('error', fields.CharField(null=True, max_length=500)),
                ('succeeded', fields.BooleanField()),
            ],
            options={'table': 'horoscope_feed_delivery_attempts', 'app': 'astro', 'unique_together': (('delivery_id', 'number'),), 'pk_attr': 'id'},
            bases=['Model'],
        ),
    ]
