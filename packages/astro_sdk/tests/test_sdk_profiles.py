"""Client profiles in the SDK, without a server: a subject or a profile reference is validated as
the shape its keys say it is, and errors name the field as the server does."""

from __future__ import annotations

from typing import Any

import pytest

import astro_sdk
from astro_sdk._base import validate_request
from astro_sdk.models.profiles import ProfileReference
from astro_sdk.models.vedic import KundliMatchingBatchRequest
from astro_sdk.models.western import NatalRequest, WesternSubject

SUBJECT = {"date": "1987-11-23", "time": "14:05", "latitude": 13.75, "longitude": 100.5}
REFERENCE = {"profile_id": "prof_" + "a" * 24}


def test_a_reference_and_a_subject_are_each_taken_for_what_they_are() -> None:
    by_ref = validate_request(NatalRequest, {"subject": REFERENCE})
    assert isinstance(by_ref.subject, ProfileReference)
    assert by_ref.model_dump(exclude_unset=True) == {"subject": REFERENCE}
    inline = validate_request(NatalRequest, {"subject": SUBJECT})
    assert isinstance(inline.subject, WesternSubject)
    typed = validate_request(NatalRequest, {"subject": ProfileReference(**REFERENCE)})
    assert isinstance(typed.subject, ProfileReference)


@pytest.mark.parametrize(
    ("body", "fields"),
    [
        ({"subject": {"profile_id": "prof_123"}}, ["subject.profile_id"]),
        ({"subject": {**REFERENCE, "fold": 1}}, ["subject.fold"]),
        ({"subject": {**SUBJECT, "time": "7:12"}}, ["subject.time"]),
        ({"subject": {**SUBJECT, "latitude": 91}}, ["subject.latitude"]),
    ],
)
def test_errors_name_the_field_of_the_shape_given(body: dict[str, Any], fields: list[str]) -> None:
    with pytest.raises(astro_sdk.RequestValidationError) as caught:
        validate_request(NatalRequest, body)
    assert [d["field"] for d in caught.value.details] == fields


def test_batch_records_take_references_too() -> None:
    body = {"records": [{"id": "a", "boy": REFERENCE, "girl": {**SUBJECT, "time": "25:00"}}]}
    with pytest.raises(astro_sdk.RequestValidationError) as caught:
        validate_request(KundliMatchingBatchRequest, body)
    assert [d["field"] for d in caught.value.details] == ["records[0].girl.time"]
