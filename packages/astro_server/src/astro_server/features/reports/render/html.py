"""The HTML side of the reports: a Jinja2 environment that escapes everything, fonts inlined as
``@font-face`` data URIs, and the escaping of strings placed in CSS.

Every value a template prints is HTML-escaped (``autoescape=True``); only markup our own code
made (the chart wheel SVG) is marked safe. Strings that go into CSS (the ``@page`` margin boxes
carry the brand's contact details, which CSS can only take as ``content: "..."`` strings) pass
through :func:`css_string`, which escapes every character that is not a letter, digit or space,
so no value can close the string, the rule or the ``<style>`` element.
"""

from __future__ import annotations

import base64
import functools
import json
from importlib import resources
from pathlib import Path
from typing import Any, Final

from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape
from markupsafe import Markup

_PACKAGE: Final = "astro_server.features.reports.render"

#: (CSS family, weight, file, PostScript name) of every bundled face; see fonts/README.md.
FONT_FACES: Final[tuple[tuple[str, int, str, str], ...]] = (
    ("Report Sans", 400, "NotoSans-Regular.ttf", "NotoSans-Regular"),
    ("Report Sans", 700, "NotoSans-Bold.ttf", "NotoSans-Bold"),
    ("Report Sans Thai", 400, "NotoSansThai-Regular.ttf", "NotoSansThai-Regular"),
    ("Report Sans Thai", 700, "NotoSansThai-Bold.ttf", "NotoSansThai-Bold"),
    ("Report Serif", 700, "NotoSerif-Bold.ttf", "NotoSerif-Bold"),
    ("Report Serif Thai", 700, "NotoSerifThai-Bold.ttf", "NotoSerifThai-Bold"),
    ("Report Symbols", 400, "NotoSansSymbols-Astro.ttf", "NotoSansSymbols-Regular"),
    ("Report Symbols", 400, "NotoSansSymbols2-Astro.ttf", "NotoSansSymbols2-Regular"),
)


def data_uri(content: bytes, media_type: str) -> str:
    return f"data:{media_type};base64,{base64.b64encode(content).decode('ascii')}"


def fonts_directory() -> Path:
    """The bundled fonts on disk (the renderer's only font directory)."""
    return Path(str(resources.files(_PACKAGE) / "fonts"))


@functools.cache
def font_face_css(inline: bool = True) -> str:
    """The ``@font-face`` rules of every bundled face (built once per process).

    ``inline``: each font as a data URI, so the document stands alone (the HTML format).
    Otherwise ``local()`` by PostScript name: the PDF renderer's Chromium sees only the bundled
    fonts directory (its fontconfig lists nothing else), and parses each font once per browser
    instead of once per report (about 1 MB of fonts: a third of a report's printing time).
    """
    fonts = fonts_directory()
    rules = []
    for family, weight, filename, postscript in FONT_FACES:
        if inline:
            source = (
                f'url("{data_uri((fonts / filename).read_bytes(), "font/ttf")}") format("truetype")'
            )
        else:
            source = f'local("{postscript}")'
        rules.append(
            f'@font-face{{font-family:"{family}";font-weight:{weight};font-style:normal;'
            f"src:{source};}}"
        )
    return "\n".join(rules)


def css_string(value: str) -> Markup:
    """``value`` as a double-quoted CSS string, every non-alphanumeric character escaped
    (``\\HHHHHH ``); safe inside a ``<style>`` element."""
    out = []
    for char in value:
        if char.isalnum() or char == " ":
            out.append(char)
        else:
            out.append(f"\\{ord(char):06x}")
    return Markup('"' + "".join(out) + '"')  # noqa: S704 (every character escaped above)


@functools.cache
def labels(locale: str) -> dict[str, Any]:
    """The report's translated labels (``labels/<locale>.json``)."""
    text = (resources.files(_PACKAGE) / "labels" / f"{locale}.json").read_text("utf-8")
    loaded: dict[str, Any] = json.loads(text)
    return loaded


@functools.cache
def glyphs() -> dict[str, dict[str, str]]:
    """Unicode glyphs of signs, bodies and aspects (``labels/glyphs.json``)."""
    text = (resources.files(_PACKAGE) / "labels" / "glyphs.json").read_text("utf-8")
    loaded: dict[str, dict[str, str]] = json.loads(text)
    return loaded


@functools.cache
def environment() -> Environment:
    env = Environment(
        loader=PackageLoader(_PACKAGE, "templates"),
        autoescape=select_autoescape(default=True, default_for_string=True),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["css_string"] = css_string
    return env
