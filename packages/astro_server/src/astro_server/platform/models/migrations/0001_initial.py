from tortoise import migrations
from tortoise.migrations import operations as ops
from tortoise import fields

class Migration(migrations.Migration):
    initial = True

    operations = [
        ops.CreateModel(
            name='Account',
            fields=[
                ('id', fields.CharField(primary_key=True, unique=True, db_index=True, max_length=40)),
                ('name', fields.CharField(max_length=200)),
                ('tier', fields.CharField(default='free', max_length=20)),
                ('credits', fields.BigIntField(default=0)),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
            ],
            options={'table': 'accounts', 'app': 'astro', 'pk_attr': 'id'},
            bases=['Model'],
        ),
    ]
