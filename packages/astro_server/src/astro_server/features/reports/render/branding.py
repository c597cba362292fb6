"""The brand a report is printed under (white label), and the neutral default brand.

With a branding given (inline or from a brand profile), the document carries only that brand:
its name on the cover, in the running header and in the PDF's Author and Creator; its colour;
its stored logo; its contact details in the footer. Our own product name appears nowhere.
Without a branding, the report uses a neutral default: the report's own title as the brand name
("Natal Chart Report" / "รายงานดวงชะตากำเนิด"), a deep indigo, a drawn emblem instead of a logo,
and no contact line (see docs/decisions.md).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

DEFAULT_COLOR: Final = "#3B3270"
_COLOR: Final = re.compile(r"#[0-9A-Fa-f]{6}")
LOGO_TYPES: Final = frozenset({"image/png", "image/jpeg", "image/svg+xml"})


@dataclass(frozen=True)
class ReportBrand:
    """What the renderer needs of a brand; the logo is the stored copy's bytes, never a URL."""

    name: str | None = None
    primary_color: str = DEFAULT_COLOR
    logo: bytes | None = None
    logo_type: str | None = None
    contact_email: str | None = None
    contact_phone: str | None = None
    contact_url: str | None = None

    def __post_init__(self) -> None:
        if not _COLOR.fullmatch(self.primary_color):
            raise ValueError("primary_color must be #RRGGBB")
        if self.logo is not None and self.logo_type not in LOGO_TYPES:
            raise ValueError(f"logo type must be one of {sorted(LOGO_TYPES)}")

    @property
    def is_default(self) -> bool:
        return self.name is None

    def contacts(self) -> list[str]:
        return [c for c in (self.contact_email, self.contact_phone, self.contact_url) if c]


DEFAULT_BRAND: Final = ReportBrand()
