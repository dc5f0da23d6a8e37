"""The footer's language switcher in a real browser: choosing French by its label from the
keyboard turns the page French, keeps the reader on it, and the French pages pass axe-core; and
the words the game page's scripts write (the board's names, the connection, the live region, why
a card cannot be played) follow the page's language."""

import re

import pytest
from django.conf import settings
from playwright.sync_api import FloatRect, Page, expect

from tests.e2e.layout import expect_no_sideways_scroll
from tests.e2e.test_axe import SIZES, violations
from tests.e2e.test_phone import SIZES as GAME_SIZES
from tests.e2e.test_phone import box_of, parts_off_screen
from tests.e2e.test_play import PLAYABLE, draw_until_something_fits, engine_state, start_game

# The pages read the database (the day's challenge, the boards), which the server shares.
pytestmark = pytest.mark.usefixtures("transactional_db")


def choose_french(page: Page) -> None:
    """Pick the language as a keyboard user would: the select by its label, then the button."""
    page.get_by_label("Language").select_option("fr")
    page.get_by_role("button", name="Change language").focus()
    page.keyboard.press("Enter")


def test_the_switcher_turns_the_page_french_and_back(page: Page) -> None:
    page.goto("/rules/")
    expect(page.locator("html")).to_have_attribute("lang", "en")

    choose_french(page)

    expect(page).to_have_url(page.url.split("?")[0])
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    expect(page.get_by_role("heading", level=1)).to_have_text("Comment jouer à TriPeaks")
    page.goto("/")  # the choice stays for the next page
    expect(page.get_by_role("heading", level=1)).to_have_text(
        "Le solitaire TriPeaks, dans votre navigateur"
    )

    page.get_by_label("Langue").select_option("en")
    page.get_by_role("button", name="Changer de langue").click()

    expect(page.get_by_role("heading", level=1)).to_have_text("TriPeaks solitaire, in your browser")


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("path", ["/", "/rules/", "/daily/", "/leaderboards/", "/races/"])
def test_french_pages_have_no_violations(page: Page, path: str, size: str) -> None:
    page.set_viewport_size(SIZES[size])
    page.goto("/")
    choose_french(page)
    expect(page.locator("html")).to_have_attribute("lang", "fr")

    page.goto(path)

    assert violations(page) == []


def set_language(page: Page, language: str) -> None:
    """Choose the language as the switcher would (its cookie), and load the page again."""
    page.context.add_cookies(
        [{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": page.url}]
    )
    page.reload()
    expect(page.locator("html")).to_have_attribute("lang", language)
    expect(page.locator("[data-connection]")).to_have_attribute("data-state", "open")


def test_the_game_page_scripts_speak_the_page_s_language(page: Page) -> None:
    nbsp = "\u00a0"
    game_id = start_game(page)
    set_language(page, "fr")

    catalog = page.locator('script[src*="/jsi18n/"]')
    expect(catalog).to_have_count(1)
    expect(page.locator("[data-connection-text]")).to_have_text("Connecté")
    expect(page.locator(".pile--stock .pile__label")).to_have_text("Pioche")
    expect(page.locator(".pile--waste .pile__label")).to_have_text("Défausse")
    expect(page.locator(".board__peaks")).to_have_attribute("aria-label", "Les sommets")
    expect(page.locator(".stock")).to_have_attribute(
        "aria-label", re.compile(rf"^\d+{nbsp}: pioche, \d+ cartes{nbsp}: piocher$")
    )
    expect(page.locator(".waste")).to_have_attribute(
        "aria-label", re.compile(rf"^Défausse{nbsp}: .+ de (trèfle|carreau|cœur|pique)$")
    )
    expect(page.locator("[data-announcer]")).to_contain_text("La défausse montre ")

    # A click the rules refuse is explained in French beside the card; a covered card too.
    state = engine_state(game_id)
    misfit = next(p for p in range(18, 28) if p not in state.playable_positions())
    page.locator(f'.card[data-pos="{misfit}"]').click()
    tip = page.locator("[data-card-tip]")
    expect(tip).to_have_text(re.compile(rf"^\S+ ne va pas sur \S+{nbsp}: jouez (un|une) .+\.$"))
    page.locator('.card[data-pos="3"]').click(force=True, position={"x": 10, "y": 6})
    expect(tip).to_have_text(
        f"Cette carte est recouverte{nbsp}: dégagez d’abord les cartes posées dessus."
    )

    # A move is announced in French.
    draws = draw_until_something_fits(page)
    page.locator(PLAYABLE).first.click()
    expect(page.locator("[data-game]")).to_have_attribute("data-seq", str(draws + 1))
    expect(page.locator("[data-announcer]")).to_contain_text("Vous jouez ")

    # And back in English, the same page's scripts write English again, with no catalog loaded.
    set_language(page, "en")
    expect(catalog).to_have_count(0)
    expect(page.locator("[data-connection-text]")).to_have_text("Connected")
    expect(page.locator(".pile--stock .pile__label")).to_have_text("Stock")
    expect(page.locator(".stock")).to_have_attribute(
        "aria-label", re.compile(r"^\d+: stock, \d+ cards?: draw$")
    )
    page.locator('.card[data-pos="3"]').click(force=True, position={"x": 10, "y": 6})
    expect(tip).to_have_text("That card is covered: clear the cards on top of it first.")


def overlap(first: FloatRect, second: FloatRect) -> bool:
    """Whether two boxes share any area (a pixel of rounding allowed)."""
    return (
        first["x"] + first["width"] > second["x"] + 1
        and second["x"] + second["width"] > first["x"] + 1
        and first["y"] + first["height"] > second["y"] + 1
        and second["y"] + second["height"] > first["y"] + 1
    )


@pytest.mark.parametrize("size", ["desktop", "phone", "landscape"])
def test_the_french_game_page_fits_as_the_english_one(page: Page, size: str) -> None:
    """French's longer words ("Abandonner", "Réglages", "Indice") still leave the whole game on
    screen, with no sideways scroll, and no button under the table (the side column of a phone
    on its side)."""
    viewport = GAME_SIZES[size]
    page.set_viewport_size(viewport)
    start_game(page)
    set_language(page, "fr")
    page.evaluate("window.scrollTo(0, 0)")

    assert parts_off_screen(page, viewport) == []
    expect_no_sideways_scroll(page)
    felt = box_of(page.locator(".game__felt"))
    for button in ("[data-hint]", "[data-abandon]", ".game__tools .settings summary"):
        assert not overlap(box_of(page.locator(button)), felt), button
