"""Places, astrocartography, its map and relocation through the SDK against the live stack
(hypercorn on PostgreSQL + Redis).

Each call goes SDK -> live server -> astro_calc and back. Lines and the relocated chart are
compared with astro_calc computed in this process for the same input (astro_calc's own tests
check every point against pyswisseph's ``azalt``/``sidtime`` and the relocated chart against the
natal chart cast at the new place); places against the GeoNames data; credits against the price
table (starter: lines 2, map 4, relocation 2; the search free).
"""

from __future__ import annotations

import datetime as dt
import io

import pytest
from PIL import Image

import astro_sdk
from astro_calc.places import place_by_id
from astro_calc.western import BirthSubject, natal_chart
from astro_calc.western.astrocartography import astrocartography
from astro_calc.western.relocation import relocation
from astro_sdk import AstroClient
from tests._support.accounts import create_account
from tests._support.stack import ServerProcess, Stack

pytestmark = [pytest.mark.postgres, pytest.mark.redis]

BIRTH = {"date": "1985-11-02", "time": "14:45", "latitude": 51.5074, "longitude": -0.1278,
         "timezone": "Europe/London"}  # fmt: skip
CALC_BIRTH = BirthSubject(
    date=dt.date(1985, 11, 2),
    time="14:45",
    latitude=51.5074,
    longitude=-0.1278,
    timezone="Europe/London",
)


def test_places_lines_map_and_relocation_through_the_sdk(
    shared_stack: Stack, shared_server: ServerProcess
) -> None:
    account = create_account(shared_stack, tier="starter", credits=8, name="acg")
    with AstroClient(api_key=account["api_key"], base_url=shared_server.base_url) as client:
        found = client.places.search("chiang mai", limit=3, country="TH")
        thai = client.places.search("เชียงใหม่", limit=1)
        acg = client.western.astrocartography(subject=BIRTH, bodies=["sun", "venus", "saturn"])
        picture = client.western.astrocartography_map(
            subject=BIRTH,
            bodies=["sun", "venus"],
            cities=[found.places[0].id, {"name": "Home", "latitude": 10.0, "longitude": 20.0}],
            format="png",
            size_px=600,
        )
        moved = client.western.relocation(subject=BIRTH, place=found.places[0].id)
        assert moved.api_response.credits_remaining == 0
        with pytest.raises(astro_sdk.InsufficientCreditsError):
            client.western.astrocartography(subject=BIRTH)
        # The search is free: it still answers with no credit left.
        by_place = client.places.search("London", limit=1, country="GB")

    chiang_mai = found.places[0]
    assert (chiang_mai.name, chiang_mai.country, chiang_mai.timezone) == (
        "Chiang Mai", "TH", "Asia/Bangkok",
    )  # fmt: skip
    gazetteer = place_by_id(chiang_mai.id)
    assert (chiang_mai.latitude, chiang_mai.longitude) == (gazetteer.latitude, gazetteer.longitude)
    assert thai.places[0].id == chiang_mai.id
    assert by_place.places[0].name == "London"

    expected = astrocartography(CALC_BIRTH, bodies=["sun", "venus", "saturn"])
    assert len(acg.lines) == len(expected.lines)
    for got, want in zip(acg.lines, expected.lines, strict=True):
        assert (got.body, got.angle) == (want.body, want.angle)
        assert len(got.points) == len(want.points)
        for p, q in zip(got.points, want.points, strict=True):
            assert p.latitude == pytest.approx(q.latitude, abs=1e-9)
            assert p.longitude == pytest.approx(q.longitude, abs=1e-9)
    assert acg.api_response.credits_charged == 2
    assert acg.meta.sidereal_time_deg == pytest.approx(expected.meta.sidereal_time_deg, abs=1e-9)

    image = Image.open(io.BytesIO(picture.data))
    assert image.format == "PNG"
    assert image.size == (600, 600)
    assert picture.api_response.credits_charged == 4

    want_moved = relocation(CALC_BIRTH, chiang_mai.latitude, chiang_mai.longitude)
    assert moved.angles.ascendant.longitude == pytest.approx(
        want_moved.chart.angles.ascendant.longitude, abs=1e-9
    )
    assert [c.cusp for c in moved.houses] == pytest.approx(
        [c.cusp for c in want_moved.chart.houses], abs=1e-9
    )
    assert [(s.angle, s.sign_changed) for s in moved.relocation.angles] == [
        (s.angle, s.sign_changed) for s in want_moved.angles
    ]
    assert [(ln.body, ln.angle) for ln in moved.relocation.lines] == [
        (ln.body, ln.angle) for ln in want_moved.lines
    ]
    # The same instant: every body's longitude is the birth chart's.
    natal = natal_chart(CALC_BIRTH)
    assert [p.longitude for p in moved.planets] == pytest.approx(
        [p.longitude for p in natal.planets], abs=1e-9
    )
    assert moved.meta.latitude == chiang_mai.latitude
    assert moved.api_response.credits_charged == 2


def test_a_subject_may_name_a_place(shared_stack: Stack, shared_server: ServerProcess) -> None:
    account = create_account(shared_stack, tier="free", credits=2, name="place-subject")
    with AstroClient(api_key=account["api_key"], base_url=shared_server.base_url) as client:
        bangkok = client.places.search("bangkok", limit=1).places[0]
        chart = client.western.natal(
            subject={"date": "1990-04-13", "time": "08:30", "place": bangkok.id}
        )
        with pytest.raises(astro_sdk.BadRequestError) as refused:
            client.western.natal(
                subject={"date": "1990-04-13", "time": "08:30", "place": 1, "latitude": 1.0}
            )
    assert chart.meta.timezone == "Asia/Bangkok"
    assert (chart.meta.latitude, chart.meta.longitude) == (bangkok.latitude, bangkok.longitude)
    expected = natal_chart(
        BirthSubject(
            date=dt.date(1990, 4, 13),
            time="08:30",
            latitude=bangkok.latitude,
            longitude=bangkok.longitude,
            timezone="Asia/Bangkok",
        )
    )
    assert chart.angles.ascendant.longitude == pytest.approx(
        expected.angles.ascendant.longitude, abs=1e-9
    )
    assert refused.value.details[0]["field"] == "subject.place"
