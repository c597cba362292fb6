"""The natal report as printed by Chromium, checked with poppler: metadata (pdfinfo), embedded
fonts (pdffonts), the exact text of the cover and a chapter in English and Thai (pdftotext), and
the pixels of the wheel and the brand colour (pdftoppm); white label, escaping, the HTML file,
and a renderer that loads nothing.

Text comparisons drop whitespace on both sides: pdftotext breaks lines where the layout does
(Thai has no spaces between words), so characters, marks and their order are what is compared.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import html as html_lib
import http.server
import re
import shutil
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from astro_calc.western import BirthSubject, natal_chart
from astro_calc.western.interpretation import natal_interpretation
from astro_server.features.reports.render.branding import ReportBrand
from astro_server.features.reports.render.html import labels
from astro_server.features.reports.render.natal import NatalChart, natal_report_html
from astro_server.features.reports.render.renderer import (
    close_renderer,
    missing_components,
    render_pdf,
    renderer,
    set_pdf_metadata,
)

pytestmark = pytest.mark.skipif(
    bool(missing_components()) or shutil.which("pdftotext") is None,
    reason="needs Chromium, playwright and poppler-utils (scripts/test.sh installs them)",
)

BRAND = ReportBrand(
    name="Lotus Star Readings",
    primary_color="#0E6E5C",
    contact_email="hello@lotus.example",
    contact_phone="+6621234567",
    contact_url="https://lotus.example",
)
BRAND_RGB = (0x0E, 0x6E, 0x5C)
PERSON = "Somchai Jaidee"
GENERATED = dt.datetime(2026, 11, 24, 9, 30, tzinfo=dt.UTC)
INJECTED_NAME = '<script>alert("x")</script><b>Mallory</b>'
INJECTED_BRAND = '<img src=x onerror=alert(1)>Evil & "Co"'


def _chart() -> NatalChart:
    subject = BirthSubject(date=dt.date(1990, 5, 1), time="07:30", latitude=13.75, longitude=100.5)
    return natal_chart(subject, house_system="P", include_minor=False)


def _html(
    locale: Any, brand: ReportBrand, person: str = PERSON, *, inline_fonts: bool = True
) -> str:
    return natal_report_html(
        _chart(),
        person_name=person,
        locale=locale,
        brand=brand,
        generated_at=GENERATED,
        inline_fonts=inline_fonts,
    )


async def _print_all(documents: dict[str, tuple[str, str]]) -> dict[str, bytes]:
    try:
        return {
            key: await render_pdf(html, author=author, creator=author)
            for key, (html, author) in documents.items()
        }
    finally:
        await close_renderer()


@pytest.fixture(scope="module")
def pdfs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Every PDF of this module, printed once by one browser."""
    # As the service prints them: fonts from the renderer's own font directory; "inline" as
    # the HTML format carries them (data URIs), printed too.
    documents = {
        "en": (_html("en", BRAND, inline_fonts=False), BRAND.name or ""),
        "th": (_html("th", BRAND, "สมชาย ใจดี", inline_fonts=False), BRAND.name or ""),
        "default": (
            _html("en", ReportBrand(), inline_fonts=False),
            labels("en")["default_brand_name"],
        ),
        "injected": (
            _html("en", ReportBrand(name=INJECTED_BRAND), INJECTED_NAME, inline_fonts=False),
            INJECTED_BRAND,
        ),
        "inline": (_html("th", BRAND, "สมชาย ใจดี"), BRAND.name or ""),
    }
    printed = asyncio.run(_print_all(documents))
    folder = tmp_path_factory.mktemp("pdfs")
    paths = {}
    for key, data in printed.items():
        paths[key] = folder / f"{key}.pdf"
        paths[key].write_bytes(data)
    return paths


def _run(*args: str) -> str:
    return subprocess.run(args, capture_output=True, text=True, check=True, timeout=60).stdout


def _text(path: Path, first: int | None = None, last: int | None = None) -> str:
    pages = []
    if first is not None:
        pages += ["-f", str(first)]
    if last is not None:
        pages += ["-l", str(last)]
    return _run("pdftotext", "-enc", "UTF-8", *pages, str(path), "-")


def _squeeze(text: str) -> str:
    return re.sub(r"\s+", "", text)


def _info(path: Path) -> dict[str, str]:
    out = {}
    for line in _run("pdfinfo", "-enc", "UTF-8", str(path)).splitlines():
        key, _, value = line.partition(":")
        out[key.strip()] = value.strip()
    return out


def _item_text(locale: Any, section: str) -> tuple[str, str]:
    """The title and text of the first interpretation item of a section, from astro_calc."""
    reading = natal_interpretation(_chart(), language=locale, level="full")
    item = next(i for i in reading.items if i.section == section)
    return item.title, item.text


@pytest.mark.parametrize("locale", ["en", "th"])
def test_metadata_title_author_language_and_pages(pdfs: dict[str, Path], locale: str) -> None:
    info = _info(pdfs[locale])
    words = labels(locale)
    person = PERSON if locale == "en" else "สมชาย ใจดี"
    assert info["Title"] == f"{words['report_title']}: {person}"
    assert info["Author"] == "Lotus Star Readings"
    assert info["Creator"] == "Lotus Star Readings"
    assert info["Tagged"] == "yes"
    assert 8 <= int(info["Pages"]) <= 20
    assert f"/Lang ({locale})".encode() in pdfs[locale].read_bytes()


@pytest.mark.parametrize("locale", ["en", "th", "inline"])
def test_every_font_is_embedded_as_a_subset_of_the_bundled_faces(
    pdfs: dict[str, Path], locale: str
) -> None:
    rows = _run("pdffonts", str(pdfs[locale])).splitlines()[2:]
    assert rows
    names = set()
    for row in rows:
        columns = row.split()
        name, emb, sub = columns[0], columns[-5], columns[-4]
        assert (emb, sub) == ("yes", "yes"), row
        names.add(name.split("+", 1)[1])
    assert names <= {
        "NotoSans-Regular", "NotoSans-Bold", "NotoSerif-Bold", "NotoSansThai-Regular",
        "NotoSansThai-Bold", "NotoSerifThai-Bold", "NotoSansSymbols-Regular",
        "NotoSansSymbols2-Regular",
        "NotoLoopedThai-Regular",  # the wheel's Thai labels (the drawing module's own font)
    }  # fmt: skip
    if locale in ("th", "inline"):
        assert {"NotoSansThai-Regular", "NotoSerifThai-Bold"} <= names


def test_english_cover_and_chapter_text_comes_back_exactly(pdfs: dict[str, Path]) -> None:
    cover = _text(pdfs["en"], 1, 1)
    for line in ("Lotus Star Readings", "Natal Chart Report", PERSON, "1990-05-01", "07:30"):
        assert line in cover
    assert "UTC+07:00" in cover
    assert "Generated 2026-11-24 09:30 UTC" in cover
    title, text = _item_text("en", "big_three")
    whole = _squeeze(_text(pdfs["en"]))
    assert _squeeze("The Big Three") in whole
    assert _squeeze(title) in whole
    assert _squeeze(text) in whole


def test_thai_cover_and_chapter_text_comes_back_exactly(pdfs: dict[str, Path]) -> None:
    words = labels("th")
    cover = _squeeze(_text(pdfs["th"], 1, 1))
    for value in (words["report_title"], words["prepared_for"], "สมชาย ใจดี", "ดวงชะตากำเนิด"):
        assert _squeeze(value) in cover
    title, text = _item_text("th", "planet_sign")
    whole = _squeeze(_text(pdfs["th"]))
    assert _squeeze(words["chapter_planets"]) in whole
    assert _squeeze(title) in whole
    assert _squeeze(text) in whole  # sara am, stacked marks and all
    assert "ำ" in text


def test_thai_pdf_prints_buddhist_era_dates_with_thai_month_names(pdfs: dict[str, Path]) -> None:
    """Issue 35: the report's date and the birth date in Buddhist Era (Gregorian + 543; after
    1941 the BE year starts on 1 January) with Thai month names; no ISO date, no "(UTC)"."""
    text = _text(pdfs["th"])
    cover = _squeeze(_text(pdfs["th"], 1, 1))
    assert str(GENERATED.year + 543) in text
    assert _squeeze(f"24 พฤศจิกายน {GENERATED.year + 543} 09:30 น.") in cover
    assert _squeeze("1 พฤษภาคม 2533") in cover  # the birth, 1990-05-01
    assert "2026-11-24" not in text
    assert "1990-05-01" not in text
    assert "(UTC)" not in text


def test_page_x_of_y_and_footer_contacts_on_every_page_but_the_cover(
    pdfs: dict[str, Path],
) -> None:
    pages = int(_info(pdfs["en"])["Pages"])
    for page in (2, pages):
        text = _text(pdfs["en"], page, page)
        assert f"Page {page} of {pages}" in text
        assert "hello@lotus.example" in text
        assert "+6621234567" in text
    assert "Page 1 of" not in _text(pdfs["en"], 1, 1)
    thai = _text(pdfs["th"], 2, 2)
    assert f"หน้า 2 จาก {_info(pdfs['th'])['Pages']}" in thai


def _page_image(path: Path, page: int, folder: Path) -> Image.Image:
    prefix = folder / f"{path.stem}-{page}"
    _run("pdftoppm", "-png", "-r", "60", "-f", str(page), "-l", str(page), str(path), str(prefix))
    found = sorted(folder.glob(f"{prefix.name}*.png"))
    return Image.open(found[0]).convert("RGB")


def _pixels(image: Image.Image) -> list[tuple[int, ...]]:
    data = image.tobytes()
    return [tuple(data[i : i + 3]) for i in range(0, len(data), 3)]


def test_the_wheel_is_drawn_and_the_brand_colour_is_in_the_pixels(
    pdfs: dict[str, Path], tmp_path: Path
) -> None:
    wheel_page = _page_image(pdfs["en"], 2, tmp_path)
    width, height = wheel_page.size
    # The wheel sits in the middle of page 2 (150 mm of the page's 210 mm width).
    box = wheel_page.crop(
        (int(width * 0.2), int(height * 0.12), int(width * 0.8), int(height * 0.6))
    )
    pixels = _pixels(box)
    inked = sum(1 for p in pixels if sum(p) < 600)
    assert inked > 0.05 * len(pixels)
    cover = _pixels(_page_image(pdfs["en"], 1, tmp_path))
    brand = sum(
        1 for p in cover if all(abs(c - b) <= 12 for c, b in zip(p, BRAND_RGB, strict=True))
    )
    assert brand > 0.2 * len(cover)  # the cover's colour band


def test_with_a_branding_our_product_name_appears_nowhere(pdfs: dict[str, Path]) -> None:
    for key in ("en", "th"):
        text = _text(pdfs[key])
        assert not re.search(r"\bAstro\b|astro[-_]|Astro API", text)
        info = _info(pdfs[key])
        assert not any("astro" in v.lower() for v in info.values())
    raw = pdfs["en"].read_bytes()
    assert b"Astro API" not in raw
    assert b"astro_server" not in raw


def test_without_branding_the_neutral_default_brand_is_used(pdfs: dict[str, Path]) -> None:
    info = _info(pdfs["default"])
    assert info["Author"] == "Natal Chart Report"
    cover = _text(pdfs["default"], 1, 1)
    assert cover.count("Natal Chart Report") >= 2  # brand line and title
    assert not re.search(r"\bAstro\b", _text(pdfs["default"]))


def test_html_in_the_name_and_brand_is_printed_as_text(pdfs: dict[str, Path]) -> None:
    text = _squeeze(_text(pdfs["injected"], 1, 1))
    assert _squeeze(INJECTED_NAME) in text
    assert _squeeze(INJECTED_BRAND) in text
    assert _info(pdfs["injected"])["Author"] == INJECTED_BRAND
    html = _html("en", ReportBrand(name=INJECTED_BRAND), INJECTED_NAME)
    assert "<script" not in html.lower()
    assert "<img src=x" not in html
    assert "&lt;script&gt;" in html


def test_contact_strings_cannot_break_out_of_the_css_margin_boxes() -> None:
    hostile = ReportBrand(name='x"; } body { display: none } </style><script>', contact_url=None)
    html = _html("en", hostile)
    style = html[html.index("<style>") : html.index("</style>")]
    assert "</style" not in style.lower().replace("</style>", "", 0)
    assert "display: none" not in style
    assert "<script" not in html.lower()


def test_the_html_format_is_one_self_contained_file() -> None:
    html = _html("th", BRAND, "สมชาย")
    assert html.startswith("<!DOCTYPE html>")
    assert '<html lang="th">' in html
    assert "default-src 'none'" in html  # CSP: the file loads nothing either
    assert not re.search(r"""(src|href)=["']?(https?:|//)""", html)
    assert not re.search(r"url\(\s*['\"]?(https?:|//)", html)
    assert html.count("data:font/ttf;base64,") >= 8  # ours, and the wheel's own label fonts
    assert "<svg" in html  # the wheel, inline


class _Counter(http.server.BaseHTTPRequestHandler):
    hits: list[str] = []  # noqa: RUF012

    def do_GET(self) -> None:
        _Counter.hits.append(self.path)
        self.send_response(200)
        self.end_headers()

    def log_message(self, format: str, *args: Any) -> None:
        return None


@pytest.fixture
def counting_server() -> Iterator[str]:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Counter)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    _Counter.hits.clear()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def test_the_renderer_makes_no_request_and_runs_no_script(
    counting_server: str, tmp_path: Path
) -> None:
    html = (
        f'<!DOCTYPE html><html lang="en"><head><title>t</title>'
        f'<link rel="stylesheet" href="{counting_server}/style.css">'
        f'<style>@import url("{counting_server}/import.css"); '
        f'body {{ background: url("{counting_server}/bg.png"); }}</style></head>'
        f'<body><img src="{counting_server}/img.png"><iframe src="{counting_server}/frame">'
        f"</iframe><script>document.write('SCRIPT' + 'RAN')</script><p>static</p></body></html>"
    )
    pdf = asyncio.run(_print_all({"probe": (html, "a")}))["probe"]
    assert _Counter.hits == []
    (tmp_path / "probe.pdf").write_bytes(pdf)
    text = _text(tmp_path / "probe.pdf")
    assert "static" in text
    assert "SCRIPTRAN" not in text


def test_metadata_is_an_incremental_update_that_leaves_chromiums_bytes_alone(
    tmp_path: Path,
) -> None:
    html = (
        '<!DOCTYPE html><html lang="th"><head><title>ดวงชะตา</title></head><body>น้ำใจ</body></html>'
    )

    async def raw() -> bytes:
        try:
            return await renderer().pdf(html)
        finally:
            await close_renderer()

    original = asyncio.run(raw())
    updated = set_pdf_metadata(original, author="ร้าน (ดาว) \\ & Co", creator="c", subject="s")
    assert updated.startswith(original)
    path = tmp_path / "meta.pdf"
    path.write_bytes(updated)
    info = _info(path)
    assert (info["Title"], info["Author"], info["Creator"], info["Subject"]) == (
        "ดวงชะตา",
        "ร้าน (ดาว) \\ & Co",
        "c",
        "s",
    )
    assert _text(path).strip() == "น้ำใจ"


@pytest.mark.parametrize("locale", ["en", "th"])
def test_every_character_of_a_report_west_of_greenwich_is_in_the_bundled_faces(
    locale: Any,
) -> None:
    """A birth at a negative UTC offset (New York) printed its offset with U+2212, which the
    bundled subsets lack (a missing-glyph box in the PDF). Every character the report's text
    uses must be in one of the faces the renderer ships."""
    from fontTools.ttLib import TTFont

    from astro_server.features.reports.render.natal import format_offset

    assert format_offset(-300) == "UTC-05:00"
    fonts = Path(natal_report_html.__code__.co_filename).parent / "fonts"
    covered: set[int] = set()
    for face in fonts.glob("*.ttf"):
        covered.update(TTFont(face).getBestCmap())
    subject = BirthSubject(
        date=dt.date(1985, 3, 9),
        time="21:10",
        latitude=40.71,
        longitude=-74.01,
        timezone="America/New_York",
    )
    html = natal_report_html(
        natal_chart(subject, house_system="P", include_minor=False),
        person_name="Ann Lee",
        locale=locale,
        brand=ReportBrand(),
        generated_at=GENERATED,
        inline_fonts=False,
    )
    body = re.sub(r"(?s)<(style|script)[^>]*>.*?</\1>", " ", html)
    text = html_lib.unescape(re.sub(r"<[^>]+>", " ", body))
    assert "UTC-05:00" in text
    missing = {ch for ch in text if not ch.isspace() and ord(ch) not in covered}
    assert not missing, sorted(f"U+{ord(ch):04X} {ch}" for ch in missing)
