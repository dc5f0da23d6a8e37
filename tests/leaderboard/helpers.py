"""Helpers for the leaderboard tests: players, games with chosen results, games played out."""

from datetime import UTC, date, datetime, timedelta

from django.contrib.auth.models import User
from django.utils import timezone

from game.engine import Deal, GameState, Variant
from game.live import MoveWrite, write_moves
from game.models import Game, Mode, Status
from game.services import _store_abandon, duration_ms
from leaderboard.models import Daily, DailyAttempt
from leaderboard.services import scores_record

DAY = date(2026, 11, 30)
"""A Monday."""


def at(day: date, hour: int = 12, minute: int = 0, second: int = 0) -> datetime:
    return datetime(day.year, day.month, day.day, hour, minute, second, tzinfo=UTC)


def finished_game(
    owner: User | None,
    *,
    score: int,
    finished_at: datetime,
    duration_ms: int = 60_000,
    status: Status = Status.LOST,
    assisted: bool = False,
    mode: Mode = Mode.CASUAL,
    reveal_after: datetime | None = None,
    seed: str = "crafted",
) -> Game:
    """A finished game row with the given result (its log is not played out), entered into the
    score tables as the move path does."""
    game = Game.objects.create(
        seed=seed,
        owner=owner,
        guest_key="" if owner is not None else "a-guest",
        mode=mode,
        status=status,
        score=score,
        cards_left=0 if status == Status.WON else 12,
        assisted=assisted,
        started_at=finished_at - timedelta(milliseconds=duration_ms),
        finished_at=finished_at,
        duration_ms=duration_ms,
        reveal_after=reveal_after,
    )
    scores_record([game.id])
    return game


def ranked_result(
    daily: Daily, user: User, *, score: int, duration_ms: int, finished_at: datetime
) -> DailyAttempt:
    """A ranked attempt at ``daily`` with a chosen result."""
    game = Game.objects.create(
        seed=daily.seed,
        owner=user,
        mode=Mode.DAILY,
        started_at=finished_at - timedelta(milliseconds=duration_ms),
        reveal_after=daily.ends_at,
    )
    attempt = DailyAttempt.objects.create(
        daily=daily, user=user, game=game, created_at=game.started_at
    )
    Game.objects.filter(id=game.id).update(
        status=Status.LOST, score=score, cards_left=5, finished_at=finished_at,
        duration_ms=duration_ms,
    )  # fmt: skip
    scores_record([game.id])
    attempt.refresh_from_db()
    return attempt


def play_out(
    game: Game, *, finished_at: datetime | None = None, moves: int | None = None
) -> GameState:
    """Play a stored game (the first legal move each time: plays before the draw) through the
    move path's own writer, so that the score tables follow as they do in play."""
    state = GameState(Deal.from_seed(game.seed), Variant(game.variant))
    moment = finished_at or timezone.now()
    batch: list[MoveWrite] = []
    while not state.status.is_over and (moves is None or state.seq < moves):
        seq = state.seq
        move = state.legal_moves()[0]
        state.apply(move)
        over = state.status.is_over
        batch.append(
            MoveWrite(
                game_id=game.id,
                seq=seq,
                move=move.text,
                played_at=moment,
                status=state.status.value,
                score=state.score,
                cards_left=state.cards_left,
                finished_at=moment if over else None,
                duration_ms=duration_ms(game.started_at, moment) if over else None,
            )
        )
    # One batch per move: as in play, where a game's next move waits for the last one's answer.
    assert [write_moves([item]) for item in batch] == [[None]] * len(batch)
    game.refresh_from_db()
    return state


def give_up(game: Game, *, finished_at: datetime) -> None:
    """Abandon a stored game as the service does, through its own writer."""
    game.refresh_from_db()
    assert _store_abandon(game.id, game.move_count, finished_at, game.started_at)
    game.refresh_from_db()
