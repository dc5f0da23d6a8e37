"""Players' reports: signed-in players report someone else's finished game, once per game, at
most a set number an hour; reports land in the queue as the game's "reported" flag."""

from datetime import UTC, datetime, timedelta

import pytest
from django.contrib.auth.models import User
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import timezone

from game.models import Game
from moderation import services
from moderation.models import Flag, FlagKind, FlagStatus, Report
from tests.accounts.helpers import make_player, play_out, signed_in
from tests.moderation.helpers import timed_game

pytestmark = pytest.mark.django_db

START = datetime(2026, 11, 30, 12, tzinfo=UTC)


def report_url(game: Game) -> str:
    return reverse("moderation:report", kwargs={"game_id": game.id})


@pytest.fixture
def adas_game(ada: User) -> Game:
    return timed_game(ada, gaps_ms=2000, start=START)


def test_a_report_lands_in_the_queue(adas_game: Game, bob: User) -> None:
    response = signed_in(bob).post(report_url(adas_game), {"reason": "  Par every time  "})

    assert response.status_code == 303
    assert response["Location"] == adas_game.get_absolute_url()
    report = Report.objects.get()
    assert (report.reporter_id, report.game_id, report.reason) == (
        bob.pk, adas_game.id, "Par every time",
    )  # fmt: skip
    assert (report.flag.kind, report.flag.status) == (FlagKind.REPORTED, FlagStatus.OPEN)


def test_reports_need_a_signed_in_player(adas_game: Game) -> None:
    response = Client().post(report_url(adas_game), {"reason": "cheat"})
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("accounts:login"))
    assert not Report.objects.exists()


@pytest.mark.parametrize("data", [{}, {"reason": ""}, {"reason": "   "}, {"reason": "x" * 501}])
def test_a_report_without_a_sensible_reason_is_refused(
    adas_game: Game, bob: User, data: dict[str, str]
) -> None:
    response = signed_in(bob).post(report_url(adas_game), data)
    assert response.status_code == 400
    assert b"why" in response.content
    assert not Report.objects.exists()
    assert not Flag.objects.exists()


def test_one_report_per_game_per_player(adas_game: Game, bob: User) -> None:
    client = signed_in(bob)
    assert client.post(report_url(adas_game), {"reason": "first"}).status_code == 303
    again = client.post(report_url(adas_game), {"reason": "second"})
    assert again.status_code == 409
    assert b"already reported" in again.content
    assert Report.objects.count() == 1
    assert Report.objects.get().reason == "first"


def test_reports_of_several_players_share_one_flag_that_reopens(
    adas_game: Game, bob: User, moderator: User
) -> None:
    carol = make_player("carol", email="carol@example.com")
    services.report_submit(reporter=bob, game_id=adas_game.id, reason="odd")
    flag = Flag.objects.get()
    services.flag_close(actor=moderator, flag_id=flag.id, resolved=False, reason="fine")

    services.report_submit(reporter=carol, game_id=adas_game.id, reason="very odd")

    flag.refresh_from_db()
    assert Flag.objects.count() == 1
    assert flag.status == FlagStatus.OPEN
    assert flag.reports.count() == 2


def test_own_games_unfinished_games_and_unknown_games_cannot_be_reported(
    ada: User, adas_game: Game, bob: User
) -> None:
    assert signed_in(ada).post(report_url(adas_game), {"reason": "me"}).status_code == 403
    in_play = Game.objects.create(seed="9", owner=ada, started_at=timezone.now())
    play_out(in_play, moves=3)
    assert signed_in(bob).post(report_url(in_play), {"reason": "live"}).status_code == 403
    unknown = reverse(
        "moderation:report", kwargs={"game_id": "00000000-0000-0000-0000-000000000000"}
    )
    assert signed_in(bob).post(unknown, {"reason": "?"}).status_code == 404
    assert signed_in(bob).get(report_url(adas_game)).status_code == 405
    assert not Report.objects.exists()


@override_settings(MODERATION_REPORTS_PER_HOUR=3)
def test_reports_are_rate_limited_per_player(ada: User, bob: User) -> None:
    games = [
        timed_game(ada, gaps_ms=2000, start=START + timedelta(minutes=i), seed=f"r{i}")
        for i in range(5)
    ]
    now = START + timedelta(hours=1)
    for game in games[:3]:
        services.report_submit(reporter=bob, game_id=game.id, reason="x", now=now)
    with pytest.raises(services.TooManyReports):
        services.report_submit(reporter=bob, game_id=games[3].id, reason="x", now=now)
    # An hour later, the player may report again.
    services.report_submit(
        reporter=bob, game_id=games[3].id, reason="x", now=now + timedelta(minutes=61)
    )
    assert Report.objects.count() == 4
    # Through the page: 429 and a clear message.
    client = signed_in(bob)
    for game in games[:2]:
        Report.objects.filter(game=game).update(created_at=timezone.now())
    Report.objects.filter(game=games[3]).update(created_at=timezone.now())
    response = client.post(report_url(games[4]), {"reason": "too many"})
    assert response.status_code == 429
    assert b"try again later" in response.content


def test_the_report_form_is_on_someone_else_s_finished_game_only(
    adas_game: Game, ada: User, bob: User
) -> None:
    page = signed_in(bob).get(adas_game.get_absolute_url()).content.decode()
    assert report_url(adas_game) in page
    assert "Report this score" in page
    own = signed_in(ada).get(adas_game.get_absolute_url()).content.decode()
    assert report_url(adas_game) not in own
    services.report_submit(reporter=bob, game_id=adas_game.id, reason="x")
    after = signed_in(bob).get(adas_game.get_absolute_url()).content.decode()
    assert "You have reported this game" in after
    guest = Client().get(adas_game.get_absolute_url()).content.decode()
    assert "Sign in</a> to report" in guest
