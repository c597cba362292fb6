"""Zi Wei Dou Shu charts (astro_calc.chinese.ziwei) against x-iztro 0.6.1 (iztro 2.6.1 with its
corrected brightness; a test dependency only), every palace and star compared, and against the
worked examples published by schools and teachers (cited at each test).

Convention compared: iztro's defaults (local clock time, late Zi keeps the day's lunar date and
places Zi Wei and the day stars with the next lunar day, leap months split at the 15th, the year
from the lunar new year). Exact equality: there is no tolerance in a Zi Wei chart.

Known difference: the lunar month beginning 2097-08-07 (our calendar) / 2097-08-08 (x-iztro's
tables): its new moon falls about a minute after midnight China time, inside the uncertainty of
Delta T (see astro_calc.chinese.calendar); births in it are left out of the random sample.
"""

from __future__ import annotations

import random
from datetime import date, time, timedelta

import msgspec
import pytest
from ziwei_oracle import ours, reference_chart, reference_horoscope

from astro_calc.chinese.calendar import chinese_date, gregorian_date, lunar_year_months
from astro_calc.chinese.ziwei import MAX_DATE, MIN_DATE, hour_index, ziwei_chart
from astro_calc.errors import CalcInputError

_UNCERTAIN_MONTH = (date(2097, 8, 7), date(2097, 9, 5))


def _clock(index: int) -> time:
    """A local clock time inside iztro's hour ``index`` (0..12)."""
    if index == 0:
        return time(0, 30)
    if index == 12:
        return time(23, 30)
    return time(2 * index - 1, 30)


def _random_births(seed: int, count: int) -> list[tuple[date, int, str]]:
    rng = random.Random(seed)
    span = (MAX_DATE - MIN_DATE).days
    out = []
    while len(out) < count:
        d = MIN_DATE + timedelta(days=rng.randrange(span))
        if _UNCERTAIN_MONTH[0] <= d <= _UNCERTAIN_MONTH[1]:
            continue
        out.append((d, rng.randrange(13), rng.choice(("male", "female"))))
    return out


def _compare(birth: date, index: int, gender: str, **options: object) -> None:
    fix_leap = options.pop("fix_leap", True)
    chart = ziwei_chart(
        birth,
        _clock(index),
        gender,  # type: ignore[arg-type]
        leap_month="split" if fix_leap else "same",
        **options,  # type: ignore[arg-type]
    )
    assert chart.hour_index == index
    assert ours(chart) == reference_chart(birth, index, gender, fix_leap=bool(fix_leap)), (
        birth,
        index,
        gender,
    )


@pytest.mark.slow
@pytest.mark.parametrize(("birth", "index", "gender"), _random_births(42, 300))
def test_random_births_match_iztro_in_every_palace_and_star(
    birth: date, index: int, gender: str
) -> None:
    _compare(birth, index, gender)


def _leap_month_days() -> list[tuple[date, int, str]]:
    rng = random.Random(7)
    days = []
    for year in range(1900, 2100, 3):
        for m in lunar_year_months(year):
            if m.is_leap:
                for day in (1, 15, 16, m.days):
                    d = m.first_day + timedelta(days=day - 1)
                    days.append((d, rng.choice((0, 5, 12)), rng.choice(("male", "female"))))
    return days


@pytest.mark.slow
@pytest.mark.parametrize(("birth", "index", "gender"), _leap_month_days())
def test_leap_month_births_split_at_the_fifteenth_like_iztro(
    birth: date, index: int, gender: str
) -> None:
    _compare(birth, index, gender)


@pytest.mark.parametrize(("birth", "index", "gender"), _leap_month_days()[::4])
def test_leap_month_counted_whole_matches_iztro_without_fix_leap(
    birth: date, index: int, gender: str
) -> None:
    _compare(birth, index, gender, fix_leap=False)


def _boundaries() -> list[tuple[date, int, str]]:
    """Both Zi hours on lunar new year's eve and day, the last day of lunar months, and the
    Gregorian new year."""
    cases = []
    for year in (1901, 1923, 1950, 1984, 1999, 2000, 2024, 2033, 2061, 2099):
        new_year = gregorian_date(year, 1, 1)
        for d in (new_year - timedelta(days=1), new_year, date(year, 1, 1), date(year - 1, 12, 31)):
            for index in (0, 12):
                cases.append((d, index, "male" if d.day % 2 else "female"))
        last = lunar_year_months(year)[5]
        cases.append((last.first_day + timedelta(days=last.days - 1), 12, "female"))
    return cases


@pytest.mark.parametrize(("birth", "index", "gender"), _boundaries())
def test_zi_hours_at_lunar_and_gregorian_year_boundaries_match_iztro(
    birth: date, index: int, gender: str
) -> None:
    _compare(birth, index, gender)


def _horoscope_cases() -> list[tuple[date, int, str, date]]:
    rng = random.Random(99)
    out = []
    for birth, index, gender in _random_births(5, 120):
        on = birth + timedelta(days=rng.randrange(0, 36000))
        if on <= MAX_DATE and not (_UNCERTAIN_MONTH[0] <= on <= _UNCERTAIN_MONTH[1]):
            out.append((birth, index, gender, on))
    return out


@pytest.mark.slow
@pytest.mark.parametrize(("birth", "index", "gender", "on"), _horoscope_cases())
def test_decadal_yearly_and_monthly_horoscopes_match_iztro(
    birth: date, index: int, gender: str, on: date
) -> None:
    h = ziwei_chart(birth, _clock(index), gender, on_date=on).horoscope  # type: ignore[arg-type]
    assert h is not None
    got: dict[str, object] = {"nominal_age": h.nominal_age}
    for level in ("decadal", "yearly", "monthly"):
        x = getattr(h, level)
        got[level] = (
            None
            if x is None
            else {
                "palace_branch": x.palace_branch,
                "stem": x.stem,
                "branch": x.branch,
                "stars": tuple(t.star for t in x.transformations),
            }
        )
    assert got == reference_horoscope(birth, index, gender, on)


# --- published worked examples ----------------------------------------------------------------


def test_the_x_iztro_readme_chart() -> None:
    """The sample chart printed in x-iztro's README (https://github.com/x-haose/x-iztro, "Natal
    Chart 2000-8-16 Tiger hour female"): life palace Wu, body palace Xu (career), wood 3, soul
    star Po Jun, body star Wen Chang, Zi Wei in the life palace at its brightest, Tai Yang's Lu
    in the children palace, Wu Qu's Quan in wealth, Tai Yin's Ke in friends, Tian Tong's Ji in
    health, decades 3-12 (life), 13-22 (siblings), 23-32 (spouse with Qi Sha, You Bi and a
    fallen Huo Xing)."""
    chart = ziwei_chart(date(2000, 8, 16), time(4, 0), "female")
    assert (chart.life_palace_branch, chart.body_palace_branch) == ("wu", "xu")
    assert (chart.five_elements_class.element, chart.five_elements_class.number) == ("wood", 3)
    assert (chart.soul_star, chart.body_star) == ("pojun", "wenchang")
    by_name = {p.name: p for p in chart.palaces}
    assert by_name["career"].is_body_palace
    life = by_name["life"]
    assert [(s.name, s.brightness) for s in life.major_stars] == [("ziwei", "miao")]
    marks = {
        s.transformation: (p.name, s.name)
        for p in chart.palaces
        for s in (*p.major_stars, *p.minor_stars)
        if s.transformation
    }
    assert marks == {
        "lu": ("children", "taiyang"),
        "quan": ("wealth", "wuqu"),
        "ke": ("friends", "taiyin"),
        "ji": ("health", "tiantong"),
    }
    assert [(p.decadal.start_age, p.decadal.end_age) for p in chart.palaces[:3]] == [
        (3, 12),
        (13, 22),
        (23, 32),
    ]
    spouse = by_name["spouse"]
    assert [(s.name, s.brightness) for s in spouse.major_stars] == [("qisha", "miao")]
    assert [(s.name, s.brightness) for s in spouse.minor_stars] == [
        ("youbi", None),
        ("huoxing", "xian"),
    ]


def test_the_life_palace_lesson_of_da_jia_xue_zi_wei() -> None:
    """ "大家學紫微" lesson one (https://blog.bobyeh.com): the chart of a man born 壬午年三月十日
    丑時 has its life palace in Mao (from Yin forward to the third month, Chen, then back to the
    Chou hour) and, forward to the hour, its body palace in Si (順至本生時安身)."""
    birth = gregorian_date(2002, 3, 10)
    assert chinese_date(birth).year_ganzhi == "壬午"
    chart = ziwei_chart(birth, time(2, 0), "male")
    assert (chart.life_palace_branch, chart.body_palace_branch) == ("mao", "si")
    assert chart.palaces[0].stem == "gui"  # 五虎遁: 丁壬 years start 壬寅, so Mao is 癸卯


def test_the_zi_wei_worked_examples_of_the_chinese_astrology_tutorial() -> None:
    """http://chinese-astrology.blogspot.com/2005/11/step-6-chart-zi-wei-star-emperor.html:
    day 12 in water 2 puts Zi Wei in Wei; day 7 in wood 3 in Wu; day 15 in metal 4 in Chen."""
    from astro_calc.chinese.ziwei import ziwei_branch

    assert ziwei_branch(2, 12) == 7
    assert ziwei_branch(3, 7) == 6
    assert ziwei_branch(4, 15) == 4


def test_the_ziweiyun_teaching_example_of_the_life_palace() -> None:
    """紫微雲 (https://www.ziweiyun.com) 排盤教學: born in the third lunar month at the Wu hour,
    count from Yin to Chen, then back seven hours: the life palace is in Xu."""
    birth = gregorian_date(2024, 3, 8)  # 甲辰年三月初八
    chart = ziwei_chart(birth, time(12, 0), "female")
    assert chart.life_palace_branch == "xu"


# --- rules and input ----------------------------------------------------------------------------


def test_hour_index_counts_early_and_late_zi_apart() -> None:
    assert [hour_index(time(h, 59)) for h in range(24)] == [
        0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12,
    ]  # fmt: skip


def test_late_zi_same_day_places_zi_wei_with_the_birth_day() -> None:
    """A late-Zi birth on a lunar month's 30th: iztro's rule moves Zi Wei to the next day (the
    1st), the same-day option keeps the 30th; the lunar date itself is the 30th in both."""
    birth = next(m.first_day + timedelta(days=29) for m in lunar_year_months(1990) if m.days == 30)
    iztro = ziwei_chart(birth, time(23, 30), "male")
    same = ziwei_chart(birth, time(23, 30), "male", late_zi="same_day")
    assert iztro.lunar_date.day == same.lunar_date.day == 30

    def where(chart: object) -> str:
        return next(
            p.branch
            for p in chart.palaces  # type: ignore[attr-defined]
            if any(s.name == "ziwei" for s in p.major_stars)
        )

    from astro_calc.chinese.ziwei import ziwei_branch

    number = iztro.five_elements_class.number
    assert where(iztro) == ("zi", "chou", "yin", "mao", "chen", "si", "wu", "wei", "shen", "you",
                            "xu", "hai")[ziwei_branch(number, 1)]  # fmt: skip
    assert where(same) == ("zi", "chou", "yin", "mao", "chen", "si", "wu", "wei", "shen", "you",
                           "xu", "hai")[ziwei_branch(number, 30)]  # fmt: skip


def test_labels_follow_the_language() -> None:
    birth = date(1990, 5, 1)
    en = ziwei_chart(birth, time(7, 30), "male")
    zh = ziwei_chart(birth, time(7, 30), "male", language="zh")
    hant = ziwei_chart(birth, time(7, 30), "male", language="zh-Hant")
    th = ziwei_chart(birth, time(7, 30), "male", language="th")
    assert en.palaces[0].label == "Life"
    assert zh.palaces[0].label == "命宫"
    assert hant.palaces[0].label == "命宮"
    assert th.palaces[0].label == "วังชีวิต"
    assert msgspec.structs.replace(zh, language="en") != en  # labels differ, facts do not
    assert ours(zh) == ours(en) == ours(th) == ours(hant)


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"gender": "other"}, "gender"),
        ({"birth_date": date(1900, 1, 30)}, "date"),
        ({"birth_date": date(2100, 12, 31)}, "date"),
        ({"on_date": date(1989, 1, 1)}, "on_date"),
        ({"on_date": date(2101, 1, 1)}, "on_date"),
        ({"language": "fr"}, "language"),
        ({"late_zi": "next_day"}, "late_zi"),
        ({"leap_month": "skip"}, "leap_month"),
    ],
)
def test_bad_input_names_its_field(kwargs: dict[str, object], field: str) -> None:
    args: dict[str, object] = {
        "birth_date": date(1990, 5, 1),
        "birth_time": time(7, 30),
        "gender": "male",
    }
    args.update(kwargs)
    with pytest.raises(CalcInputError) as err:
        ziwei_chart(**args)  # type: ignore[arg-type]
    assert err.value.field == field


def test_the_chart_encodes_with_the_contract_field_names() -> None:
    chart = ziwei_chart(date(1990, 5, 1), time(7, 30), "female", on_date=date(2026, 12, 7))
    body = msgspec.json.decode(msgspec.json.encode(chart))
    for key in (
        "lunar_date",
        "hour_branch",
        "five_elements_class",
        "soul_star",
        "body_star",
        "life_palace_branch",
        "body_palace_branch",
        "palaces",
    ):
        assert key in body
    assert set(body["lunar_date"]) >= {"year", "month", "day", "leap"}
    palace = body["palaces"][0]
    assert set(palace) >= {
        "name", "stem", "branch", "is_body_palace", "major_stars", "minor_stars",
        "adjective_stars", "decadal", "label",
    }  # fmt: skip
    assert set(palace["decadal"]) == {"start_age", "end_age"}
    assert set(body["horoscope"]) >= {"decadal", "yearly", "monthly"}


def test_every_name_is_the_glossary_term_in_en_th_and_zh() -> None:
    """data/chinese/ziwei.json carries the display names; the glossary's ``ziwei`` category is
    the reference for en, th and zh (simplified): the two must agree term by term."""
    import json
    from importlib import resources

    from astro_calc import glossary

    data = json.loads(
        resources.files("astro_calc").joinpath("data/chinese/ziwei.json").read_text("utf-8")
    )
    sections = {
        "palace": data["palaces"],
        "transformation": data["transformations"],
        "brightness": data["brightness"],
        "class": data["five_elements_classes"],
        "scope": data["horoscope_scopes"],
        **{kind: data["stars"][kind] for kind in ("major", "minor", "adjective")},
    }
    terms = glossary.terms("ziwei")
    for prefix, rows in sections.items():
        for key, row in rows.items():
            term = terms[f"{prefix}_{key}"]
            assert (term.en, term.th, term.zh) == (row["en"], row["th"], row["zh-Hans"]), key
