"""Link previews: what a page shows when its address is shared (OpenGraph and Twitter card tags).

A view puts a :class:`Preview` in its template's context as ``preview``; ``base.html`` draws the
tags (``core/templatetags/previews.py``), with the site's own preview for pages that have none.
A preview never says more than the page itself shows anyone.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

SITE_NAME: Final = "TriPeaks Online"
SITE_DESCRIPTION: Final = (
    "Play TriPeaks solitaire in your browser, with a server that deals fairly and never shows a"
    " card before it turns face up."
)
SITE_IMAGE: Final = "img/preview.png"
"""The site's preview card, a static file (``python -m core.pictures`` draws it)."""


@dataclass(frozen=True, slots=True)
class Preview:
    """A page's preview: its title, a sentence, and a picture of 1200 × 630 (a path on this
    site; empty for the site's card) with words for it."""

    title: str
    description: str = SITE_DESCRIPTION
    image: str = ""
    image_alt: str = "The TriPeaks Online logo, three peaks, on green felt"
