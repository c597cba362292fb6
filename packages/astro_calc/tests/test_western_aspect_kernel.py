"""The aspect search's pair loop in ``astro_calc.western._aspect_kernel`` (the form mypyc
compiles) against ``aspects_within``'s own loop: identical aspects (``==`` on every field) on
random points, orbs and aspect subsets, with and without the skipped node pair. The kernel is
checked as source (always) and as imported (the compiled copy when one was built; see its
module docstring)."""

from __future__ import annotations

import importlib.util
import random
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from astro_calc.western import _aspect_kernel, aspects
from astro_calc.western.aspects import ALL_ASPECTS, Aspect, Point, aspect_set

NAMES = ("sun", "moon", "mercury", "venus", "mars", "jupiter", "saturn", "uranus", "neptune",
         "pluto", "mean_node", "true_node", "mean_lilith", "ascendant", "midheaven")  # fmt: skip
NODE_PAIR = frozenset({frozenset({"mean_node", "true_node"})})
# Longitudes on and next to the aspect windows' edges, where a loop could slip.
EDGES = (0.0, 8.0, 30.0, 45.0, 60.0, 90.0, 120.0, 135.0, 150.0, 180.0, 352.0, 359.999999999)


def _source_kernel() -> ModuleType:
    """The kernel module run from its source, whether or not a compiled copy is built."""
    path = Path(aspects.__file__).with_name("_aspect_kernel.py")
    spec = importlib.util.spec_from_file_location("_aspect_kernel_source", path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _points(rng: random.Random) -> list[Point]:
    points = []
    for name in NAMES:
        lon = rng.choice(EDGES) if rng.random() < 0.2 else rng.uniform(0.0, 360.0)
        points.append((name, lon, rng.uniform(-1.5, 15.0)))
    return points


def _cases(count: int) -> list[tuple[list[Point], Any, frozenset[frozenset[str]]]]:
    rng = random.Random(48)
    cases = []
    for k in range(count):
        if k % 3 == 0:
            definitions = aspect_set()
        else:
            chosen = rng.sample(ALL_ASPECTS, rng.randint(1, len(ALL_ASPECTS)))
            orbs = {name: rng.choice((rng.uniform(0.0, 15.0), float(rng.randint(0, 15))))
                    for name in chosen if rng.random() < 0.7}  # fmt: skip
            definitions = aspect_set(chosen, orbs)
        cases.append((_points(rng), definitions, NODE_PAIR if k % 2 else frozenset()))
    return cases


def _kernel_aspects(
    scan: Callable[..., list[Any]], points: list[Point], definitions: Any, skip: Any
) -> list[Aspect]:
    m = aspects.matcher(definitions)
    first, second = aspects._one_skipped_pair(points, skip) or (-1, -1)
    return scan(points, first, second, m.window_rows, m.inside_rows, Aspect)


@pytest.mark.parametrize("kernel", ["source", "imported"])
def test_kernel_finds_the_same_aspects_as_the_python_loop(
    kernel: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(aspects, "KERNEL_COMPILED", False)  # the reference: the loop in aspects
    module = _source_kernel() if kernel == "source" else _aspect_kernel
    found = 0
    for points, definitions, skip in _cases(400):
        expected = aspects.aspects_within(points, definitions, skip_pairs=skip)
        assert _kernel_aspects(module.scan_pairs, points, definitions, skip) == expected
        found += len(expected)
    assert found > 4000  # the cases do find aspects


def test_aspects_within_uses_the_kernel_only_when_compiled() -> None:
    compiled = not str(_aspect_kernel.__file__).endswith(".py")
    assert aspects.KERNEL_COMPILED is compiled


def test_two_skipped_pairs_fall_back_to_the_python_loop() -> None:
    # Sun and Moon, and the two nodes, in exact conjunction: found unless skipped.
    points = [(name, 10.0 if name in ("sun", "moon") else 200.0 if "node" in name else 90.0 + k,
               1.0) for k, name in enumerate(NAMES)]  # fmt: skip
    skip = frozenset({frozenset({"mean_node", "true_node"}), frozenset({"sun", "moon"})})
    assert aspects._one_skipped_pair(points, skip) is None
    every = {(a.body1, a.body2) for a in aspects.aspects_within(points, aspect_set())}
    assert {("sun", "moon"), ("mean_node", "true_node")} <= every
    found = aspects.aspects_within(points, aspect_set(), skip_pairs=skip)
    kept = {(a.body1, a.body2) for a in found}
    assert kept == every - {("sun", "moon"), ("mean_node", "true_node")}
