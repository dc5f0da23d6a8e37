"""The public pages in a real browser, at desktop and phone sizes.

Each test saves a full-page screenshot under SCREENSHOT_DIR (outside the repository) for a person to
look at; the assertions cover what a machine can judge.
"""

import os
import tempfile
from pathlib import Path

import pytest
from playwright.sync_api import Page, Response, ViewportSize, expect

from tests.e2e.layout import expect_no_sideways_scroll

SCREENSHOT_DIR = Path(
    os.environ.get("TRIPEAKS_SCREENSHOTS", Path(tempfile.gettempdir()) / "tripeaks-screenshots")
)

VIEWPORTS: dict[str, ViewportSize] = {
    "desktop": {"width": 1280, "height": 800},
    "phone": {"width": 360, "height": 740},
}

PAGES = {
    "home": ("/", "TriPeaks solitaire, in your browser"),
    "rules": ("/rules/", "How to play TriPeaks"),
}


def screenshot(page: Page, name: str) -> None:
    SCREENSHOT_DIR.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=SCREENSHOT_DIR / f"{name}.png", full_page=True)


@pytest.mark.parametrize("viewport", VIEWPORTS)
@pytest.mark.parametrize("page_name", PAGES)
def test_page_renders_without_horizontal_scroll(page: Page, page_name: str, viewport: str) -> None:
    """The page loads with its stylesheet, shows its heading and never scrolls sideways."""
    failures: list[str] = []

    def record_failure(response: Response) -> None:
        if response.status >= 400:
            failures.append(f"{response.status} {response.url}")

    page.on("response", record_failure)
    page.set_viewport_size(VIEWPORTS[viewport])
    path, heading = PAGES[page_name]

    response = page.goto(path)

    assert response is not None
    assert response.status == 200
    expect(page.get_by_role("heading", level=1)).to_have_text(heading)
    expect(page.get_by_role("banner").get_by_role("link", name="TriPeaks Online")).to_be_visible()
    # The stylesheet applied: the header is painted, not the browser's default transparent.
    header_background = page.locator(".site-header").evaluate(
        "element => getComputedStyle(element).backgroundColor"
    )
    assert header_background != "rgba(0, 0, 0, 0)"
    expect_no_sideways_scroll(page)
    assert failures == []
    screenshot(page, f"{page_name}-{viewport}")


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_home_links_to_the_rules(page: Page, server_url: str, viewport: str) -> None:
    """Following the home page's link to the rules lands on the rules, whose nav marks the page."""
    page.set_viewport_size(VIEWPORTS[viewport])
    page.goto("/")

    page.get_by_role("main").get_by_role("link", name="Learn the rules").click()

    expect(page).to_have_url(f"{server_url}/rules/")
    expect(page.get_by_role("heading", level=1)).to_have_text("How to play TriPeaks")
    menu_button = page.get_by_role("button", name="Menu")
    if menu_button.is_visible():  # a phone: the links are behind the menu button
        menu_button.click()
    expect(
        page.get_by_role("navigation", name="Main").get_by_role("link", name="Rules")
    ).to_have_attribute("aria-current", "page")


def test_rules_table_of_contents_jumps_to_sections(page: Page, server_url: str) -> None:
    """Each entry of the table of contents leads to a heading on the page."""
    page.goto("/rules/")
    toc = page.get_by_role("navigation", name="On this page")
    links = toc.get_by_role("link")

    targets = [link.get_attribute("href") for link in links.all()]

    assert len(targets) == 8
    for target in targets:
        assert target is not None
        assert target.startswith("#")
        expect(page.locator(target)).to_have_count(1)
    toc.get_by_role("link", name="Scoring").click()
    expect(page).to_have_url(f"{server_url}/rules/#scoring")
    expect(page.locator("#scoring")).to_be_in_viewport()


def test_faq_answers_open_on_click(page: Page) -> None:
    """An FAQ answer is hidden until its question is clicked."""
    page.goto("/rules/")
    answer = page.get_by_text("The clock records how long a game took")
    expect(answer).to_be_hidden()

    page.get_by_text("Is there a time limit?").click()

    expect(answer).to_be_visible()


def test_skip_link_appears_on_first_tab(page: Page) -> None:
    """The first Tab shows the skip link; following it moves focus to the main content."""
    page.goto("/rules/")
    skip_link = page.get_by_role("link", name="Skip to content")

    page.keyboard.press("Tab")

    expect(skip_link).to_be_focused()
    expect(skip_link).to_be_in_viewport()
    page.keyboard.press("Enter")
    expect(page.get_by_role("main")).to_be_focused()
