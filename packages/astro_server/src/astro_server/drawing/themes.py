"""Colour themes of the chart pictures: ``light`` and ``dark``, with optional caller colours.

A caller may replace ``primary`` (accents, the angles, highlighted factors), ``background`` and
``foreground`` (lines and text) with ``#RRGGBB`` values; every other colour (elements, aspect
kinds, the muted grid) comes from the theme. The defaults keep a contrast ratio above 7:1
between foreground and background (WCAG AAA for text).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Final, Literal

ThemeName = Literal["light", "dark"]
HEX_COLOUR: Final = re.compile(r"^#[0-9A-Fa-f]{6}$")


@dataclass(frozen=True)
class Palette:
    background: str
    foreground: str
    primary: str
    muted: str
    band: str  # the zodiac band's fill
    fire: str
    earth: str
    air: str
    water: str
    hard: str  # square, opposition
    soft: str  # trine, sextile
    other: str  # quincunx, quintiles
    minor: str  # semisextile, semisquare, sesquiquadrate
    warn: str  # kalakini and other warnings


_THEMES: Final[dict[str, Palette]] = {
    "light": Palette(
        background="#FFFFFF",
        foreground="#1F2233",
        primary="#4B3F9E",
        muted="#9A9CAE",
        band="#F3F1FA",
        fire="#C8402C",
        earth="#3B7D3A",
        air="#A67C00",
        water="#2D63C4",
        hard="#D0402E",
        soft="#2D63C4",
        other="#3B8F5A",
        minor="#8E8FA3",
        warn="#C8402C",
    ),
    "dark": Palette(
        background="#14161F",
        foreground="#ECEAF4",
        primary="#B7A6FF",
        muted="#6B6E83",
        band="#1F2230",
        fire="#FF7A62",
        earth="#7CCB79",
        air="#F2C64C",
        water="#6FA8FF",
        hard="#FF6F5C",
        soft="#6FA8FF",
        other="#6BD49A",
        minor="#8C8FA6",
        warn="#FF7A62",
    ),
}

ELEMENT_OF_SIGN: Final = ("fire", "earth", "air", "water") * 3
_ASPECT_KIND: Final = {
    "conjunction": "primary",
    "opposition": "hard",
    "square": "hard",
    "trine": "soft",
    "sextile": "soft",
    "quincunx": "other",
    "quintile": "other",
    "biquintile": "other",
    "semisextile": "minor",
    "semisquare": "minor",
    "sesquiquadrate": "minor",
}
MAJOR_ASPECTS: Final = frozenset({"conjunction", "opposition", "square", "trine", "sextile"})


def palette(
    theme: ThemeName = "light",
    *,
    primary: str | None = None,
    background: str | None = None,
    foreground: str | None = None,
) -> Palette:
    """The theme's palette with the caller's colours (``#RRGGBB``) put in."""
    base = _THEMES[theme]
    chosen = {"primary": primary, "background": background, "foreground": foreground}
    for name, value in chosen.items():
        if value is not None and not HEX_COLOUR.match(value):
            raise ValueError(f"{name} must be a #RRGGBB colour")
    return replace(base, **{k: v.upper() for k, v in chosen.items() if v is not None})


def sign_colour(pal: Palette, sign_index: int) -> str:
    colour: str = getattr(pal, ELEMENT_OF_SIGN[sign_index % 12])
    return colour


def aspect_colour(pal: Palette, aspect: str) -> str:
    colour: str = getattr(pal, _ASPECT_KIND.get(aspect, "minor"))
    return colour
