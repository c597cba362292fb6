"""Qi Men Dun Jia (奇门遁甲): the hourly chart (时家奇门) on the rotating plate (转盘).

Ju (局) selection, ``method``:

* ``chai_bu`` (拆补法, default): the solar term in force at the instant (by its exact time) and
  the yuan (元) of the day: the day's 符头 is the last 甲 or 己 day; a 符头 on 子午卯酉 opens the
  upper yuan, on 寅申巳亥 the middle, on 辰戌丑未 the lower (``(day index // 5) mod 3``).
* ``zhi_run`` (置闰法): the year is cut into 15-day blocks that start on an upper-yuan 符头
  (甲子, 己卯, 甲午, 己酉 days) and each block takes the next term in order, so a block may
  start before its term (超神) or after it (接气). 超神 may not reach nine days: when the 符头
  of the 芒种 or 大雪 block comes nine or more days before the day of 芒种 or 大雪, that term's
  three yuan are used twice (置闰) and the following blocks start after their terms (接气).
  Only 芒种 and 大雪 take the leap. Published rule and worked example: 易德轩 "置闰"
  (https://qimen.yi958.com/Article_448.html): 大雪 1898-12-07 with its 符头 甲午 on 1898-11-27
  ("已超过大雪节十一日", both end days counted) is repeated, 上元 again from 己酉 1898-12-12.
  "超过九日" counted that way is a date difference of nine days or more. Dates are civil dates
  in the chart's clock time.

Ju numbers per term and yuan are the classical table (冬至 1 7 4 ... 大雪 4 7 1); yang dun from
冬至 to 芒种, yin dun from 夏至 to 大雪.

The plate: the earth plate lays 戊己庚辛壬癸丁丙乙 from the ju's palace forward (yang) or
backward (yin) through the Lo Shu palaces. The hour's ten-day week (旬) hides its 甲 under a 仪
(甲子 戊, 甲戌 己, 甲申 庚, 甲午 辛, 甲辰 壬, 甲寅 癸); the palace of that 仪 gives the chief star
(值符) and chief door (值使). The stars turn as one ring so the chief star stands over the hour
stem's earth palace; the doors turn so the chief door stands in the palace reached by counting
the hours since the week's head from the chief's palace (forward in yang dun, backward in yin).
The eight deities start with 值符 at the chief star and run clockwise (yang) or anticlockwise
(yin): 值符 螣蛇 太阴 六合 白虎 玄武 九地 九天. Centre palace 5 lodges in palace 2 (寄坤) for
stars, doors and stems; 天禽 travels with 天芮. Void branches (旬空) and the horse star (驿马)
are those of the hour pillar.

Checked against the independent qimen-rs engine (chai_bu, rotating plate, the same conventions)
for thousands of hours; zhi_run against the published 1898 and 1995 examples and an independent
符头-grid implementation of the published rule on lunar-python's term times, every day 1950-2050
(tests).
"""

from __future__ import annotations

import bisect
from datetime import UTC, date, datetime, time, timedelta
from functools import lru_cache
from typing import Final, Literal

import msgspec

from astro_calc.chinese.pillars import DayBoundary, PillarIndices, four_pillars
from astro_calc.chinese.solar_terms import SolarTerm, civil_date, solar_terms, term_at
from astro_calc.chinese.symbols import (
    BRANCHES,
    DATA,
    STEMS,
    Branch,
    Stem,
    day_cycle_index,
    ganzhi,
    void_branches,
)
from astro_calc.errors import CalcInputError
from astro_calc.time import resolve

QimenMethod = Literal["chai_bu", "zhi_run"]
Yuan = Literal["upper", "middle", "lower"]

YUANS: Final[tuple[Yuan, ...]] = ("upper", "middle", "lower")

#: Ju numbers (upper, middle, lower yuan) by solar-term index (0 = 小寒 ... 23 = 冬至).
JU_TABLE: Final[tuple[tuple[int, int, int], ...]] = (
    (2, 8, 5),  # 小寒
    (3, 9, 6),  # 大寒
    (8, 5, 2),  # 立春
    (9, 6, 3),  # 雨水
    (1, 7, 4),  # 惊蛰
    (3, 9, 6),  # 春分
    (4, 1, 7),  # 清明
    (5, 2, 8),  # 谷雨
    (4, 1, 7),  # 立夏
    (5, 2, 8),  # 小满
    (6, 3, 9),  # 芒种
    (9, 3, 6),  # 夏至
    (8, 2, 5),  # 小暑
    (7, 1, 4),  # 大暑
    (2, 5, 8),  # 立秋
    (1, 4, 7),  # 处暑
    (9, 3, 6),  # 白露
    (7, 1, 4),  # 秋分
    (6, 9, 3),  # 寒露
    (5, 8, 2),  # 霜降
    (6, 9, 3),  # 立冬
    (5, 8, 2),  # 小雪
    (4, 7, 1),  # 大雪
    (1, 7, 4),  # 冬至
)

#: 戊己庚辛壬癸丁丙乙 as stem indices: the six 仪 then the three 奇.
_YI_QI: Final = (4, 5, 6, 7, 8, 9, 3, 2, 1)
#: The outer palaces clockwise from the north (坎 艮 震 巽 离 坤 兑 乾).
_RING: Final = (1, 8, 3, 4, 9, 2, 7, 6)
#: Original star and door of each palace (index = palace - 1); palace 5 has 天禽 and no door.
_HOME_STAR: Final = (0, 1, 2, 3, 4, 5, 6, 7, 8)
_HOME_DOOR: Final = {1: 0, 2: 1, 3: 2, 4: 3, 6: 4, 7: 5, 8: 6, 9: 7}
#: Palace of each branch (for the horse star).
_BRANCH_PALACE: Final = (1, 8, 8, 3, 4, 4, 9, 2, 2, 7, 6, 6)
_MANGZHONG: Final = 10
_DAXUE: Final = 22
#: A 芒种 or 大雪 符头 this many days (date difference) or more before its term is repeated (置闰).
_MAX_CHAO_SHEN_DAYS: Final = 9


class QimenSymbol(msgspec.Struct, frozen=True):
    key: str
    character: str
    pinyin: str
    english: str


def _symbols(section: str) -> tuple[QimenSymbol, ...]:
    return tuple(QimenSymbol(x["key"], x["zh"], x["pinyin"], x["en"]) for x in DATA[section])


STARS: Final = _symbols("qimen_stars")
DOORS: Final = _symbols("qimen_doors")
DEITIES: Final = _symbols("qimen_deities")


class Palace(msgspec.Struct, frozen=True):
    number: int  # Lo Shu number 1..9
    trigram: str | None
    direction: str
    element: str
    earth_stem: Stem
    earth_stem_hosted: Stem | None  # palace 2 also holds the centre's earth stem
    heaven_stems: tuple[Stem, ...]  # two where 天芮 brings 天禽's stem
    stars: tuple[QimenSymbol, ...]  # two where 天禽 travels with 天芮
    door: QimenSymbol | None
    deity: QimenSymbol | None
    is_void: bool
    is_horse: bool


class QimenChief(msgspec.Struct, frozen=True):
    star: QimenSymbol  # 值符
    door: QimenSymbol  # 值使
    home_palace: int  # palace of the week's 仪 on the earth plate (5 lodges in 2)
    star_palace: int
    door_palace: int


class QimenChart(msgspec.Struct, frozen=True):
    local: datetime
    utc: datetime
    method: QimenMethod
    day_boundary: DayBoundary
    pillars: tuple[str, str, str, str]  # year, month, day, hour ganzhi
    solar_term: SolarTerm  # the term in force at the instant
    ju_solar_term: SolarTerm  # the term whose ju is used (differs under zhi_run's 超神/置闰)
    yuan: Yuan
    dun: Literal["yang", "yin"]
    ju: int
    fu_tou: str  # ganzhi of the yuan's head day
    xun_head: str  # e.g. 甲子
    xun_hidden_stem: Stem  # the 仪 that hides the week's 甲
    chief: QimenChief
    void_branches: tuple[Branch, Branch]
    day_void_branches: tuple[Branch, Branch]
    horse_star: Branch
    horse_palace: int
    palaces: tuple[Palace, ...]  # palaces 1..9 in order


# --- ju selection --------------------------------------------------------------------------------


def _dun(term_index: int) -> Literal["yang", "yin"]:
    # Yang from 冬至 (23) through 芒种 (10); yin from 夏至 (11) through 大雪 (22).
    return "yang" if term_index == 23 or term_index <= _MANGZHONG else "yin"


def _term_days(year: int, offset_minutes: float) -> list[tuple[date, int, int]]:
    return [
        (civil_date(t.jd_ut, offset_minutes), y, t.index)
        for y in (year - 1, year, year + 1)
        for t in solar_terms(y)
    ]


@lru_cache(maxsize=64)
def _zhi_run_blocks(year: int, offset_minutes: float) -> tuple[tuple[date, int, int], ...]:
    """(head date, term year, term index) of every 15-day block from about 3.5 years before
    ``year`` to the end of ``year``. The chain starts with a block on the nearest 冬至 and the
    置闰 rule pulls any starting error back within one leap cycle (about 3 years)."""
    terms = [
        (d, y, i)
        for start in range(year - 4, year + 2)
        for d, y, i in _term_days(start, offset_minutes)
        if y == start
    ]
    term_dates = {(y, i): d for d, y, i in terms}
    anchor_day = term_dates[(year - 4, 23)]
    # The upper-yuan head nearest the anchor solstice (heads are days with index % 15 == 0).
    k = day_cycle_index(anchor_day) % 15
    head = anchor_day - timedelta(days=k) if k <= 7 else anchor_day + timedelta(days=15 - k)
    blocks = [(head, year - 4, 23)]
    end = date(year + 1, 1, 1)
    while blocks[-1][0] < end:
        h, ty, ti = blocks[-1]
        nh = h + timedelta(days=15)
        ny, ni = (ty + 1, 0) if ti == 23 else (ty, ti + 1)
        if ti in (_MANGZHONG, _DAXUE) and (term_dates[(ty, ti)] - h).days >= _MAX_CHAO_SHEN_DAYS:
            blocks.append((nh, ty, ti))  # 置闰: repeat 芒种 or 大雪
        else:
            blocks.append((nh, ny, ni))
    return tuple(blocks)


def _ju_zhi_run(day: date, offset_minutes: float) -> tuple[int, int, Yuan]:
    """(term year, term index, yuan) of a civil day by the 置闰 method."""
    blocks = _zhi_run_blocks(day.year, offset_minutes)
    heads = [b[0] for b in blocks]
    i = bisect.bisect_right(heads, day) - 1
    head, ty, ti = blocks[i]
    return ty, ti, YUANS[(day - head).days // 5]


# --- the plate -----------------------------------------------------------------------------------


def _palace_step(palace: int, steps: int, forward: bool) -> int:
    return (palace - 1 + (steps if forward else -steps)) % 9 + 1


def _lodge(palace: int) -> int:
    return 2 if palace == 5 else palace


@lru_cache(maxsize=2048)
def _plate(
    dun: Literal["yang", "yin"], ju: int, hour_index: int
) -> tuple[tuple[int, ...], QimenChief, dict[int, tuple[int, ...]], dict[int, int], dict[int, int]]:
    """Earth stems by palace, the chief, heaven stars by palace (star indices), doors by palace
    and deities by palace for one dun, ju and hour."""
    forward = dun == "yang"
    earth = [0] * 10  # earth[palace] = stem index
    for k, stem in enumerate(_YI_QI):
        earth[_palace_step(ju, k, forward)] = stem
    xun = hour_index // 10  # 0 = 甲子 ... 5 = 甲寅
    hidden = _YI_QI[xun]
    home = earth.index(hidden, 1)
    chief_star = _HOME_STAR[home - 1]
    chief_door = _HOME_DOOR[_lodge(home)]
    hour_stem = hour_index % 10
    target_stem = hidden if hour_stem == 0 else hour_stem
    star_palace = _lodge(earth.index(target_stem, 1))
    # Stars: the ring turns so the chief's home (lodged) moves to star_palace.
    shift = _RING.index(star_palace) - _RING.index(_lodge(home))
    stars: dict[int, tuple[int, ...]] = {}
    for pos, palace in enumerate(_RING):
        origin = _RING[(pos - shift) % 8]
        stars[palace] = (origin - 1, 4) if origin == 2 else (origin - 1,)
    door_palace = _lodge(_palace_step(home, hour_index % 10, forward))
    dshift = _RING.index(door_palace) - _RING.index(_lodge(home))
    doors = {palace: _HOME_DOOR[_RING[(pos - dshift) % 8]] for pos, palace in enumerate(_RING)}
    start = _RING.index(star_palace)
    step = 1 if forward else -1
    deities = {_RING[(start + step * k) % 8]: k for k in range(8)}
    chief = QimenChief(STARS[chief_star], DOORS[chief_door], _lodge(home), star_palace, door_palace)
    return tuple(earth), chief, stars, doors, deities


class JuSelection(msgspec.Struct, frozen=True):
    """What decides a chart's ju: the moment's pillars, the solar term in force, the term whose
    ju is used, the yuan, the dun and the ju number."""

    pillars: PillarIndices
    solar_term: SolarTerm
    ju_term: SolarTerm
    yuan: Yuan
    dun: Literal["yang", "yin"]
    ju: int


def ju_selection(
    utc: datetime,
    local: datetime,
    offset_minutes: float,
    method: QimenMethod = "chai_bu",
    day_boundary: DayBoundary = "zi",
) -> JuSelection:
    """The ju of the moment ``utc`` whose civil clock reads ``local`` (naive) at
    ``offset_minutes`` east of UTC, by ``method`` (module docstring); :func:`qimen_chart`'s
    first step."""
    p = four_pillars(utc, local, day_boundary)
    current, _next = term_at(p.jd_ut, utc.astimezone(UTC).year)
    if method == "chai_bu":
        ju_term = current
        yuan = YUANS[(p.day // 5) % 3]
    else:
        day = local.date() + timedelta(days=1 if local.hour == 23 and day_boundary == "zi" else 0)
        ty, ti, yuan = _ju_zhi_run(day, float(offset_minutes))
        ju_term = solar_terms(ty)[ti]
    dun = _dun(ju_term.index)
    return JuSelection(p, current, ju_term, yuan, dun, JU_TABLE[ju_term.index][YUANS.index(yuan)])


def qimen_chart(
    local_date: date,
    local_time: time,
    *,
    latitude: float | None = None,
    longitude: float | None = None,
    offset_minutes: int | None = None,
    timezone_name: str | None = None,
    method: QimenMethod = "chai_bu",
    day_boundary: DayBoundary = "zi",
) -> QimenChart:
    """The hourly Qi Men Dun Jia chart (rotating plate) of a local civil moment.

    Defaults: ``method="chai_bu"``, the day changing at 23:00 (``day_boundary="zi"``), pillars
    and yuan from the civil clock time. See the module docstring for every rule; checked against
    qimen-rs (chai_bu) and published examples (zhi_run) in the tests."""
    if method not in ("chai_bu", "zhi_run"):
        raise CalcInputError("method", "must be 'chai_bu' or 'zhi_run'")
    resolved = resolve(
        local_date,
        local_time,
        latitude=latitude,
        longitude=longitude,
        offset_minutes=offset_minutes,
        timezone_name=timezone_name,
    )
    utc = resolved.utc
    s = ju_selection(
        utc, resolved.local.replace(tzinfo=None), resolved.offset_minutes, method, day_boundary
    )
    p, current, ju_term, yuan, dun, ju = s.pillars, s.solar_term, s.ju_term, s.yuan, s.dun, s.ju
    earth, chief, stars, doors, deities = _plate(dun, ju, p.hour)
    voids = void_branches(p.hour)
    day_voids = void_branches(p.day)
    horse = (2, 11, 8, 5)[p.hour % 12 % 4]  # 申子辰->寅, 巳酉丑->亥, 寅午戌->申, 亥卯未->巳
    horse_palace = _BRANCH_PALACE[horse]
    void_palaces = {_BRANCH_PALACE[voids[0]], _BRANCH_PALACE[voids[1]]}
    palaces = []
    for number in range(1, 10):
        info = DATA["palaces"][number - 1]
        if number == 5:
            heaven: tuple[Stem, ...] = ()
            star_syms: tuple[QimenSymbol, ...] = ()
            door = deity = None
        else:
            star_ids = stars[number]
            # A star carries the earth stem of its home palace (天禽 that of the centre).
            heaven = tuple(STEMS[earth[s + 1]] for s in star_ids)
            star_syms = tuple(STARS[s] for s in star_ids)
            door = DOORS[doors[number]]
            deity = DEITIES[deities[number]]
        palaces.append(
            Palace(
                number,
                info["trigram"],
                info["direction"],
                info["element"],
                STEMS[earth[number]],
                STEMS[earth[5]] if number == 2 else None,
                heaven,
                star_syms,
                door,
                deity,
                number in void_palaces,
                number == horse_palace,
            )
        )
    xun_head = p.hour - p.hour % 10
    fu_tou = p.day - p.day % 5
    return QimenChart(
        local=resolved.local,
        utc=utc,
        method=method,
        day_boundary=day_boundary,
        pillars=(ganzhi(p.year), ganzhi(p.month), ganzhi(p.day), ganzhi(p.hour)),
        solar_term=current,
        ju_solar_term=ju_term,
        yuan=yuan,
        dun=dun,
        ju=ju,
        fu_tou=ganzhi(fu_tou),
        xun_head=ganzhi(xun_head),
        xun_hidden_stem=STEMS[_YI_QI[xun_head // 10]],
        chief=chief,
        void_branches=(BRANCHES[voids[0]], BRANCHES[voids[1]]),
        day_void_branches=(BRANCHES[day_voids[0]], BRANCHES[day_voids[1]]),
        horse_star=BRANCHES[horse],
        horse_palace=horse_palace,
        palaces=tuple(palaces),
    )
