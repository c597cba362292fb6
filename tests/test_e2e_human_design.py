"""Human Design through the SDK against the live stack (hypercorn on PostgreSQL + Redis).

Each call goes SDK -> live server -> astro_calc and back. Ra Uru Hu's chart is checked against
its published values (Jovian Archive: a 5/1 splenic manifestor, Left Angle Cross of the Clarion,
51/57 | 61/62; cited in astro_calc's test_human_design.py), the rest against astro_calc computed
in this process for the same input; credits against the price table (chart 1, composite 2,
transits 1, bodygraph 2, sensitivity +1).
"""

from __future__ import annotations

import datetime as dt
import io

import pytest
from PIL import Image

import astro_sdk
from astro_calc.disclaimers import disclaimer_for
from astro_calc.human_design import composite, human_design_chart, transits
from astro_calc.western import BirthSubject
from astro_sdk import AstroClient, AsyncAstroClient
from tests._support.accounts import create_account
from tests._support.stack import ServerProcess, Stack

pytestmark = [pytest.mark.postgres, pytest.mark.redis]

# Ra Uru Hu, 1948-04-09 00:14 Montreal (published chart, see the module docstring).
RA = {"date": "1948-04-09", "time": "00:14", "latitude": 45.5, "longitude": -73.57,
      "timezone": "America/Montreal"}  # fmt: skip
RA_CALC = BirthSubject(dt.date(1948, 4, 9), "00:14", 45.5, -73.57, None, "America/Montreal")
# Whitney Houston, 1963-08-09 20:55 Newark NJ (design node 62 and design Jupiter 17).
WHITNEY = {"date": "1963-08-09", "time": "20:55", "latitude": 40.73, "longitude": -74.17,
           "timezone": "America/New_York"}  # fmt: skip
WHITNEY_CALC = BirthSubject(dt.date(1963, 8, 9), "20:55", 40.73, -74.17, None, "America/New_York")
MOMENT = dt.datetime(2027, 1, 15, 12, tzinfo=dt.UTC)


def test_chart_composite_transits_and_bodygraph_through_the_sdk(
    shared_stack: Stack, shared_server: ServerProcess
) -> None:
    account = create_account(shared_stack, tier="free", credits=10, name="human-design")
    with AstroClient(api_key=account["api_key"], base_url=shared_server.base_url) as client:
        chart = client.human_design.chart(subject=RA)
        pair = client.human_design.composite(subject_a=RA, subject_b=WHITNEY)
        sky = client.human_design.transits(subject=WHITNEY, moment=MOMENT, language="th")
        svg = client.human_design.bodygraph(subject=WHITNEY)
        png = client.human_design.bodygraph(subject=RA, format="png", size_px=400)

    assert (chart.type, chart.authority, chart.profile) == ("manifestor", "splenic", "5/1")
    assert chart.incarnation_cross.name == "Left Angle Cross of the Clarion 1"
    assert chart.incarnation_cross.gates == (51, 57, 61, 62)
    assert chart.birth_utc == dt.datetime(1948, 4, 9, 5, 14, tzinfo=dt.UTC)
    expected = human_design_chart(RA_CALC)
    assert chart.design_utc == expected.design_utc
    assert chart.channels == list(expected.channels)
    assert [(c.name, c.defined) for c in chart.centers] == [
        (c.name, c.defined) for c in expected.centers
    ]
    for side in ("personality", "design"):
        got = getattr(chart.activations, side)
        want = getattr(expected.activations, side)
        assert [(a.body, a.gate, a.line, a.color, a.tone, a.base) for a in got] == [
            (a.body, a.gate, a.line, a.color, a.tone, a.base) for a in want
        ]
    assert chart.interpretations is None
    assert chart.sensitivity is None
    assert chart.api_response.credits_charged == 1

    together = composite(expected, human_design_chart(WHITNEY_CALC))
    assert pair.channels == list(together.channels)
    assert [(c.channel, c.kind, c.holder) for c in pair.connections] == [
        (c.channel, c.kind, c.holder) for c in together.connections
    ]
    assert pair.api_response.credits_charged == 2

    transit = transits(human_design_chart(WHITNEY_CALC), MOMENT)
    assert sky.moment == MOMENT
    assert sky.gates == list(transit.gates)
    assert [(c.channel, c.kind) for c in sky.channels] == [
        (c.channel, c.kind) for c in transit.channels
    ]
    assert sky.api_response.credits_charged == 1
    english = disclaimer_for("human_design", "en")
    assert (chart.disclaimer.code, chart.disclaimer.text) == (english.code, english.text)
    assert (sky.disclaimer.code, sky.disclaimer.text) == (
        "human_design",
        disclaimer_for("human_design", "th").text,
    )

    assert svg.content_type == "image/svg+xml"
    assert 'data-center="sacral"' in svg.text()
    assert svg.api_response.credits_charged == 2
    assert png.is_png
    assert Image.open(io.BytesIO(png.data)).size == (400, 400)
    assert png.api_response.credits_charged == 2
    assert png.api_response.credits_remaining == 10 - 1 - 2 - 1 - 2 - 2


async def test_async_client_sensitivity_and_a_field_level_400(
    shared_stack: Stack, shared_server: ServerProcess
) -> None:
    account = create_account(shared_stack, tier="free", credits=5, name="human-design")
    async with AsyncAstroClient(api_key=account["api_key"], base_url=shared_server.base_url) as c:
        chart = await c.human_design.chart(
            subject=WHITNEY, node="mean", sensitivity={"uncertainty_minutes": 15}
        )
        # New York began daylight saving at 02:00 on 1963-04-28: 02:30 never happened there.
        skipped = {**WHITNEY, "date": "1963-04-28", "time": "02:30"}
        with pytest.raises(astro_sdk.BadRequestError) as caught:
            await c.human_design.composite(subject_a=RA, subject_b=skipped)
        together = await c.human_design.composite(subject_a=RA, subject_b=WHITNEY)
        with pytest.raises(astro_sdk.InsufficientCreditsError):
            await c.human_design.composite(subject_a=RA, subject_b=WHITNEY)
    assert chart.node == "mean"
    assert chart.api_response.credits_charged == 2  # 1 + 1 for sensitivity
    assert chart.sensitivity is not None
    assert chart.sensitivity.uncertainty_minutes == 15
    results = {item.result for item in chart.sensitivity.items}
    assert {"type", "authority", "profile", "personality.moon.gate"} <= results
    assert caught.value.details == [
        {"field": "subject_b.time", "message": caught.value.details[0]["message"]}
    ]
    # The refused composite was refunded: 5 - 2 (chart) - 2 (composite) leaves 1, too little
    # for another composite.
    assert chart.api_response.credits_remaining == 3
    assert together.api_response.credits_remaining == 1
