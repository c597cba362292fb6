"""The SVG logo sanitiser against CSS that hides a fetch (issue 36): escapes (``@\\69mport``,
``u\\72l(``, ``u\\rl(``), ``image-set()``, ``@font-face``, and text after a child element inside
``<style>``; each payload's style goes, the drawing stays, harmless style is kept."""

from __future__ import annotations

import pytest

from astro_server.features.brands.service import css_may_fetch, sanitise_svg

SVG = '<svg xmlns="http://www.w3.org/2000/svg"><rect width="4" height="4" {attr}/>{style}</svg>'
PAYLOADS = [
    "@\\69mport 'https://example.test/a.css';",
    "@\\000069mport url(x);",
    "rect{fill:u\\72l(https://example.test/a.svg#p)}",
    "rect{background:image-set('https://example.test/a.png' 1x)}",
    "@font-face{font-family:f;src:u\\rl(https://example.test/f.woff)}",
    "@FONT-FACE{src:local(x)}",
    "rect{fill:U\\52L(x)}",
    "rect{fill:\\75\\72\\6c(x)}",
]


@pytest.mark.parametrize("css", PAYLOADS)
def test_a_style_element_that_could_fetch_is_removed(css: str) -> None:
    cleaned = sanitise_svg(SVG.format(attr="", style=f"<style>{css}</style>").encode())
    assert b"<style" not in cleaned
    assert b"<rect" in cleaned


@pytest.mark.parametrize("css", PAYLOADS)
def test_a_style_attribute_that_could_fetch_is_removed(css: str) -> None:
    attr = 'style="' + css.replace('"', "&quot;").replace("'", "&apos;") + '"'
    cleaned = sanitise_svg(SVG.format(attr=attr, style="").encode())
    assert b"style=" not in cleaned
    assert b"<rect" in cleaned


def test_text_after_a_child_element_inside_style_is_not_kept() -> None:
    style = "<style>rect{fill:red}<g/>@import url(https://example.test/a.css);</style>"
    cleaned = sanitise_svg(SVG.format(attr="", style=style).encode())
    assert b"<style" not in cleaned
    assert b"import" not in cleaned


def test_a_presentation_attribute_with_an_escaped_url_is_removed() -> None:
    cleaned = sanitise_svg(
        SVG.format(attr='fill="u\\72l(https://example.test/p)"', style="").encode()
    )
    assert b"fill=" not in cleaned
    kept = sanitise_svg(SVG.format(attr='fill="url(#g)"', style="").encode())
    assert b'fill="url(#g)"' in kept


def test_harmless_style_is_kept() -> None:
    style = "<style>rect{fill:#c0392b;stroke:blue} /* brand red */</style>"
    cleaned = sanitise_svg(SVG.format(attr='style="fill:red;opacity:.5"', style=style).encode())
    assert b"fill:#c0392b" in cleaned
    assert b'style="fill:red;opacity:.5"' in cleaned


@pytest.mark.parametrize(
    ("css", "fetches"),
    [
        ("a{fill:red}", False),
        ("a{fill:url(#gradient)}", False),  # a reference inside the document
        ("a{fill:url( '#g')}", False),
        ("u/**/rl(x)", False),  # a comment ends the identifier: not a url token
        ("\\75 rl(x)", True),  # a hex escape eats one following space
        ("@\\\nimport", True),  # an escaped newline vanishes
    ],
)
def test_unescaping_follows_css_syntax(css: str, fetches: bool) -> None:
    assert css_may_fetch(css) is fetches


# Issue 50: presentation attributes that fetch when the stored SVG is opened as a document.
ATTRIBUTE_PAYLOADS = [
    "mask=\"image-set('https://example.test/m.png' 1x)\"",
    "cursor=\"image-set('https://example.test/c.png' 1x), auto\"",
    "mask=\"\\69mage-set('https://example.test/m.png' 1x)\"",
    "cursor=\"im\\61ge-set('https://example.test/c.png' 1x), auto\"",
    "mask=\"IMAGE-SET('https://example.test/m.png' 1x)\"",
    'cursor="u\\72l(https://example.test/c.cur), auto"',
    'filter="url(https://example.test/f.svg#f)"',
    "fill=\"image('https://example.test/p.png')\"",
    'mask="cross-fade(url(https://example.test/a.png), red)"',
    "mask=\"ima/**/ge-set('https://example.test/m.png' 1x)\"",
]


@pytest.mark.parametrize("attr", ATTRIBUTE_PAYLOADS)
def test_a_presentation_attribute_that_could_fetch_is_removed(attr: str) -> None:
    name = attr.split("=", 1)[0]
    cleaned = sanitise_svg(SVG.format(attr=attr, style="").encode())
    assert f" {name}=".encode() not in cleaned, cleaned
    assert b"example.test" not in cleaned
    assert b"<rect" in cleaned


@pytest.mark.parametrize(
    "attr",
    [
        'data-x="1"',
        'foo="bar"',
        'formaction="https://example.test/"',
        'xml:base="https://example.test/"',
    ],
)
def test_attributes_outside_the_allowlist_are_removed(attr: str) -> None:
    cleaned = sanitise_svg(SVG.format(attr=attr, style="").encode())
    assert attr.split("=", 1)[0].encode() + b"=" not in cleaned
    assert b'width="4"' in cleaned


def test_allowed_drawing_attributes_are_kept() -> None:
    attr = (
        'fill="url(#g)" stroke="#123456" opacity=".5" transform="rotate(45)" id="r" mask="url(#m)"'
    )
    cleaned = sanitise_svg(SVG.format(attr=attr, style="").encode())
    for kept in (
        b'fill="url(#g)"',
        b'stroke="#123456"',
        b'transform="rotate(45)"',
        b'mask="url(#m)"',
    ):
        assert kept in cleaned
