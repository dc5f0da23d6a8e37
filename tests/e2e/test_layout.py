"""The layout check the browser tests share fails on a page that is too wide, and only then."""

import pytest
from playwright.sync_api import Page

from tests.e2e.layout import expect_no_sideways_scroll
from tests.e2e.test_play import PHONE


def test_a_page_wider_than_its_window_fails_naming_what_sticks_out(page: Page) -> None:
    page.set_viewport_size(PHONE)
    page.set_content("<body style='margin: 0'><div class='wide' style='width: 400px'>x</div>")
    with pytest.raises(AssertionError, match=r"400 px of page in a 360 px window; .* div\.wide"):
        expect_no_sideways_scroll(page)


def test_a_page_that_fits_its_window_passes(page: Page) -> None:
    page.set_viewport_size(PHONE)
    page.set_content("<body style='margin: 0'><div style='width: 300px'>x</div>")
    expect_no_sideways_scroll(page)
