"""Credits: the one price table (pricing.py), the ledger (ledger.py), the claim-and-debit
transaction (claims.py), the request body a billed call pays for (body.py), idempotent replay
(idempotency.py), usage sums (usage.py) and the @billable pipeline (billable.py).
"""
