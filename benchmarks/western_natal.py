"""Full Western natal charts per second: astro_calc vs the raw pyswisseph floor, kerykeion and
immanuel.

Run: uv run python benchmarks/western_natal.py [--charts N] [--rounds R] [--immanuel auto|off]
     [--immanuel-venv PATH]

Every contender gets the same random births (1900-2100, latitudes 60S..60N, UTC offsets given)
and computes a full chart: Sun..Pluto, mean and true node, mean Lilith, Placidus houses and
aspects. The "raw floor" is the same pyswisseph calls with nothing else (13 calc_ut and one
houses_ex2, which also gives the angles' speeds); astro_calc adds time resolution, signs, houses
of bodies, dignities, eleven aspect kinds with applying/separating, element and modality balance
and the result structs (the default chart also tries Chiron, which without asteroid files costs
one refused call and a warning). kerykeion: AstrologicalSubjectFactory offline plus
AspectsFactory.single_chart_aspects.

immanuel (``charts.Natal`` of a ``charts.Subject`` at UTC offset 0, its default configuration)
pins timezonefinder<6, so it cannot live in the project's environment. With ``--immanuel auto``
(the default) the script makes or reuses a separate throwaway virtual environment
(``--immanuel-venv``, default ``<tmp>/astro-bench-immanuel``; ``uv venv`` and ``uv pip install
immanuel``, which picks an older timezonefinder there) and times immanuel in a subprocess on the
same births (CPU time of that process, best round), after checking that its Sun agrees with ours.
immanuel always reads the Swiss Ephemeris files it ships; our figures above are on Moshier (no
files), so astro_calc is also timed with ASTRO_EPHE_PATH at those same files, and both ratios are
printed. When the environment cannot be made (no uv, no registry), it says why and goes on
without it. immanuel is never a dependency of the project.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

import msgspec
import swisseph as swe
from _services import add_smoke, apply_smoke

from astro_calc.western import BirthSubject, natal_chart

BODIES = ("sun", "moon", "mercury", "venus", "mars", "jupiter", "saturn", "uranus", "neptune",
          "pluto", "mean_node", "true_node", "mean_lilith")  # fmt: skip

Birth = tuple[datetime, float, float]


def raw_floor(births: list[Birth]) -> None:
    flags = swe.FLG_MOSEPH | swe.FLG_SPEED
    for moment, lat, lon in births:
        jd = swe.julday(moment.year, moment.month, moment.day, moment.hour + moment.minute / 60)
        for ipl in range(13):
            swe.calc_ut(jd, ipl, flags)
        swe.houses_ex2(jd, lat, lon, b"P", swe.FLG_MOSEPH)


def ours(births: list[Birth], bodies: tuple[str, ...] | None, encode: bool) -> None:
    encoder = msgspec.json.Encoder()
    for moment, lat, lon in births:
        subject = BirthSubject(
            moment.date(), moment.strftime("%H:%M"), lat, lon, timezone_offset_minutes=0
        )
        chart = natal_chart(subject) if bodies is None else natal_chart(subject, bodies=bodies)
        if encode:
            encoder.encode(chart)


def kerykeion_charts(births: list[Birth]) -> None:
    from kerykeion import AspectsFactory, AstrologicalSubjectFactory

    for moment, lat, lon in births:
        subject = AstrologicalSubjectFactory.from_birth_data(
            "x", moment.year, moment.month, moment.day, moment.hour, moment.minute,
            lng=lon, lat=lat, tz_str="UTC", online=False, suppress_geonames_warning=True,
        )  # fmt: skip
        AspectsFactory.single_chart_aspects(subject)


# Runs inside the immanuel environment: births on stdin, best CPU seconds per chart on stdout.
IMMANUEL_SCRIPT = """
import json, sys, time
from importlib.metadata import version
from pathlib import Path
import immanuel
from immanuel import charts
from immanuel.const import chart as names
job = json.load(sys.stdin)
births = job["births"]

def natal(birth):
    moment, lat, lon = birth
    return charts.Natal(charts.Subject(moment, lat, lon, timezone_offset=0))

suns = [natal(b).objects[names.SUN].longitude.raw for b in births[:5]]
best = float("inf")
for _ in range(job["rounds"]):
    t0 = time.process_time()
    for birth in births:
        natal(birth)
    best = min(best, (time.process_time() - t0) / len(births))
files = str(Path(immanuel.__file__).parent / "resources" / "ephemeris")
print(json.dumps({"per_chart_s": best, "suns": suns, "version": version("immanuel"),
                  "ephemeris_files": files}))
"""


def immanuel_python(venv: Path) -> tuple[Path | None, str]:
    """The immanuel environment's interpreter, made on first use; (None, why) when it cannot."""
    python = venv / "bin" / "python"
    ready = (
        python.exists()
        and subprocess.run(
            [str(python), "-c", "import immanuel"], capture_output=True, check=False
        ).returncode
        == 0
    )
    if ready:
        return python, f"reusing {venv}"
    uv = shutil.which("uv")
    if uv is None:
        return None, "uv is not on PATH, so no separate environment can be made"
    print(f"immanuel: making a separate environment in {venv} (uv venv; uv pip install immanuel)")
    steps = ([uv, "venv", "--quiet", str(venv)],
             [uv, "pip", "install", "--quiet", "--python", str(python), "immanuel"])  # fmt: skip
    for step in steps:
        done = subprocess.run(step, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            tail = (done.stderr or done.stdout).strip().splitlines()[-3:]
            return None, f"{' '.join(step[:3])} failed: {' | '.join(tail)}"
    return python, f"made {venv}"


def immanuel_per_chart(
    python: Path, births: list[Birth], rounds: int, our_suns: list[float]
) -> tuple[float, str, str]:
    """Best CPU seconds per immanuel natal chart on these births, its version, and the Swiss
    Ephemeris files it ships (and always uses)."""
    job = {
        "births": [(m.strftime("%Y-%m-%d %H:%M:%S"), lat, lon) for m, lat, lon in births],
        "rounds": rounds,
    }
    done = subprocess.run(
        [str(python), "-c", IMMANUEL_SCRIPT], input=json.dumps(job), capture_output=True,
        text=True, check=True,
    )  # fmt: skip
    result = json.loads(done.stdout.strip().splitlines()[-1])
    for theirs, ours_sun in zip(result["suns"], our_suns, strict=True):
        gap = abs((theirs - ours_sun + 180.0) % 360.0 - 180.0)
        if gap > 0.01:
            raise SystemExit(
                f"immanuel's Sun differs from ours by {gap:.4f} degrees: not the same input"
            )
    return float(result["per_chart_s"]), str(result["version"]), str(result["ephemeris_files"])


def timed(run: Callable[[list[Birth]], None], births: list[Birth]) -> float:
    """CPU seconds of this process: other jobs on the shared machine do not count against it."""
    t0 = time.process_time()
    run(births)
    return time.process_time() - t0


def show(label: str, per_s: float) -> None:
    print(f"{label:<46} {per_s:>9.0f} charts/CPU-s  {1e6 / per_s:>8.0f} us/chart")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--charts", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--immanuel", choices=("auto", "off"), default="auto")
    parser.add_argument(
        "--immanuel-venv", type=Path, default=Path(tempfile.gettempdir()) / "astro-bench-immanuel"
    )
    add_smoke(parser)
    args = apply_smoke(parser.parse_args(), charts=5, rounds=1, immanuel="off")
    rng = random.Random(7)
    start = datetime(1900, 1, 1, tzinfo=UTC)
    births = [
        (start + timedelta(minutes=rng.randrange(0, 200 * 525_600)), rng.uniform(-60, 60),
         rng.uniform(-180, 180))
        for _ in range(args.charts)
    ]  # fmt: skip
    contenders: dict[str, tuple[Callable[[list[Birth]], None], list[Birth]]] = {
        "raw pyswisseph floor (13 bodies + houses)": (raw_floor, births),
        "astro_calc natal_chart, 13 bodies": (lambda b: ours(b, BODIES, False), births),
        "astro_calc natal_chart, default (+chiron)": (lambda b: ours(b, None, False), births),
        "astro_calc 13 bodies + JSON encode": (lambda b: ours(b, BODIES, True), births),
        "kerykeion subject + aspects": (kerykeion_charts, births[: max(50, len(births) // 5)]),
    }
    for run, sample in contenders.values():
        run(sample[:20])  # warm up imports and caches
    # The machine is shared: every round runs all contenders back to back, and each figure is
    # the best round (the least disturbed); ratios are also given per round, as a median.
    best = dict.fromkeys(contenders, float("inf"))
    ratios: list[float] = []
    for _ in range(args.rounds):
        round_times = {}
        for label, (run, sample) in contenders.items():
            elapsed = timed(run, sample) / len(sample)
            round_times[label] = elapsed
            best[label] = min(best[label], elapsed)
        labels = list(contenders)
        ratios.append(round_times[labels[1]] / round_times[labels[0]])
    for label, per_chart in best.items():
        show(label, 1.0 / per_chart)
    labels = list(contenders)
    floor, lean, full, enc, ky = (1.0 / best[label] for label in labels)
    swe.set_ephe_path(None)
    print()
    print(
        f"astro_calc (13 bodies) / raw floor time: {floor / lean:.2f}x best rounds, "
        f"{statistics.median(ratios):.2f}x median of paired rounds (target <= 1.25x, issue 33)"
    )
    print(f"astro_calc (default)   / raw floor time: {floor / full:.2f}x")
    print(f"astro_calc with encode / raw floor time: {floor / enc:.2f}x")
    print(f"astro_calc vs kerykeion throughput:      {lean / ky:.1f}x (target >= 3x)")
    if args.immanuel == "off":
        print("immanuel: not measured (--immanuel off)")
        return
    python, how = immanuel_python(args.immanuel_venv)
    if python is None:
        print(f"immanuel: not measured: {how}")
        return
    sample = births[: max(50, len(births) // 5)]
    our_suns = [
        natal_chart(BirthSubject(m.date(), m.strftime("%H:%M"), lat, lon,
                                 timezone_offset_minutes=0), bodies=("sun",)).planets[0].longitude
        for m, lat, lon in sample[:5]
    ]  # fmt: skip
    per_chart, version, files = immanuel_per_chart(
        python, sample, max(3, args.rounds // 3), our_suns
    )
    print(f"immanuel: {how}")
    show(f"immanuel {version} natal (its Swiss files)", 1.0 / per_chart)
    # immanuel always reads its Swiss Ephemeris files; ours above ran on Moshier (no files). The
    # same comparison on the same files: ASTRO_EPHE_PATH pointed at immanuel's, in this process.
    os.environ["ASTRO_EPHE_PATH"] = files
    try:
        ours(births[:20], BODIES, False)
        on_files = min(timed(lambda b: ours(b, BODIES, False), births) for _ in range(args.rounds))
    finally:
        del os.environ["ASTRO_EPHE_PATH"]
    show("astro_calc natal_chart, 13 bodies, same files", len(births) / on_files)
    print(f"astro_calc vs immanuel throughput:       {lean * per_chart:.1f}x ours on Moshier, "
          f"{per_chart * len(births) / on_files:.1f}x both on immanuel's Swiss files "
          "(target >= 15x)")  # fmt: skip


if __name__ == "__main__":
    main()
