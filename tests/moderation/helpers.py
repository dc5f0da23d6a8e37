"""Helpers for the moderation tests: games played out with chosen gaps between moves."""

from collections.abc import Sequence
from datetime import datetime, timedelta

from django.contrib.auth.models import User
from django.utils import timezone

from game.engine import Deal, GameState, Variant
from game.models import DealPar, DealSource, Game, Move
from leaderboard.scores import scores_record


def timed_game(
    owner: User | None,
    *,
    gaps_ms: Sequence[int] | int,
    start: datetime,
    seed: str = "7",
    variant: Variant = Variant.TRIPEAKS,
) -> Game:
    """A game played out to its end (first legal move each time), its moves recorded
    ``gaps_ms`` apart (one gap for all, or one per move after the first), and scored."""
    state = GameState(Deal.from_seed(seed), variant)
    while not state.status.is_over:
        state.apply(state.legal_moves()[0])
    count = state.seq
    gaps = [gaps_ms] * count if isinstance(gaps_ms, int) else list(gaps_ms)
    times, moment = [], start + timedelta(seconds=2)
    for i in range(count):
        if i:
            moment += timedelta(milliseconds=gaps[(i - 1) % len(gaps)])
        times.append(moment)
    game = Game.objects.create(
        seed=seed,
        variant=variant.value,
        owner=owner,
        guest_key="" if owner is not None else "a-guest",
        deal_source=DealSource.RANDOM,  # a fresh deal, as far as the boards know: it ranks
        ranked=True,
        started_at=start,
        status=state.status.value,
        score=state.score,
        cards_left=state.cards_left,
        move_count=count,
        last_move_at=times[-1],
        finished_at=times[-1],
        duration_ms=int((times[-1] - start).total_seconds() * 1000),
    )
    Move.objects.bulk_create(
        Move(game=game, seq=i, move=move.text, played_at=times[i])
        for i, move in enumerate(state.moves)
    )
    scores_record([game.id])
    return game


def par_of(game: Game, *, par: int, line_moves: int, exact: bool = True) -> DealPar:
    """Record the solver's verdict on a game's deal, with a chosen par and par-line length."""
    return DealPar.objects.create(
        seed=game.seed,
        variant=game.variant,
        winnable=True,
        par=par,
        par_exact=exact,
        par_line=["draw"] * line_moves,
        computed_at=timezone.now(),
    )
