"""The backup and restore drill of docs/operations.md on both file stores (S3 bucket and data
directory): ``tests/test_operations_backup_restore.py`` at drill size. The suite runs it on the
S3 bucket only; this adds the data directory (each store's run is a minute or more).

    uv run python benchmarks/drills/backup_restore.py [pytest arguments]

Starts its own PostgreSQL, Redis and S3 server (moto) on loopback, prints PASS/FAIL with each
run's wall time and the load average, and exits non-zero when a run failed.
"""

from __future__ import annotations

from _harness import main

if __name__ == "__main__":
    raise SystemExit(
        main(
            "backup/restore drill",
            ["tests/test_operations_backup_restore.py::test_restore_drill_finds_everything_intact"],
        )
    )
