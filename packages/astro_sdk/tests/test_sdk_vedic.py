"""``client.vedic``: bodies as the server expects them, validation before sending, the batch job."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from sdk_testkit import FakeClock, Script, async_client, job_body, reply, sync_client

import astro_sdk
from astro_sdk.models.vedic import BirthSubject, KundliBatchResult

JOB_ID = "job_" + "c" * 24
BOY = {"date": "1990-05-14", "time": "06:30", "latitude": 28.61, "longitude": 77.21}
GIRL = BirthSubject(
    date=dt.date(1992, 11, 2),
    time="21:15:30",
    latitude=19.07,
    longitude=72.88,
    timezoneOffsetMinutes=330,
)


# A body the server returned for BOY and GIRL (north school), recorded for these tests.
MATCH_BODY = {
    "school": "north",
    "total": 24.5,
    "max": 36.0,
    "kootas": [
        {"name": "varna", "score": 1.0, "max": 1.0, "boy": "kshatriya", "girl": "vaishya"},
        {"name": "vashya", "score": 1.0, "max": 2.0, "boy": "chatushpada", "girl": "jalachara"},
        {"name": "tara", "score": 1.5, "max": 3.0, "boy": "26", "girl": "3"},
        {"name": "yoni", "score": 4.0, "max": 4.0, "boy": "monkey", "girl": "monkey"},
        {"name": "graha_maitri", "score": 3.0, "max": 5.0, "boy": "jupiter", "girl": "saturn"},
        {"name": "gana", "score": 6.0, "max": 6.0, "boy": "manushya", "girl": "deva"},
        {"name": "bhakoot", "score": 0.0, "max": 7.0, "boy": "sagittarius", "girl": "capricorn"},
        {"name": "nadi", "score": 8.0, "max": 8.0, "boy": "madhya", "girl": "antya"},
    ],
    "boy": {
        "moon_sign": "sagittarius",
        "moon_sign_number": 9,
        "nakshatra": 20,
        "nakshatra_name": "Purva Ashadha",
        "pada": 1,
        "moon_longitude_deg": 255.63037461549675,
    },
    "girl": {
        "moon_sign": "capricorn",
        "moon_sign_number": 10,
        "nakshatra": 22,
        "nakshatra_name": "Shravana",
        "pada": 3,
        "moon_longitude_deg": 289.70445830994737,
    },
    "doshas": [
        {"name": "nadi", "person": "both", "present": False, "cancelled": False},
        {"name": "bhakoot", "person": "both", "present": True, "cancelled": False},
        {"name": "manglik", "person": "boy", "present": False, "cancelled": False},
        {"name": "manglik", "person": "girl", "present": True, "cancelled": False},
    ],
    "cancellations": [],
    "verdict": {
        "band": "average",
        "recommended": False,
        "reasons": ["bhakoot_dosha", "manglik_dosha_girl"],
    },
}


def test_kundli_matching_sends_only_the_given_fields() -> None:
    script = Script(reply(200, MATCH_BODY))
    sync_client(script).vedic.kundli_matching(boy=BOY, girl=GIRL)
    sent = json.loads(script.requests[0].content)
    assert sent == {
        "boy": BOY,
        "girl": {
            "date": "1992-11-02",
            "time": "21:15:30",
            "latitude": 19.07,
            "longitude": 72.88,
            "timezoneOffsetMinutes": 330,
        },
    }
    assert script.requests[0].url.path == "/api/v3/vedic/kundli-matching"
    assert script.requests[0].headers["Idempotency-Key"].startswith("astro-sdk-")


def test_kundli_match_fields_are_typed() -> None:
    match = sync_client(Script(reply(200, MATCH_BODY))).vedic.kundli_matching(boy=BOY, girl=GIRL)
    assert (match.total, match.max) == (24.5, 36.0)
    assert sum(k.max for k in match.kootas) == match.max
    assert sum(k.score for k in match.kootas) == match.total
    assert match.kootas[6].name == "bhakoot"
    assert match.girl.nakshatra_name == "Shravana"
    assert [d.name for d in match.doshas if d.present] == ["bhakoot", "manglik"]
    assert match.verdict.band == "average"
    assert match.model_extra == {}


def test_a_field_added_later_to_a_match_is_kept_aside() -> None:
    body = {**MATCH_BODY, "rajju": {"boy": "kati", "girl": "pada"}}
    match = sync_client(Script(reply(200, body))).vedic.kundli_matching(boy=BOY, girl=GIRL)
    assert match.model_extra == {"rajju": {"boy": "kati", "girl": "pada"}}
    assert match.total == 24.5


def _period(lord: str, start: str, end: str, level: int, subs: list[object]) -> dict[str, object]:
    return {"lord": lord, "start": start, "end": end, "level": level, "sub_periods": subs}


def test_dasha_periods_nest_to_the_requested_depth() -> None:
    pratyantar = _period("venus", "1990-05-14T01:00:00Z", "1990-11-01T00:00:00Z", 3, [])
    antar = _period("venus", "1990-05-14T01:00:00Z", "1993-09-14T00:00:00Z", 2, [pratyantar])
    body = {
        "moon_longitude_deg": 255.63,
        "nakshatra": 20,
        "nakshatra_name": "Purva Ashadha",
        "year_days": 365.25,
        "balance_years": 18.5,
        "mahadashas": [
            _period("venus", "1990-05-14T01:00:00Z", "2009-01-01T00:00:00Z", 1, [antar])
        ],
        "current": None,
    }
    dasha = sync_client(Script(reply(200, body))).vedic.dasha(subject=BOY, depth=3)
    leaf = dasha.mahadashas[0].sub_periods[0].sub_periods[0]
    assert (leaf.level, leaf.lord, leaf.sub_periods) == (3, "venus", [])
    assert leaf.end == dt.datetime(1990, 11, 1, tzinfo=dt.UTC)
    assert dasha.current is None


def test_batch_job_result_reads_as_a_typed_batch_result() -> None:
    result = KundliBatchResult.model_validate(
        {
            "school": "north",
            "succeeded": 1,
            "failed": 1,
            "results": [
                {"id": "ok", "status": "succeeded", "result": MATCH_BODY},
                {
                    "id": "gap",
                    "status": "failed",
                    "error": {
                        "error": "validation_error",
                        "field": "records[1].girl.time",
                        "message": "02:30 does not exist on 2024-03-10 in America/New_York",
                    },
                },
            ],
        }
    )
    ok, gap = result.results
    assert ok.error is None
    assert ok.result is not None
    assert ok.result.max == 36.0
    assert gap.result is None
    assert gap.error is not None
    assert gap.error.field == "records[1].girl.time"


@pytest.mark.parametrize(
    ("subject", "field"),
    [
        ({**BOY, "time": "25:00"}, "boy.time"),
        ({**BOY, "latitude": 91}, "boy.latitude"),
        ({**BOY, "ayanamsa": "tropical"}, "boy.ayanamsa"),
        ({"time": "06:30", "latitude": 1, "longitude": 2}, "boy.date"),
        ({**BOY, "colour": "red"}, "boy.colour"),
    ],
)
def test_a_bad_birth_subject_is_refused_before_sending(
    subject: dict[str, object], field: str
) -> None:
    script = Script()
    with pytest.raises(astro_sdk.RequestValidationError) as caught:
        sync_client(script).vedic.kundli_matching(boy=subject, girl=GIRL)
    assert [d["field"] for d in caught.value.details] == [field]
    assert script.requests == []


def test_a_batch_over_fifty_records_is_refused_before_sending() -> None:
    records = [{"id": str(i), "boy": BOY, "girl": GIRL} for i in range(51)]
    script = Script()
    with pytest.raises(astro_sdk.RequestValidationError, match="records"):
        sync_client(script).vedic.kundli_matching_batch(records=records)
    assert script.requests == []


def test_batch_returns_a_handle_that_waits_for_the_result(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = FakeClock()
    monkeypatch.setattr("astro_sdk._client._sleep", clock.sleep)
    monkeypatch.setattr("astro_sdk._client._monotonic", clock.monotonic)
    handle_body = {"job_id": JOB_ID, "status": "queued", "poll": f"/api/v3/jobs/{JOB_ID}"}
    result = {
        "school": "north",
        "succeeded": 1,
        "failed": 0,
        "results": [{"id": "r1", "status": "succeeded", "result": MATCH_BODY}],
    }
    script = Script(
        reply(202, handle_body, {"X-Credits-Charged": "2", "X-Credits-Remaining": "8"}),
        reply(200, job_body("running", job_id=JOB_ID)),
        reply(200, job_body("succeeded", job_id=JOB_ID, result=result)),
    )
    client = sync_client(script)
    handle = client.vedic.kundli_matching_batch(
        records=[{"id": "r1", "boy": BOY, "girl": GIRL}], idempotency_key="batch-1"
    )
    assert handle.api_response.credits_charged == 2
    assert script.requests[0].headers["Idempotency-Key"] == "batch-1"
    job = handle.wait(poll_interval_s=0.25)
    assert isinstance(job.result, KundliBatchResult)
    assert job.result.results[0].result is not None
    assert job.result.results[0].result.max == 36.0
    assert clock.sleeps == [0.25]


def test_jobs_get_stays_untyped_unless_given_a_result_model() -> None:
    result = {"school": "north", "succeeded": 0, "failed": 0, "results": []}
    body = job_body("succeeded", job_id=JOB_ID, result=result)
    client = sync_client(Script(reply(200, body), reply(200, body)))
    assert client.jobs.get(JOB_ID).result == result
    typed = client.jobs.get(JOB_ID, result_model=KundliBatchResult)
    assert typed.result == KundliBatchResult.model_validate(result)


async def test_async_batch_handle_waits_for_a_typed_result() -> None:
    handle_body = {"job_id": JOB_ID, "status": "queued", "poll": f"/api/v3/jobs/{JOB_ID}"}
    result = {"school": "south", "succeeded": 0, "failed": 0, "results": []}
    script = Script(
        reply(202, handle_body), reply(200, job_body("succeeded", job_id=JOB_ID, result=result))
    )
    async with async_client(script) as client:
        handle = await client.vedic.kundli_matching_batch(
            records=[{"id": "r1", "boy": BOY, "girl": GIRL}]
        )
        job = await handle.wait()
    assert isinstance(job.result, KundliBatchResult)
    assert job.result.school == "south"
