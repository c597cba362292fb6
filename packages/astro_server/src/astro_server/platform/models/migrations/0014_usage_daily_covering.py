"""The usage endpoint's closed days read from an index alone: ``usage_daily_range``
``(account_id, day) INCLUDE (operation, kind, calls, credits)`` on PostgreSQL (SQLite: the same
columns as index keys), so a 365-day window is an index-only range scan of the account's days.
"""

from tortoise import migrations
from tortoise.migrations import operations as ops
from tortoise.migrations.schema_editor.base import BaseSchemaEditor

_RANGE_INDEX = {
    "postgres": "CREATE INDEX IF NOT EXISTS usage_daily_range ON usage_daily (account_id, day) "
    "INCLUDE (operation, kind, calls, credits)",
    "sqlite": "CREATE INDEX IF NOT EXISTS usage_daily_range ON usage_daily "
    "(account_id, day, operation, kind, calls, credits)",
}


async def forwards(apps: object, schema_editor: BaseSchemaEditor) -> None:
    dialect = schema_editor.client.capabilities.dialect
    await schema_editor.client.execute_script(
        _RANGE_INDEX["postgres" if dialect == "postgres" else "sqlite"]
    )


async def backwards(apps: object, schema_editor: BaseSchemaEditor) -> None:
    await schema_editor.client.execute_script("DROP INDEX IF EXISTS usage_daily_range")


class Migration(migrations.Migration):
    dependencies = [('astro', '0013_visual_readings')]

    initial = False

    operations = [
        ops.RunPython(forwards, backwards),
    ]
