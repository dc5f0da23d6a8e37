"""Reads for moderation: the checks behind automatic flags, the queue, the log, the staff pages.

The checks are plain reads that say what they found; :mod:`moderation.services` decides what to
write. Everything here is for staff eyes: it may name any card of any game.
"""

import statistics
import uuid
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from itertools import pairwise
from typing import Any, Final

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db.models import Case, Count, IntegerField, Max, Q, QuerySet, Value, When
from django.utils import timezone

from game.engine import Deal, GameState, TriPeaksError, Variant
from game.engine import Move as EngineMove
from game.models import DealPar, Game, GameAnalysis, Mode, Move, Status
from game.selectors import replay_frames
from leaderboard.models import DailyAttempt
from moderation.models import Action, Flag, FlagKind, FlagStatus, LogEntry, Report

MODERATE_PERMISSION: Final = "moderation.moderate"
PAGE_SIZE: Final = 50


def can_moderate(user: Any) -> bool:
    """Whether a user may see the moderation pages and act: staff with the moderate permission
    (the "moderator" group has it; superusers have every permission)."""
    return bool(
        user.is_authenticated
        and user.is_active
        and user.is_staff
        and user.has_perm(MODERATE_PERMISSION)
    )


# ---- Checks behind the automatic flags -----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Verification:
    """A stored game's log replayed through the engine, against what the game row says."""

    ok: bool
    mismatches: dict[str, dict[str, Any]] = field(default_factory=dict)
    """Field name to ``{"stored": …, "replayed": …}``; ``log`` when the log itself is broken."""

    def to_json(self) -> dict[str, Any]:
        return {"ok": self.ok, "mismatches": self.mismatches}


def game_verification(game: Game) -> Verification:
    """Replay a game's stored log and compare the result with its stored status, score, cards
    left and move count. A log with a gap, or a move the rules refuse, fails at once."""
    moves = list(Move.objects.filter(game_id=game.id).order_by("seq").values_list("seq", "move"))
    seqs = [seq for seq, _ in moves]
    if seqs != list(range(len(seqs))):
        return Verification(False, {"log": {"stored": seqs, "replayed": "moves numbered 0…n-1"}})
    try:
        state = GameState.replay(
            Deal.from_seed(game.seed), Variant(game.variant), [text for _, text in moves]
        )
    except TriPeaksError as error:
        return Verification(False, {"log": {"stored": len(moves), "replayed": str(error)}})
    if game.status == Status.ABANDONED and not state.status.is_over:
        state.abandon()
    replayed = {
        "status": state.status.value,
        "score": state.score,
        "cards_left": state.cards_left,
        "move_count": state.seq,
    }
    stored = {name: getattr(game, name) for name in replayed}
    mismatches = {
        name: {"stored": stored[name], "replayed": value}
        for name, value in replayed.items()
        if stored[name] != value
    }
    return Verification(not mismatches, mismatches)


def fast_play_evidence(game_id: uuid.UUID) -> dict[str, Any] | None:
    """What makes a game's play inhumanly fast, from its moves' server timestamps, or None.

    Fast is a median gap between moves below MODERATION_FAST_MEDIAN_MS over a game of at least
    MODERATION_FAST_MIN_MOVES moves, or any MODERATION_BURST_MOVES moves made within
    MODERATION_BURST_MS (aiming at that many different cards takes a person longer).
    """
    times = list(
        Move.objects.filter(game_id=game_id).order_by("seq").values_list("played_at", flat=True)
    )
    gaps = [_ms(later - earlier) for earlier, later in pairwise(times)]
    evidence: dict[str, Any] = {}
    if len(times) >= settings.MODERATION_FAST_MIN_MOVES and gaps:
        median = statistics.median(gaps)
        if median < settings.MODERATION_FAST_MEDIAN_MS:
            evidence["median_gap_ms"] = median
    burst = settings.MODERATION_BURST_MOVES
    if burst >= 2 and len(times) >= burst:
        fastest = min(_ms(times[i + burst - 1] - times[i]) for i in range(len(times) - burst + 1))
        if fastest < settings.MODERATION_BURST_MS:
            evidence["burst"] = {"moves": burst, "within_ms": fastest}
    if not evidence:
        return None
    return {**evidence, "moves": len(times)}


def _ms(gap: timedelta) -> int:
    return int(gap.total_seconds() * 1000)


@dataclass(frozen=True, slots=True)
class Hardness:
    """Why the solver's verdict makes a deal hard; empty when it does not."""

    reasons: tuple[str, ...]

    def __bool__(self) -> bool:
        return bool(self.reasons)


def deal_hardness(game: Game, par: DealPar) -> Hardness:
    """Whether a game's deal is hard, and why (docs/moderation.md): the nowrap variant, a par line
    of at least MODERATION_HARD_PAR_MOVES moves (par needs nearly the whole stock, every draw timed
    right), or, on a daily deal, other players falling short of par (their median share below
    MODERATION_HARD_SHARE, over at least MODERATION_HARD_MIN_OTHERS of them)."""
    reasons = []
    if game.variant == Variant.NOWRAP.value:
        reasons.append("nowrap")
    if len(par.par_line) >= settings.MODERATION_HARD_PAR_MOVES:
        reasons.append(f"par line of {len(par.par_line)} moves")
    share = _others_share(game) if game.mode == Mode.DAILY else None
    if share is not None and share < settings.MODERATION_HARD_SHARE:
        reasons.append(f"others' median share of par {share:.0%}")
    return Hardness(tuple(reasons))


def _others_share(game: Game) -> float | None:
    """Other players' median share of par on the day of a daily game (ranked attempts only)."""
    attempt = DailyAttempt.objects.filter(game_id=game.id).values_list("daily_id", flat=True)
    daily_id = attempt.first()
    if daily_id is None:
        return None
    shares = [
        share
        for share in GameAnalysis.objects.filter(game__daily_attempt__daily_id=daily_id)
        .exclude(game__owner_id=game.owner_id)
        .values_list("report__share", flat=True)
        if share is not None
    ]
    if len(shares) < settings.MODERATION_HARD_MIN_OTHERS:
        return None
    return float(statistics.median(shares))


def perfect_run_evidence(game: Game) -> dict[str, Any] | None:
    """The player's run of par-perfect games on hard deals that this game completes, or None.

    Counted over their last MODERATION_PERFECT_WINDOW finished, unhidden games (this one
    included, and only if it is itself perfect on a hard deal): MODERATION_PERFECT_RUN of them
    reaching the solver's exact par is a run no person plays without seeing the hidden cards.
    """
    if game.owner_id is None or not game.is_over:
        return None
    recent = list(
        Game.objects.filter(owner_id=game.owner_id, hidden=False, finished_at__lte=game.finished_at)
        .exclude(status=Status.IN_PROGRESS)
        .order_by("-finished_at", "-id")[: settings.MODERATION_PERFECT_WINDOW]
    )
    if game.id not in {other.id for other in recent}:
        return None
    pars = _pars_of(recent)
    perfect = []
    for other in recent:
        par = pars.get((other.seed, other.variant))
        if par is None or not par.par_exact or other.score < par.par:
            continue
        hardness = deal_hardness(other, par)
        if hardness:
            perfect.append({"game": str(other.id), "score": other.score, "par": par.par,
                            "hard": list(hardness.reasons)})  # fmt: skip
    if str(game.id) not in {item["game"] for item in perfect}:
        return None
    if len(perfect) < settings.MODERATION_PERFECT_RUN:
        return None
    return {"perfect": perfect, "window": len(recent)}


def _pars_of(games: list[Game]) -> dict[tuple[str, str], DealPar]:
    if not games:
        return {}
    deals = Q()
    for game in games:
        deals |= Q(seed=game.seed, variant=game.variant)
    return {(par.seed, par.variant): par for par in DealPar.objects.filter(deals)}


# ---- The queue and the log -----------------------------------------------------------------------


def queue(*, kind: str | None = None, status: str | None = None) -> QuerySet[Flag]:
    """The queue's flags, open ones first, newest (or newly re-opened) first within each."""
    flags = Flag.objects.select_related("game", "game__owner").annotate(
        report_count=Count("reports")
    )
    if kind in FlagKind.values:
        flags = flags.filter(kind=kind)
    if status in FlagStatus.values:
        flags = flags.filter(status=status)
    return flags.order_by(_OPEN_FIRST, "-opened_at", "-id")


_OPEN_FIRST: Final = Case(
    When(status=FlagStatus.OPEN, then=Value(0)), default=Value(1), output_field=IntegerField()
)


def open_flag_count() -> int:
    return Flag.objects.filter(status=FlagStatus.OPEN).count()


def log_entries(*, action: str | None = None) -> QuerySet[LogEntry]:
    """The moderation log, newest first."""
    entries = LogEntry.objects.select_related("actor", "target_user", "target_game")
    if action in Action.values:
        entries = entries.filter(action=action)
    return entries.order_by("-created_at", "-id")


def recent_reports_count(reporter_id: int, *, now: datetime | None = None) -> int:
    """How many reports a player filed in the past hour (their rate limit counts these)."""
    since = (now or timezone.now()) - timedelta(hours=1)
    return Report.objects.filter(reporter_id=reporter_id, created_at__gt=since).count()


def has_reported(reporter_id: int, game_id: uuid.UUID) -> bool:
    return Report.objects.filter(reporter_id=reporter_id, game_id=game_id).exists()


# ---- Staff pages ---------------------------------------------------------------------------------


def staff_game(game: Game) -> dict[str, Any]:
    """Everything the staff page of a game shows: every frame with every card (whatever the
    game's state or reveal time), its flags and reports, and the log entries about it."""
    moves = list(
        Move.objects.filter(game_id=game.id).order_by("seq").values_list("seq", "move", "played_at")
    )
    state = GameState(Deal.from_seed(game.seed), Variant(game.variant))
    broken = None
    for seq, text, _ in moves:
        try:
            state.apply(EngineMove.parse(text))
        except TriPeaksError as error:
            broken = f"Move {seq} ({text}) breaks the rules: {error}"
            break
    if game.status == Status.ABANDONED and not state.status.is_over:
        state.abandon()
    frames = replay_frames(state)
    for frame, (_, _, played_at) in zip(frames[1:], moves, strict=False):
        frame["played_at"] = played_at.isoformat()
    return {
        "game": game,
        "frames": frames,
        "broken_log": broken,
        "flags": list(
            Flag.objects.filter(game=game)
            .annotate(report_count=Count("reports"))
            .order_by("-opened_at")
        ),
        "reports": list(
            Report.objects.filter(game=game).select_related("reporter").order_by("-created_at")
        ),
        "entries": list(log_entries().filter(target_game=game)[:PAGE_SIZE]),
        "par": DealPar.objects.filter(seed=game.seed, variant=game.variant).first(),
    }


@dataclass(frozen=True, slots=True)
class PlayerSummary:
    """A player's games in numbers, for the staff page and the admin's list."""

    played: int
    won: int
    best: int | None
    hidden: int


def player_summary(user_id: int) -> PlayerSummary:
    finished = Game.objects.filter(owner_id=user_id).exclude(status=Status.IN_PROGRESS)
    figures = finished.aggregate(
        played=Count("id"),
        won=Count("id", filter=Q(status=Status.WON)),
        best=Max("score", filter=Q(hidden=False)),
        hidden=Count("id", filter=Q(hidden=True)),
    )
    return PlayerSummary(**figures)


def staff_player(user_id: int) -> dict[str, Any]:
    """What the staff page of a player shows: their numbers, recent games, the flags on their
    games, reports they made, and the log entries about them and their games."""
    player = get_user_model().objects.get(pk=user_id)
    games = Game.objects.filter(owner_id=user_id).order_by("-started_at")
    return {
        "player": player,
        "summary": player_summary(user_id),
        "games": list(
            games.annotate(open_flags=Count("flags", filter=Q(flags__status=FlagStatus.OPEN)))[
                :PAGE_SIZE
            ]
        ),
        "flags": list(
            Flag.objects.filter(game__owner_id=user_id)
            .select_related("game")
            .annotate(report_count=Count("reports"))
            .order_by(_OPEN_FIRST, "-opened_at")[:PAGE_SIZE]
        ),
        "reports_made": list(
            Report.objects.filter(reporter_id=user_id).select_related("game")[:PAGE_SIZE]
        ),
        "entries": list(
            log_entries().filter(Q(target_user_id=user_id) | Q(target_game__owner_id=user_id))[
                :PAGE_SIZE
            ]
        ),
    }
