"""What every feature stands on: the caller and auth, billing (ledger, claims, the billable
pipeline, idempotency, pricing, usage), jobs and the broker, periodic tasks, files and signed
URLs, the delivery engine (SSRF guard, signing, retries), the database, errors and responses,
and the platform's own routes (health, docs, metrics). It imports no feature (import-linter).
"""
