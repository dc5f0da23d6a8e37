"""Helpers for the accounts tests: players with accounts, and games with chosen results."""

from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from accounts.models import PlayerSettings
from game.engine import Deal, GameState, Variant
from game.models import DealSource, Game, Move, Status

PASSWORD = "peaks-and-valleys-42"


def make_player(username: str = "ada", *, email: str = "ada@example.com") -> User:
    """An account as signing up leaves it: the user and their default settings."""
    user = User.objects.create_user(username=username, email=email, password=PASSWORD)
    PlayerSettings.objects.create(user=user)
    return user


def signed_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def signed_in_session(user: User) -> str:
    """A stored session signed in to ``user``, as a browser would hold it; returns its key."""
    return str(signed_in(user).cookies[settings.SESSION_COOKIE_NAME].value)


def record_game(
    owner: User,
    *,
    status: Status,
    score: int,
    finished_at: datetime | None,
    duration_ms: int | None = None,
    ranked: bool = True,
) -> Game:
    """A game row with the given results, for statistics (its log is not played out): a fresh
    deal's, or one played again when not ``ranked``."""
    started_at = (finished_at or timezone.now()) - timedelta(milliseconds=duration_ms or 0)
    return Game.objects.create(
        seed="crafted",
        owner=owner,
        deal_source=DealSource.RANDOM if ranked else DealSource.REPLAY,
        ranked=ranked,
        status=status,
        score=score,
        cards_left=0 if status == Status.WON else 12,
        started_at=started_at,
        finished_at=finished_at,
        duration_ms=duration_ms if finished_at is not None else None,
    )


def play_out(game: Game, *, moves: int | None = None, abandon: bool = False) -> GameState:
    """Play a stored game through the engine (first legal move each time) and store its log.

    Plays to the end, or ``moves`` moves; with ``abandon`` the player then gives up.
    """
    state = GameState(Deal.from_seed(game.seed), Variant(game.variant))
    while not state.status.is_over and (moves is None or state.seq < moves):
        state.apply(state.legal_moves()[0])
    if abandon:
        state.abandon()
    now = timezone.now()
    Move.objects.bulk_create(
        Move(game=game, seq=i, move=m.text, played_at=now) for i, m in enumerate(state.moves)
    )
    over = state.status.is_over
    Game.objects.filter(id=game.id).update(
        status=state.status.value,
        score=state.score,
        cards_left=state.cards_left,
        move_count=state.seq,
        last_move_at=now if state.seq else None,
        finished_at=now if over else None,
        duration_ms=int((now - game.started_at).total_seconds() * 1000) if over else None,
    )
    game.refresh_from_db()
    return state
