"""A login's interface language (``customers.language``: ``en`` or ``th``, NULL until chosen), so
the portal signs it in in the language it chose last time. Existing rows stay NULL: the portal
then follows the browser's ``Accept-Language``."""

from tortoise import migrations
from tortoise.migrations import operations as ops
from tortoise import fields


class Migration(migrations.Migration):
    dependencies = [('astro', '0015_visual_created_by')]

    initial = False

    operations = [
        ops.AddField(
            model_name='Customer',
            name='language',
            field=fields.CharField(null=True, max_length=8),
        ),
    ]
