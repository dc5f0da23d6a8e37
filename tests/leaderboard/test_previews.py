"""Link previews of the daily pages and of a daily result, whose picture is the share grid."""

import io
import re
from dataclasses import replace

import pytest
from django.contrib.auth.models import User
from django.test import Client
from PIL import Image

from game.models import Game
from leaderboard.selectors import daily_result_of
from leaderboard.share_card import DRAW, PLAY, daily_card
from tests.leaderboard.conftest import Clock
from tests.leaderboard.helpers import DAY, at, play_out

pytestmark = pytest.mark.django_db


def meta(html: str, name: str) -> str:
    """The content of a page's ``<meta property|name=…>`` tag."""
    found = re.search(rf'<meta (?:property|name)="{re.escape(name)}" content="([^"]*)"', html)
    assert found, f"no {name} tag"
    return found.group(1)


def test_a_daily_result_page_previews_its_share_grid(
    finished_attempt: Game, client: Client
) -> None:
    html = client.get(f"/games/{finished_attempt.id}/").content.decode()

    image = meta(html, "og:image")
    assert image == f"http://testserver/daily/results/{finished_attempt.id}.png"
    assert meta(html, "twitter:card") == "summary_large_image"
    assert meta(html, "og:title") == "TriPeaks Online daily 2026-11-30"
    assert meta(html, "og:description").startswith(f"{finished_attempt.score:,} points (")

    response = client.get(image.removeprefix("http://testserver"))
    assert response["Content-Type"] == "image/png"
    picture = Image.open(io.BytesIO(response.content)).convert("RGB")
    assert picture.size == (1200, 630)
    colours = {colour for _, colour in picture.getcolors(maxcolors=1 << 16) or []}
    assert Image.new("RGB", (1, 1), PLAY).getpixel((0, 0)) in colours
    assert Image.new("RGB", (1, 1), DRAW).getpixel((0, 0)) in colours


def test_the_picture_is_drawn_from_plays_and_draws_alone(finished_attempt: Game) -> None:
    """The picture is made of the result's day, score, par and the order of plays and draws (a
    ``DailyResult`` holds no card): the same order draws the same picture, another order another."""
    result = daily_result_of(finished_attempt)
    assert result is not None
    assert True in result.draws
    assert False in result.draws
    reordered = replace(result, draws=tuple(sorted(result.draws)))
    assert reordered.draws != result.draws
    assert daily_card(replace(result)) == daily_card(result)
    assert daily_card(reordered) != daily_card(result)


def test_only_a_finished_ranked_attempt_has_a_picture(
    clock: Clock, ada: User, ada_client: Client
) -> None:
    from leaderboard import challenge

    clock.set(at(DAY, 10))
    attempt = challenge.daily_attempt_start(user=ada, day=DAY)
    casual = Game.objects.create(seed="1", owner=ada, started_at=at(DAY, 11))
    play_out(casual)

    assert ada_client.get(f"/daily/results/{attempt.id}.png").status_code == 404
    assert ada_client.get(f"/daily/results/{casual.id}.png").status_code == 404
    assert ada_client.get("/daily/results/not-a-game.png").status_code == 404


def test_pages_without_a_preview_of_their_own_share_the_site_s(client: Client) -> None:
    html = client.get("/rules/").content.decode()
    assert meta(html, "og:title") == "TriPeaks Online"
    assert re.fullmatch(
        r"http://testserver/static/img/preview(\.[0-9a-f]+)?\.png", meta(html, "og:image")
    )
    assert meta(html, "og:url") == "http://testserver/rules/"


def test_the_daily_page_and_a_profile_preview_in_words(client: Client, ada: User) -> None:
    assert meta(client.get("/daily/").content.decode(), "og:title").startswith(
        "TriPeaks daily challenge, "
    )
    profile = client.get("/players/ada/").content.decode()
    assert meta(profile, "og:title") == "ada on TriPeaks Online"
    assert meta(profile, "og:description") == "0 games played."
