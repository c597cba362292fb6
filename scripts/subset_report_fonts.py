"""Make the report fonts bundled in astro_server/reports/fonts from Debian's fonts-noto-core.

Run once when the fonts change (``uv run --frozen python scripts/subset_report_fonts.py``).
Subsets keep every layout feature (kerning, marks, ligatures) and every name, and hold:

* Noto Sans / Noto Serif: Latin (with Vietnamese), Greek, Cyrillic, combining marks,
  punctuation, currency, letterlike symbols, arrows and common mathematical signs: the scripts
  a person's or a brand's name is likely written in besides Thai. Characters outside them fall
  back to the system's fonts.
* Noto Sans Symbols (1 and 2): only the zodiac, planet and aspect glyphs the tables use.
* Noto Sans Thai / Noto Serif Thai: copied whole (small).
"""

from __future__ import annotations

import shutil
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTFont

SOURCE = Path("/usr/share/fonts/truetype/noto")
TARGET = Path(__file__).resolve().parents[1] / (
    "packages/astro_server/src/astro_server/reports/fonts"
)
TEXT_RANGES = [
    (0x0020, 0x024F),  # Basic Latin .. Latin Extended-B
    (0x0250, 0x02FF),  # IPA, spacing modifiers
    (0x0300, 0x036F),  # combining diacritics
    (0x0370, 0x03FF),  # Greek
    (0x0400, 0x052F),  # Cyrillic and its supplement
    (0x1E00, 0x1EFF),  # Latin Extended Additional (Vietnamese)
    (0x2000, 0x206F),  # general punctuation
    (0x20A0, 0x20CF),  # currency
    (0x2100, 0x214F),  # letterlike (℞)
    (0x2190, 0x21FF),  # arrows
    (0x2200, 0x22FF),  # mathematical operators
    (0x25A0, 0x25FF),  # geometric shapes
]
ASTRO = "♈♉♊♋♌♍♎♏♐♑♒♓☉☽☿♀♂♃♄♅♆♇☊☋⚷⚸☌☍△□✶⚹⚺⚻⚼"


def _options() -> subset.Options:
    options = subset.Options()
    options.layout_features = ["*"]
    options.name_IDs = ["*"]
    options.name_languages = ["*"]
    options.notdef_outline = True
    options.glyph_names = False
    options.hinting = False  # PDF output needs no TrueType hinting instructions
    return options


def _subset(source: str, target: str, unicodes: list[int]) -> None:
    font = TTFont(SOURCE / source)
    subsetter = subset.Subsetter(_options())
    subsetter.populate(unicodes=unicodes)
    subsetter.subset(font)
    font.save(TARGET / target)


def main() -> None:
    text = [code for start, end in TEXT_RANGES for code in range(start, end + 1)]
    for name in ("NotoSans-Regular", "NotoSans-Bold", "NotoSerif-Bold"):
        _subset(f"{name}.ttf", f"{name}.ttf", text)
    for name in ("NotoSansThai-Regular", "NotoSansThai-Bold", "NotoSerifThai-Bold"):
        shutil.copyfile(SOURCE / f"{name}.ttf", TARGET / f"{name}.ttf")
    taken: set[str] = set()
    for source in ("NotoSansSymbols-Regular", "NotoSansSymbols2-Regular"):
        cmap = TTFont(SOURCE / f"{source}.ttf").getBestCmap()
        here = [c for c in ASTRO if ord(c) in cmap and c not in taken]
        taken.update(here)
        _subset(
            f"{source}.ttf", source.replace("-Regular", "-Astro") + ".ttf", [ord(c) for c in here]
        )


if __name__ == "__main__":
    main()
