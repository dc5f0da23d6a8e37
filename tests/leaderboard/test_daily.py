"""The daily challenge: one winnable deal per UTC day, the same for everyone, committed to during
the day and published after it; one ranked attempt each; guests play the archive."""

import hashlib
import hmac
import io
import json
import re
from datetime import timedelta

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client

from core.errors import SignInRequired
from game.engine import Deal, Variant
from game.engine.cli import main as engine_cli
from game.engine.solver import solve
from game.models import DealSource, Game, GameAnalysis, Mode
from game.players import Player
from leaderboard import challenge
from leaderboard.models import Daily, DailyAttempt, PlayerTally
from leaderboard.selectors import utc_today
from tests.accounts.helpers import make_player
from tests.concurrency import at_once
from tests.leaderboard.conftest import Clock
from tests.leaderboard.helpers import DAY, at, give_up, play_out

pytestmark = pytest.mark.django_db

NEXT_DAY = DAY + timedelta(days=1)
CARD_CODE = re.compile(r"(?<![0-9A-Za-z])[A2-9TJQK][cdhs](?![0-9A-Za-z])")


def location(response: object) -> str:
    return response["Location"]  # type: ignore[index]


def start_ranked(client: Client) -> Game:
    response = client.post("/daily/start")
    assert response.status_code == 303, response
    return Game.objects.get(id=location(response).split("/")[2])


def test_the_seed_is_the_first_of_the_secret_sequence_that_the_solver_wins() -> None:
    """Seeds are HMAC-SHA256(DAILY_SEED_SECRET, "<date>/<n>"), n = 0, 1, …; the first whose
    deal is proved winnable is the day's."""
    daily = challenge.daily_for(DAY)
    key = settings.DAILY_SEED_SECRET.encode()
    for n in range(100):
        seed = hmac.new(key, f"{DAY.isoformat()}/{n}".encode(), hashlib.sha256).hexdigest()
        if solve(Deal.from_seed(seed), Variant.TRIPEAKS).winnable:
            break
    assert daily.seed == seed
    assert daily.variant == "tripeaks"
    assert solve(Deal.from_seed(daily.seed), Variant.TRIPEAKS).winnable is True


def test_the_commitment_is_the_sha256_of_the_seed() -> None:
    daily = challenge.daily_for(DAY)
    assert daily.commitment == hashlib.sha256(daily.seed.encode("utf-8")).hexdigest()


def test_every_player_gets_the_same_deal(clock: Clock) -> None:
    """The day's challenge is made once; every ranked attempt is on its seed."""
    clock.set(at(DAY, 9))
    first, second = make_player("ada"), make_player("bea", email="")
    games = [challenge.daily_attempt_start(user=user, day=DAY) for user in (first, second)]
    assert challenge.daily_for(DAY) == challenge.daily_for(DAY)
    assert Daily.objects.count() == 1
    assert {(game.seed, game.variant, game.mode) for game in games} == {
        (challenge.daily_for(DAY).seed, "tripeaks", Mode.DAILY)
    }
    assert games[0].id != games[1].id


def test_today_s_page_shows_the_commitment_and_never_the_seed(
    clock: Clock, client: Client, ada: User, ada_client: Client
) -> None:
    """Guest or player, before or after their attempt: the fingerprint, the time left, no seed."""
    clock.set(at(DAY, 9))
    pages = [client.get("/daily/"), ada_client.get("/daily/")]
    game = start_ranked(ada_client)
    play_out(game, finished_at=at(DAY, 9, 5))
    pages.append(ada_client.get("/daily/"))
    daily = Daily.objects.get(date=DAY)
    midnight = int(at(NEXT_DAY, 0).timestamp() * 1000)
    for page in pages:
        html = page.content.decode()
        assert page.status_code == 200
        assert daily.commitment in html
        assert daily.seed not in html
        assert f'data-ends-at="{midnight}"' in html


def test_the_seed_is_published_once_the_day_is_over(clock: Clock, client: Client) -> None:
    """Until midnight UTC the day's own page is today's page; from midnight it shows the seed,
    how to check it against the commitment, and how to deal it with the engine."""
    clock.set(at(DAY, 23, 59, 59))
    daily = challenge.daily_for(DAY)
    response = client.get(f"/daily/{DAY}/")
    assert response.status_code == 302
    assert location(response) == "/daily/"

    clock.set(at(NEXT_DAY, 0))
    html = client.get(f"/daily/{DAY}/").content.decode()
    assert daily.seed in html
    assert daily.commitment in html
    assert f"python -m game.engine deal {daily.seed}" in html
    assert f"printf %s {daily.seed} | sha256sum" in html
    par = Daily.objects.get(date=DAY).par  # worked out on the first visit, then kept
    assert par is not None
    assert f"<dd data-par>{par}</dd>" in html


def test_the_published_seed_deals_the_same_cards_with_the_engine_cli(
    clock: Clock, ada_client: Client
) -> None:
    """``python -m game.engine deal SEED`` gives the deal the ranked game was played on, as its
    export shows once the day is over."""
    clock.set(at(DAY, 10))
    game = start_ranked(ada_client)
    play_out(game, finished_at=at(DAY, 10, 3))
    clock.set(at(NEXT_DAY, 0, 0, 1))
    exported = ada_client.get(f"/games/{game.id}/export.json").json()
    out = io.StringIO()

    assert engine_cli(["deal", Daily.objects.get(date=DAY).seed], stdout=out) == 0

    dealt = json.loads(out.getvalue())
    for field in ("seed", "variant", "tableau", "waste", "stock"):
        assert dealt[field] == exported[field]


def test_the_day_rolls_over_at_midnight_utc(clock: Clock, ada: User, ada_client: Client) -> None:
    """One second before midnight it is still the day's challenge; at midnight the next one starts,
    with a new deal and a new attempt, and the old day can no longer be attempted."""
    clock.set(at(DAY, 23, 59, 59))
    assert challenge.daily_for(DAY).commitment in ada_client.get("/daily/").content.decode()
    before = start_ranked(ada_client)

    clock.set(at(NEXT_DAY, 0))
    page = ada_client.get("/daily/").content.decode()
    after = start_ranked(ada_client)

    following = Daily.objects.get(date=NEXT_DAY)
    assert following.commitment in page
    assert (before.seed, after.seed) == (challenge.daily_for(DAY).seed, following.seed)
    assert before.seed != after.seed
    assert DailyAttempt.objects.filter(user=ada).count() == 2
    with pytest.raises(challenge.DailyClosed):
        challenge.daily_attempt_start(user=ada, day=DAY)


def test_starting_again_resumes_the_one_ranked_attempt(
    clock: Clock, ada: User, ada_client: Client
) -> None:
    """A second start (a reload, another tab) goes back to the same game: no new deal, no new
    attempt."""
    clock.set(at(DAY, 8))
    first = start_ranked(ada_client)
    second = start_ranked(ada_client)
    assert first.id == second.id
    assert challenge.daily_attempt_start(user=ada, day=DAY).id == first.id
    assert DailyAttempt.objects.count() == 1
    assert Game.objects.filter(owner=ada).count() == 1
    assert first.reveal_after == at(NEXT_DAY, 0)


def test_giving_up_ends_the_attempt(clock: Clock, ada: User, ada_client: Client) -> None:
    clock.set(at(DAY, 8))
    game = start_ranked(ada_client)
    give_up(game, finished_at=at(DAY, 8, 1))
    assert start_ranked(ada_client).id == game.id
    assert DailyAttempt.objects.get(user=ada).score == 0
    assert "Start today" not in ada_client.get("/daily/").content.decode()


@pytest.mark.django_db(transaction=True)
def test_concurrent_starts_make_exactly_one_attempt() -> None:
    """Eight requests of one player starting at once (before the day's challenge even exists):
    one challenge, one attempt, one game, and every request is sent to it."""
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL: SQLite runs one writer at a time")
    ada = make_player("ada")
    today = utc_today()
    started = at_once(
        lambda _: str(challenge.daily_attempt_start(user=ada, day=today).id), range(8)
    )
    assert len(started) == 8
    assert len(set(started)) == 1
    assert Daily.objects.count() == 1
    assert DailyAttempt.objects.filter(user=ada).count() == 1
    assert Game.objects.filter(owner=ada).count() == 1


def test_the_database_allows_one_attempt_per_player_and_day(clock: Clock, ada: User) -> None:
    """The rule is a constraint, not only a check in the service."""
    from django.db import IntegrityError, transaction

    clock.set(at(DAY, 8))
    game = challenge.daily_attempt_start(user=ada, day=DAY)
    other = Game.objects.create(seed=game.seed, owner=ada, mode=Mode.DAILY, started_at=at(DAY, 9))
    with pytest.raises(IntegrityError), transaction.atomic():
        DailyAttempt.objects.create(
            daily=Daily.objects.get(date=DAY), user=ada, game=other, created_at=at(DAY, 9)
        )


def test_guests_are_sent_to_sign_in_for_today_s_deal(clock: Clock, client: Client) -> None:
    """A guest could scout today's deal before a ranked attempt: they may not play it at all."""
    clock.set(at(DAY, 12))
    page = client.get("/daily/").content.decode()
    start = client.post("/daily/start")
    replay = client.post(f"/daily/{DAY}/play")

    assert "Start today" not in page
    assert "/accounts/login/?next=/daily/" in page
    for response in (start, replay):
        assert response.status_code == 302
        assert location(response) == "/accounts/login/?next=/daily/"
    assert not Game.objects.exists()
    with pytest.raises(SignInRequired):
        challenge.daily_replay_start(
            player=Player(user_id=None, guest_key="k"), daily=Daily.objects.get(date=DAY)
        )


def test_guests_play_the_archive(clock: Clock, client: Client) -> None:
    """A past day's deal is public: a guest plays it unranked, and its replay shows at once."""
    clock.set(at(DAY, 12))
    daily = challenge.daily_for(DAY)
    clock.set(at(DAY + timedelta(days=3), 9))
    archive = client.get("/daily/archive/").content.decode()
    response = client.post(f"/daily/{DAY}/play")

    assert f"/daily/{DAY}/" in archive
    assert response.status_code == 303
    game = Game.objects.get(id=location(response).split("/")[2])
    assert (game.seed, game.mode, game.owner) == (daily.seed, Mode.DAILY, None)
    assert game.guest_key
    assert not DailyAttempt.objects.exists()
    play_out(game)
    replay = client.get(f"/games/{game.id}/").content.decode()
    assert daily.seed in replay  # the day is over: the whole deal shows


def test_days_to_come_do_not_exist(clock: Clock, client: Client, ada_client: Client) -> None:
    clock.set(at(DAY, 12))
    assert client.get(f"/daily/{NEXT_DAY}/").status_code == 404
    assert ada_client.post(f"/daily/{NEXT_DAY}/play").status_code == 404
    assert client.get("/daily/2026-02-30/").status_code == 404
    assert not Daily.objects.filter(date=NEXT_DAY).exists()


def test_today_s_deal_is_replayed_only_after_the_ranked_attempt(
    clock: Clock, ada: User, ada_client: Client
) -> None:
    """Before the attempt, and while it is in play, a replay is refused (it would show the deal);
    once it is over the player may replay the deal unranked, and that game counts nowhere."""
    clock.set(at(DAY, 12))
    refused_before = ada_client.post(f"/daily/{DAY}/play", follow=True)
    attempt = start_ranked(ada_client)
    refused_during = ada_client.post(f"/daily/{DAY}/play")
    assert Game.objects.filter(owner=ada).count() == 1
    play_out(attempt, finished_at=at(DAY, 12, 5))
    ranked = DailyAttempt.objects.values_list("score", "finished_at").get(game=attempt)

    allowed = ada_client.post(f"/daily/{DAY}/play")

    assert "Play your ranked attempt first" in refused_before.content.decode()
    assert location(refused_during) == "/daily/"
    replay = Game.objects.get(id=location(allowed).split("/")[2])
    assert (replay.seed, replay.mode) == (attempt.seed, Mode.DAILY)
    assert not DailyAttempt.objects.filter(game=replay).exists()
    assert (replay.deal_source, replay.ranked) == (DealSource.REPLAY, False)
    play_out(replay, finished_at=at(DAY, 12, 9))
    assert DailyAttempt.objects.get(user=ada).game_id == attempt.id
    assert DailyAttempt.objects.values_list("score", "finished_at").get(game=attempt) == ranked
    assert not PlayerTally.objects.filter(user=ada).exists()  # a daily game is on no other board


def test_a_finished_daily_game_keeps_its_deal_secret_until_the_day_is_over(
    clock: Clock, ada: User, ada_client: Client, client: Client
) -> None:
    """Its page shows the result with no card; its export is refused; its analysis has no par
    line (and, for anyone but the player, no card). At midnight all of it is revealed."""
    clock.set(at(DAY, 10))
    game = start_ranked(ada_client)
    state = play_out(game, finished_at=at(DAY, 10, 4))
    GameAnalysis.objects.create(
        game=game,
        par=state.score + 100,
        computed_at=at(DAY, 10, 4),
        report={
            "status": state.status.value,
            "score": state.score,
            "par": state.score + 100,
            "par_exact": True,
            "share": 0.9,
            "par_line": [move.text for move in state.moves],
            "winnable": True,
            "lost_at": None,
            "draws_while_play_fit": [{"move": 2, "fits": [state.moves[0].text]}],
            "streaks": [],
            "plays_opening_nothing": [{"move": 1, "card": "9h", "openers": ["Tc"]}],
            "missed_king_ace": [{"move": 3, "waste": "Kd", "cards": ["Ah"]}],
            "stock_left_for_last": {"move": 30, "draws": 4},
        },
    )
    deal = Deal.from_seed(game.seed)

    for viewer in (ada_client, client):
        page = viewer.get(f"/games/{game.id}/")
        html = page.content.decode()
        assert next(t.name for t in page.templates) == "game/finished_hidden.html"
        assert f"{state.score} point" in html
        assert game.seed not in html
        assert CARD_CODE.findall(html) == [], "the page names a card of the hidden deal"
        export = viewer.get(f"/games/{game.id}/export.json")
        assert export.status_code == 409
        assert export.json()["error"] == "deal_hidden"
        assert game.seed not in export.content.decode()
        assert viewer.post(f"/games/{game.id}/again").status_code == 400
    own = ada_client.get(f"/games/{game.id}/analysis.json").json()
    other = client.get(f"/games/{game.id}/analysis.json").json()
    assert own["par_line"] is None
    assert other["par_line"] is None
    assert (own["par"], own["share"]) == (state.score + 100, 0.9)
    assert own["draws_while_play_fit"] == [{"move": 2, "fits": [state.moves[0].text]}]
    assert other["draws_while_play_fit"] == [{"move": 2, "fits": []}]
    assert own["plays_opening_nothing"] == [{"move": 1, "card": "9h", "openers": ["Tc"]}]
    assert other["plays_opening_nothing"] == [{"move": 1, "card": None, "openers": []}]
    assert other["missed_king_ace"] == [{"move": 3, "waste": None, "cards": []}]
    assert other["stock_left_for_last"] == {"move": 30, "draws": 4}
    assert CARD_CODE.findall(json.dumps(other)) == []

    clock.set(at(NEXT_DAY, 0))
    page = client.get(f"/games/{game.id}/")
    assert next(t.name for t in page.templates) == "game/finished.html"
    assert game.seed in page.content.decode()
    document = client.get(f"/games/{game.id}/export.json").json()
    assert document["tableau"] == [card.code for card in deal.tableau]
    assert client.get(f"/games/{game.id}/analysis.json").json()["par_line"]
    assert client.post(f"/games/{game.id}/again").status_code == 303


def test_the_account_export_seals_today_s_deal(clock: Clock, ada: User, ada_client: Client) -> None:
    """A player's data export lists their finished daily game without its deal until midnight."""
    clock.set(at(DAY, 10))
    game = start_ranked(ada_client)
    play_out(game, finished_at=at(DAY, 10, 2))

    during = ada_client.get("/accounts/export.json")
    clock.set(at(NEXT_DAY, 0))
    after = ada_client.get("/accounts/export.json").json()

    assert game.seed not in during.content.decode()
    assert [sealed["id"] for sealed in during.json()["games_sealed"]] == [str(game.id)]
    assert during.json()["games"] == []
    assert [document["seed"] for document in after["games"]] == [game.seed]
    assert after["games_sealed"] == []


def test_an_attempt_finished_after_midnight_ranks_as_it_stood_at_midnight(
    clock: Clock, ada: User
) -> None:
    """By midnight the seed is public: the moves made from then on do not count. The attempt
    ranks as if given up at midnight, with the points it had then, and on no other board."""
    clock.set(at(DAY, 23, 55))
    game = challenge.daily_attempt_start(user=ada, day=DAY)
    at_midnight = play_out(game, finished_at=at(DAY, 23, 58), moves=3)
    clock.set(at(NEXT_DAY, 0, 2))
    final = play_out(game, finished_at=at(NEXT_DAY, 0, 2))

    attempt = DailyAttempt.objects.get(game=game)
    assert final.score > at_midnight.score
    assert (attempt.score, attempt.finished_at) == (at_midnight.score, at(NEXT_DAY, 0))
    assert attempt.duration_ms == 5 * 60 * 1000
    assert not PlayerTally.objects.filter(user=ada).exists()


def test_the_daily_page_links_for_the_signed_in(clock: Clock, ada_client: Client) -> None:
    clock.set(at(DAY, 8))
    page = ada_client.get("/daily/").content.decode()
    assert "Start today" in page
    assert 'action="/daily/start"' in page
