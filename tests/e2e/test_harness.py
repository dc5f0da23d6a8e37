"""The harness itself: the Daphne server works on the very database the tests write to."""

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import Page, expect


@pytest.mark.django_db(transaction=True)
def test_server_sees_data_committed_by_the_test(page: Page) -> None:
    """An account the test creates can sign in to the admin that Daphne serves."""
    get_user_model().objects.create_superuser(
        username="referee", email="referee@example.com", password="a-long-test-password"
    )
    page.goto("/admin/login/")

    page.get_by_label("Username").fill("referee")
    page.get_by_label("Password").fill("a-long-test-password")
    page.get_by_role("button", name="Log in").click()

    expect(page.get_by_role("heading", name="Site administration")).to_be_visible()
