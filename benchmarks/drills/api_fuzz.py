"""Schemathesis against the live API at volume: ``tests/test_api_fuzz.py`` with 25 generated
test cases per operation instead of the suite's 5 (no input may make the API answer 500).

    uv run python benchmarks/drills/api_fuzz.py [pytest arguments]

Starts its own PostgreSQL, Redis and S3 server (moto) on loopback, prints PASS/FAIL with the
run's wall time and the load average, and exits non-zero when it failed (the failure prints a
curl command that replays the request).
"""

from __future__ import annotations

from _harness import main

if __name__ == "__main__":
    raise SystemExit(main("API fuzz drill", ["tests/test_api_fuzz.py"]))
