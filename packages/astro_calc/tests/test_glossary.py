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
        "astro_server/src/astro_server/features/reports/render/labels/th.json",
        "astro_server/src/astro_server/portal/messages/th.json",
        "astro_server/src/astro_server/data/campaigns/copy.json",
        "astro_server/src/astro_server/features/reports/render/templates/natal.html.j2",
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


# --- the name tables of the data files are the glossary's ----------------------------------------

CALC_DATA = PACKAGES / "astro_calc" / "src" / "astro_calc" / "data"
SERVER = PACKAGES / "astro_server" / "src" / "astro_server"
PLANETS = (
    "sun",
    "moon",
    "mercury",
    "venus",
    "mars",
    "jupiter",
    "saturn",
    "uranus",
    "neptune",
    "pluto",
)


def _json(path: Path) -> dict[str, object]:
    data: dict[str, object] = json.loads(path.read_text(encoding="utf-8"))
    return data


def _at(data: object, *keys: str) -> dict[str, str]:
    for key in keys:
        assert isinstance(data, dict)
        data = data[key]
    assert isinstance(data, dict)
    return data


# (file, keys to the table, glossary category, form): every Thai name table a text is built from.
THAI_TABLES = [
    (CALC_DATA / "horoscope/th.json", ("names", "signs"), "sign", "th"),
    (CALC_DATA / "horoscope/th.json", ("names", "planets"), "planet", "th"),
    (CALC_DATA / "western/interpretation/th/names.json", ("signs",), "sign", "th"),
    (CALC_DATA / "western/interpretation/th/names.json", ("planets",), "planet", "th"),
    (CALC_DATA / "western/interpretation/th/names.json", ("planets_in_text",), "planet", "th"),
    (CALC_DATA / "western/interpretation/th/names.json", ("aspects",), "aspect", "th"),
    (CALC_DATA / "western/interpretation/th/names.json", ("elements",), "element", "th"),
    (CALC_DATA / "western/interpretation/th/names.json", ("modalities",), "modality", "th"),
    (SERVER / "features/reports/render/labels/th.json", ("signs",), "sign", "th"),
    (SERVER / "features/reports/render/labels/th.json", ("aspect_names",), "aspect", "th"),
    (SERVER / "features/reports/render/labels/th.json", ("elements",), "element", "th"),
    (CALC_DATA / "hr/texts.json", ("th", "ten_gods"), "ten_god", "short_th"),
    (CALC_DATA / "hr/texts.json", ("th", "elements"), "element", "th"),
    (CALC_DATA / "vedic/remedies.json", ("planet_names",), "planet", "th"),
]


@pytest.mark.parametrize(
    ("path", "keys", "category", "form"),
    THAI_TABLES,
    ids=[f"{p.name}:{'.'.join(k)}" for p, k, _, _ in THAI_TABLES],
)
def test_thai_name_tables_use_the_glossary_names(
    path: Path, keys: tuple[str, ...], category: str, form: str
) -> None:
    table = _at(_json(path), *keys)
    for key, value in table.items():
        name = value["th"] if isinstance(value, dict) else value
        entry = glossary.term(category, key)
        expected = entry.short_th if form == "short_th" and entry.short_th else entry.th
        assert name == expected, f"{path.name} {'.'.join(keys)}.{key}: {name!r} is not {expected!r}"


def test_server_body_labels_use_the_glossary_names() -> None:
    bodies = _at(_json(SERVER / "features/reports/render/labels/th.json"), "bodies")
    for planet in PLANETS:
        assert bodies[planet] == glossary.name("planet", planet, "th")
    assert bodies["ascendant"] == glossary.name("point", "ascendant", "th")
    assert bodies["midheaven"] == glossary.name("point", "midheaven", "th", short=True)


def test_picture_sign_labels_use_the_glossary_names() -> None:
    labels = _at(_json(SERVER / "drawing/data/labels.json"), "sign")
    signs = list(glossary.terms("sign"))
    assert labels["th"] == [glossary.name("sign", s, "th") for s in signs]
    assert labels["en"] == [glossary.name("sign", s, "en") for s in signs]


def test_animal_names_are_the_glossary_year_names() -> None:
    by_animal = {
        glossary.terms("animal")[key].en.lower(): entry.th
        for key, entry in zip(
            glossary.terms("animal"), glossary.terms("branch").values(), strict=True
        )
    }
    for path, keys in (
        (CALC_DATA / "hr/texts.json", ("th", "animals")),
        (CALC_DATA / "cultural/texts.json", ("animals",)),
    ):
        for animal, value in _at(_json(path), *keys).items():
            name = value["th"] if isinstance(value, dict) else value
            assert name == by_animal[animal], f"{path.name}: {animal}"
