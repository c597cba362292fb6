"""PostgreSQL only: store replay bodies out of line without compressing them again.

The server already stores large bodies zlib-compressed (``services/idempotency.py``); PostgreSQL's
own compression of that text would spend CPU for nothing. SQLite has no such setting.
"""

from tortoise import migrations
from tortoise.migrations import operations as ops
from tortoise.migrations.schema_editor.base import BaseSchemaEditor


async def external_storage(apps: object, schema_editor: BaseSchemaEditor) -> None:
    if schema_editor.client.capabilities.dialect == "postgres":
        await schema_editor.client.execute_script(
            "ALTER TABLE idempotency_records ALTER COLUMN response_body SET STORAGE EXTERNAL"
        )


async def extended_storage(apps: object, schema_editor: BaseSchemaEditor) -> None:
    if schema_editor.client.capabilities.dialect == "postgres":
        await schema_editor.client.execute_script(
            "ALTER TABLE idempotency_records ALTER COLUMN response_body SET STORAGE EXTENDED"
        )


class Migration(migrations.Migration):
    dependencies = [("astro", "0005_claim_and_debit_function")]

    initial = False

    operations = [ops.RunPython(external_storage, extended_storage)]
