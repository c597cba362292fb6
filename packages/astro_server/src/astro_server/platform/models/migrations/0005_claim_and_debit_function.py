"""PostgreSQL only: ``astro_claim_and_debit``, the billing claim for a batch of requests.

One call processes, in array order and in one transaction, each request's tier check,
conditional debit, idempotency claim and ledger row (see ``services/billing.py``). SQLite keeps
its explicit per-request transaction, so on SQLite this migration does nothing.
"""

from tortoise import migrations
from tortoise.migrations import operations as ops
from tortoise.migrations.schema_editor.base import BaseSchemaEditor

# Per item i, in order (callers sort items by account so batches lock accounts in one order):
#   1. the debit: UPDATE ... WHERE credits >= cost AND the tier ranks high enough. No row means
#      "refused" (tier or balance) unless the idempotency key is already taken ("conflict", so a
#      replay is answered even when the balance is now short); nothing is written.
#   2. the claim: INSERT ... ON CONFLICT DO NOTHING; a taken key undoes step 1 ("conflict").
#   3. the ledger row of the debit (cost > 0).
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
                (id, account_id, kind, amount, operation, credential_id, request_id, created_at)
            VALUES (v_ledger, p_account_ids[i], 'debit', -p_costs[i], p_operations[i],
                    p_credential_ids[i], p_request_ids[i], p_now);
        END IF;
        RETURN QUERY SELECT 'ok'::text, v_claim, v_balance, v_ledger;
    END LOOP;
END
$fn$
"""


async def create_function(apps: object, schema_editor: BaseSchemaEditor) -> None:
    if schema_editor.client.capabilities.dialect == "postgres":
        await schema_editor.client.execute_script(CREATE_FUNCTION)


async def drop_function(apps: object, schema_editor: BaseSchemaEditor) -> None:
    if schema_editor.client.capabilities.dialect == "postgres":
        await schema_editor.client.execute_script(
            "DROP FUNCTION IF EXISTS astro_claim_and_debit("
            "text[], text[], text[], text[], text[], text[], bigint[], int[], text[], text[], "
            "text[], timestamptz, timestamptz)"
        )


class Migration(migrations.Migration):
    dependencies = [("astro", "0004_published_horoscopes")]

    initial = False

    operations = [ops.RunPython(create_function, drop_function)]
