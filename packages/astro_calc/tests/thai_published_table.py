"""The ``holidays`` package's published Thai year-type table (a test oracle) and the years the
Suriyayatra rule (``year_type_source="rule"``) does not reproduce, with the reasons (shared by the
Thai calendar tests). The default almanac source uses the table itself for these years."""

from __future__ import annotations

from holidays.calendars.thai import _ThaiLunisolar

# Every year of the published table (1914-2157) that the rule does not reproduce, by reason.
# Why no traditional rule reproduces these is argued in the docstring of
# ``astro_calc.thai.suriyayatra`` and checked by the ``test_no_lag_rule_*`` test below.
#: Before 1991 the table places the athikawan day 1-3 years away from the avoman rule (earlier in
#: 1936 and 1957, later elsewhere); 1914 holds the day the rule gives to 1911. The placements of
#: 1927/1929, 1932/1933, 1948/1949 and 1952/1954 are confirmed by dated historical records and
#: are now official exceptions of ``astro_calc.thai.suriyayatra`` (citations there; the records
#: are checked in ``test_thai_calendar.HISTORICAL_LUNAR_DATES``). For the years below no record
#: deciding between the two placements was found, so the rule stands. Only a lunar-dated record
#: inside the civil spans where the two calendars differ can decide: 28 Nov 1913 - 22 Jun 1914,
#: 24 Jun 1922 - 20 Jun 1925, 19 Jun 1936 - 27 Jun 1938, 2 Jul 1943 - 8 Aug 1945 (a whole month
#: apart from 1944's repeated month 8 until 1945's month 8), 27 Jun 1957 - 5 Jul 1959,
#: 25 Jun 1968 - 3 Jul 1970, 5 Jul 1978 - 24 Jun 1979, 28 Jun 1984 - 25 Jun 1987 and
#: 3 Jul 1989 - 22 Jun 1990 (e.g. Chulabhorn's birth, 4 Jul 1957, is waxing 8 of month 8 by the
#: rule and waxing 7 by the table; the Constitution of 22 Dec 1978 waning 7 or 8 of month 1).
ALMANAC_ATHIKAWAN_PLACEMENT = {
    1914, 1922, 1925, 1936, 1938, 1943, 1957, 1959, 1968, 1970, 1978, 1979, 1984, 1987, 1989,
    1990,
}  # fmt: skip
#: The table makes 1944 (tithi 22, outside 24..5) athikamat and 1945 athikawan.
ALMANAC_ATHIKAMAT_1944 = {1944, 1945}
#: Not yet announced: the table moves the extra day of 2030 (avoman 65) to 2032.
PROJECTED_ATHIKAWAN_2030 = {2030, 2032}
#: From 2042 the table is a projection that no solar-anchored rule produces (no athikamat in
#: 2108-2111, then three in five years; Visakha Bucha over 49 degrees of solar longitude).
PROJECTION_AFTER_2041 = {
    2042, 2043, 2051, 2052, 2055, 2057, 2058, 2061, 2062, 2066, 2067, 2074, 2075, 2077, 2078,
    2082, 2083, 2085, 2086, 2087, 2096, 2097, 2098, 2101, 2102, 2104, 2105, 2108, 2109, 2110,
    2111, 2112, 2113, 2114, 2117, 2118, 2119, 2121, 2122, 2123, 2126, 2127, 2128, 2129, 2130,
    2136, 2137, 2138, 2140, 2141, 2142, 2143, 2144, 2145, 2146, 2147, 2148, 2149, 2153, 2154,
    2156, 2157,
}  # fmt: skip
NOT_REPRODUCED = (
    ALMANAC_ATHIKAWAN_PLACEMENT
    | ALMANAC_ATHIKAMAT_1944
    | PROJECTED_ATHIKAWAN_2030
    | PROJECTION_AFTER_2041
)


def reference_type(year: int) -> str:
    if year in _ThaiLunisolar.ATHIKAMAT_YEARS_GREGORIAN:
        return "athikamat"
    if year in _ThaiLunisolar.ATHIKAWAN_YEARS_GREGORIAN:
        return "athikawan"
    return "pakatimat"
