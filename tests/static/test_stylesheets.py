"""The stylesheets as pages link them: a small sheet for the board, one per page family, each
linked by the pages that use it, in the order the cascade needs (README's layout).

A sheet loaded later wins a tie of specificity, so the order is part of the contract: a page's
own sheets come after the ones every page gets, board.css before what is built around a board,
and a page family's sheet after those.
"""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CSS = ROOT / "static" / "css"

# The cascade, first to last: a page links any of these in this order.
ORDER = [
    "site.css",
    "accounts.css",
    "leaderboard.css",
    "moderation.css",
    "diagram.css",
    "board.css",
    "board-page.css",
    "game.css",
    "replay.css",
    "tutorial.css",
    "home.css",
    "rules.css",
    "analysis.css",
    "races.css",
    "spectate.css",
]

STYLESHEET = re.compile(r"""<link rel="stylesheet" href="\{% static '(css/[^']+)' %\}">""")
EXTENDS = re.compile(r"""\{% extends "([^"]+)" %\}""")


def templates() -> dict[str, Path]:
    """Every template of the site and the apps, by the name pages extend it by."""
    found = {
        p.relative_to(ROOT / "templates").as_posix(): p for p in ROOT.glob("templates/**/*.html")
    }
    for path in ROOT.glob("*/templates/**/*.html"):
        app = path.relative_to(ROOT).parts[0]
        found[path.relative_to(ROOT / app / "templates").as_posix()] = path
    return found


def parent(name: str, every: dict[str, Path]) -> str | None:
    found = EXTENDS.search(every[name].read_text())
    return found.group(1) if found else None


def is_page(name: str, every: dict[str, Path]) -> bool:
    """A whole page of the site: a document of its own, or one built on the base layout (the
    Django admin's pages, which some moderation forms extend, have their own stylesheets)."""
    while (above := parent(name, every)) is not None:
        if above not in every:
            return False
        name = above
    return "<html" in every[name].read_text()


def linked(name: str, every: dict[str, Path]) -> list[str]:
    """The sheets a page links, its parents' first, as the page gets them."""
    above = parent(name, every)
    inherited = linked(above, every) if above else []
    return inherited + [m.removeprefix("css/") for m in STYLESHEET.findall(every[name].read_text())]


PAGES = sorted(name for name in templates() if is_page(name, templates()))


def test_pages_are_found() -> None:
    assert {"base.html", "503.html", "game/play.html", "moderation/game.html"} <= set(PAGES)
    assert "moderation/admin_reason.html" not in PAGES


@pytest.mark.parametrize("name", PAGES)
def test_a_page_links_known_sheets_once_each_in_the_cascade_order(name: str) -> None:
    sheets = linked(name, templates())
    assert sheets[0] == "site.css"
    assert set(sheets) <= set(ORDER), set(sheets) - set(ORDER)
    assert len(sheets) == len(set(sheets))
    assert sheets == sorted(sheets, key=ORDER.index)


def test_every_sheet_is_linked_by_some_page_and_ordered() -> None:
    every = templates()
    used = {sheet for name in PAGES for sheet in linked(name, every)}
    assert used == {p.name for p in CSS.glob("*.css")} == set(ORDER)


@pytest.mark.parametrize(
    "name",
    [
        "game/play.html",
        "game/finished.html",
        "game/tutorial.html",
        "races/room.html",
        "spectate/watch.html",
    ],
)
def test_a_board_page_links_the_board_and_what_surrounds_it(name: str) -> None:
    sheets = linked(name, templates())
    assert sheets.index("board.css") < sheets.index("board-page.css")


@pytest.mark.parametrize(
    "name",
    ["leaderboard/daily.html", "races/lobby.html", "accounts/profile.html", "game/rules.html"],
)
def test_a_page_without_a_board_links_no_board_sheet(name: str) -> None:
    assert not {"board.css", "board-page.css", "game.css"} & set(linked(name, templates()))
