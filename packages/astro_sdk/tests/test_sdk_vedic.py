"""``client.vedic``: bodies as the server expects them, validation before sending, the batch job."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from sdk_testkit import FakeClock, Script, job_body, reply, sync_client

import astro_sdk
from astro_sdk.models.vedic import BirthSubject

JOB_ID = "job_" + "c" * 24
BOY = {"date": "1990-05-14", "time": "06:30", "latitude": 28.61, "longitude": 77.21}
GIRL = BirthSubject(
    date=dt.date(1992, 11, 2),
    time="21:15:30",
    latitude=19.07,
    longitude=72.88,
    timezoneOffsetMinutes=330,
)


def test_kundli_matching_sends_only_the_given_fields() -> None:
    script = Script(reply(200, {"total": 27.5, "max": 36, "verdict": "good"}))
    match = sync_client(script).vedic.kundli_matching(boy=BOY, girl=GIRL)
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
    assert match.model_extra == {"total": 27.5, "max": 36, "verdict": "good"}


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
    result = {"r1": {"total": 30}}
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
    assert job.result == result
    assert clock.sleeps == [0.25]
