"""Chinese and Korean astrology: solar terms, the lunisolar calendar, BaZi, Qi Men Dun Jia,
Zi Wei Dou Shu and Korean Saju. See each module's docstring for its conventions and references."""

from astro_calc.chinese.bazi import BaziChart, bazi_chart, bazi_from_instant
from astro_calc.chinese.calendar import ChineseDate, chinese_date, gregorian_date, lunar_year_months
from astro_calc.chinese.qimen import QimenChart, qimen_chart
from astro_calc.chinese.readings import Reading, bazi_readings
from astro_calc.chinese.saju import SajuChart, korean_saju
from astro_calc.chinese.solar_terms import SolarTerm, solar_terms
from astro_calc.chinese.ziwei import ZiweiChart, ziwei_chart
from astro_calc.chinese.ziwei_readings import ZiweiReading, ziwei_readings

__all__ = [
    "BaziChart",
    "ChineseDate",
    "QimenChart",
    "Reading",
    "SajuChart",
    "SolarTerm",
    "ZiweiChart",
    "ZiweiReading",
    "bazi_chart",
    "bazi_from_instant",
    "bazi_readings",
    "chinese_date",
    "gregorian_date",
    "korean_saju",
    "lunar_year_months",
    "qimen_chart",
    "solar_terms",
    "ziwei_chart",
    "ziwei_readings",
]
