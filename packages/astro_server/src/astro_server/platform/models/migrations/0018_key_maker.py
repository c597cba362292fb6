"""Who minted an API key and that maker's role at minting (``api_keys.created_by``,
``api_keys.creator_role``), so a key never acts with more power than the login (or key) that
made it (issue 50; platform/auth/roles.py). Keys made before this migration stay NULL and act
as owner-made, as they did (docs/decisions.md). ``api_keys.replaced_by``: the key a rotation
made in this one's place, so revoking it also ends this one's grace period."""

from tortoise import migrations
from tortoise.migrations import operations as ops
from tortoise import fields

class Migration(migrations.Migration):
    dependencies = [('astro', '0017_job_creator')]

    initial = False

    operations = [
        ops.AddField(
            model_name='ApiKey',
            name='created_by',
            field=fields.CharField(null=True, max_length=40),
        ),
        ops.AddField(
            model_name='ApiKey',
            name='creator_role',
            field=fields.CharField(null=True, max_length=16),
        ),
        ops.AddField(
            model_name='ApiKey',
            name='replaced_by',
            field=fields.CharField(null=True, max_length=40),
        ),
    ]
