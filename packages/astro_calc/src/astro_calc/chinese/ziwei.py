"""Zi Wei Dou Shu (紫微斗數): the natal chart and its decadal, yearly and monthly horoscopes.

Where each rule comes from (all are the rules of the Quanshu tradition as tabulated by iztro
2.6.1, https://github.com/SylarLong/iztro, whose defaults we follow; they are the classical
verses quoted beside each rule; the tests compare every palace and star with x-iztro 0.6.1, which
reproduces iztro 2.6.1 with its corrected brightness tables):

* **Lunar date**: our own Chinese calendar (:mod:`astro_calc.chinese.calendar`, the one BaZi
  uses; GB/T 33661-2017), for the local civil date of birth (local clock time, no solar-time
  correction: iztro's default). Birth dates 1900-02-01 .. 2100-12-30.
* **Hour** (``hour_index`` 0..12 as iztro counts): 0 early Zi 00:00-00:59, 1 Chou 01:00-02:59,
  ..., 11 Hai 21:00-22:59, 12 late Zi 23:00-23:59. ``late_zi="next_day_stars"`` (default):
  late Zi keeps the day's lunar date, but Zi Wei and the day stars (三台 八座 恩光 天贵) are
  placed with the next lunar day; ``late_zi="same_day"`` places them with the birth day.
* **Year**: the lunar year (from the lunar new year, iztro's ``yearDivide: normal``) gives the
  year stem and branch behind the palace stems, 祿存, 魁鉞, the year stars and the
  transformations.
* **Month**: the lunar month; a leap month counts as its own number up to its 15th day and as
  the next month from the 16th (``leap_month="split"``, iztro's ``fixLeap``); ``"same"``
  counts all of it as its own number. A late-Zi birth on a leap month's 16th or later keeps
  the leap month's number (iztro's rule).
* **Life palace** 寅起正月順數至生月，逆數至生時; **body palace** the same month, forward to the
  hour. **Palace stems** 五虎遁: the Yin palace takes the stem of the first month of the birth
  year (甲己丙作首 ...). The twelve palaces run backward from the life palace (命 兄 夫 子 財
  疾 遷 友 官 田 福 父).
* **Five-elements class** (局): the na yin element of the life palace's stem and branch
  (水二 木三 金四 土五 火六).
* **Zi Wei** 「六五四三二，酉午亥辰丑；局數除日數，商數宮前走；若見數無餘，便要起虎口；
  日數小於局，還直宮中守」 in iztro's arithmetic form (add the smallest ``x`` making the day a
  multiple of the class; count the quotient from Yin; step back ``x`` palaces when ``x`` is odd,
  forward when even); **Tian Fu** mirrors Zi Wei about the Yin-Shen axis. The Zi Wei group runs
  backward (紫微 天機 _ 太陽 武曲 天同 _ _ 廉貞), the Tian Fu group forward (天府 太陰 貪狼
  巨門 天相 天梁 七殺 _ _ _ 破軍).
* **Minor stars**: 左輔 from Chen forward by month, 右弼 from Xu backward; 文昌 from Xu
  backward by hour, 文曲 from Chen forward; 天魁/天鉞 by year stem (甲戊庚牛羊 ...); 祿存 by
  year stem, 擎羊 one palace ahead, 陀羅 one behind; 天馬 by the year branch's triad; 火星/鈴星
  from the year triad's base forward by hour; 地空 from Hai backward by hour, 地劫 forward.
* **Adjective stars**: the 38 iztro shows by default (红鸾 天喜 天姚 咸池 解神 三台 八座 恩光
  天贵 龙池 凤阁 天才 天寿 台辅 封诰 天巫 华盖 天官 天福 天厨 天月 天德 月德 天空 旬空 截路
  空亡 孤辰 寡宿 蜚廉 破碎 天刑 阴煞 天哭 天虚 天使 天伤 年解), each by its year, month, day
  or hour rule; listed per palace in iztro's order. The keys are iztro's (``engguang`` too).
* **Brightness** (廟旺得利平不陷) for the 14 majors and 文昌 文曲 火星 鈴星 擎羊 陀羅, iztro
  2.6's table (Tai Yang, Tai Yin and Qi Sha in You as corrected in 2.6). Other stars: null.
* **Transformations** (四化) by the birth-year stem: 甲廉破武陽 乙機梁紫陰 丙同機昌廉 丁陰同機巨
  戊貪陰右機 己武貪梁曲 庚陽武陰同 辛巨陽曲昌 壬梁紫左武 癸破巨陰貪 (iztro's 庚 row).
* **Decadal ranges** (大限), nominal ages (虛歲): the life palace starts at the class number
  and each palace lasts ten years, forward for a yang-year man or a yin-year woman, backward
  otherwise.
* **Horoscopes** on ``on_date`` (iztro ``horoscope(date, 0)``): nominal age = lunar year of the
  date - lunar year of birth + 1; the decadal palace is the one whose range holds it (before the
  first decade, the childhood palaces 命 財 疾 夫 福 官 by age); the yearly palace is the
  branch of the date's lunar year, with that year's stem; the monthly palace counts from the
  yearly palace back by the birth month and forward by the birth hour and the date's lunar
  month (leap months split at the 15th), with that lunar month's stem and branch (counted from
  Yin, the stem by 五虎遁 from the lunar year). Each carries its stem's four transformations.
  ``on_date`` may not precede the birth.

Results are frozen :class:`msgspec.Struct` whose field names are the API contract; names are
pinyin keys and each carries a ``label`` in the asked language (``en``, ``th``, ``zh``/
``zh-Hans``, ``zh-Hant``).
"""

from __future__ import annotations

import json
from datetime import date, time, timedelta
from functools import cache
from importlib import resources
from typing import Any, Final, Literal

import msgspec

from astro_calc.chinese.calendar import chinese_date
from astro_calc.chinese.symbols import BRANCHES, STEMS, year_cycle_index
from astro_calc.errors import CalcInputError

Gender = Literal["male", "female"]
ZiweiLanguage = Literal["en", "th", "zh", "zh-Hans", "zh-Hant"]
LateZi = Literal["next_day_stars", "same_day"]
LeapMonth = Literal["split", "same"]
Brightness = Literal["miao", "wang", "de", "li", "ping", "bu", "xian"]
Transformation = Literal["lu", "quan", "ke", "ji"]
ElementKey = Literal["wood", "fire", "earth", "metal", "water"]

LANGUAGES: Final[tuple[str, ...]] = ("en", "th", "zh", "zh-Hans", "zh-Hant")
LATE_ZI_RULES: Final[tuple[str, ...]] = ("next_day_stars", "same_day")
LEAP_MONTH_RULES: Final[tuple[str, ...]] = ("split", "same")
#: Birth and horoscope dates our calendar covers (the late-Zi next day must be inside too).
MIN_DATE: Final = date(1900, 2, 1)
MAX_DATE: Final = date(2100, 12, 30)

PALACE_KEYS: Final = (
    "life",
    "siblings",
    "spouse",
    "children",
    "wealth",
    "health",
    "travel",
    "friends",
    "career",
    "property",
    "fortune",
    "parents",
)
TRANSFORMATIONS: Final[tuple[Transformation, ...]] = ("lu", "quan", "ke", "ji")
MAJOR_KEYS: Final = (
    "ziwei",
    "tianji",
    "taiyang",
    "wuqu",
    "tiantong",
    "lianzhen",
    "tianfu",
    "taiyin",
    "tanlang",
    "jumen",
    "tianxiang",
    "tianliang",
    "qisha",
    "pojun",
)
#: Offsets of the Zi Wei group (counted backward) and the Tian Fu group (forward).
_ZIWEI_GROUP: Final = (
    ("ziwei", 0),
    ("tianji", 1),
    ("taiyang", 3),
    ("wuqu", 4),
    ("tiantong", 5),
    ("lianzhen", 8),
)
_TIANFU_GROUP: Final = (
    ("tianfu", 0),
    ("taiyin", 1),
    ("tanlang", 2),
    ("jumen", 3),
    ("tianxiang", 4),
    ("tianliang", 5),
    ("qisha", 6),
    ("pojun", 10),
)
# Branch indices: 子 0, 丑 1, 寅 2, 卯 3, 辰 4, 巳 5, 午 6, 未 7, 申 8, 酉 9, 戌 10, 亥 11.
_ZI, _CHOU, _YIN, _MAO, _CHEN, _SI, _WU, _WEI, _SHEN, _YOU, _XU, _HAI = range(12)
#: 天魁, 天鉞 by year stem (甲戊庚牛羊，乙己鼠猴鄉，丙丁豬雞位，壬癸兔蛇藏，六辛逢馬虎).
_KUI: Final = (_CHOU, _ZI, _HAI, _HAI, _CHOU, _ZI, _CHOU, _WU, _MAO, _MAO)
_YUE: Final = (_WEI, _SHEN, _YOU, _YOU, _WEI, _SHEN, _WEI, _YIN, _SI, _SI)
#: 祿存 by year stem (甲祿在寅 ...).
_LUCUN: Final = (_YIN, _MAO, _SI, _WU, _SI, _WU, _SHEN, _YOU, _HAI, _ZI)
#: Per year-branch triad (index = branch % 4: 申子辰, 巳酉丑, 寅午戌, 亥卯未):
#: 天馬, 火星 base, 鈴星 base, 華蓋, 咸池, 劫煞.
_TRIAD_TIANMA: Final = (_YIN, _HAI, _SHEN, _SI)
_TRIAD_HUO: Final = (_YIN, _MAO, _CHOU, _YOU)
_TRIAD_LING: Final = (_XU, _XU, _MAO, _XU)
_TRIAD_HUAGAI: Final = (_CHEN, _CHOU, _XU, _WEI)
_TRIAD_XIANCHI: Final = (_YOU, _WU, _MAO, _ZI)
#: 孤辰, 寡宿 by the year branch's season (亥子丑, 寅卯辰, 巳午未, 申酉戌).
_GUCHEN: Final = (_YIN, _SI, _SHEN, _HAI)
_GUASU: Final = (_XU, _CHOU, _CHEN, _WEI)
#: 天厨, 天官, 天福 by year stem.
_TIANCHU: Final = (_SI, _WU, _ZI, _SI, _WU, _SHEN, _YIN, _WU, _YOU, _HAI)
_TIANGUAN: Final = (_WEI, _CHEN, _SI, _YIN, _MAO, _YOU, _HAI, _YOU, _XU, _WU)
_TIANFU_ADJ: Final = (_YOU, _SHEN, _ZI, _HAI, _MAO, _YIN, _WU, _SI, _WU, _SI)
#: 蜚廉 and 年解 by year branch.
_FEILIAN: Final = (_SHEN, _YOU, _XU, _SI, _WU, _WEI, _YIN, _MAO, _CHEN, _HAI, _ZI, _CHOU)
_NIANJIE: Final = (_XU, _YOU, _SHEN, _WEI, _WU, _SI, _CHEN, _MAO, _YIN, _CHOU, _ZI, _HAI)
#: 截路, 空亡 by year stem mod 5; 破碎 by year branch mod 3.
_JIELU: Final = (_SHEN, _WU, _CHEN, _YIN, _ZI)
_KONGWANG: Final = (_YOU, _WEI, _SI, _MAO, _CHOU)
_POSUI: Final = (_SI, _CHOU, _YOU)
#: Month stars by month index (0 = first month): 解神 (per two months), 陰煞 (mod 6),
#: 天月, 天巫 (mod 4).
_JIESHEN: Final = (_SHEN, _XU, _ZI, _YIN, _CHEN, _WU)
_YINSHA: Final = (_YIN, _ZI, _XU, _SHEN, _WU, _CHEN)
_TIANYUE_ADJ: Final = (_XU, _SI, _CHEN, _YIN, _WEI, _MAO, _HAI, _WEI, _YIN, _WU, _XU, _YIN)
_TIANWU: Final = (_SI, _SHEN, _YIN, _HAI)
#: Five-elements classes by the na yin arithmetic of the life palace (see five_elements_class).
_CLASS_BY_SUM: Final[dict[int, tuple[ElementKey, int]]] = {
    1: ("wood", 3),
    2: ("metal", 4),
    3: ("water", 2),
    4: ("fire", 6),
    5: ("earth", 5),
}
#: Childhood palaces (童限) by nominal age before the first decade.
_CHILDHOOD: Final = ("life", "wealth", "health", "spouse", "fortune", "career")
#: Soul star (命主) by the life palace's branch, body star (身主) by the year branch.
_SOUL_STAR: Final = (
    ("major", "tanlang"),
    ("major", "jumen"),
    ("minor", "lucun"),
    ("minor", "wenqu"),
    ("major", "lianzhen"),
    ("major", "wuqu"),
    ("major", "pojun"),
    ("major", "wuqu"),
    ("major", "lianzhen"),
    ("minor", "wenqu"),
    ("minor", "lucun"),
    ("major", "jumen"),
)
_BODY_STAR: Final = (
    "huoxing",
    "tianxiang",
    "tianliang",
    "tiantong",
    "wenchang",
    "tianji",
    "huoxing",
    "tianxiang",
    "tianliang",
    "tiantong",
    "wenchang",
    "tianji",
)


@cache
def _data() -> dict[str, Any]:
    text = resources.files("astro_calc").joinpath("data/chinese/ziwei.json").read_text("utf-8")
    loaded: dict[str, Any] = json.loads(text)
    return loaded


def _lang(language: str) -> str:
    return "zh-Hans" if language == "zh" else language


def label(section: str, key: str, language: str, kind: str | None = None) -> str:
    """The name of ``key`` in a section of ``data/chinese/ziwei.json`` (``stars`` needs its
    ``kind``: ``major``, ``minor`` or ``adjective``) in ``language``."""
    table = _data()[section]
    row = table[kind][key] if kind is not None else table[key]
    name: str = row[_lang(language)]
    return name


def branch_label(index: int, language: str) -> str:
    b = BRANCHES[index]
    if language.startswith("zh"):
        return b.character
    return (
        _pinyin(b.pinyin).capitalize()
        if language == "en"
        else _glossary_name("branch", b, language)
    )


def stem_label(index: int, language: str) -> str:
    s = STEMS[index]
    if language.startswith("zh"):
        return s.character
    return (
        _pinyin(s.pinyin).capitalize() if language == "en" else _glossary_name("stem", s, language)
    )


def _glossary_name(category: str, symbol: Any, language: str) -> str:
    from astro_calc import glossary

    key = _pinyin(symbol.pinyin)
    term = glossary.term(category, key)
    return term.year_th or term.short_th or term.th


def _pinyin(text: str) -> str:
    """Pinyin without tone marks, lower case (``jiǎ`` -> ``jia``)."""
    plain = str.maketrans("āáǎàēéěèīíǐìōóǒòūúǔùǖǘǚǜü", "aaaaeeeeiiiioooouuuuuuuuu")
    return text.translate(plain).lower()


_STEM_KEYS: Final = tuple(_pinyin(s.pinyin) for s in STEMS)
_BRANCH_KEYS: Final = tuple(_pinyin(b.pinyin) for b in BRANCHES)


# --- results --------------------------------------------------------------------------------------


class LunarDate(msgspec.Struct, frozen=True):
    year: int
    month: int
    day: int
    leap: bool
    label: str


class FiveElementsClass(msgspec.Struct, frozen=True):
    element: ElementKey
    number: int
    label: str


class ZiweiStar(msgspec.Struct, frozen=True):
    name: str  # iztro's key without its suffix (ziwei, zuofu, hongluan ...)
    label: str
    brightness: Brightness | None
    transformation: Transformation | None
    brightness_label: str | None = None
    transformation_label: str | None = None


class DecadalRange(msgspec.Struct, frozen=True):
    start_age: int
    end_age: int


class ZiweiPalace(msgspec.Struct, frozen=True):
    name: str
    label: str
    stem: str
    branch: str
    stem_label: str
    branch_label: str
    is_body_palace: bool
    major_stars: tuple[ZiweiStar, ...]
    minor_stars: tuple[ZiweiStar, ...]
    adjective_stars: tuple[ZiweiStar, ...]
    decadal: DecadalRange


class HoroscopeTransformation(msgspec.Struct, frozen=True):
    transformation: Transformation
    star: str
    star_label: str
    natal_palace: str  # the natal palace holding the star


class HoroscopePalace(msgspec.Struct, frozen=True):
    """One horoscope level: its life palace (``palace_branch``, the natal palace there), the
    stem and branch that rule it, its twelve palace names by branch and its transformations."""

    scope: Literal["decadal", "childhood", "yearly", "monthly"]
    label: str
    palace_branch: str
    natal_palace: str
    stem: str
    branch: str
    palace_names: tuple[str, ...]  # by branch zi..hai: the horoscope palace there
    transformations: tuple[HoroscopeTransformation, ...]
    start_age: int | None = None  # decadal only
    end_age: int | None = None


class ZiweiHoroscope(msgspec.Struct, frozen=True):
    on_date: date
    lunar_date: LunarDate
    nominal_age: int
    decadal: HoroscopePalace | None  # None before birth or past the last decade
    yearly: HoroscopePalace
    monthly: HoroscopePalace


class ZiweiChart(msgspec.Struct, frozen=True):
    birth_date: date
    birth_time: time
    gender: Gender
    language: str
    lunar_date: LunarDate
    year_stem: str
    year_branch: str
    hour_index: int
    hour_branch: str
    hour_branch_label: str
    five_elements_class: FiveElementsClass
    soul_star: str
    soul_star_label: str
    body_star: str
    body_star_label: str
    life_palace_branch: str
    body_palace_branch: str
    palaces: tuple[ZiweiPalace, ...]  # life first, then siblings .. parents
    horoscope: ZiweiHoroscope | None
    conventions: tuple[str, ...]


# --- rules ----------------------------------------------------------------------------------------


def hour_index(clock: time) -> int:
    """iztro's hour index of a local clock time: 0 early Zi (00:00-00:59), 1 Chou (01:00-02:59)
    ... 11 Hai (21:00-22:59), 12 late Zi (23:00-23:59)."""
    return (clock.hour + 1) // 2


def five_elements_class(stem: int, branch: int) -> tuple[ElementKey, int]:
    """The 局 of a life palace: the na yin element of its stem and branch by the counting rule
    (stem pair number + branch pair number, reduced to 1..5: 1 wood 3, 2 metal 4, 3 water 2,
    4 fire 6, 5 earth 5)."""
    total = stem // 2 + 1 + (branch % 6) // 2 + 1
    return _CLASS_BY_SUM[(total - 1) % 5 + 1]


def ziwei_branch(class_number: int, lunar_day: int) -> int:
    """Branch of Zi Wei for a class and a lunar day (see the module docstring)."""
    extra = (-lunar_day) % class_number
    quotient = (lunar_day + extra) // class_number
    step = extra if extra % 2 == 0 else -extra
    return (_YIN + quotient - 1 + step) % 12


def _check(birth_date: date, field: str) -> None:
    if not MIN_DATE <= birth_date <= MAX_DATE:
        raise CalcInputError(field, f"must be between {MIN_DATE} and {MAX_DATE}")


class _Builder:
    """Stars per palace (by branch) with their brightness and transformation."""

    def __init__(self, language: str, year_stem: int) -> None:
        self.language = language
        self.major: list[list[ZiweiStar]] = [[] for _ in range(12)]
        self.minor: list[list[ZiweiStar]] = [[] for _ in range(12)]
        self.adjective: list[list[ZiweiStar]] = [[] for _ in range(12)]
        self.where: dict[str, int] = {}
        table = _data()["transformation_table"][year_stem]
        self.transformed = {star: TRANSFORMATIONS[k] for k, star in enumerate(table)}
        self.brightness = _data()["brightness_table"]

    def put(self, kind: str, key: str, branch: int) -> None:
        table = self.brightness.get(key) if kind != "adjective" else None
        bright = table[branch] if table else None
        mark = self.transformed.get(key) if kind != "adjective" else None
        star = ZiweiStar(
            key,
            label("stars", key, self.language, kind),
            bright,
            mark,
            label("brightness", bright, self.language) if bright else None,
            label("transformations", mark, self.language) if mark else None,
        )
        getattr(self, kind)[branch].append(star)
        if kind != "adjective":
            self.where[key] = branch


def _lunar(d: date, language: str) -> LunarDate:
    c = chinese_date(d)
    return LunarDate(c.lunar_year, c.month, c.day, c.is_leap_month, _lunar_label(c, language))


def _lunar_label(c: Any, language: str) -> str:
    if language.startswith("zh"):
        text: str = c.label
        return text if language != "zh-Hant" else text.replace("闰", "閏").replace("腊", "臘")
    leap = label("labels", "leap", language) + " " if c.is_leap_month else ""
    return f"{c.lunar_year}-{leap}{c.month}-{c.day}"


def ziwei_chart(
    birth_date: date,
    birth_time: time,
    gender: Gender,
    *,
    on_date: date | None = None,
    language: ZiweiLanguage = "en",
    late_zi: LateZi = "next_day_stars",
    leap_month: LeapMonth = "split",
) -> ZiweiChart:
    """The Zi Wei Dou Shu chart of a birth at local clock time ``birth_time`` on ``birth_date``
    (the local civil date), with the decadal, yearly and monthly horoscopes of ``on_date``.

    Conventions and their sources: the module docstring (iztro 2.6.1's defaults; checked against
    x-iztro 0.6.1 on random births in the tests, every palace and star). Birth and horoscope
    dates 1900-02-01 .. 2100-12-30. Bad input raises :class:`CalcInputError` naming the field."""
    if gender not in ("male", "female"):
        raise CalcInputError("gender", "must be 'male' or 'female'")
    if language not in LANGUAGES:
        raise CalcInputError("language", f"must be one of {', '.join(LANGUAGES)}")
    if late_zi not in LATE_ZI_RULES:
        raise CalcInputError("late_zi", f"must be one of {', '.join(LATE_ZI_RULES)}")
    if leap_month not in LEAP_MONTH_RULES:
        raise CalcInputError("leap_month", f"must be one of {', '.join(LEAP_MONTH_RULES)}")
    if not isinstance(birth_date, date):
        raise CalcInputError("date", "must be a date")
    if not isinstance(birth_time, time):
        raise CalcInputError("time", "must be a time of day")
    _check(birth_date, "date")
    if on_date is not None:
        _check(on_date, "on_date")
        if on_date < birth_date:
            raise CalcInputError("on_date", "must not be before the birth date")
    lang = _lang(language)
    hour = hour_index(birth_time)
    hour12 = hour % 12
    birth = chinese_date(birth_date)
    cycle = year_cycle_index(birth.lunar_year)
    year_stem, year_branch = cycle % 10, cycle % 12
    # Month counted from the first month (0), leap months split at the 15th.
    month0 = birth.month - 1
    if birth.is_leap_month and leap_month == "split" and birth.day > 15 and hour != 12:
        month0 += 1
    month0 %= 12
    life = (_YIN + month0 - hour12) % 12
    body = (_YIN + month0 + hour12) % 12
    first_stem = (year_stem % 5) * 2 + 2  # 五虎遁: stem of the Yin palace

    def palace_stem(branch: int) -> int:
        return (first_stem + (branch - _YIN) % 12) % 10

    element, number = five_elements_class(palace_stem(life), life)
    star_day = birth.day
    day_index = birth.day - 1
    if hour == 12 and late_zi == "next_day_stars":
        star_day = chinese_date(birth_date + timedelta(days=1)).day
        day_index = birth.day
    b = _Builder(lang, year_stem)

    ziwei = ziwei_branch(number, star_day)
    tianfu = (2 * _YIN - ziwei) % 12  # mirror about the Yin-Shen axis
    for key, offset in _ZIWEI_GROUP:
        b.put("major", key, (ziwei - offset) % 12)
    for key, offset in _TIANFU_GROUP:
        b.put("major", key, (tianfu + offset) % 12)

    triad = year_branch % 4
    zuofu = (_CHEN + month0) % 12
    youbi = (_XU - month0) % 12
    wenchang = (_XU - hour12) % 12
    wenqu = (_CHEN + hour12) % 12
    lucun = _LUCUN[year_stem]
    for key, branch in (
        ("zuofu", zuofu),
        ("youbi", youbi),
        ("wenchang", wenchang),
        ("wenqu", wenqu),
        ("tiankui", _KUI[year_stem]),
        ("tianyue", _YUE[year_stem]),
        ("lucun", lucun),
        ("tianma", _TRIAD_TIANMA[triad]),
        ("dikong", (_HAI - hour12) % 12),
        ("dijie", (_HAI + hour12) % 12),
        ("huoxing", (_TRIAD_HUO[triad] + hour12) % 12),
        ("lingxing", (_TRIAD_LING[triad] + hour12) % 12),
        ("qingyang", (lucun + 1) % 12),
        ("tuoluo", (lucun - 1) % 12),
    ):
        b.put("minor", key, branch)

    hongluan = (_MAO - year_branch) % 12
    xunkong = (year_branch + 9 - year_stem + 1) % 12
    if xunkong % 2 != year_branch % 2:
        xunkong = (xunkong + 1) % 12
    season = (year_branch + 1) % 12 // 3
    for key, branch in (
        ("hongluan", hongluan),
        ("tianxi", (hongluan + 6) % 12),
        ("tianyao", (_CHOU + month0) % 12),
        ("xianchi", _TRIAD_XIANCHI[triad]),
        ("jieshen", _JIESHEN[month0 // 2]),
        ("santai", (zuofu + day_index) % 12),
        ("bazuo", (youbi - day_index) % 12),
        ("engguang", (wenchang + day_index - 1) % 12),
        ("tiangui", (wenqu + day_index - 1) % 12),
        ("longchi", (_CHEN + year_branch) % 12),
        ("fengge", (_XU - year_branch) % 12),
        ("tiancai", (life + year_branch) % 12),
        ("tianshou", (body + year_branch) % 12),
        ("taifu", (_WU + hour12) % 12),
        ("fenggao", (_YIN + hour12) % 12),
        ("tianwu", _TIANWU[month0 % 4]),
        ("huagai", _TRIAD_HUAGAI[triad]),
        ("tianguan", _TIANGUAN[year_stem]),
        ("tianfu", _TIANFU_ADJ[year_stem]),
        ("tianchu", _TIANCHU[year_stem]),
        ("tianyue", _TIANYUE_ADJ[month0]),
        ("tiande", (_YOU + year_branch) % 12),
        ("yuede", (_SI + year_branch) % 12),
        ("tiankong", (year_branch + 1) % 12),
        ("xunkong", xunkong),
        ("jielu", _JIELU[year_stem % 5]),
        ("kongwang", _KONGWANG[year_stem % 5]),
        ("guchen", _GUCHEN[season]),
        ("guasu", _GUASU[season]),
        ("feilian", _FEILIAN[year_branch]),
        ("posui", _POSUI[year_branch % 3]),
        ("tianxing", (_YOU + month0) % 12),
        ("yinsha", _YINSHA[month0 % 6]),
        ("tianku", (_WU - year_branch) % 12),
        ("tianxu", (_WU + year_branch) % 12),
        ("tianshi", (life + 7) % 12),  # the health palace (6th backward from life)
        ("tianshang", (life + 5) % 12),  # the friends palace
        ("nianjie", _NIANJIE[year_branch]),
    ):
        b.put("adjective", key, branch)

    forward = (year_stem % 2 == 0) == (gender == "male")
    palaces = []
    names_by_branch = [""] * 12
    for k, key in enumerate(PALACE_KEYS):
        branch = (life - k) % 12
        names_by_branch[branch] = key
    for k, key in enumerate(PALACE_KEYS):
        branch = (life - k) % 12
        steps = (branch - life) % 12 if forward else (life - branch) % 12
        start = number + 10 * steps
        stem = palace_stem(branch)
        palaces.append(
            ZiweiPalace(
                name=key,
                label=label("palaces", key, lang),
                stem=_STEM_KEYS[stem],
                branch=_BRANCH_KEYS[branch],
                stem_label=stem_label(stem, lang),
                branch_label=branch_label(branch, lang),
                is_body_palace=branch == body,
                major_stars=tuple(b.major[branch]),
                minor_stars=tuple(b.minor[branch]),
                adjective_stars=tuple(b.adjective[branch]),
                decadal=DecadalRange(start, start + 9),
            )
        )
    soul_kind, soul_key = _SOUL_STAR[life]
    body_key = _BODY_STAR[year_branch]
    body_kind = "minor" if body_key in ("huoxing", "wenchang") else "major"

    horoscope = None
    if on_date is not None:
        horoscope = _horoscope(
            on_date,
            lang,
            birth,
            hour12,
            palaces,
            names_by_branch,
            b.where,
            number,
            leap_month,
        )
    return ZiweiChart(
        birth_date=birth_date,
        birth_time=birth_time,
        gender=gender,
        language=language,
        lunar_date=LunarDate(
            birth.lunar_year,
            birth.month,
            birth.day,
            birth.is_leap_month,
            _lunar_label(birth, lang),
        ),
        year_stem=_STEM_KEYS[year_stem],
        year_branch=_BRANCH_KEYS[year_branch],
        hour_index=hour,
        hour_branch=_BRANCH_KEYS[hour12],
        hour_branch_label=branch_label(hour12, lang),
        five_elements_class=FiveElementsClass(
            element, number, label("five_elements_classes", f"{_CLASS_KEY[element]}", lang)
        ),
        soul_star=soul_key,
        soul_star_label=label("stars", soul_key, lang, soul_kind),
        body_star=body_key,
        body_star_label=label("stars", body_key, lang, body_kind),
        life_palace_branch=_BRANCH_KEYS[life],
        body_palace_branch=_BRANCH_KEYS[body],
        palaces=tuple(palaces),
        horoscope=horoscope,
        conventions=(
            "local clock time decides the hour",
            f"late Zi: {late_zi}",
            f"leap month: {leap_month}",
            "year from the lunar new year",
        ),
    )


_CLASS_KEY: Final = {
    "water": "water_2",
    "wood": "wood_3",
    "metal": "metal_4",
    "earth": "earth_5",
    "fire": "fire_6",
}


def _level(
    scope: Literal["decadal", "childhood", "yearly", "monthly"],
    language: str,
    palace_branch: int,
    stem: int,
    branch: int,
    natal_names: list[str],
    where: dict[str, int],
    start_age: int | None = None,
    end_age: int | None = None,
) -> HoroscopePalace:
    names = tuple(PALACE_KEYS[(palace_branch - br) % 12] for br in range(12))
    table = _data()["transformation_table"][stem]
    kinds = dict.fromkeys(MAJOR_KEYS, "major")
    transformations = tuple(
        HoroscopeTransformation(
            TRANSFORMATIONS[k],
            star,
            label("stars", star, language, kinds.get(star, "minor")),
            natal_names[where[star]],
        )
        for k, star in enumerate(table)
    )
    return HoroscopePalace(
        scope,
        label("horoscope_scopes", scope, language),
        _BRANCH_KEYS[palace_branch],
        natal_names[palace_branch],
        _STEM_KEYS[stem],
        _BRANCH_KEYS[branch],
        names,
        transformations,
        start_age,
        end_age,
    )


def _horoscope(
    on_date: date,
    language: str,
    birth: Any,
    birth_hour12: int,
    palaces: list[ZiweiPalace],
    natal_names: list[str],
    where: dict[str, int],
    number: int,
    leap_month: LeapMonth,
) -> ZiweiHoroscope:
    target = chinese_date(on_date)
    age = target.lunar_year - birth.lunar_year + 1
    decadal = None
    for p in palaces:
        if p.decadal.start_age <= age <= p.decadal.end_age:
            br = _BRANCH_KEYS.index(p.branch)
            decadal = _level(
                "decadal",
                language,
                br,
                _STEM_KEYS.index(p.stem),
                br,
                natal_names,
                where,
                p.decadal.start_age,
                p.decadal.end_age,
            )
    if decadal is None and 1 <= age <= number:
        p = next(q for q in palaces if q.name == _CHILDHOOD[age - 1])
        br = _BRANCH_KEYS.index(p.branch)
        decadal = _level(
            "childhood", language, br, _STEM_KEYS.index(p.stem), br, natal_names, where
        )
    cycle = year_cycle_index(target.lunar_year)
    yearly = _level("yearly", language, cycle % 12, cycle % 10, cycle % 12, natal_names, where)

    def split(month: int, day: int, leap: bool) -> int:
        return month + (1 if leap and day > 15 and leap_month == "split" else 0)

    monthly_branch = (
        (cycle % 12 - _YIN)
        - split(birth.month, birth.day, birth.is_leap_month)
        + birth_hour12
        + split(target.month, target.day, target.is_leap_month)
        + _YIN
    ) % 12
    # The month's stem and branch: the lunar month counted from Yin, its stem by 五虎遁 from the
    # lunar year's stem (iztro's yearDivide/monthDivide "normal").
    target_month = split(target.month, target.day, target.is_leap_month)
    month_stem = ((cycle % 10) % 5 * 2 + 2 + target_month - 1) % 10
    monthly = _level(
        "monthly",
        language,
        monthly_branch,
        month_stem,
        (_YIN + target_month - 1) % 12,
        natal_names,
        where,
    )
    return ZiweiHoroscope(
        on_date,
        LunarDate(
            target.lunar_year,
            target.month,
            target.day,
            target.is_leap_month,
            _lunar_label(target, language),
        ),
        age,
        decadal,
        yearly,
        monthly,
    )
