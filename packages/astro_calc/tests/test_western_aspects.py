"""Aspects (orbs, applying/separating) and essential dignities against hand-built references."""

from __future__ import annotations

import itertools
import random
from datetime import UTC, datetime, timedelta

import pytest

from astro_calc.western import ASPECTS, BirthSubject, natal_chart
from astro_calc.western.aspects import aspect_set, aspects_between, aspects_within
from astro_calc.western.dignity import dignity_score, essential_dignities

# --- dignities ------------------------------------------------------------------------------
# Lilly, Christian Astrology (1647), table of essential dignities: houses (rulership) and
# exaltations of the seven planets; detriment and fall are the opposite signs. Written out here
# by hand, independently of the data file.
LILLY = {
    "sun": {"rulership": ["leo"], "detriment": ["aquarius"],
            "exaltation": ["aries"], "fall": ["libra"]},
    "moon": {"rulership": ["cancer"], "detriment": ["capricorn"],
             "exaltation": ["taurus"], "fall": ["scorpio"]},
    "mercury": {"rulership": ["gemini", "virgo"], "detriment": ["sagittarius", "pisces"],
                "exaltation": ["virgo"], "fall": ["pisces"]},
    "venus": {"rulership": ["taurus", "libra"], "detriment": ["scorpio", "aries"],
              "exaltation": ["pisces"], "fall": ["virgo"]},
    "mars": {"rulership": ["aries", "scorpio"], "detriment": ["libra", "taurus"],
             "exaltation": ["capricorn"], "fall": ["cancer"]},
    "jupiter": {"rulership": ["sagittarius", "pisces"], "detriment": ["gemini", "virgo"],
                "exaltation": ["cancer"], "fall": ["capricorn"]},
    "saturn": {"rulership": ["capricorn", "aquarius"], "detriment": ["cancer", "leo"],
               "exaltation": ["libra"], "fall": ["aries"]},
}  # fmt: skip
SIGNS = ["aries", "taurus", "gemini", "cancer", "leo", "virgo", "libra", "scorpio",
         "sagittarius", "capricorn", "aquarius", "pisces"]  # fmt: skip


@pytest.mark.parametrize("planet", sorted(LILLY))
def test_classical_dignities_follow_lilly(planet: str) -> None:
    for sign in SIGNS:
        expected = {kind for kind, signs in LILLY[planet].items() if sign in signs}
        assert set(essential_dignities(planet, sign)) == expected, (planet, sign)


def test_modern_rulers_of_the_outer_planets() -> None:
    assert essential_dignities("uranus", "aquarius") == ("rulership",)
    assert essential_dignities("uranus", "leo") == ("detriment",)
    assert essential_dignities("neptune", "pisces") == ("rulership",)
    assert essential_dignities("neptune", "virgo") == ("detriment",)
    assert essential_dignities("pluto", "scorpio") == ("rulership",)
    assert essential_dignities("pluto", "taurus") == ("detriment",)
    assert essential_dignities("pluto", "aries") == ()  # no exaltation or fall for outer planets


def test_mercury_in_virgo_scores_rulership_plus_exaltation() -> None:
    assert essential_dignities("mercury", "virgo") == ("rulership", "exaltation")
    assert dignity_score(("rulership", "exaltation")) == 9
    assert dignity_score(("detriment", "fall")) == -9


def test_nodes_have_no_dignity() -> None:
    assert essential_dignities("mean_node", "gemini") == ()


# --- aspects --------------------------------------------------------------------------------


def test_exact_trine_is_found_with_zero_orb() -> None:
    [a] = aspects_within([("sun", 10.0, 1.0), ("moon", 130.0, 13.0)], aspect_set())
    assert (a.aspect, a.orb, a.applying) == ("trine", 0.0, False)


def test_faster_body_closing_a_trine_is_applying() -> None:
    # Moon 5 degrees short of the trine and moving away from the Sun faster: applying.
    [a] = aspects_within([("sun", 10.0, 1.0), ("moon", 125.0, 13.0)], aspect_set())
    assert a.aspect == "trine"
    assert a.orb == pytest.approx(5.0)
    assert a.applying


def test_faster_body_past_a_trine_is_separating() -> None:
    [a] = aspects_within([("sun", 10.0, 1.0), ("moon", 134.0, 13.0)], aspect_set())
    assert a.aspect == "trine"
    assert not a.applying


def test_retrograde_body_backing_into_a_conjunction_is_applying() -> None:
    [a] = aspects_within([("mercury", 20.0, -1.0), ("sun", 17.0, 1.0)], aspect_set())
    assert a.aspect == "conjunction"
    assert a.applying


def test_opposition_across_zero_aries() -> None:
    [a] = aspects_within([("mars", 355.0, 0.5), ("saturn", 178.0, 0.03)], aspect_set())
    assert a.aspect == "opposition"
    assert a.separation == pytest.approx(177.0)
    assert a.orb == pytest.approx(3.0)
    assert a.applying  # separation grows toward 180


def test_orbs_are_configurable() -> None:
    points = [("sun", 0.0, 1.0), ("moon", 95.0, 13.0)]
    assert aspects_within(points, aspect_set())[0].aspect == "square"
    assert aspects_within(points, aspect_set(orbs={"square": 4.0})) == []


def test_minor_aspects_can_be_left_out() -> None:
    points = [("sun", 0.0, 1.0), ("venus", 45.5, 1.2)]
    assert aspects_within(points, aspect_set())[0].aspect == "semisquare"
    assert aspects_within(points, aspect_set(include_minor=False)) == []


def test_between_sets_keeps_the_first_set_as_body1() -> None:
    [a] = aspects_between([("sun", 0.0, 1.0)], [("moon", 60.0, 13.0)], aspect_set())
    assert (a.body1, a.body2, a.aspect) == ("sun", "moon", "sextile")


def _brute_force_aspects(points: list[tuple[str, float]]) -> set[tuple[str, str, str]]:
    found = set()
    for (n1, l1), (n2, l2) in itertools.combinations(points, 2):
        if {n1, n2} == {"mean_node", "true_node"}:
            continue
        sep = abs(l1 - l2) % 360
        sep = min(sep, 360 - sep)
        hits = [
            (abs(sep - d.angle), name) for name, d in ASPECTS.items() if abs(sep - d.angle) <= d.orb
        ]
        if hits:
            found.add((n1, n2, min(hits)[1]))
    return found


def test_natal_aspects_match_a_brute_force_search_over_random_charts() -> None:
    rng = random.Random(5)
    for _ in range(60):
        moment = datetime(1900, 1, 1, tzinfo=UTC) + timedelta(
            minutes=rng.randrange(0, 200 * 525960)
        )
        subject = BirthSubject(
            moment.date(), moment.strftime("%H:%M"), rng.uniform(-60, 60), rng.uniform(-180, 180),
            timezone_offset_minutes=0,
        )  # fmt: skip
        chart = natal_chart(subject)
        points = [(p.name, p.longitude) for p in chart.planets]
        points += [("ascendant", chart.angles.ascendant.longitude)]
        points += [("midheaven", chart.angles.midheaven.longitude)]
        ours = {(a.body1, a.body2, a.aspect) for a in chart.aspects}
        assert ours == _brute_force_aspects(points)


def _reference_aspect(
    p: tuple[str, float, float], q: tuple[str, float, float], orbs: dict[str, float]
) -> tuple[str, float, float, bool] | None:
    """The definition, plainly: shorter-arc separation, the tightest aspect within its orb (on an
    exact tie, the first in the order asked), applying when the separation moves toward exact."""
    d = (q[1] - p[1]) % 360.0
    sep = d if d <= 180.0 else 360.0 - d
    best = None
    for name, max_orb in orbs.items():  # in the order asked
        orb = abs(sep - ASPECTS[name].angle)
        if orb <= max_orb and (best is None or orb < best[1]):
            best = (name, orb, ASPECTS[name].angle)
    if best is None:
        return None
    rate = (q[2] - p[2]) if d <= 180.0 else (p[2] - q[2])
    toward = rate if sep < best[2] else -rate
    return best[0], sep, best[1], toward > 0 and best[1] > 0


def test_aspect_search_equals_the_definition_with_random_orbs_and_edge_separations() -> None:
    """Fractional and integer orbs (0..15) and separations on, just inside and just outside
    every window edge and whole degree: every pair's aspect, separation, orb and applying flag
    as the plain definition gives them (the search's per-degree shortcuts change nothing)."""
    rng = random.Random(11)
    for _trial in range(300):
        chosen = rng.sample(sorted(ASPECTS), rng.randrange(1, 12))
        orbs = {
            name: rng.choice([0.0, 15.0, float(rng.randrange(16)), rng.uniform(0.0, 15.0)])
            for name in chosen
        }
        points = [("p0", rng.uniform(0.0, 360.0), rng.uniform(-1.0, 14.0))]
        for k in range(1, 12):
            name = rng.choice(chosen)
            edge = ASPECTS[name].angle + rng.choice([-1, 1]) * orbs[name]
            sep = rng.choice(
                [edge, edge + 1e-9, edge - 1e-9, float(rng.randrange(181)), rng.uniform(0, 180)]
            )
            base = points[rng.randrange(k)][1]
            points.append(
                (
                    f"p{k}",
                    (base + rng.choice([-1, 1]) * sep) % 360.0,
                    rng.choice([0.0, rng.uniform(-1.0, 14.0)]),
                )
            )
        definitions = aspect_set(chosen, orbs)
        ours = {
            (a.body1, a.body2): (a.aspect, a.separation, a.orb, a.applying)
            for a in aspects_within(points, definitions)
        }
        expected = {}
        for p, q in itertools.combinations(points, 2):
            hit = _reference_aspect(p, q, orbs)
            if hit is not None:
                expected[(p[0], q[0])] = hit
        assert ours == expected
        between = aspects_between(points[:5], points[5:], definitions)
        expected_between = {}
        for p in points[:5]:
            for q in points[5:]:
                hit = _reference_aspect(p, q, orbs)
                if hit is not None:
                    expected_between[(p[0], q[0])] = hit
        assert {
            (a.body1, a.body2): (a.aspect, a.separation, a.orb, a.applying) for a in between
        } == expected_between
