"""Pictures drawn on the server with Pillow: the site's icons and link-preview card, and the
pieces other pictures are made of (the felt, the peaks mark, lines of text, a grid of squares).

``python -m core.pictures static/img`` writes the icons and the site's preview card; they are
committed, so this runs only when the look changes.
"""

from __future__ import annotations

import io
import math
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Final

from PIL import Image, ImageDraw, ImageFont

CARD_SIZE: Final = (1200, 630)
"""The size OpenGraph and Twitter's large summary cards expect."""
FELT: Final = "#12653f"
FELT_DARK: Final = "#0a4029"
INK: Final = "#ffffff"
SOFT_INK: Final = "#d7eadf"
MARK: Final = ((0, 20), (6, 4), (11, 13), (16, 0), (21, 13), (26, 4), (32, 20))
"""The peaks of the site's mark (static/img/favicon.svg), in a 32 × 20 box."""
ICON_SIZES: Final = (192, 512)


def canvas(size: tuple[int, int]) -> Image.Image:
    """A felt-green picture with a darker band at the bottom."""
    image = Image.new("RGB", size, FELT)
    ImageDraw.Draw(image).rectangle((0, size[1] - size[1] // 12, size[0], size[1]), fill=FELT_DARK)
    return image


def draw_mark(image: Image.Image, left: float, top: float, width: float) -> None:
    """The site's peaks mark, ``width`` wide, its top-left corner at (``left``, ``top``)."""
    scale = width / 32
    points = [(left + x * scale, top + y * scale) for x, y in MARK]
    ImageDraw.Draw(image).polygon(points, fill=INK)


def draw_text(
    image: Image.Image, text: str, xy: tuple[float, float], size: int, colour: str = INK
) -> None:
    """One line of text in Pillow's own font (nothing read from the system)."""
    font = ImageFont.load_default(size=size)
    ImageDraw.Draw(image).text(xy, text, font=font, fill=colour)


def grid_layout(count: int, width: int, height: int) -> tuple[int, int]:
    """The columns and the square size (gap included) that fit ``count`` squares in the box at the
    largest size, up to 64 pixels.

    >>> grid_layout(10, 1100, 300)
    (17, 64)
    >>> grid_layout(120, 1100, 300)
    (22, 50)
    """
    for size in range(64, 3, -1):
        columns = max(1, width // size)
        if math.ceil(count / columns) * size <= height:
            return columns, size
    return max(1, width // 4), 4


def draw_squares(
    image: Image.Image, colours: Sequence[str], box: tuple[int, int, int, int]
) -> None:
    """Squares in rows, left to right, filling the box (left, top, width, height) as fully as
    their number allows."""
    left, top, width, height = box
    columns, size = grid_layout(len(colours), width, height)
    gap = max(1, size // 8)
    draw = ImageDraw.Draw(image)
    for index, colour in enumerate(colours):
        row, column = divmod(index, columns)
        x, y = left + column * size, top + row * size
        draw.rounded_rectangle(
            (x, y, x + size - gap, y + size - gap), radius=max(1, size // 8), fill=colour
        )


def png(image: Image.Image) -> bytes:
    """A picture as PNG bytes."""
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=True)
    return buffer.getvalue()


def site_card() -> Image.Image:
    """The link preview of every page that has none of its own."""
    image = canvas(CARD_SIZE)
    draw_mark(image, 80, 150, 240)
    draw_text(image, "TriPeaks Online", (80, 340), 84)
    draw_text(
        image,
        "Solitaire with a fair dealer: play, race, and the daily challenge.",
        (80, 450),
        34,
        SOFT_INK,
    )
    return image


def icon(size: int, *, maskable: bool = False) -> Image.Image:
    """The app icon: the mark on felt (a maskable icon keeps it inside the safe circle)."""
    image = Image.new("RGB", (size, size), FELT)
    width = size * (0.5 if maskable else 0.7)
    draw_mark(image, (size - width) / 2, (size - width * 20 / 32) / 2, width)
    return image


def write_static(folder: Path) -> list[Path]:
    """Write the icons and the site card into ``folder``; the paths written."""
    pictures = {"preview.png": site_card()}
    for size in ICON_SIZES:
        pictures[f"icon-{size}.png"] = icon(size)
        pictures[f"icon-{size}-maskable.png"] = icon(size, maskable=True)
    written = []
    for name, picture in pictures.items():
        path = folder / name
        path.write_bytes(png(picture))
        written.append(path)
    return written


if __name__ == "__main__":
    for path in write_static(Path(sys.argv[1] if len(sys.argv) > 1 else "static/img")):
        print(path)
