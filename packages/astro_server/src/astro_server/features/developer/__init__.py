"""Developer workflow: account, usage, ledger, API keys, audit log (routes.py), estimates
(estimates.py) and job polling (jobs_routes.py).
"""
