"""Helpers for the leaderboard tests: players, games with chosen results, games played out."""

from collections.abc import Sequence
from datetime import UTC, date, datetime, timedelta

from django.contrib.auth.models import User
from django.utils import timezone

from game.engine import GameState, Move, Variant
from game.live import replay_log
from game.models import DealSource, Game, Mode, Status, ranks
from game.services import _store_abandon, duration_ms
from game.writer import MoveWrite, write_moves
from leaderboard.models import Daily, DailyAttempt
from leaderboard.scores import scores_record

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
    deal_source: DealSource = DealSource.RANDOM,
    variant: Variant = Variant.TRIPEAKS,
    reveal_after: datetime | None = None,
    seed: str = "crafted",
) -> Game:
    """A finished game row with the given result (its log is not played out), entered into the
    score tables as the move path does. By default a casual game on a fresh random deal: ranked."""
    game = Game.objects.create(
        seed=seed,
        variant=variant.value,
        owner=owner,
        guest_key="" if owner is not None else "a-guest",
        mode=mode,
        deal_source=deal_source,
        ranked=ranks(deal_source),
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
        deal_source=DealSource.DAILY,
        ranked=True,
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
    game: Game,
    *,
    finished_at: datetime | None = None,
    moves: int | None = None,
    line: Sequence[str] | None = None,
) -> GameState:
    """Play a stored game on from where it is (the moves of ``line``, else the first legal move
    each time: plays before the draw), up to ``moves`` moves in all or to its end, through the
    move path's own writer, so that the score tables follow as they do in play."""
    game.refresh_from_db()
    state = replay_log(game)
    moment = finished_at or timezone.now()
    batch: list[MoveWrite] = []
    while not state.status.is_over and (moves is None or state.seq < moves):
        seq = state.seq
        move = state.legal_moves()[0] if line is None else Move.parse(line[seq])
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
