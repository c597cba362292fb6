"""Every benchmark script still runs: each one's ``--smoke`` mode (tiny sizes, seconds, the same
code path) exits 0 and prints its figure lines, so a broken import, a renamed attribute or a
changed figure line fails the suite instead of rotting unseen until someone measures again.

The runs are subprocesses (``python benchmarks/<name>.py --smoke``, as a person runs them),
started all at once in the module's fixture and a few at a time (:data:`PARALLEL`); each test
waits for its own. The scripts that start server, worker or browser processes (``heavy``) take
15-35 s each even at smoke size: by default they are only imported with their options parsed
(``--help``), and ``ASTRO_TEST_BENCH_SMOKE=all`` runs their smoke mode as well. Those that need
PostgreSQL and Redis start throwaway ones of their own (``benchmarks/_services.py``) from the
binaries scripts/test.sh installs: their tests run where the suite's services are
(``ASTRO_TEST_DATABASE_URL``, ``ASTRO_TEST_REDIS_URL``), skip elsewhere and fail where services
are required. Chromium's scripts skip without Debian's chromium. The peer benchmark runs our side
only (the peer is not installable offline). Figures are not checked against targets here: a
smoke run's numbers mean nothing, only their lines' shape. The drills (``benchmarks/drills/``)
are the suite's own tests at a larger size, so they are not run here.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BENCHMARKS = ROOT / "benchmarks"
#: Smoke runs at once: most of a service script's time is its processes starting (CPU-bound
#: imports), so more than the machine's two cores only queues them.
PARALLEL = 3
TIMEOUT_S = 240
NUMBER = r"-?[\d,]+(?:\.\d+)?"


@dataclass(frozen=True)
class Smoke:
    #: Regular expressions: each must match a line of the script's output (``NUMBER`` is
    #: written ``{n}``).
    figures: tuple[str, ...]
    services: bool = False  # starts its own PostgreSQL and Redis (and server processes)
    chromium: bool = False
    #: Starts server, worker or browser processes: 15-35 s of smoke run on an idle 2-core
    #: machine (their imports, models, Chromium, a due minute to wait for, faults to recover
    #: from), minutes under load. Run with ``ASTRO_TEST_BENCH_SMOKE=all``; otherwise only
    #: imported with its options parsed (``--help``), which still finds a broken import.
    heavy: bool = False

    def patterns(self) -> list[re.Pattern[str]]:
        return [re.compile(figure.replace("{n}", NUMBER), re.M) for figure in self.figures]


SCRIPTS: dict[str, Smoke] = {
    "chart_pictures": Smoke(
        (
            r"^\s+ours: SVG natal wheel \(drawing\)\s+{n} ms\s+{n} /s$",
            r"^\s+kerykeion: chart \+ SVG\s+{n} ms\s+{n} /s$",
            r"^\s+ours: PNG 800 px from the SVG\s+{n} ms\s+{n} /s$",
            r"^\s+SVG: {n}x kerykeion's speed; target <= 5 ms: (met|NOT met); PNG target",
        )
    ),
    "chinese_bazi": Smoke(
        (
            r"^{n} BaZi charts with 8 luck and 10 annual pillars \(chart only\): {n} s, "
            r"{n} charts/s, {n} us/chart$",
            r"\(with JSON encoding\): {n} s, {n} charts/s, {n} us/chart$",
            r"^solar terms 1899-2101 computed once in {n} s$",
        )
    ),
    "cultural": Smoke(
        (
            r"^calendar TH \d{4}: cold\s+{n} ms \(cpu\s+{n}\), warm\s+{n} ms .*"
            r"\(target <= 120 ms\)$",
            r"^calendar SG \d{4}: cold",
            r"^best dates TH\+CN\+IN \d{4}: cold\s+{n} ms .*\(target 1000 ms\)$",
            r"^campaign day 2045-02-18 \(12 signs x en,th x TH,CN,IN\): cold\s+{n} ms",
        )
    ),
    "interpretations": Smoke(
        (
            r"^bare natal chart:\s+{n} ms per chart$",
            r"^natal \+ interpretation th full\s+:\s+{n} ms per chart\s+\(added\s+{n} ms",
            r"^server's natal items \+ JSON, en full:\s+{n} ms per chart$",
            r"^Vedic \+ interpretation en full\s+:\s+{n} ms per chart",
        )
    ),
    "mcp_profile": Smoke(
        (
            r"^group\s+rest\s+tool\s+added\s+ping\s+ms/request \(cProfile\)$",
            r"^total\s+{n}\s+{n}\s+{n}\s+{n}",
            r"^CPU ms per request \(client and server, no profiler\):$",
            r"tool overhead over REST: {n}$",
        )
    ),
    "profiles": Smoke(
        (
            r"^natal, subject inline\s+best\s+{n} ms/call$",
            r"^natal, profile_id\s+best\s+{n} ms/call$",
            r"^resolve_references step\s+p50\s+{n} ms, p95\s+{n} ms",
            r"^natal, profile_id, cache cleared before each call: best\s+{n} ms/call; step p50",
        )
    ),
    "sdk_overhead": Smoke(
        (
            r"^client side only \(MockTransport\): raw httpx\s+{n} us/call, SDK\s+{n} us/call",
            r"^sync\s+\(AstroClient\)\s+raw p50\s+{n} ms\s+p99\s+{n} ms \| SDK p50\s+{n} ms\s+"
            r"p99\s+{n} ms \| ratio {n}",
            r"^async \(AsyncAstroClient\)\s+raw p50\s+{n} ms",
        ),
        heavy=True,
    ),
    "sensitivity": Smoke(
        (
            r"^natal chart\s+{n} ms$",
            r"^natal sensitivity \(added\)\s+{n} ms\s+target <= 3 ms",
            r"^BaZi sensitivity \(added\)\s+{n} ms\s+target <= 1 ms",
        )
    ),
    "thai_calendar": Smoke(
        (
            r"^tables 1900-2200 built once: {n} ms \({n} ms per year\)$",
            r"^thai_lunar_date \(cached year\): {n} us per day over {n} days$",
            r"^366-day auspicious search: {n} ms \(mean of 20, target < 50 ms\)$",
            r"^tables 1900-2200 by the Suriyayatra rule \(year_type_source=rule\): {n} ms$",
        )
    ),
    "vedic_matching": Smoke(
        (
            r"^match_moons \(Moons known\)\s+{n} pairs/s\s+{n} us/pair$",
            r"^two Moon positions \+ match_moons\s+{n} pairs/s",
            r"^kundli_match \(full, with Manglik\)\s+{n} pairs/s",
        )
    ),
    "western_endpoints": Smoke(
        (
            r"^GET /healthz\s+{n} req/s\s+{n} ms/req$",
            r"^POST /api/v3/western/natal\s+{n} req/s",
            r"^natal / healthz:\s+{n} \(target >= 0.5\)$",
            r"^uranian worst case / healthz: {n}$",
        )
    ),
    "western_natal": Smoke(
        (
            r"^raw pyswisseph floor \(13 bodies \+ houses\)\s+{n} charts/CPU-s\s+{n} us/chart$",
            r"^astro_calc natal_chart, 13 bodies\s+{n} charts/CPU-s",
            r"^astro_calc \(13 bodies\) / raw floor time: {n}x best rounds",
            r"^astro_calc vs kerykeion throughput:\s+{n}x \(target >= 3x\)$",
        )
    ),
    "astrocartography": Smoke(
        (
            r"^place search: {n} ms CPU per search, slowest query {n} ms \(target <= 2 ms\)$",
            r"^world map SVG: {n} ms CPU$",
        )
    ),
    "ziwei": Smoke((r"^ziwei chart with horoscopes: {n} ms CPU per chart",)),
    "human_design": Smoke((r"^chart: {n} ms CPU per chart",)),
    "sky_events": Smoke(
        (
            r"^sky events, one year, all kinds and bodies: {n} ms CPU \(target <= 300\)$",
            r"^forecast, one month: {n} ms CPU \(target <= 100\)$",
        )
    ),
    "traditional": Smoke((r"^profections: CPU ms \(median, best\) {n}",)),
    "speed_floor": Smoke((r"^load average: {n}",)),
    "portal_dashboard": Smoke(
        (
            r"^/portal/developers\s+{n}\s+{n}\s+p50 <= 100 ms: (met|NOT met)$",
            r"^/portal/developers/keys\s+{n}\s+{n}",
            r"^/portal/feeds \(floor\)\s+{n}\s+{n}$",
            r"^CPU of this process per request \(all pages\): {n} ms$",
        )
    ),
    # --- with PostgreSQL and Redis of their own ---------------------------------------------------
    "vedic_batch": Smoke(
        (
            r"^POST -> succeeded: p50 {n} ms\s+p90 {n} ms\s+max {n} ms",
            r"^worker CPU per batch: median {n} ms, mean {n} ms",
            r"^target \(issue 6\): p50 under 2 s -> (met|NOT met)$",
        ),
        services=True,
        heavy=True,
    ),
    "usage_ledger": Smoke(
        (
            r"^ledger: {n} rows of the account \+ {n} of others",
            r"^30 days by operation \(default\)\s+{n}\s+{n}\s+{n}\s+{n}\s+{n}$",
            r"^365 days by day\s+{n}\s+{n}\s+{n}\s+{n}\s+{n}$",
            r"^EXPLAIN \(ANALYZE, BUFFERS\)",
        ),
        services=True,
        heavy=True,
    ),
    "platform_throughput": Smoke(
        (
            r"^GET /healthz\s+{n} req\s+{n} req/s\s+p50\s+{n} ms\s+p99\s+{n} ms",
            r"^POST numerology/profile \(billable\)\s+{n} req\s+{n} req/s\s+p50\s+{n} ms",
            r"ms CPU per request: API processes {n}, PostgreSQL {n}, Redis {n}",
            r"of /healthz throughput \(targets:",
        ),
        services=True,
        heavy=True,
    ),
    "peer_http": Smoke(
        (
            r"^POST western/natal \(billable\)\s+{n} req\s+{n} req/s\s+p50\s+{n} ms\s+p99",
            r"^billed natal \(no peer: smoke run\): {n} req/s, p50 {n} ms, p99 {n} ms$",
        ),
        services=True,
        heavy=True,
    ),
    "visual_readings": Smoke(
        (
            r"^face: n=1 p50={n} ms p90={n} ms max={n} ms worker CPU {n} ms/reading$",
            r"^palm: n=1 p50={n} ms",
            r"^worker resident memory \(models loaded\): {n} MiB$",
        ),
        services=True,
        heavy=True,
    ),
    "hr_assessment": Smoke(
        (
            r"^in-process: 20 assessments \(3 outlook years, encoded\) in {n} s: {n}/s, "
            r"{n} ms each \(target >= 200/s\)$",
            r"^over HTTP, no PDF \(5 requests\): p50 {n} ms, p99 {n} ms \(target p50 <= 20 ms\)$",
            r"^over HTTP, with the PDF \(1 requests, en and th, Chromium warm\): p50 {n} ms",
        ),
        chromium=True,
        heavy=True,
    ),
    "mcp_server": Smoke(
        (
            r"^overhead_p50_ms\s+{n}\s+target <= 2: (met|NOT met)$",
            r"^tools_list_p50_ms\s+{n}\s+target <= 50",
            r"^raw_overhead_p50_ms\s+{n}",
            r"^cpu_overhead_ms\s+{n}\s+target <= 2: (met|NOT met)$",
            r"^tools_list_kb\s+{n}$",
        ),
        heavy=True,
    ),
    "portal": Smoke(
        (
            r"^portal, 5 subscriptions, SQLite, 2 rounds$",
            r"^/portal/dashboard\s+server \(full HTML\)\s+median\s+{n} ms\s+p95\s+{n} ms$",
            r"^\s+browser load event\s+median\s+{n} ms\s+p95\s+{n} ms$",
            r"^/portal/feeds\s+server \(full HTML\)",
            r"^target <= 300 ms \(medians\): (met|NOT met)$",
        ),
        chromium=True,
        heavy=True,
    ),
    "reports": Smoke(
        (
            r"^sync natal PDF \(1, en/th\): p50 {n} s \(target <= 1.0 s\), p99 {n} s",
            r"^async CPU: {n} CPU s per PDF",
            r"^async natal PDF: 2 done in {n} s with 1 workers = {n} PDFs/s",
            r"^memory worker1: peak {n} MB \(VmHWM\); its Chromium: RSS sum {n} MB now",
            r"^worker stop: {n} Chromium/driver processes before, 0 left after SIGTERM",
        ),
        services=True,
        chromium=True,
        heavy=True,
    ),
    "chaos": Smoke(
        (
            r"^chaos: serve --workers 2, 2 workers, 1 scheduler, PostgreSQL \+ Redis on loopback; "
            r"2 clients, 1 accounts",
            r"^\[api-kill\] API process \d+ killed; replaced in {n} s$",
            r"^\s+clients saw \({n} requests\): ",
            r"^\s+balance=ledger: ok$",
            r"^\s+billed 2xx without exactly one debit: 0$",
            r"^\s+jobs not terminal: 0$",
        ),
        services=True,
        heavy=True,
    ),
    "delivery_10k": Smoke(
        (
            r"^inserted 20 subscriptions in {n} s; all due at \d\d:\d\d:00 UTC$",
            r"^delivered 20 of 20$",
            r"^last delivery\s+{n} s after the due instant$",
            r"^throughput\s+{n} deliveries/s \(first to last\)",
            r"^target: all within 60 s -> (met|NOT met)$",
            r"^SQL statements: {n} \({n} per delivery\); most run:$",
        ),
        services=True,
        heavy=True,
    ),
}


def _services_here() -> bool:
    return bool(
        os.environ.get("ASTRO_TEST_DATABASE_URL") and os.environ.get("ASTRO_TEST_REDIS_URL")
    )


def _chromium_here() -> bool:
    return shutil.which("chromium") is not None


def _heavy_too() -> bool:
    return os.environ.get("ASTRO_TEST_BENCH_SMOKE") == "all"


def _runnable(smoke: Smoke) -> bool:
    return (
        (not smoke.services or _services_here())
        and (not smoke.chromium or _chromium_here())
        and (not smoke.heavy or _heavy_too())
    )


@dataclass(frozen=True)
class Run:
    returncode: int
    stdout: str
    stderr: str
    wall_s: float


def _run(name: str, *arguments: str) -> Run:
    # A person's shell: none of the suite's ASTRO_* variables (the scripts set their own).
    env = {k: v for k, v in os.environ.items() if not k.startswith("ASTRO_")}
    t0 = time.perf_counter()
    done = subprocess.run(
        [sys.executable, str(BENCHMARKS / f"{name}.py"), *(arguments or ("--smoke",))],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=TIMEOUT_S,
        check=False,
    )
    return Run(done.returncode, done.stdout, done.stderr, time.perf_counter() - t0)


@pytest.fixture(scope="module")
def smoke_runs() -> Iterator[dict[str, Future[Run]]]:
    """Every runnable script's smoke run, started at once (the slowest first)."""
    wanted = [name for name, smoke in SCRIPTS.items() if _runnable(smoke)]
    wanted.sort(key=lambda name: (not SCRIPTS[name].heavy, not SCRIPTS[name].services))
    with ThreadPoolExecutor(PARALLEL) as pool:
        runs = {name: pool.submit(_run, name) for name in wanted}
        # The heavy scripts not run: imported and their options parsed.
        for name, smoke in SCRIPTS.items():
            if smoke.heavy and name not in runs:
                runs[f"{name} --help"] = pool.submit(_run, name, "--help")
        yield runs


def test_every_benchmark_script_has_a_smoke_check() -> None:
    scripts = {p.stem for p in BENCHMARKS.glob("*.py") if not p.name.startswith("_")}
    assert scripts == set(SCRIPTS)
    for name in scripts:
        assert "add_smoke(parser)" in (BENCHMARKS / f"{name}.py").read_text(), name


@pytest.mark.parametrize("name", sorted(SCRIPTS))
def test_smoke_run_prints_its_figures(
    name: str, smoke_runs: dict[str, Future[Run]], request: pytest.FixtureRequest
) -> None:
    smoke = SCRIPTS[name]
    if smoke.services:
        request.getfixturevalue("pg_url")  # skips (or fails) as the suite's service tests do
        request.getfixturevalue("redis_url")
    if smoke.chromium and not _chromium_here():
        pytest.skip("Debian's chromium is not installed")
    if smoke.heavy and not _heavy_too():
        pytest.skip("starts server processes: ASTRO_TEST_BENCH_SMOKE=all runs it (--help here)")
    run = smoke_runs[name].result()
    tail = f"\n--- stdout:\n{run.stdout[-3000:]}\n--- stderr:\n{run.stderr[-3000:]}"
    assert run.returncode == 0, f"{name} --smoke exited {run.returncode}{tail}"
    missing = [p.pattern for p in smoke.patterns() if not p.search(run.stdout)]
    assert not missing, f"{name} --smoke printed none of the lines {missing}{tail}"
    print(f"{name}: {run.wall_s:.1f} s")


@pytest.mark.parametrize("name", sorted(name for name, smoke in SCRIPTS.items() if smoke.heavy))
def test_heavy_script_imports_and_parses_its_options(
    name: str, smoke_runs: dict[str, Future[Run]]
) -> None:
    """Without ``ASTRO_TEST_BENCH_SMOKE=all``, a heavy script still imports everything it uses
    and knows ``--smoke``: the rot that is most common (a moved name) fails here."""
    if _heavy_too() and _runnable(SCRIPTS[name]):
        pytest.skip("its smoke run is checked instead")
    run = smoke_runs[f"{name} --help"].result()
    assert run.returncode == 0, f"{name} --help exited {run.returncode}\n{run.stderr[-3000:]}"
    assert "--smoke" in run.stdout
