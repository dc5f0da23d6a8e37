"""The footer's language switcher in a real browser: choosing French by its label from the
keyboard turns the page French, keeps the reader on it, and the French pages pass axe-core."""

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.test_axe import SIZES, violations

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
