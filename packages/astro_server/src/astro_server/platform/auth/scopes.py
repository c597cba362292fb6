"""API-key scopes: which tag group a route belongs to, and whether a key may call it.

A scope is one tag group of the API: ``western``, ``vedic``, ``thai``, ``chinese``, ``uranian``,
``tarot``, ``human_design``, ``horoscopes``, ``reports``, ``visual_readings``, ``cultural``,
``profiles``, ``team``, ``keys``, ``webhooks``, or ``*`` for all of them (keys made before scopes
existed hold ``*``).

The one mechanism: a route's scope is read from its path, ``/api/v3/<group>/...``, through
:data:`PATH_SCOPES` (one line per first path segment), by :func:`scope_for_rule` when the request is
authenticated; no route declares anything. Groups that share a scope: Korean Saju with ``chinese``
(the spec's "Chinese & Korean" tag group), numerology with ``tarot`` ("Tarot & Numerology"), chart
pictures and brand profiles with ``reports``, the audit log with ``team``. The developer workflow
(account, usage, ledger, estimates, jobs) needs no scope: every key can read its own account and
jobs; nor does the place search (free reference data). A path segment missing from the table needs
``*`` (closed by default: a new group is reachable by scoped keys once it has its line here).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Final

ALL = "*"
SCOPES: Final = (
    "western",
    "vedic",
    "thai",
    "chinese",
    "uranian",
    "tarot",
    "human_design",
    "horoscopes",
    "reports",
    "visual_readings",
    "cultural",
    "profiles",
    "team",
    "keys",
    "webhooks",
)
#: First path segment after ``/api/v3/`` -> the scope it needs (None: none needed).
PATH_SCOPES: Final[dict[str, str | None]] = {
    "western": "western",
    "calendar-feeds": "western",
    "vedic": "vedic",
    "thai": "thai",
    "chinese": "chinese",
    "korean": "chinese",
    "uranian": "uranian",
    "tarot": "tarot",
    "numerology": "tarot",
    "human-design": "human_design",
    "horoscopes": "horoscopes",
    "reports": "reports",
    "pictures": "reports",
    "brand-profiles": "reports",
    "visual-readings": "visual_readings",
    "visual-uploads": "visual_readings",
    "cultural": "cultural",
    "campaigns": "cultural",
    "profiles": "profiles",
    "team": "team",
    "audit-log": "team",
    "keys": "keys",
    "webhook-endpoints": "webhooks",
    "account": None,
    "usage": None,
    "ledger": None,
    "estimates": None,
    "jobs": None,
    # Place search is free reference data every key may read (a subject may name its ids).
    "places": None,
}
_PREFIX = "/api/v3/"


@lru_cache(maxsize=512)
def scope_for_rule(rule: str) -> str | None:
    """The scope a route (its URL rule, ``/api/v3/western/natal``) needs; ``*`` when its group
    is not in the table; None when none is needed (or the route is not under ``/api/v3``)."""
    if not rule.startswith(_PREFIX):
        return None
    segment = rule[len(_PREFIX) :].split("/", 1)[0]
    return PATH_SCOPES.get(segment, ALL)


def scope_for_job_kind(kind: str) -> str:
    """The scope a job of ``kind`` (``<group>.<name>``: ``reports.natal``) needs to be seen:
    its group when that is a scope, else ``*``. A job, its result and its files are visible
    only to keys holding it (a ``western`` key does not read a report job's URL)."""
    group = kind.split(".", 1)[0]
    return group if group in SCOPES else ALL


def job_kind_allowed(held: frozenset[str] | tuple[str, ...], kind: str) -> bool:
    return allows(frozenset(held), scope_for_job_kind(kind))


def parse(text: str) -> frozenset[str]:
    """Stored form (space-separated) to a set."""
    return frozenset(text.split())


def serialize(scopes: frozenset[str] | set[str] | list[str]) -> str:
    """A set to its stored form: ``*`` alone when it holds ``*``, else sorted names."""
    return ALL if ALL in scopes else " ".join(sorted(set(scopes)))


def allows(held: frozenset[str], needed: str | None) -> bool:
    return needed is None or ALL in held or needed in held


def covers(held: frozenset[str], wanted: frozenset[str]) -> bool:
    """Whether a key holding ``held`` may grant ``wanted`` (no key grants what it lacks)."""
    return ALL in held or (ALL not in wanted and wanted <= held)


def as_list(text: str) -> list[str]:
    """The stored form as the API shows it: ``["*"]`` or the sorted scope names."""
    return sorted(parse(text))
