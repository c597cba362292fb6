"""Vector glyphs and bundled label fonts: nothing in a picture depends on the viewer's fonts.

* Symbols (signs, planets, nodes, Lilith, Chiron, the eight Uranian bodies, the retrograde mark)
  are SVG paths from ``data/glyphs.json``: outlines of Noto Sans Symbols, Noto Sans Symbols 2 and
  Noto Sans (SIL Open Font License 1.1) extracted once by ``scripts/build_chart_glyphs.py``, in a
  1000-unit em centred on each glyph's bounding box.
* Label text stays ``<text>`` (searchable, Thai shaped by the renderer) in the bundled subsets
  ``data/fonts/NotoSans-ChartSubset.ttf`` (Latin) and ``NotoLoopedThai-ChartSubset.ttf`` (Thai
  in the traditional looped letters Thai readers expect in print), both OFL. An SVG carries
  the subsets it uses as ``@font-face`` data URIs (browsers, Chromium's PDF); resvg is given
  the same files (:mod:`astro_server.drawing.png`).
* Chinese labels (the Zi Wei chart) use the bundled subset of Noto Sans CJK
  (``data/fonts/NotoSansCJK-ZiweiSubset.otf``, OFL, family :data:`CJK_FAMILY`, made by
  ``scripts/build_ziwei_font.py``): a picture naming that family gets that file from
  :func:`font_files` too, so its PNG shows the characters.
"""

from __future__ import annotations

import base64
import json
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, Final, Literal

Language = Literal["en", "th"]

LATIN_FAMILY: Final = "Noto Sans"
THAI_FAMILY: Final = "Noto Looped Thai"
FONT_STACK: Final = f"'{LATIN_FAMILY}','{THAI_FAMILY}',sans-serif"
FONT_STACK_TH: Final = f"'{THAI_FAMILY}','{LATIN_FAMILY}',sans-serif"
_FONT_FILES: Final = {
    LATIN_FAMILY: "NotoSans-ChartSubset.ttf",
    THAI_FAMILY: "NotoLoopedThai-ChartSubset.ttf",
}
CJK_FAMILY: Final = "Noto Sans CJK Chart"
CJK_FILE: Final = "NotoSansCJK-ZiweiSubset.otf"
# Western body names of the API -> glyph names of data/glyphs.json.
_ALIASES: Final = {
    "mean_node": "north_node",
    "true_node": "north_node",
    "node": "north_node",
    "rahu": "north_node",
    "ketu": "south_node",
}


def _data() -> Any:
    return resources.files("astro_server.drawing").joinpath("data")


@cache
def _glyphs() -> dict[str, tuple[str, int, int]]:
    raw = json.loads(_data().joinpath("glyphs.json").read_text("utf-8"))
    return {name: (g["d"], int(g["width"]), int(g["height"])) for name, g in raw["glyphs"].items()}


@cache
def labels() -> dict[str, Any]:
    """The label table (``data/labels.json``): names and abbreviations in English and Thai."""
    data: dict[str, Any] = json.loads(_data().joinpath("labels.json").read_text("utf-8"))
    return data


def has_glyph(name: str) -> bool:
    return _ALIASES.get(name, name) in _glyphs()


def glyph(name: str, x: float, y: float, size: float, fill: str) -> str:
    """The path of glyph ``name`` centred on (x, y), ``size`` units across its larger side."""
    d, width, height = _glyphs()[_ALIASES.get(name, name)]
    scale = size / max(width, height, 1)
    return (
        f'<path transform="translate({x:.2f} {y:.2f}) scale({scale:.5f})" fill="{fill}" d="{d}"/>'
    )


def font_files(cjk: bool = False) -> list[str]:
    """Paths of the bundled label fonts (for resvg's ``font_files``); with ``cjk`` the Chinese
    subset too (only the pictures with Chinese labels need its 110 KB parsed)."""
    base = Path(str(_data().joinpath("fonts")))
    names = [*_FONT_FILES.values(), *([CJK_FILE] if cjk else [])]
    return [str(base / name) for name in names]


def cjk_font_file() -> str:
    """Path of the bundled CJK subset (for resvg's ``font_files``)."""
    return str(Path(str(_data().joinpath("fonts"))) / CJK_FILE)


@cache
def _font_face(family: str) -> str:
    raw = _data().joinpath("fonts", _FONT_FILES[family]).read_bytes()
    encoded = base64.b64encode(raw).decode()
    return (
        f"@font-face{{font-family:'{family}';src:url(data:font/ttf;base64,{encoded}) "
        "format('truetype');}"
    )


def font_faces(thai: bool) -> str:
    """The ``<style>`` element embedding the label fonts a picture uses (Thai only when asked)."""
    faces = _font_face(LATIN_FAMILY) + (_font_face(THAI_FAMILY) if thai else "")
    return f"<style>{faces}</style>"
