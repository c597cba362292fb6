"""Services behind the handlers: auth, billing, pricing, idempotency, rate limits, jobs, ..."""
