"""Thai astrology: the Suriyayatra lunar calendar, festivals, the Moon, the Taksa wheel and
auspicious timing. Each module's docstring states its conventions and references."""

from astro_calc.thai.auspicious import (
    MAX_RANGE_DAYS,
    PURPOSES,
    AuspiciousDay,
    AuspiciousSearch,
    auspicious_times,
)
from astro_calc.thai.calendar import (
    ThaiLunarDate,
    lunar_to_gregorian,
    thai_lunar_date,
    wan_phra_days,
    year_days,
)
from astro_calc.thai.festivals import Festival, FestivalYear, maha_songkran_instant, thai_festivals
from astro_calc.thai.lunar import LunarInfo, lunar_info
from astro_calc.thai.songkran import maha_songkran_suriyayatra, thaloeng_sok_instant
from astro_calc.thai.suriyayatra import (
    YEAR_TYPE_SOURCES,
    SuriyayatraYear,
    YearTypeSource,
    suriyayatra_year,
    year_type,
    year_type_decided_by,
)
from astro_calc.thai.taksa import TaksaWheel, YearlyTaksa, taksa_wheel, yearly_taksa

__all__ = [
    "MAX_RANGE_DAYS",
    "PURPOSES",
    "YEAR_TYPE_SOURCES",
    "AuspiciousDay",
    "AuspiciousSearch",
    "Festival",
    "FestivalYear",
    "LunarInfo",
    "SuriyayatraYear",
    "TaksaWheel",
    "ThaiLunarDate",
    "YearTypeSource",
    "YearlyTaksa",
    "auspicious_times",
    "lunar_info",
    "lunar_to_gregorian",
    "maha_songkran_instant",
    "maha_songkran_suriyayatra",
    "suriyayatra_year",
    "taksa_wheel",
    "thai_festivals",
    "thai_lunar_date",
    "thaloeng_sok_instant",
    "wan_phra_days",
    "year_days",
    "year_type",
    "year_type_decided_by",
    "yearly_taksa",
]
