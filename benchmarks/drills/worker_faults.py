"""Job workers stopped under load: ``tests/test_platform_live.py``'s killed-worker and
SIGTERM tests at drill size. The suite kills a worker in the middle of one of three jobs and
stops one (SIGTERM) with four jobs queued; this runs twelve and ten, as the tests did before
they were cut for the suite's time.

    uv run python benchmarks/drills/worker_faults.py [pytest arguments]

Starts its own PostgreSQL, Redis and S3 server (moto) on loopback, prints PASS/FAIL with each
test's wall time and the load average, and exits non-zero when one failed. Faults on the whole
production shape (API, scheduler, Redis and PostgreSQL restarts) are in benchmarks/chaos.py.
"""

from __future__ import annotations

from _harness import main

if __name__ == "__main__":
    raise SystemExit(
        main(
            "worker fault drill",
            [
                "tests/test_platform_live.py::"
                "test_a_job_whose_worker_is_killed_finishes_once_on_another_worker",
                "tests/test_platform_live.py::test_sigterm_during_a_busy_queue_loses_no_job",
            ],
        )
    )
