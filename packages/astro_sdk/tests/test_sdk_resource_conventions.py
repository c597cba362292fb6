"""Conventions every resource keeps: documented classes and methods, snake_case arguments
(sent under the API's own names), and date/time arguments that take a string as well."""

from __future__ import annotations

import datetime as dt
import inspect
import json
import re
import typing
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from sdk_testkit import Script, reply, sync_client

from astro_sdk import AstroClient, AsyncAstroClient
from astro_sdk._client import _ResourceGroups
from astro_sdk._resource import AsyncResource, SyncResource, resource_group
from astro_sdk.models.vedic import BirthSubject

_SNAKE = re.compile(r"^[a-z][a-z0-9]*(_[a-z0-9]+)*$")


def _resource_classes() -> Iterator[type]:
    for group in vars(_ResourceGroups).values():
        if isinstance(group, resource_group):
            yield group.sync_cls
            yield group.async_cls


def _public_methods() -> Iterator[tuple[str, Callable[..., Any]]]:
    """Each class's own methods and those it takes from a mixin (``Reports.hr_screening``)."""
    for cls in _resource_classes():
        seen: set[str] = set()
        for owner in cls.__mro__:
            if owner in (object, SyncResource, AsyncResource):
                continue
            for name, member in vars(owner).items():
                if callable(member) and not name.startswith("_") and name not in seen:
                    seen.add(name)
                    yield f"{cls.__name__}.{name}", member


CLASSES = sorted(_resource_classes(), key=lambda c: c.__name__)
METHODS = sorted(_public_methods())


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: c.__name__)
def test_every_resource_class_has_a_docstring(cls: type) -> None:
    assert (cls.__doc__ or "").strip()


@pytest.mark.parametrize(("name", "method"), METHODS, ids=[n for n, _ in METHODS])
def test_every_resource_method_has_a_docstring(name: str, method: Callable[..., Any]) -> None:
    assert (method.__doc__ or "").strip(), name


@pytest.mark.parametrize(("name", "method"), METHODS, ids=[n for n, _ in METHODS])
def test_every_argument_name_is_snake_case(name: str, method: Callable[..., Any]) -> None:
    camel = [p for p in inspect.signature(method).parameters if p != "self" and not _SNAKE.match(p)]
    assert camel == [], name


def _accepts(hint: Any, kind: type) -> bool:
    return kind in typing.get_args(hint) or hint is kind


@pytest.mark.parametrize(("name", "method"), METHODS, ids=[n for n, _ in METHODS])
def test_every_date_or_time_argument_also_takes_a_string(
    name: str, method: Callable[..., Any]
) -> None:
    hints = typing.get_type_hints(
        method, localns={"AstroClient": AstroClient, "AsyncAstroClient": AsyncAstroClient}
    )
    without_str = [
        arg
        for arg, hint in hints.items()
        if arg != "return"
        and (_accepts(hint, dt.datetime) or _accepts(hint, dt.date))
        and not _accepts(hint, str)
    ]
    assert without_str == [], name


SUBJECT = {"date": "1990-05-14", "time": "06:30", "latitude": 28.61, "longitude": 77.21}
PANCHANGA = {"date": "2024-04-23", "time": "17:30", "latitude": 13.75, "longitude": 100.5}


def test_a_snake_case_offset_argument_is_sent_under_the_apis_name() -> None:
    script = Script(reply(200, {}))
    client = sync_client(script)
    with pytest.raises(Exception):  # noqa: B017, PT011 - the empty reply does not parse
        client.vedic.panchanga(**PANCHANGA, timezone_offset_minutes=420)
    sent = json.loads(script.requests[0].content)
    assert sent["timezoneOffsetMinutes"] == 420
    assert "timezone_offset_minutes" not in sent


@pytest.mark.parametrize("key", ["timezoneOffsetMinutes", "timezone_offset_minutes"])
def test_a_subject_takes_the_offset_under_either_name(key: str) -> None:
    subject = BirthSubject.model_validate({**SUBJECT, key: 330})
    assert subject.timezone_offset_minutes == 330
    assert json.loads(subject.model_dump_json(by_alias=True, exclude_unset=True)) == {
        **SUBJECT,
        "timezoneOffsetMinutes": 330,
    }


def test_dasha_at_takes_an_iso_string() -> None:
    script = Script(reply(200, {}))
    with pytest.raises(Exception):  # noqa: B017, PT011 - the empty reply does not parse
        sync_client(script).vedic.dasha(subject=SUBJECT, at="2024-01-01T00:00:00Z")
    assert json.loads(script.requests[0].content)["at"] == "2024-01-01T00:00:00Z"


def test_usage_and_audit_log_take_iso_strings() -> None:
    script = Script(reply(200, {}), reply(200, {}))
    client = sync_client(script)
    with pytest.raises(Exception):  # noqa: B017, PT011 - the empty reply does not parse
        client.usage.get(start="2024-01-01T00:00:00Z", end="2024-02-01T00:00:00+07:00")
    with pytest.raises(Exception):  # noqa: B017, PT011 - the empty reply does not parse
        client.audit_log.list(start="2024-01-01T00:00:00Z")
    usage, audit = (dict(r.url.params) for r in script.requests)
    assert usage["from"] == "2024-01-01T00:00:00Z"
    assert usage["to"] == "2024-02-01T00:00:00+07:00"
    assert audit["from"] == "2024-01-01T00:00:00Z"


def test_the_uranian_dial_offset_is_sent_under_the_apis_name() -> None:
    script = Script(reply(200, {}))
    uranian = {"birth_time": "06:30", "birth_lat": 13.75, "birth_lon": 100.5, "birth_place": "BKK"}
    with pytest.raises(Exception):  # noqa: B017, PT011 - the empty reply does not parse
        sync_client(script).uranian.dial(
            birth_date="1990-05-14", **uranian, timezone_offset_minutes=420
        )
    sent = json.loads(script.requests[0].content)
    assert sent["timezoneOffsetMinutes"] == 420
    assert "timezone_offset_minutes" not in sent
