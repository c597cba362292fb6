"""Build the CJK font subset of the Zi Wei chart picture.

Run: uv run python scripts/build_ziwei_font.py [--source PATH]
(default source: /usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc)

Source: Noto Sans CJK SC (SIL Open Font License 1.1; Debian ``fonts-noto-cjk``). The subset
holds exactly the characters the Zi Wei pictures can write in Chinese: every zh-Hans and zh-Hant
name of ``astro_calc/data/chinese/ziwei.json``, the stems, branches and lunar-date words of the
Chinese calendar, digits and a little punctuation. Its family is renamed ``Noto Sans CJK Chart``
(the subset is a Modified Version under the OFL and must not pass for the original), and it is
written to ``astro_server/drawing/data/fonts/NotoSansCJK-ZiweiSubset.otf``.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTCollection

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "packages/astro_calc/src/astro_calc/data/chinese/ziwei.json"
CYCLE = ROOT / "packages/astro_calc/src/astro_calc/data/chinese/cycle.json"
OUT = ROOT / "packages/astro_server/src/astro_server/drawing/data/fonts/NotoSansCJK-ZiweiSubset.otf"
FAMILY = "Noto Sans CJK Chart"
EXTRA = "年月日时時闰閏正二三四五六七八九十冬腊臘初廿三十一 0123456789-–:·()（）/岁歲局男女"


def characters() -> str:
    found: set[str] = set(EXTRA)

    def walk(node: object) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                if key in ("zh-Hans", "zh-Hant") and isinstance(value, str):
                    found.update(value)
                else:
                    walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(json.loads(DATA.read_text("utf-8")))
    cycle = json.loads(CYCLE.read_text("utf-8"))
    for row in (*cycle["stems"], *cycle["branches"]):
        found.update(row["zh"])
        found.update(row["hanja"])
    return "".join(sorted(c for c in found if not c.isspace() or c == " "))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument(
        "--source", default="/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"
    )
    args = parser.parse_args()
    collection = TTCollection(args.source)
    font = next(f for f in collection.fonts if "SC" in f["name"].getDebugName(1))
    options = subset.Options()
    options.layout_features = ["*"]
    options.name_IDs = ["*"]
    options.notdef_outline = True
    subsetter = subset.Subsetter(options)
    subsetter.populate(text=characters())
    subsetter.subset(font)
    names = font["name"]
    for record in names.names:
        if record.nameID in (1, 16):
            record.string = FAMILY
        elif record.nameID == 4:
            record.string = f"{FAMILY} Regular"
        elif record.nameID == 6:
            record.string = "NotoSansCJKChart-Regular"
    font.save(str(OUT))
    print(f"{OUT.name}: {len(characters())} characters, {OUT.stat().st_size:,} bytes")


if __name__ == "__main__":
    main()
