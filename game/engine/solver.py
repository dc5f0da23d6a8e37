"""The solver: whether a deal can be won, and its par (the best score any line of play reaches).

Both searches see the whole deal, hidden cards included: they are for analysis after a game and for
choosing deals, never for advice during play (that is :mod:`game.engine.hint`, which sees only the
public view).

**The compact model.** A position is a bit mask of the played positions, the number of cards
drawn, and the rank of the top waste card (after a draw it is the stock card just drawn, after a
play the card played; only its rank matters to what may follow), plus the streak and points when
scores count. The rules themselves come from their homes: the overlaps from
:mod:`~game.engine.layout`, the fit rule from :func:`~game.engine.cards.fits` with the variant's
wrap, the scoring constants from :mod:`~game.engine.state`. Every line a search returns is a list
of ordinary moves, and the tests replay each through :class:`GameState`.

Three facts keep the searches small:

* **Drawing later never helps.** A position with fewer cards drawn can do everything the same
  position with more cards drawn can (it may draw several times running), and its clearing bonus
  is no smaller. So per played mask and top rank, only the fewest cards drawn matters to
  winnability, and a lost position stays lost with more cards drawn.
* **Only the cards that fit matter about the top card.** Two top cards that fit the same available
  cards lead to the same futures.
* **A streak is worth a known amount more per play.** From a position with streak ``s``, a line that
  makes ``k`` more plays before its next draw scores ``10·s·k`` more than from streak 0. So a label
  (cards drawn, streak, points) with no more cards drawn, at least the points, and at least the
  points after every remaining card went onto its streak, does at least as well as another.

**Winnability** (:func:`solve`) runs three searches in turn, each within what is left of the
budget: a short depth-first search, plays before draws, remembering lost positions by (mask, top
rank) with the fewest cards drawn (:func:`depth_first`), which wins most easy deals in a few hundred
nodes; then a beam over played masks, one level (cards played) at a time, keeping the masks reached
with the fewest draws (:func:`sweep` with a width), which finds nearly every other win; then the
same sweep without a width, which visits every reachable mask once and so proves a loss. Only a
found line or the complete sweep answers: when the budget runs out first, the answer is None.

**Par** (:func:`find_par`) is exact dynamic programming over the same levels (:func:`par_labels`):
every way of reaching a mask is a label, labels are grouped by the cards their top fits, and a label
that another makes redundant (third fact) is dropped. The best label met is par. If the budget runs
out, each later level keeps only its best masks, and the result says it is not exact.
:func:`find_par` remembers its last :data:`PAR_CACHE_SIZE` results by deal, variant and budget.

**Why par is not a branch and bound** (measured for issue #17, on both variants of seeds 0–5).
Pruning needs an upper bound on what a position can still score within about 200–400 points of
the truth to cut the search tenfold. The bound the scoring rules give (every card left extending
the current streak, every peak bonus, the whole stock left as clearing bonus) is thousands of
points too high mid-game: even told par in advance, it drops 0.3–17% of the labels (54% on one
deal with a high par), and the check costs more than it saves; capping runs at any length the
deals reach barely helps either. A bound that is close enough exists: the best score when each
run may start from any card (the stock's order relaxed) leaves only 13–536 positions to search on
those deals, but computing it visits every one of the 22,931 masks the peaks can be in (about one
second in Python), as much work as the search it would prune.

>>> from game.engine.deal import Deal
>>> from game.engine.variants import Variant
>>> result = solve(Deal.from_seed("7"), Variant.TRIPEAKS)
>>> result.winnable, len(result.line) >= 28
(True, True)
"""

from __future__ import annotations

import heapq
import time
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from game.engine.cards import FULL_DECK, KING, Card, Rank, fits
from game.engine.deal import Deal
from game.engine.layout import (
    ALL_PLAYED,
    COVER_MASKS,
    COVERS,
    PEAK_TOPS,
    POSITIONS,
    TABLEAU_SIZE,
)
from game.engine.moves import DRAW, Move
from game.engine.state import (
    CLEARING_BONUS_PER_CARD,
    PEAK_BONUS,
    STREAK_STEP,
    GameState,
    Status,
)
from game.engine.variants import Variant

NEVER: Final = 1 << 8
"""A number of cards drawn larger than any stock: "not reached"."""
DEPTH_FIRST_SHARE: Final = 1_000
"""Nodes the winnability search spends depth first, where most easy deals are won at once."""
BEAM_WIDTH: Final = 100
"""Played masks kept per level by the winnability search's beam."""
PAR_BEAM_WIDTH: Final = 64
"""Played masks kept per level once the par search has spent its budget."""
_TIME_CHECK_EVERY: Final = 1024


@dataclass(frozen=True, slots=True)
class Budget:
    """How much a search may spend before it gives up: nodes (deterministic) and, optionally, time.

    A winnability search that runs out answers "unknown"; a par search returns the best line it
    found and says that it is not exact.
    """

    max_nodes: int
    max_ms: float | None = None


WINNABILITY_BUDGET: Final = Budget(max_nodes=250_000)
"""Ten times what the hardest of the first 200 seeds needs (about 26,000 nodes); about 1 s."""
PAR_BUDGET: Final = Budget(max_nodes=600_000)
"""Labels the par search may keep: a deal needs 100,000 to 220,000 (the first 200 seeds)."""


@dataclass(frozen=True, slots=True)
class SolveResult:
    """Whether the peaks can be cleared: True with a winning line, False, or None (budget spent)."""

    winnable: bool | None
    line: tuple[Move, ...] | None
    nodes: int
    elapsed_ms: float


@dataclass(frozen=True, slots=True)
class ParResult:
    """The best final score any line reaches, and a complete game that reaches it.

    ``exact`` is False when the budget ran out: ``par`` is then the best score found, a lower bound.
    """

    par: int
    line: tuple[Move, ...]
    exact: bool
    nodes: int
    elapsed_ms: float


@dataclass(frozen=True, slots=True)
class SearchStart:
    """A position in the solver's compact terms, taken from what a :class:`GameState` says."""

    played: int
    drawn: int
    top: Card
    streak: int
    score: int
    status: Status

    @classmethod
    def of_state(cls, state: GameState) -> SearchStart:
        """The position ``state`` is in.

        >>> from game.engine.deal import Deal
        >>> from game.engine.variants import Variant
        >>> start = SearchStart.of_state(GameState(Deal.from_seed("1"), Variant.TRIPEAKS))
        >>> start.played, start.drawn, start.streak
        (0, 0, 0)
        """
        return cls(
            played=sum(1 << p for p in POSITIONS if state.is_played(p)),
            drawn=len(state.deal.stock) - state.stock_count,
            top=state.waste_top,
            streak=state.streak,
            score=state.score,
            status=state.status,
        )


@dataclass(frozen=True, slots=True)
class Table:
    """A deal in the solver's terms: ranks by position, and the top waste rank after each draw."""

    deal: Deal
    ranks: tuple[Rank, ...]
    draw_ranks: tuple[Rank, ...]
    fit_masks: tuple[int, ...]
    neighbours: tuple[tuple[Rank, ...], ...]

    @classmethod
    def of(cls, deal: Deal, variant: Variant) -> Table:
        """The compact tables for ``deal`` under ``variant``'s fit rule.

        >>> from game.engine.deal import Deal
        >>> table = Table.of(Deal.from_seed("1"), Variant.TRIPEAKS)
        >>> table.neighbours[13], Table.of(Deal.from_seed("1"), Variant.NOWRAP).neighbours[13]
        ((1, 12), (12,))
        """
        # By rank, with an empty entry 0 so that a rank indexes it directly.
        by_rank = {card.rank: card for card in FULL_DECK}
        neighbours = (
            (),
            *(
                tuple(t for t in by_rank if fits(by_rank[r], by_rank[t], wrap=variant.wrap))
                for r in by_rank
            ),
        )
        ranks = tuple(card.rank for card in deal.tableau)
        fit_masks = tuple(
            sum(1 << p for p in POSITIONS if ranks[p] in neighbours[top]) for top in range(KING + 1)
        )
        return cls(
            deal=deal,
            ranks=ranks,
            draw_ranks=(deal.waste.rank, *(card.rank for card in deal.stock)),
            fit_masks=fit_masks,
            neighbours=neighbours,
        )

    @property
    def stock_size(self) -> int:
        return len(self.deal.stock)

    def available(self, played: int) -> int:
        """The mask of positions not yet played whose overlapping cards are all gone."""
        return sum(
            1 << p
            for p in POSITIONS
            if not played >> p & 1 and played & COVER_MASKS[p] == COVER_MASKS[p]
        )

    def moves(self, steps: Iterable[int]) -> tuple[Move, ...]:
        """Moves from the searches' steps: a position to play, or :data:`DRAW_STEP`."""
        tableau = self.deal.tableau
        return tuple(DRAW if step == DRAW_STEP else Move.play(tableau[step]) for step in steps)


DRAW_STEP: Final = -1
"""A step of a search's line that draws rather than plays a position."""


class BudgetSpent(Exception):
    """Raised inside a search when its budget runs out."""


@dataclass(frozen=True, slots=True)
class Deadline:
    """When a time budget runs out (never, for ``at=None``); searches look every so many nodes."""

    at: float | None

    @classmethod
    def of(cls, budget: Budget, started: float) -> Deadline:
        return cls(None if budget.max_ms is None else started + budget.max_ms / 1000)

    def passed(self) -> bool:
        return self.at is not None and time.perf_counter() > self.at


NO_DEADLINE: Final = Deadline(None)


# Winnability.


def solve(deal: Deal, variant: Variant, *, budget: Budget = WINNABILITY_BUDGET) -> SolveResult:
    """Whether ``deal`` can be won under ``variant``, with one winning line of moves when it can.

    >>> from game.engine.deal import Deal
    >>> solve(Deal.from_seed("7"), Variant.TRIPEAKS, budget=Budget(max_nodes=5)).winnable is None
    True
    """
    return solve_from(GameState(deal, variant), budget=budget)


def solve_from(state: GameState, *, budget: Budget = WINNABILITY_BUDGET) -> SolveResult:
    """Whether the game in ``state`` can still be won; the line continues from ``state``."""
    started = time.perf_counter()
    start = SearchStart.of_state(state)
    if start.status is Status.WON:
        return SolveResult(True, (), 0, _ms_since(started))
    if start.status.is_over:
        return SolveResult(False, None, 0, _ms_since(started))
    table = Table.of(state.deal, state.variant)
    deadline = Deadline.of(budget, started)
    first_share = min(budget.max_nodes, DEPTH_FIRST_SHARE)
    winnable, steps, nodes = depth_first(table, start, max_nodes=first_share, deadline=deadline)
    for width in (BEAM_WIDTH, None):
        if winnable is not None or nodes >= budget.max_nodes or deadline.passed():
            break
        winnable, steps, swept = sweep(
            table, start, max_nodes=budget.max_nodes - nodes, deadline=deadline, width=width
        )
        nodes += swept
    line = table.moves(steps) if steps is not None else None
    return SolveResult(winnable, line, nodes, _ms_since(started))


def depth_first(
    table: Table, start: SearchStart, *, max_nodes: int, deadline: Deadline = NO_DEADLINE
) -> tuple[bool | None, list[int] | None, int]:
    """Depth-first search for a win, plays before draws, remembering lost positions.

    A lost position is remembered by (played mask, top rank) with the fewest cards drawn it was
    lost with: with as many or more drawn it is lost too. Returns (winnable, steps, nodes).
    """
    ranks = table.ranks
    draw_ranks = table.draw_ranks
    last = table.stock_size
    # For each top rank, the positions whose cards fit it, bottom row first (they uncover cards).
    candidates = tuple(
        tuple(
            (1 << p, COVER_MASKS[p], ranks[p], p)
            for p in reversed(POSITIONS)
            if table.fit_masks[top] >> p & 1
        )
        for top in range(KING + 1)
    )
    lost: dict[int, int] = {}
    steps: list[int] = []  # filled in reverse on the way back from a win
    nodes = 0

    def wins(played: int, drawn: int, top: Rank) -> bool:
        nonlocal nodes
        key = played | top << TABLEAU_SIZE
        if lost.get(key, NEVER) <= drawn:
            return False
        if nodes >= max_nodes or (nodes % _TIME_CHECK_EVERY == 0 and deadline.passed()):
            raise BudgetSpent
        nodes += 1
        for bit, cover, rank, position in candidates[top]:
            if not played & bit and played & cover == cover:
                after = played | bit
                if after == ALL_PLAYED or wins(after, drawn, rank):
                    steps.append(position)
                    return True
        if drawn < last and wins(played, drawn + 1, draw_ranks[drawn + 1]):
            steps.append(DRAW_STEP)
            return True
        lost[key] = drawn
        return False

    try:
        won = wins(start.played, start.drawn, start.top.rank)
    except BudgetSpent:
        return None, None, nodes
    return won, (steps[::-1] if won else None), nodes


def sweep(
    table: Table,
    start: SearchStart,
    *,
    max_nodes: int,
    deadline: Deadline = NO_DEADLINE,
    width: int | None = None,
) -> tuple[bool | None, list[int] | None, int]:
    """Every played mask the game can reach, one level (cards played) at a time.

    For each mask it keeps, per top rank, the fewest cards drawn with which the mask is reached with
    that top; drawing adds the later stock cards as tops. The deal is won when the full mask is
    reached. Each mask counts as one node. Returns (winnable, steps, nodes).

    With a ``width``, each level keeps only that many masks, those reached with the fewest cards
    drawn: a beam that finds most wins quickly, but whose failure proves nothing (None).
    """
    first_draw = _first_draws(table)
    neighbours = table.neighbours
    # By a position's bit: its rank, the two ranks it fits, and what it may uncover.
    cards = {
        1 << p: (
            table.ranks[p],
            *_pair(neighbours[table.ranks[p]]),
            tuple((1 << q, COVER_MASKS[q]) for q in COVERS[p]),
        )
        for p in POSITIONS
    }
    level: dict[int, dict[Rank, int]] = {start.played: {start.top.rank: start.drawn}}
    available: dict[int, int] = {start.played: table.available(start.played)}
    levels = [level]
    nodes = 0
    narrowed = False
    while ALL_PLAYED not in level:
        reached: dict[int, dict[Rank, int]] = {}
        reached_available: dict[int, int] = {}
        already = reached.get
        for played, arrivals in level.items():
            if nodes >= max_nodes or (nodes % _TIME_CHECK_EVERY == 0 and deadline.passed()):
                return None, None, nodes
            nodes += 1
            # By top rank, the fewest cards drawn: an arrival, or drawing after the earliest one.
            reach = first_draw[min(arrivals.values())][:]
            for rank, drawn in arrivals.items():
                if drawn < reach[rank]:
                    reach[rank] = drawn
            free = free_before = available[played]
            while free:
                bit = free & -free
                free ^= bit
                rank, one, other, uncovered = cards[bit]
                drawn = reach[one] if reach[one] < reach[other] else reach[other]
                if drawn == NEVER:
                    continue
                after = played | bit
                tops = already(after)
                if tops is None:
                    free_after = free_before ^ bit
                    for q_bit, q_cover in uncovered:
                        if after & q_cover == q_cover:
                            free_after |= q_bit
                    reached[after] = {rank: drawn}
                    reached_available[after] = free_after
                elif drawn < tops.get(rank, NEVER):
                    tops[rank] = drawn
        if width is not None and len(reached) > width:
            narrowed = True
            reached = dict(heapq.nsmallest(width, reached.items(), key=_fewest_drawn))
        if not reached:
            return (None if narrowed else False), None, nodes
        level, available = reached, reached_available
        levels.append(level)
    return True, _sweep_line(table, start, levels, first_draw), nodes


def _fewest_drawn(item: tuple[int, dict[Rank, int]]) -> tuple[int, int]:
    """Beam order: fewest cards drawn first, then the most top ranks to choose from."""
    return min(item[1].values()), -len(item[1])


def _first_draws(table: Table) -> list[list[int]]:
    """For each number of cards drawn ``d``, by rank: the fewest draws (more than ``d``) that put a
    card of that rank on top, or :data:`NEVER`."""
    last = table.stock_size
    first = [[NEVER] * (KING + 1) for _ in range(last + 1)]
    for drawn in range(last - 1, -1, -1):
        first[drawn] = first[drawn + 1][:]
        first[drawn][table.draw_ranks[drawn + 1]] = drawn + 1
    return first


def _reach(arrivals: dict[Rank, int], first_draw: list[list[int]]) -> list[int]:
    """By top rank, the fewest cards drawn with which a mask has that top, arrivals or draws."""
    reach = first_draw[min(arrivals.values())][:]
    for rank, drawn in arrivals.items():
        if drawn < reach[rank]:
            reach[rank] = drawn
    return reach


def _pair(ranks: tuple[Rank, ...]) -> tuple[Rank, Rank]:
    """The one or two ranks that fit a card, as a pair (repeated when there is one)."""
    return ranks[0], ranks[-1]


def _sweep_line(
    table: Table,
    start: SearchStart,
    levels: list[dict[int, dict[Rank, int]]],
    first_draw: list[list[int]],
) -> list[int]:
    """Walk back from the full mask to the start, one play (and the draws before it) at a time."""
    steps: list[int] = []
    played = ALL_PLAYED
    rank, drawn = next(iter(levels[-1][ALL_PLAYED].items()))
    for depth in range(len(levels) - 1, 0, -1):
        previous = levels[depth - 1]
        for position in POSITIONS:
            bit = 1 << position
            before = played ^ bit
            if not played & bit or table.ranks[position] != rank or before not in previous:
                continue
            if before & COVER_MASKS[position] != COVER_MASKS[position]:
                continue
            arrivals = previous[before]
            reach = _reach(arrivals, first_draw)
            top = next((t for t in table.neighbours[rank] if reach[t] == drawn), None)
            if top is None:
                continue
            steps.append(position)
            if arrivals.get(top) == drawn:
                rank = top
            else:
                first = min(arrivals.values())
                steps.extend([DRAW_STEP] * (drawn - first))
                rank, drawn = next((t, d) for t, d in arrivals.items() if d == first)
            played = before
            break
    return steps[::-1]


# Par.

_Label = tuple[int, int, int, "_Label | None", int]
"""A way to reach a played mask: (cards drawn, streak, points, previous label, step).

The step is the position played to reach it, or minus the number of draws made before a play.
"""


def find_par(deal: Deal, variant: Variant, *, budget: Budget = PAR_BUDGET) -> ParResult:
    """The best final score any line of play reaches on ``deal``, with a complete game reaching it.

    Remembered per deal, variant and budget (the last :data:`PAR_CACHE_SIZE`): a search within a
    node budget alone always gives the same answer, so asking again returns the first result as it
    was (its ``nodes`` and ``elapsed_ms`` too). A search with a time budget is never remembered.

    >>> from game.engine.deal import Deal
    >>> deal = Deal.from_seed("7")
    >>> result = find_par(deal, Variant.TRIPEAKS, budget=Budget(max_nodes=2000))
    >>> result.exact, GameState.replay(deal, Variant.TRIPEAKS, result.line).score == result.par
    (False, True)
    >>> find_par(deal, Variant.TRIPEAKS, budget=Budget(max_nodes=2000)) is result
    True
    """
    if budget.max_ms is not None:
        return find_par_from(GameState(deal, variant), budget=budget)
    key = (deal, variant, budget)
    result = _par_cache.get(key)
    if result is None:
        result = find_par_from(GameState(deal, variant), budget=budget)
        _par_cache[key] = result
        if len(_par_cache) > PAR_CACHE_SIZE:
            _par_cache.popitem(last=False)
    else:
        _par_cache.move_to_end(key)
    return result


PAR_CACHE_SIZE: Final = 256
"""Par results :func:`find_par` remembers, the least recently asked dropped first."""
_par_cache: OrderedDict[tuple[Deal, Variant, Budget], ParResult] = OrderedDict()


def par_cache_clear() -> None:
    """Forget every remembered par (for the benches, which time the search itself)."""
    _par_cache.clear()


def find_par_from(state: GameState, *, budget: Budget = PAR_BUDGET) -> ParResult:
    """The best final score reachable from ``state`` (points already scored included)."""
    started = time.perf_counter()
    start = SearchStart.of_state(state)
    if start.status.is_over:
        return ParResult(start.score, (), True, 0, _ms_since(started))
    table = Table.of(state.deal, state.variant)
    steps, exact, nodes = par_labels(
        table, start, budget=budget, deadline=Deadline.of(budget, started)
    )
    line = table.moves(steps)
    finished = GameState.replay(state.deal, state.variant, [*state.moves, *line])
    line += _finish(finished)
    return ParResult(finished.score, line, exact, nodes, _ms_since(started))


def par_labels(
    table: Table, start: SearchStart, *, budget: Budget, deadline: Deadline = NO_DEADLINE
) -> tuple[list[int], bool, int]:
    """The best line by points, one level (cards played) at a time, keeping Pareto-best labels.

    At each played mask, the labels that can still make plays are grouped by the set of available
    cards their top card fits (only that set matters about the top). Within a group, label A makes
    label B redundant when A has drawn no more cards, has at least B's points, and would still have
    at least B's points after every remaining card went onto the current streak (the streak is
    worth 10 × streak more for each further play of it). Every continuation of B then exists for A
    with at least the same points. Returns (steps, exact, nodes): nodes are labels kept.
    """
    step = STREAK_STEP
    last = table.stock_size
    fit_masks = table.fit_masks
    draw_order = tuple(
        tuple(sorted((draws, rank) for rank, draws in enumerate(first) if draws != NEVER))
        for first in _first_draws(table)
    )
    # By a position's bit: the position, its rank, its bonus, and what it may uncover.
    cards = {
        1 << p: (
            p,
            table.ranks[p],
            PEAK_BONUS if p in PEAK_TOPS else 0,
            tuple((1 << q, COVER_MASKS[q]) for q in COVERS[p]),
        )
        for p in POSITIONS
    }
    root: _Label = (start.drawn, start.streak, start.score, None, 0)
    level: dict[int, dict[Rank, list[_Label]]] = {start.played: {start.top.rank: [root]}}
    available: dict[int, int] = {start.played: table.available(start.played)}
    best, best_points = root, start.score
    nodes = 0
    exact = True
    while level:
        reached: dict[int, dict[Rank, list[_Label]]] = {}
        reached_available: dict[int, int] = {}
        for played, by_top in level.items():
            if played == ALL_PLAYED:
                for group in by_top.values():
                    for label in group:
                        points = label[2] + CLEARING_BONUS_PER_CARD * (last - label[0])
                        if points > best_points:
                            best, best_points = label, points
                continue
            free = available[played]
            left = TABLEAU_SIZE - played.bit_count()
            groups, top_label = _groups(by_top, free, fit_masks, draw_order)
            if top_label[2] > best_points:
                best, best_points = top_label, top_label[2]
            for fitting, group in groups.items():
                front = _front(group, left * step) if len(group) > 1 else group
                nodes += len(front)
                while fitting:
                    bit = fitting & -fitting
                    fitting ^= bit
                    position, rank, bonus, uncovered = cards[bit]
                    play = step + bonus  # what the play scores on a streak of 0
                    after = played | bit
                    by_rank = reached.get(after)
                    if by_rank is None:
                        free_after = free ^ bit
                        for q_bit, q_cover in uncovered:
                            if after & q_cover == q_cover:
                                free_after |= q_bit
                        reached_available[after] = free_after
                        into: list[_Label] = []
                        reached[after] = {rank: into}
                    else:
                        into = by_rank.setdefault(rank, [])
                    into.extend(
                        [
                            (
                                label[0],
                                label[1] + 1,
                                label[2] + label[1] * step + play,
                                label,
                                position,
                            )
                            for label in front
                        ]
                    )
        if exact and (nodes > budget.max_nodes or deadline.passed()):
            exact = False
        if not exact and len(reached) > PAR_BEAM_WIDTH:
            reached = dict(heapq.nlargest(PAR_BEAM_WIDTH, reached.items(), key=_best_points))
        level, available = reached, reached_available
    return _label_steps(best), exact, nodes


def _best_points(item: tuple[int, dict[Rank, list[_Label]]]) -> int:
    return max(label[2] for group in item[1].values() for label in group)


def _groups(
    by_top: dict[Rank, list[_Label]],
    free: int,
    fit_masks: tuple[int, ...],
    draw_order: tuple[tuple[tuple[int, Rank], ...], ...],
) -> tuple[dict[int, list[_Label]], _Label]:
    """Labels that can play, keyed by the mask of available cards they fit; and the best label.

    Besides the labels that arrived by a play, drawing makes new ones: after ``d`` draws, the best
    label drawn fewer than ``d`` cards, with the ``d``-th stock card on top and its streak ended.
    For each top rank only its first draw after each improvement in points is worth keeping.
    """
    groups: dict[int, list[_Label]] = {}
    for top, arrived in by_top.items():
        fitting = free & fit_masks[top]
        if fitting:
            groups.setdefault(fitting, []).extend(arrived)
    by_drawn = sorted((label for group in by_top.values() for label in group), key=_drawn)
    count = len(by_drawn)
    best = by_drawn[0]
    index = 0
    kept = [-1] * (KING + 1)  # by top rank, the points of the last label kept
    while index < count:
        drawn = by_drawn[index][0]
        while index < count and by_drawn[index][0] == drawn:
            if by_drawn[index][2] > best[2]:
                best = by_drawn[index]
            index += 1
        # Draws up to the next label's count see the same best label.
        until = by_drawn[index][0] if index < count else NEVER
        points = best[2]
        for draws, top in draw_order[drawn]:
            if draws > until:
                break
            fitting = free & fit_masks[top]
            if fitting and points > kept[top]:
                kept[top] = points
                label = (draws, 0, points, best, best[0] - draws)
                groups.setdefault(fitting, []).append(label)
    return groups, best


def _drawn(label: _Label) -> int:
    return label[0]


def _front(group: list[_Label], per_play: int) -> list[_Label]:
    """The labels no other label of the group makes redundant (see :func:`par_labels`)."""
    group.sort(key=_front_order)
    front: list[_Label] = []
    for label in group:
        points = label[2]
        most = points + label[1] * per_play
        for other in front:
            if other[2] >= points and other[2] + other[1] * per_play >= most:
                break
        else:
            front.append(label)
    return front


def _front_order(label: _Label) -> tuple[int, int, int]:
    return label[0], -label[2], -label[1]


def _label_steps(label: _Label) -> list[int]:
    """The steps from the start to ``label``."""
    steps: list[int] = []
    previous = label[3]
    while previous is not None:
        step = label[4]
        if step < 0:
            steps.extend([DRAW_STEP] * -step)
        else:
            steps.append(step)
        label, previous = previous, previous[3]
    return steps[::-1]


def _finish(state: GameState) -> tuple[Move, ...]:
    """Moves that take ``state`` to the end of the game: the first card that fits, else a draw.

    After an exact par line no play is ever left (it would have scored more), so this only draws.
    """
    moves: list[Move] = []
    while not state.status.is_over:
        legal = state.legal_moves()
        move = legal[0]
        state.apply(move)
        moves.append(move)
    return tuple(moves)


def _ms_since(started: float) -> float:
    return (time.perf_counter() - started) * 1000
