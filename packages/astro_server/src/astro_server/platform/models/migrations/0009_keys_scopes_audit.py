"""API keys with names, scopes, rotation and last use; the ledger's balance after each row; jobs'
live/test mode; the append-only audit log.

Besides the fields: on PostgreSQL, ``astro_claim_and_debit`` (0005) again, now writing each
debit's ``balance_after``; the usage endpoint's covering index ``(account_id, created_at)
INCLUDE (kind, operation, amount)`` (SQLite: the same columns as index keys); a trigger that
refuses UPDATE and DELETE on ``audit_log``; and the usage roll-up tables.
"""

from tortoise import migrations
from tortoise.migrations import operations as ops
from tortoise import fields
from tortoise.indexes import Index
from tortoise.migrations.schema_editor.base import BaseSchemaEditor


# 0005's function, unchanged but for the ledger row's balance_after (= the debited balance).
CREATE_FUNCTION = """
CREATE OR REPLACE FUNCTION astro_claim_and_debit(
    p_account_ids text[], p_credential_ids text[], p_methods text[], p_paths text[],
    p_keys text[], p_hashes text[], p_costs bigint[], p_min_ranks int[], p_operations text[],
    p_request_ids text[], p_tier_order text[], p_now timestamptz, p_expires timestamptz
) RETURNS TABLE (outcome text, claim_id bigint, balance bigint, ledger_id bigint)
LANGUAGE plpgsql AS $fn$
DECLARE
    i int;
    v_balance bigint;
    v_claim bigint;
    v_ledger bigint;
BEGIN
    FOR i IN 1 .. coalesce(array_length(p_costs, 1), 0) LOOP
        v_claim := NULL;
        v_ledger := NULL;
        UPDATE accounts SET credits = credits - p_costs[i]
        WHERE id = p_account_ids[i] AND credits >= p_costs[i]
          AND coalesce(array_position(p_tier_order, tier), 0) >= p_min_ranks[i]
        RETURNING credits INTO v_balance;
        IF NOT FOUND THEN
            IF p_keys[i] IS NOT NULL AND EXISTS (
                SELECT 1 FROM idempotency_records r
                WHERE r.credential_id = p_credential_ids[i] AND r.method = p_methods[i]
                  AND r.path = p_paths[i] AND r.key = p_keys[i]
            ) THEN
                RETURN QUERY SELECT 'conflict'::text, NULL::bigint, NULL::bigint, NULL::bigint;
            ELSE
                RETURN QUERY SELECT 'refused'::text, NULL::bigint, NULL::bigint, NULL::bigint;
            END IF;
            CONTINUE;
        END IF;
        IF p_costs[i] > 0 THEN
            v_ledger := nextval(pg_get_serial_sequence('ledger_entries', 'id'));
        END IF;
        IF p_keys[i] IS NOT NULL THEN
            INSERT INTO idempotency_records
                (credential_id, method, path, key, request_hash, status, created_at,
                 expires_at, ledger_entry_id)
            VALUES (p_credential_ids[i], p_methods[i], p_paths[i], p_keys[i], p_hashes[i],
                    'in_progress', p_now, p_expires, v_ledger)
            ON CONFLICT (credential_id, method, path, key) DO NOTHING
            RETURNING id INTO v_claim;
            IF v_claim IS NULL THEN
                UPDATE accounts SET credits = credits + p_costs[i] WHERE id = p_account_ids[i];
                RETURN QUERY SELECT 'conflict'::text, NULL::bigint, NULL::bigint, NULL::bigint;
                CONTINUE;
            END IF;
        END IF;
        IF v_ledger IS NOT NULL THEN
            INSERT INTO ledger_entries
                (id, account_id, kind, amount, operation, credential_id, request_id, created_at,
                 balance_after)
            VALUES (v_ledger, p_account_ids[i], 'debit', -p_costs[i], p_operations[i],
                    p_credential_ids[i], p_request_ids[i], p_now, v_balance);
        END IF;
        RETURN QUERY SELECT 'ok'::text, v_claim, v_balance, v_ledger;
    END LOOP;
END
$fn$
"""

# 0005's, to go back.
OLD_FUNCTION = """
CREATE OR REPLACE FUNCTION astro_claim_and_debit(
    p_account_ids text[], p_credential_ids text[], p_methods text[], p_paths text[],
    p_keys text[], p_hashes text[], p_costs bigint[], p_min_ranks int[], p_operations text[],
    p_request_ids text[], p_tier_order text[], p_now timestamptz, p_expires timestamptz
) RETURNS TABLE (outcome text, claim_id bigint, balance bigint, ledger_id bigint)
LANGUAGE plpgsql AS $fn$
DECLARE
    i int;
    v_balance bigint;
    v_claim bigint;
    v_ledger bigint;
BEGIN
    FOR i IN 1 .. coalesce(array_length(p_costs, 1), 0) LOOP
        v_claim := NULL;
        v_ledger := NULL;
        UPDATE accounts SET credits = credits - p_costs[i]
        WHERE id = p_account_ids[i] AND credits >= p_costs[i]
          AND coalesce(array_position(p_tier_order, tier), 0) >= p_min_ranks[i]
        RETURNING credits INTO v_balance;
        IF NOT FOUND THEN
            IF p_keys[i] IS NOT NULL AND EXISTS (
                SELECT 1 FROM idempotency_records r
                WHERE r.credential_id = p_credential_ids[i] AND r.method = p_methods[i]
                  AND r.path = p_paths[i] AND r.key = p_keys[i]
            ) THEN
                RETURN QUERY SELECT 'conflict'::text, NULL::bigint, NULL::bigint, NULL::bigint;
            ELSE
                RETURN QUERY SELECT 'refused'::text, NULL::bigint, NULL::bigint, NULL::bigint;
            END IF;
            CONTINUE;
        END IF;
        IF p_costs[i] > 0 THEN
            v_ledger := nextval(pg_get_serial_sequence('ledger_entries', 'id'));
        END IF;
        IF p_keys[i] IS NOT NULL THEN
            INSERT INTO idempotency_records
                (credential_id, method, path, key, request_hash, status, created_at,
                 expires_at, ledger_entry_id)
            VALUES (p_credential_ids[i], p_methods[i], p_paths[i], p_keys[i], p_hashes[i],
                    'in_progress', p_now, p_expires, v_ledger)
            ON CONFLICT (credential_id, method, path, key) DO NOTHING
            RETURNING id INTO v_claim;
            IF v_claim IS NULL THEN
                UPDATE accounts SET credits = credits + p_costs[i] WHERE id = p_account_ids[i];
                RETURN QUERY SELECT 'conflict'::text, NULL::bigint, NULL::bigint, NULL::bigint;
                CONTINUE;
            END IF;
        END IF;
        IF v_ledger IS NOT NULL THEN
            INSERT INTO ledger_entries
                (id, account_id, kind, amount, operation, credential_id, request_id, created_at)
            VALUES (v_ledger, p_account_ids[i], 'debit', -p_costs[i], p_operations[i],
                    p_credential_ids[i], p_request_ids[i], p_now);
        END IF;
        RETURN QUERY SELECT 'ok'::text, v_claim, v_balance, v_ledger;
    END LOOP;
END
$fn$
"""

_USAGE_INDEX = {
    "postgres": "CREATE INDEX ledger_entries_usage ON ledger_entries (account_id, created_at) "
    "INCLUDE (kind, operation, amount)",
    "sqlite": "CREATE INDEX ledger_entries_usage ON ledger_entries "
    "(account_id, created_at, kind, operation, amount)",
}

APPEND_ONLY = """
CREATE OR REPLACE FUNCTION astro_audit_log_append_only() RETURNS trigger
LANGUAGE plpgsql AS $fn$
BEGIN
    RAISE EXCEPTION 'audit_log is append-only';
END
$fn$;
CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON audit_log
FOR EACH ROW EXECUTE FUNCTION astro_audit_log_append_only();
"""


async def forwards(apps: object, schema_editor: BaseSchemaEditor) -> None:
    dialect = schema_editor.client.capabilities.dialect
    await schema_editor.client.execute_script(
        _USAGE_INDEX["postgres" if dialect == "postgres" else "sqlite"]
    )
    if dialect == "postgres":
        await schema_editor.client.execute_script(CREATE_FUNCTION)
        await schema_editor.client.execute_script(APPEND_ONLY)


async def backwards(apps: object, schema_editor: BaseSchemaEditor) -> None:
    dialect = schema_editor.client.capabilities.dialect
    await schema_editor.client.execute_script("DROP INDEX IF EXISTS ledger_entries_usage")
    if dialect == "postgres":
        await schema_editor.client.execute_script(OLD_FUNCTION)
        await schema_editor.client.execute_script(
            "DROP TRIGGER IF EXISTS audit_log_append_only ON audit_log; "
            "DROP FUNCTION IF EXISTS astro_audit_log_append_only()"
        )


class Migration(migrations.Migration):
    dependencies = [("astro", "0008_reports")]

    initial = False

    operations = [
        ops.CreateModel(
            name="AuditEvent",
            fields=[
                (
                    "id",
                    fields.BigIntField(
                        generated=True, primary_key=True, unique=True, db_index=True
                    ),
                ),
                ("account_id", fields.CharField(max_length=40)),
                ("actor_id", fields.CharField(max_length=40)),
                ("actor_kind", fields.CharField(max_length=16)),
                ("action", fields.CharField(max_length=64)),
                ("object_id", fields.CharField(null=True, max_length=64)),
                ("livemode", fields.BooleanField(default=True)),
                ("request_id", fields.CharField(null=True, max_length=64)),
                ("client_address", fields.CharField(null=True, max_length=64)),
                ("created_at", fields.DatetimeField(auto_now=False, auto_now_add=False)),
            ],
            options={
                "table": "audit_log",
                "app": "astro",
                "indexes": [Index(fields=["account_id", "created_at"])],
                "pk_attr": "id",
            },
            bases=["Model"],
        ),
        ops.AddField(
            model_name="ApiKey",
            name="expires_at",
            field=fields.DatetimeField(null=True, auto_now=False, auto_now_add=False),
        ),
        ops.AddField(
            model_name="ApiKey",
            name="last_used_at",
            field=fields.DatetimeField(null=True, auto_now=False, auto_now_add=False),
        ),
        ops.AddField(
            model_name="ApiKey",
            name="name",
            field=fields.CharField(default="", max_length=100),
        ),
        ops.AddField(
            model_name="ApiKey",
            name="scopes",
            field=fields.CharField(default="*", max_length=300),
        ),
        ops.AddField(
            model_name="Job",
            name="livemode",
            field=fields.BooleanField(default=True),
        ),
        ops.AlterField(
            model_name="LedgerEntry",
            name="account_id",
            field=fields.CharField(max_length=40),
        ),
        ops.AddField(
            model_name="LedgerEntry",
            name="balance_after",
            field=fields.BigIntField(null=True),
        ),
        ops.AddIndex(
            model_name="LedgerEntry",
            index=Index(fields=["account_id", "id"]),
        ),
        ops.CreateModel(
            name='UsageDaily',
            fields=[
                ('id', fields.BigIntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('account_id', fields.CharField(max_length=40)),
                ('day', fields.CharField(max_length=10)),
                ('operation', fields.CharField(max_length=100)),
                ('kind', fields.CharField(max_length=16)),
                ('calls', fields.BigIntField()),
                ('credits', fields.BigIntField()),
            ],
            options={'table': 'usage_daily', 'app': 'astro', 'unique_together': (('account_id', 'day', 'operation', 'kind'),), 'pk_attr': 'id', 'table_description': 'Debits and refunds of one account, UTC day, operation and kind, summed once the day is'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='UsageRollup',
            fields=[
                ('account_id', fields.CharField(primary_key=True, unique=True, db_index=True, max_length=40)),
                ('rolled_until', fields.CharField(max_length=10)),
            ],
            options={'table': 'usage_rollups', 'app': 'astro', 'pk_attr': 'account_id', 'table_description': "How far an account's ledger is summed into ``usage_daily``: every UTC day before"},
            bases=['Model'],
        ),
        ops.RunPython(forwards, backwards),
    ]
