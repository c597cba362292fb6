"""Customer delivery: the account's webhook endpoints (API-key routes) over the platform's delivery
engine and account events.
"""
