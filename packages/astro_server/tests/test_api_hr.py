"""HR talent assessment (spec endpoint 10): ``POST /api/v3/reports/hr-screening``.

In-process app on SQLite (jobs run in the process, the embedded mode). The BaZi profile is
checked against the BaZi endpoint's answer and the Taksa outlook against the Thai wheel
endpoint's for the same birth (so the numbers are those independently tested there: Bruce Lee's
published chart, the พลูหลวง Taksa table); every limit at and past its edge; the verdict against
the score's band; determinism; a birth without a time; both narratives open with the disclaimer
and leave no slot; the PDF (include_pdf) carries the disclaimer and extracts its Thai exactly.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from _platform_support import key_headers, new_account
from quart.typing import TestClientProtocol as Client

from astro_calc.hr.narrative import words
from astro_server.features.reports.render.hr import hr_labels
from astro_server.features.reports.render.renderer import missing_components

PATH = "/api/v3/reports/hr-screening"
# Bruce Lee, 1940-11-27 07:12 San Francisco (PST, UTC-8): 庚辰 丁亥 甲戌 戊辰.
CANDIDATE: dict[str, Any] = {
    "name": "Bruce Lee",
    "birth_date": "1940-11-27",
    "birth_time": "07:12",
    "timezoneOffsetMinutes": -480,
    "latitude": 37.79,
    "longitude": -122.41,
}
AS_OF = "2026-06-01"


def body(**changes: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "candidate": dict(CANDIDATE),
        "position": "Martial arts teacher and film director",
        "outlook_years": 3,
        "as_of": AS_OF,
        "company": {"name": "Golden Harvest", "founded_date": "1970-04-01"},
    }
    base.update(changes)
    return base


@pytest.fixture
async def key() -> str:
    _id, api_key = await new_account("pro", 10_000)
    return api_key


async def _post(
    client: Client, key: str, payload: dict[str, Any], path: str = PATH, **headers: str
) -> tuple[int, Any, Any]:
    response = await client.post(path, json=payload, headers=key_headers(key, **headers))
    return response.status_code, await response.get_json(), response.headers


def _fields(error: dict[str, Any]) -> list[str]:
    return [d["field"] for d in error.get("details", [])]


# --- the answer ----------------------------------------------------------------------------------


async def test_answer_has_every_field_of_the_spec(client: Client, key: str) -> None:
    status, answer, headers = await _post(client, key, body())
    assert status == 200, answer
    assert headers["X-Credits-Charged"] == "20"
    for field in (
        "request_id", "generated_at", "position", "candidate_summary", "bazi_profile",
        "thaksa_outlook", "company_fit", "position_match", "hr_narrative_th", "hr_narrative_en",
        "recommendation_score", "recommendation_factors_th", "recommendation_factors_en",
        "verdict", "disclaimer_en", "disclaimer_th",
    ):  # fmt: skip
        assert field in answer, field
    assert "pdf_url" not in answer
    assert "expires_at" not in answer
    assert answer["request_id"] == headers["X-Request-ID"]
    assert dt.datetime.fromisoformat(answer["generated_at"]).tzinfo is not None
    assert answer["position"] == "Martial arts teacher and film director"
    assert 0 <= answer["recommendation_score"] <= 100
    assert answer["candidate_summary"]["age_years"] == 85  # on 2026-06-01
    assert answer["candidate_summary"]["day_master"]["character"] == "甲"


async def test_bazi_profile_equals_the_bazi_endpoint(client: Client, key: str) -> None:
    _, answer, _ = await _post(client, key, body())
    subject = {
        "date": CANDIDATE["birth_date"],
        "time": CANDIDATE["birth_time"],
        "timezoneOffsetMinutes": -480,
        "latitude": 37.79,
        "longitude": -122.41,
    }
    status, bazi, _ = await _post(client, key, {"subject": subject}, "/api/v3/chinese/bazi")
    assert status == 200
    chart = bazi["chart"]
    profile = answer["bazi_profile"]
    assert profile["pillars"] == chart["pillars"]
    assert [profile["pillars"][p]["ganzhi"] for p in ("year", "month", "day", "hour")] == [
        "庚辰", "丁亥", "甲戌", "戊辰",
    ]  # fmt: skip
    assert profile["day_master"] == chart["day_master"]
    # The analysis leaves the year pillar out (it encodes the birth year, issue 35): the balance
    # is the endpoint's weighting (stem 1, hidden stems by weight, the month branch doubled)
    # summed over the month, day and hour pillars of the endpoint's chart.
    expected: dict[str, float] = {}
    for name in ("month", "day", "hour"):
        pillar = chart["pillars"][name]
        element = pillar["stem"]["element"]
        expected[element] = expected.get(element, 0.0) + 1.0
        for hidden in pillar["hidden_stems"]:
            weight = hidden["weight"] * (2.0 if name == "month" else 1.0)
            element = hidden["stem"]["element"]
            expected[element] = expected.get(element, 0.0) + weight
    got = {s["element"]: s["score"] for s in profile["element_balance"]["scores"]}
    assert got == pytest.approx({e: expected.get(e, 0.0) for e in got})
    assert profile["element_balance"]["total"] == pytest.approx(7.0)
    assert profile["element_balance"] != chart["element_balance"]  # the year pillar is out
    assert profile["hour_pillar_included"] is True
    assert (profile["day_boundary"], profile["solar_time"]) == ("zi", "clock")


async def test_thaksa_outlook_equals_the_thai_wheel_endpoint(client: Client, key: str) -> None:
    _, answer, _ = await _post(client, key, body())
    outlook = answer["thaksa_outlook"]
    assert [y["from_date"] for y in outlook["years"]] == ["2026-06-01", "2027-06-01", "2028-06-01"]
    subject = {
        "date": CANDIDATE["birth_date"],
        "time": CANDIDATE["birth_time"],
        "timezoneOffsetMinutes": -480,
        "latitude": 37.79,
        "longitude": -122.41,
    }
    for year in outlook["years"]:
        status, thai, _ = await _post(
            client,
            key,
            {"subject": subject, "on_date": year["from_date"]},
            "/api/v3/thai/wheel",
        )
        assert status == 200
        wheel = thai["wheel"]
        assert outlook["roles"] == wheel["positions"]
        assert outlook["kalakini"] == wheel["kalakini"]
        assert outlook["birth_day"] == wheel["birth_day"] == "wednesday"
        for field in (
            "age_years", "position", "planet", "outlook_th", "outlook_en", "period_ruler",
            "period_start_age", "period_end_age",
        ):  # fmt: skip
            assert year[field] == wheel["yearly"][field], field
    # Wednesday's wheel starts at Mercury; ages 85, 86, 87 are steps 5, 6, 7: utsaha (neutral),
    # montri (favourable), kalakini (unfavourable).
    assert [(y["age_years"], y["position"], y["reading"]) for y in outlook["years"]] == [
        (85, "utsaha", "neutral"), (86, "montri", "favourable"), (87, "kalakini", "unfavourable"),
    ]  # fmt: skip
    assert outlook["score"] == round((55 + 85 + 20) / 3)


async def test_a_birth_without_time_has_no_hour_pillar_and_says_so(
    client: Client, key: str
) -> None:
    candidate = {k: v for k, v in CANDIDATE.items() if k != "birth_time"}
    status, answer, _ = await _post(client, key, body(candidate=candidate))
    assert status == 200, answer
    profile = answer["bazi_profile"]
    assert profile["pillars"]["hour"] is None
    assert profile["hour_pillar_included"] is False
    assert "hour pillar left out" in profile["note"]
    assert (
        profile["element_balance"]["total"] == 5.0
    )  # month and day pillars: no hour, and never the year
    assert answer["candidate_summary"]["birth_time"] is None
    assert answer["candidate_summary"]["birth_time_known"] is False
    assert "No birth time was given" in answer["hr_narrative_en"]
    assert "ไม่ได้ระบุเวลาเกิด" in answer["hr_narrative_th"]
    assert answer["thaksa_outlook"]["birth_time_assumed"] is True
    # The year, month and day pillars are the BaZi endpoint's for the same day at 12:00.
    subject = {
        "date": "1940-11-27", "time": "12:00", "timezoneOffsetMinutes": -480,
        "latitude": 37.79, "longitude": -122.41,
    }  # fmt: skip
    _, bazi, _ = await _post(client, key, {"subject": subject}, "/api/v3/chinese/bazi")
    for name in ("year", "month", "day"):
        assert profile["pillars"][name] == bazi["chart"]["pillars"][name]


async def test_the_same_request_gives_the_same_assessment(client: Client, key: str) -> None:
    _, first, _ = await _post(client, key, body())
    _, second, _ = await _post(client, key, body())
    for volatile in ("request_id", "generated_at"):
        first.pop(volatile)
        second.pop(volatile)
    assert first == second


@pytest.mark.parametrize(
    "position",
    ["Sales manager", "ผู้จัดการฝ่ายขาย", "Night-shift lighthouse keeper", "นักบัญชีอาวุโส"],
)
async def test_narratives_open_with_the_disclaimer_and_leave_no_slot(
    client: Client, key: str, position: str
) -> None:
    status, answer, _ = await _post(client, key, body(position=position))
    assert status == 200
    assert answer["disclaimer_en"] == words("en")["disclaimer"]
    assert answer["disclaimer_th"] == words("th")["disclaimer"]
    assert answer["hr_narrative_en"].startswith(answer["disclaimer_en"])
    assert answer["hr_narrative_th"].startswith(answer["disclaimer_th"])
    for text in (
        answer["hr_narrative_en"], answer["hr_narrative_th"],
        answer["recommendation_factors_en"], answer["recommendation_factors_th"],
    ):  # fmt: skip
        assert not re.search(r"[{}]", text)
        assert len(text) > 200
    assert re.search(r"[\u0e00-\u0e7f]", answer["hr_narrative_th"])
    assert len(answer["recommendation_factors_en"].splitlines()) == 4


async def test_verdict_agrees_with_the_score_band(client: Client, key: str) -> None:
    bands = [(75, "strong_hire"), (60, "consider"), (45, "caution"), (0, "not_recommended")]
    seen = set()
    for position in ("Accountant", "Software engineer", "Nurse", "Sales", "Gardener"):
        _, answer, _ = await _post(client, key, body(position=position))
        score = answer["recommendation_score"]
        expected = next(v for threshold, v in bands if score >= threshold)
        assert answer["verdict"] == expected
        parts = answer["score_breakdown"]
        weighted = sum(parts[k]["score"] * parts[k]["weight"] for k in (
            "position_match", "thaksa_outlook", "company_fit", "chart_balance"))  # fmt: skip
        assert score == round(weighted)
        seen.add(score)
    assert len(seen) > 1  # the position moves the score


async def test_position_without_archetype_is_the_general_profile(client: Client, key: str) -> None:
    _, answer, _ = await _post(client, key, body(position="Lighthouse keeper"))
    match = answer["position_match"]
    assert match == {
        "position": "Lighthouse keeper", "profile": "general", "archetypes": [], "score": 50,
    }  # fmt: skip
    assert "general profile" in answer["hr_narrative_en"]


async def test_without_company_the_fit_is_stated_neutral(client: Client, key: str) -> None:
    payload = body()
    del payload["company"]
    _, answer, _ = await _post(client, key, payload)
    assert answer["company_fit"]["assessed"] is False
    assert answer["company_fit"]["score"] == 50
    assert "No company founding date was given" in answer["hr_narrative_en"]


async def test_company_fit_reads_the_founding_chart(client: Client, key: str) -> None:
    # Golden Harvest, 1970-04-01: a 庚戌 (dog) year; 1940 is 庚辰 (dragon): 辰 and 戌 clash.
    _, answer, _ = await _post(client, key, body())
    fit = answer["company_fit"]
    assert fit["assessed"] is True
    assert fit["company_year_branch"]["character"] == "戌"
    assert fit["branch_relation"] == "six_clash"
    assert fit["branch_points"] == -25  # a traditional reading's points, reported as context
    # Only the day masters' element relation counts: the year branch is the birth year.
    assert fit["score"] == 50 + fit["element_points"]
    assert "For context only, not counted" in answer["hr_narrative_en"]


# --- limits --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("changes", "ok"),
    [
        ({"position": "x"}, True),
        ({"position": "x" * 200}, True),
        ({"position": ""}, False),
        ({"position": "x" * 201}, False),
        ({"outlook_years": 1}, True),
        ({"outlook_years": 3}, True),
        ({"outlook_years": 0}, False),
        ({"outlook_years": 4}, False),
    ],
)
async def test_limits_at_and_past_their_edges(
    client: Client, key: str, changes: dict[str, Any], ok: bool
) -> None:
    status, answer, headers = await _post(client, key, body(**changes))
    if ok:
        assert status == 200, answer
        return
    assert status == 400
    assert answer["error"] == "validation_error"
    assert _fields(answer) == [next(iter(changes))]
    assert headers.get("X-Credits-Charged", "0") == "0"


@pytest.mark.parametrize(("length", "ok"), [(1, True), (120, True), (121, False)])
async def test_candidate_name_limit(client: Client, key: str, length: int, ok: bool) -> None:
    candidate = {**CANDIDATE, "name": "n" * length}
    status, answer, _ = await _post(client, key, body(candidate=candidate))
    assert status == (200 if ok else 400)
    if not ok:
        assert _fields(answer) == ["candidate.name"]


@pytest.mark.parametrize(
    ("candidate", "field"),
    [
        ({"birth_time": "7:12"}, "candidate.birth_time"),
        ({"birth_time": "24:00"}, "candidate.birth_time"),
        ({"birth_date": "1800-12-31"}, "candidate.birth_date"),
        ({"latitude": 90.5}, "candidate.latitude"),
        ({"timezone": "Mars/Olympus"}, "candidate.timezone"),
        ({"name": "   "}, "candidate.name"),
    ],
)
async def test_bad_candidate_fields_are_named(
    client: Client, key: str, candidate: dict[str, Any], field: str
) -> None:
    status, answer, _ = await _post(client, key, body(candidate={**CANDIDATE, **candidate}))
    assert status == 400
    assert _fields(answer) == [field]


async def test_missing_birth_date_and_position_are_named(client: Client, key: str) -> None:
    candidate = {k: v for k, v in CANDIDATE.items() if k != "birth_date"}
    payload = body(candidate=candidate)
    del payload["position"]
    status, answer, _ = await _post(client, key, payload)
    assert status == 400
    assert sorted(_fields(answer)) == ["candidate.birth_date", "position"]


async def test_as_of_before_birth_is_refused(client: Client, key: str) -> None:
    status, answer, headers = await _post(client, key, body(as_of="1939-01-01"))
    assert status == 400
    assert _fields(answer) == ["as_of"]
    assert headers.get("X-Credits-Charged", "0") == "0"


async def test_as_of_defaults_to_today_in_the_birth_offset(client: Client, key: str) -> None:
    payload = body()
    del payload["as_of"]
    before = (dt.datetime.now(dt.UTC) - dt.timedelta(hours=8)).date()
    _, answer, _ = await _post(client, key, payload)
    after = (dt.datetime.now(dt.UTC) - dt.timedelta(hours=8)).date()
    assert answer["as_of"] in {before.isoformat(), after.isoformat()}


async def test_branding_and_profile_together_are_refused(client: Client, key: str) -> None:
    status, _answer, _ = await _post(
        client,
        key,
        body(branding={"brand_name": "A"}, brand_profile_id="brand_" + "0" * 24),
    )
    assert status == 400


# --- credentials, tiers, credits, idempotency ----------------------------------------------------


async def test_401_without_a_key(client: Client) -> None:
    response = await client.post(PATH, json=body())
    assert response.status_code == 401
    assert (await response.get_json())["error"] == "unauthorized"


async def test_403_below_tier_pro(client: Client) -> None:
    _id, free_key = await new_account("free", 1000)
    status, answer, _ = await _post(client, free_key, body())
    assert status == 403
    assert answer["error"] == "forbidden"


async def test_402_without_enough_credits(client: Client) -> None:
    _id, poor_key = await new_account("pro", 19)
    status, answer, _ = await _post(client, poor_key, body())
    assert status == 402
    assert answer["error"] == "payment_required"


async def test_idempotency_key_charges_once(client: Client, key: str) -> None:
    status, first, headers = await _post(client, key, body(), **{"Idempotency-Key": "hr-1"})
    assert status == 200
    assert headers["X-Credits-Charged"] == "20"
    status, again, headers = await _post(client, key, body(), **{"Idempotency-Key": "hr-1"})
    assert status == 200
    assert headers["X-Credits-Charged"] == "0"
    assert again == first
    status, _, _ = await _post(
        client, key, body(position="Different"), **{"Idempotency-Key": "hr-1"}
    )
    assert status == 409


async def test_estimate_prices_it(client: Client, key: str) -> None:
    status, estimate, _ = await _post(
        client, key, {"operation": "reports.hr_screening"}, "/api/v3/estimates"
    )
    assert status == 200
    assert estimate["estimated_credits"] == 20
    assert estimate["tier_required"] == "pro"


# --- the PDF --------------------------------------------------------------------------------------

needs_renderer = pytest.mark.skipif(
    bool(missing_components()) or shutil.which("pdftotext") is None,
    reason="Chromium or poppler missing",
)


def _poppler(pdf: Path) -> str:
    fonts = subprocess.run(["pdffonts", str(pdf)], capture_output=True, text=True, check=True)
    assert all(line.split()[-5] == "yes" for line in fonts.stdout.splitlines()[2:])  # embedded
    return subprocess.run(
        ["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True
    ).stdout


async def _pdf_text(client: Client, url: str, tmp_path: Path) -> str:
    parts = urlsplit(url)
    response = await client.get(f"{parts.path}?{parts.query}")
    assert response.status_code == 200
    assert response.headers["Content-Type"] == "application/pdf"
    pdf = tmp_path / "hr.pdf"
    pdf.write_bytes(await response.get_data())
    return await asyncio.to_thread(_poppler, pdf)


def _one_line(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


@needs_renderer
@pytest.mark.parametrize("locale", ["en", "th"])
async def test_pdf_opens_with_the_disclaimer_and_extracts_exactly(
    client: Client, key: str, tmp_path: Path, locale: str
) -> None:
    payload = body(
        include_pdf=True,
        locale=locale,
        position="วิศวกรซอฟต์แวร์" if locale == "th" else "Software engineer",
        candidate={**CANDIDATE, "name": "สมชาย ใจดี"},
        branding={"brand_name": "Acme People", "primary_color": "#0F766E"},
    )
    status, answer, headers = await _post(client, key, payload)
    assert status == 200, answer
    assert headers["X-Credits-Charged"] == "20"
    expires = dt.datetime.fromisoformat(answer["expires_at"])
    generated = dt.datetime.fromisoformat(answer["generated_at"])
    assert abs((expires - generated).total_seconds() - 24 * 3600) < 120
    text = await _pdf_text(client, answer["pdf_url"], tmp_path)
    flat = _one_line(text)
    disclaimer = answer[f"disclaimer_{locale}"]
    # The document opens with it. A Thai line wraps between two words that the text writes
    # without a space, so the Thai comparison ignores whitespace; the characters are exact.
    if locale == "th":
        assert re.sub(r"\s", "", flat).startswith(re.sub(r"\s", "", disclaimer))
    else:
        assert flat.startswith(_one_line(disclaimer))
    assert "Acme People" in flat
    squeezed = re.sub(r"\s", "", flat)
    words_pdf = hr_labels(locale)  # type: ignore[arg-type]
    # Issue 35: the consent line is printed, the verdict only at body size as an alignment, the
    # age nowhere (85 on the outlook date).
    assert re.sub(r"\s", "", words_pdf["consent"]) in squeezed
    label = words(locale)["verdicts"][answer["verdict"]]  # type: ignore[arg-type]
    assert re.sub(r"\s", "", f"{words_pdf['verdict']}: {label}") in squeezed
    assert answer["candidate_summary"]["age_years"] == 85
    assert not re.search(r"(?i)\bage\s*85\b|อายุ\s*85", flat)
    if locale == "th":
        # Buddhist Era dates with Thai month names: the birth (27 พฤศจิกายน 2483) and the
        # report's date (Gregorian + 543).
        assert "27พฤศจิกายน2483" in squeezed
        assert str(generated.year + 543) in flat
        assert "1940-11-27" not in flat
        for exact in ("สมชาย ใจดี", "วิศวกรซอฟต์แวร์", "รายงานประเมินบุคลากร", "ความเข้ากันได้กับบริษัท"):
            assert exact in flat, exact
        # Whole Thai sentences of the narrative come back exactly (lines rejoined).
        joined = flat.replace(" ", "")
        for paragraph in answer["hr_narrative_th"].split("\n\n"):
            assert paragraph.replace(" ", "") in joined
    else:
        assert "Talent Assessment" in flat
        assert _one_line(answer["hr_narrative_en"].split("\n\n")[2]) in flat
    response = await client.get("/api/v3/reports/" + answer["report_id"], headers=key_headers(key))
    record = await response.get_json()
    assert record["kind"] == "hr_screening"
    assert record["status"] == "succeeded"


@needs_renderer
async def test_pdf_under_a_brand_profile_and_another_accounts_profile_is_404(
    client: Client, key: str, tmp_path: Path
) -> None:
    from astro_server.features.brands.models import BrandProfile
    from astro_server.platform.auth.credentials import new_id

    owner_id, owner_key = await new_account("pro", 1000)
    profile = await BrandProfile.create(
        id=new_id("brand_"),
        account_id=owner_id,
        name="People team",
        branding={"brand_name": "Orchid Talent", "primary_color": "#7A1F5C",
                  "contact_url": "https://orchid.example"},
    )  # fmt: skip
    payload = body(include_pdf=True, brand_profile_id=profile.id)
    status, answer, _ = await _post(client, owner_key, payload)
    assert status == 200, answer
    text = _one_line(await _pdf_text(client, answer["pdf_url"], tmp_path))
    assert "Orchid Talent" in text
    assert "https://orchid.example" in text
    status, answer, headers = await _post(client, key, payload)  # another account
    assert status == 404
    assert headers.get("X-Credits-Charged", "0") == "0"


async def test_without_a_renderer_only_the_pdf_is_refused_before_any_charge(
    client: Client, key: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    import astro_server.features.reports.hr_routes as hr_api

    monkeypatch.setattr(hr_api, "missing_components", lambda: ["Chromium (apt install chromium)"])
    status, answer, headers = await _post(client, key, body(include_pdf=True))
    assert status == 503
    assert answer["error"] == "service_unavailable"
    assert "Chromium" in answer["message"]
    assert headers.get("X-Credits-Charged", "0") == "0"
    status, _, headers = await _post(client, key, body())
    assert status == 200
    assert headers["X-Credits-Charged"] == "20"
