"""The glossary (astro_calc/data/glossary.json) and every text file of the packages against it.

The text files are found by walking each package's ``src`` folder for data and template files
(.json, .toml, .yaml, .yml, .txt, .html, .j2, .po): astro_calc's data, the server's report labels,
portal messages and templates, campaign data, picture labels and the face/palm data. A file that
uses a spelling the glossary forbids fails, naming the file, the variant and the preferred term.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from astro_calc import glossary
from astro_calc.errors import CalcInputError

PACKAGES = Path(__file__).resolve().parents[2]
TEXT_SUFFIXES = {".json", ".toml", ".yaml", ".yml", ".txt", ".html", ".j2", ".po"}
# The glossary lists the forbidden spellings themselves.
GLOSSARY_FILE = PACKAGES / "astro_calc" / "src" / "astro_calc" / "data" / "glossary.json"


def _text_files() -> list[Path]:
    found = []
    for package in sorted(PACKAGES.iterdir()):
        src = package / "src"
        if not src.is_dir():
            continue
        for path in sorted(src.rglob("*")):
            if path.suffix in TEXT_SUFFIXES and path.is_file() and path != GLOSSARY_FILE:
                found.append(path)
    return found


TEXT_FILES = _text_files()


def test_the_walk_finds_the_customer_text_files() -> None:
    names = {p.relative_to(PACKAGES).as_posix() for p in TEXT_FILES}
    for expected in (
        "astro_calc/src/astro_calc/data/horoscope/th.json",
        "astro_calc/src/astro_calc/data/western/interpretation/th/aspects.json",
        "astro_calc/src/astro_calc/data/tarot/th.json",
        "astro_server/src/astro_server/reports/labels/th.json",
        "astro_server/src/astro_server/portal/messages/th.json",
        "astro_server/src/astro_server/data/campaigns/copy.json",
        "astro_server/src/astro_server/reports/templates/natal.html.j2",
    ):
        assert expected in names


@pytest.mark.parametrize("path", TEXT_FILES, ids=lambda p: p.relative_to(PACKAGES).as_posix())
def test_no_text_file_uses_a_forbidden_variant(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    problems = [
        f"{path.relative_to(PACKAGES).as_posix()}: {f.category}.{f.key}: "
        f"{f.variant!r} is forbidden, write {f.preferred!r}"
        for f in glossary.find_forbidden(text)
    ]
    assert not problems, "\n".join(problems)


def test_every_term_has_both_languages_and_a_preferred_form_that_is_not_forbidden() -> None:
    for category in glossary.categories():
        for key, entry in glossary.terms(category).items():
            assert entry.en.strip(), f"{category}.{key}"
            assert entry.th.strip(), f"{category}.{key}"
            assert not glossary.find_forbidden(entry.th), f"{category}.{key}: {entry.th}"
            assert not glossary.find_forbidden(entry.en), f"{category}.{key}: {entry.en}"


def test_the_check_finds_a_variant_and_spares_the_words_that_contain_it() -> None:
    found = glossary.find_forbidden("ดวงอาทิตย์ทำมุมฉากกับราศีมิถุน")
    assert {f.variant for f in found} == {"ดวงอาทิตย์", "มุมฉาก", "มิถุน"}
    assert glossary.find_forbidden("เดือนมิถุนายนและตุลาคม จุดกลางฟ้า (MC) ราศีตุลย์") == []


def test_names_come_from_the_glossary_in_each_language() -> None:
    assert glossary.name("planet", "sun", "th") == "ดาวอาทิตย์"
    assert glossary.name("aspect", "square", "en") == "square"
    assert glossary.name("ten_god", "hurting_officer", "th", short=True) == "ท้าทายขุนนาง"
    with pytest.raises(CalcInputError, match=r"planet\.vulcan"):
        glossary.term("planet", "vulcan")


def test_the_glossary_is_valid_json_with_the_two_registers() -> None:
    data = json.loads(GLOSSARY_FILE.read_text(encoding="utf-8"))
    assert data["registers"] == {"horoscope": "คุณ", "chart_reading": "เจ้าชะตา"}
