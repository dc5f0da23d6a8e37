"""Looks: the colour scheme, felt and card backs, kept with an account or in a guest's session,
drawn from the first frame by ``<html>``'s attributes, each felt and back within contrast rules."""

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client

from accounts.looks import CardBack, Felt
from accounts.models import PlayerSettings
from tests.accounts.helpers import make_player, signed_in

pytestmark = pytest.mark.django_db

SITE_CSS = (Path(settings.BASE_DIR) / "static/css/site.css").read_text()
WHITE = "#ffffff"


def html_looks(html: str) -> tuple[str, str, str]:
    found = re.search(
        r'<html lang="en" data-theme="(\w+)" data-felt="(\w+)" data-back="(\w+)">', html
    )
    assert found, "no looks on <html>"
    return found.group(1), found.group(2), found.group(3)


def rule(selector: str) -> dict[str, list[str]]:
    """The colours a rule of site.css gives each custom property (both of a ``light-dark()``)."""
    found = re.search(rf"(?:^|\n){re.escape(selector)} \{{\n(.*?)\n\}}", SITE_CSS, re.S)
    assert found, f"no rule for {selector}"
    return {
        name: re.findall(r"#[0-9a-f]{6}", value)
        for name, value in re.findall(r"(--[\w-]+):\s*([^;]+);", found.group(1))
    }


def contrast(foreground: str, background: str) -> float:
    """WCAG 2's contrast ratio of two ``#rrggbb`` colours."""

    def luminance(colour: str) -> float:
        channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
        linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]

    lighter, darker = sorted((luminance(foreground), luminance(background)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


@pytest.mark.parametrize("felt", Felt.values)
def test_every_felt_keeps_white_text_readable(felt: str) -> None:
    selector = ':root,\n[data-felt="green"]' if felt == Felt.GREEN else f'[data-felt="{felt}"]'
    colours = rule(selector)
    assert all(
        contrast(WHITE, colour) >= 7 for colour in colours["--felt"] + colours["--felt-dark"]
    )
    assert all(contrast(WHITE, colour) >= 4.5 for colour in colours["--felt-light"])


@pytest.mark.parametrize("back", CardBack.values)
def test_every_card_back_shows_the_card_s_white_edge(back: str) -> None:
    selector = ':root,\n[data-back="blue"]' if back == CardBack.BLUE else f'[data-back="{back}"]'
    (colour,) = rule(selector)["--card-back"]
    assert contrast(WHITE, colour) >= 3


def test_a_guest_s_choice_stays_in_their_session(client: Client) -> None:
    assert html_looks(client.get("/").content.decode()) == ("system", "green", "blue")

    response = client.post("/looks/", {"theme": "dark", "felt": "red", "card_back": "black"})

    assert response.status_code == 303
    assert html_looks(client.get("/rules/").content.decode()) == ("dark", "red", "black")
    assert html_looks(Client().get("/rules/").content.decode()) == ("system", "green", "blue")


def test_an_unknown_choice_is_refused_and_changes_nothing(client: Client) -> None:
    response = client.post("/looks/", {"theme": "dark", "felt": "purple", "card_back": "red"})

    assert response.status_code == 200
    assert "Select a valid choice" in response.content.decode()
    assert html_looks(client.get("/").content.decode()) == ("system", "green", "blue")


def test_a_player_s_choice_follows_their_account() -> None:
    ada = make_player()
    client = signed_in(ada)
    assert client.get("/looks/")["Location"] == "/accounts/settings/#looks"

    response = client.post(
        "/accounts/settings/",
        {
            "animations": "on",
            "allow_watching": "on",
            "theme": "light",
            "felt": "slate",
            "card_back": "green",
        },
    )

    assert response.status_code == 303
    assert PlayerSettings.objects.get(user=ada).felt == "slate"
    assert html_looks(signed_in(ada).get("/").content.decode()) == ("light", "slate", "green")
