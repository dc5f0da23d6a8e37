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

**Par** (:func:`find_par`) is an exact search over labels (:func:`par_labels`), pruned by an upper
bound. Every way of reaching a mask is a label (cards drawn, streak, points), labels are grouped by
the cards their top fits, and a label that another makes redundant (third fact) is dropped. Two
steps:

1. **Bounds** (:func:`relaxed_bounds`): the relaxed game in which a new run may start from any
   available card (the stock's order forgotten) depends on the played mask alone, and one pass over
   every mask reachable (22,932 from the deal) bounds it. Each new run is charged
   :data:`RUN_PENALTY`, the ten points a card left in the stock is worth at the end, and each card
   left in the stock is credited as much: a real line that draws ``u`` of the ``d`` cards left
   makes at most ``u`` new runs and scores at most ``10·(d - u)`` for clearing, so it scores at
   most its relaxed score less the charges, plus ``10·d``. Per mask the bound keeps ``fresh``, the
   most a new run and all after it can score less its charge, and per rank of the top card ``y``,
   the most a line going on with a card that fits it scores on a streak of 1 (that card alone on
   the streak when a new run follows it at once), and the longest run it can make: on a streak
   ``s ≥ 1`` such a line scores at most ``y + 10·(s - 1)·longest``, because the streak adds 10 per
   play before the next draw. Peak bonuses count where the peak top is played (the figures count
   in those a mask's played peak tops earned, so that a play adds only its streak's points to
   what follows it). The masks and which follow which are the same for every deal:
   :mod:`game.engine.masks` builds them once per process, with the plays grouped by level and
   card, so the pass looks up what a card's rank decides once for all the masks it is played from,
   and keeps each figure in one list by the masks' places (no list per mask).
2. **Best first** (:func:`_best_first`): labels are taken out one at a time, the one whose points
   plus bound (its *hope*) are highest first, and the search stops when no label left hopes for
   more than the best line met, which is then par. A label taken out is dropped when one taken out
   before at the same mask and group makes it redundant, and its draws are not made again when a
   label of the same mask with no more cards drawn and at least its points has drawn; they go only
   as far as the fewest cards drawn by such a label with more cards drawn (the draws beyond are
   that label's, from fewer cards drawn). A label made by drawing makes no draws of its own (they
   would be those of the label it was drawn from, with no more points), so its hope is what going
   on from its top may score, never what a new run may; a play after which the top fits no card
   makes its draws at once rather than waiting its turn. Only labels hoping for more than par are
   ever taken out (and some hoping for exactly par), without needing a floor first. Hopes are
   whole numbers of ten points, so the labels wait in one list per hope rather than in a heap. The
   longest run also makes dominance tighter: a streak is worth at most that many more plays, not
   every card left.

On seeds 0–39 the best-first search takes out a median of 900 labels (standard) and 3,200
(no-wrap), up to 26,000 and 55,000 on the hardest deals, where the unpruned sweep kept 100,000 to
220,000 on every deal. The bounds' pass (about 25 ms) is most of the time on a typical deal.

Budget: the bounds count one node per mask, labels one node each. A budget below
:data:`BOUNDS_NODES` skips the bounds and sweeps unpruned level by level (:func:`_par_sweep`), as
before; if the budget or the deadline runs out during the best-first search, a beam over the levels
(:data:`GUIDE_WIDTHS`) looks for a line, and the better of its line and the best one met is
returned, not exact. The bounds' pass itself does not look at the deadline. :func:`find_par`
remembers its last :data:`PAR_CACHE_SIZE` results by deal, variant and budget.

**What was measured** (issue #17, three rounds). The bound the scoring rules give (every card left
on the current streak) is thousands of points too high mid-game and prunes almost nothing. A
relaxed bound that kept the largest intercept and the largest run of each rank apart, with a count
of the fewest runs that clear the peaks for the clearing bonus, was 70 to 750 points above par at
the start, yet close enough further down to drop all but a few percent of the labels. A
depth-first branch and bound over (mask, cards drawn) with the same bound and the true par as its
floor visits five to ten times as many nodes as the pruned sweep, because it meets a mask again for
every number of cards drawn. A lazier bounds table does not help: a mask's bound needs every mask
above it: the masks above those the pruned sweep visits from its eighth level on are 13,000 to
16,000 of the 22,932, and leaving the first levels unpruned only makes it visit more (20,000).

The third round ("par ten times faster", whose target of 50 ms a deal is not reached) measured
par's CPU time on seeds 0–39, on two cores shared with other work, the search before it and this
one in turns in one process (the better of two runs each; two such comparisons): median 175–193
to 85 ms on standard deals and 314–362 to 159–175 ms on no-wrap deals, deal by deal about 2 and
1.8 times as fast (90th percentile 266–291 to 154–156 ms and 887–1,139 to 523–599 ms).
``bench/solver.py 40``, one run per deal in a child process of its own, printed CPU medians of 185
and 294 ms before and of 101 and 193 ms after. What each change bought:

* charging new runs and crediting the stock (above) in place of the fewest-runs count: the same
  labels, and a quarter less work per play in the bounds' pass (no third figure);
* ``y`` per card (its score and its own run length together) in place of the largest intercept and
  largest run of a rank apart: the no-wrap deals keep a half to a quarter of the labels on the
  hard deals (seed 9: 81,000 to 22,000), and the narrow beam finds par more often;
* the mask graph built once (:mod:`game.engine.masks`), walked in order with no dictionary look-up
  or recursion, and counting in tens of points (:data:`_UNIT`): the pass roughly halved, from
  about 120 ms to about 60 ms;
* one narrow beam for standard deals, one wider for no-wrap deals, in place of two beams of 16
  and 64 masks; :func:`_going_on` from the two ranks that fit a top rather than its cards; the
  cycle collector paused during a search (:func:`_collector_paused`, about 7%).

A search's own memory (the peak resident set of the process it runs in, less what it had before)
fell from a median of 15 MB to 9 MB, the bounds keeping 28 figures per mask instead of 42; the mask
graph holds about 14 MB more, once per process (see :mod:`game.engine.masks`).

Tried and dropped: vectorising the pass across the masks of a level (big integers, gathers by
``operator.itemgetter``) costs more to gather and pack than it saves, the builtin ``max`` is slower
than comparisons, walking the pass position by position is slower than mask by mask, and flat or
parallel tuples for the plays save memory but cost about 4 ms a deal. The pass still does about 35
bytecodes for each of the 119,364 plays: below that it needs a smaller relaxation, not faster code.

The fourth round ("par in 50 ms a deal", reached on neither variant: the bounds' pass alone is
about 40 ms) replaced the guiding beam and the exact sweep by the best-first search. Timed as
``bench/solver.py`` times (a child process per deal, CPU time), the tree before and this one in
turns deal by deal, on two cores busy with another engineer's browser tests (which inflate CPU
time too: the tree before measured 95 to 147 ms median over the afternoon): standard deals from a
median of 139 to 95 ms (90th percentile 186 to 116 ms), no-wrap deals from 211 to 118 ms (695 to
378 ms), deal by deal 0.65 and 0.56 of the time before. ``bench/solver.py 40``, two runs each,
back to back with the tree before (after it, then before it): CPU medians of 146 and 132 ms
before and 99 and 95 ms after on standard deals (90th percentile 220 and 200 to 127 and 129 ms),
of 240 and 183 ms before and 128 and 114 ms after on no-wrap deals (772 and 635 to 508 and 446
ms), every par exact. What each change bought:

* the best-first search: the search after the bounds from a median of 37 to 10 ms (standard) and
  110 to 39 ms (no-wrap), means 79 to 26 ms and 252 to 128 ms, in one process on the same bounds;
  labels from a median of 2,300 to 1,200 and 6,200 to 4,700 (the sweep's counted with its
  guide's; the search's include those whose top fits no card, which only draw). It needs no floor,
  so deals on which the guide's floor fell short of par gain most (standard seed 8: 73,000 labels
  to 13,000). With a heap in place of the lists by hope it took a third longer, and on the hardest
  deals, where the guide's floor was par already, half as long again as the sweep (no-wrap seed
  36: 925 to 1,454 ms); with the lists it is a little faster there (975 to 866 ms);
* the bounds kept in a list by the graph's places (:class:`Bounds`) instead of a dictionary by
  mask built for each deal: about 4 ms of the pass; reading each figure of an entry once into a
  local: about 3% of it;
* (memory) the best-first search keeps every label it made until it ends: the median of a
  search's own memory went from 9.0 to 7.4 MB (standard) and 8.2 MB (no-wrap), the largest from
  13 to 15 MB and from 15 to 24 MB (no-wrap seed 36);
* before the best-first search: asking the exact sweep for one unit more than the guide's line
  (when none scores more, the guide's line is par: 10% of par, gone with the sweep's part in par),
  and testing the bounds before the redundancy, which is quadratic in a group's labels, in
  :func:`_par_sweep` (5% of the sweep; kept, as the sweep still serves small budgets and the
  beam).

Tried and dropped in the fourth round: pruning a label by the bound of the mask it goes to when it
is made rather than at the next level (as slow: the test costs what making and grouping it did); a
tighter bound for drawing, from the first stock card of each rank to come rather than ``fresh``
(4% fewer labels, and the table per mask cost more than it saved); the longest run of all in
place of each rank's (a hundred times the labels); in the best-first search, a redundancy test
before a label goes on the heap, a first line from a beam of two masks, and ties broken by points,
cards drawn or depth (none changed the median or the mean by more than the noise), and ``any()``
over a generator for the redundancy tests (15% slower on the hard deals); other widths for the
guide before it went (4, 12, 1 then 8, 2 then 8, 2 then 16: none better in both median and mean).
A lazier bounds table helps no more with a best-first search than with the sweep: the first label
taken out is the start, whose bound needs every mask. No smaller relaxation was found in the time:
summing bounds per peak is no bound (a run's points grow with its length across peaks), and one
that forgets the overlaps was only reasoned about (its runs may take every card of adjacent ranks),
not measured.

The fifth round ("par under 50 ms a deal on both variants") made the bounds' pass about a third
faster and let the best-first search take out a quarter fewer labels. ``bench/solver.py 40`` (CPU
time, a child process per deal), the tree before and this one back to back in turns, six times,
on two cores shared with another engineer's benchmarks (load average 0.9 to 2.8, which inflates
CPU time too): CPU medians of 60.2, 56.0, 60.1, 59.7, 45.2 and 50.6 ms before and 41.8, 36.7,
43.4, 40.1, 33.5 and 41.6 ms after on standard deals (90th percentile 57 to 83 ms before, 49 to
59 ms after), of 75.1, 59.0, 75.7, 74.9, 56.6 and 68.1 ms before and 50.2, 46.3, 55.7, 57.5,
47.6 and 51.5 ms after on no-wrap deals (90th percentile 201 to 322 ms before, 144 to 219 ms
after), every par exact: 0.66 to 0.82 of the time before on standard deals, 0.67 to 0.84 on
no-wrap deals; at the quietest (the fifth pair), 45.2 to 33.5 ms and 56.6 to 47.6 ms. In forked
children as the bench runs them (no-wrap), the pass took a median of 28 to 33 ms against 46 to 48
ms before, the best-first search 16 to 18 ms against 20 to 23 ms. In one process, the bounds and
the best-first search deal by deal in turns (the better of two runs): 0.66 of the time before on
both variants (per-deal median). What each change bought:

* the pass card by card within a level (:attr:`~game.engine.masks.MaskGraph.levels`), each figure
  in one list by place (:class:`Bounds`), and the figures by the rank of the top (the better of
  the two ranks that fit it, written by each card to the ranks it fits) rather than by the rank of
  the card: the pass from a median of 39–46 to 27–32 ms in one process, the same bounds. Lists
  per mask by the rank of the top alone bought 8%, one list per figure walked mask by mask 10%;
* a label made by drawing makes no draws and hopes only for going on from its top (see
  :func:`_best_first`): labels taken out from a median of 1,203 to 1,051 (standard) and 4,699 to
  4,411 (no-wrap); with the bounds read by place rather than through the places of the masks,
  0.72 and 0.71 of the time before, with the pass;
* a play after which the top fits no card drawing at once: 900 and 3,174 labels taken out (those
  labels are no longer taken out), 3 to 6% of the time; the draws going only as far as a label
  that drew with at least the points (:func:`_draws_until`): 0 to 6%, within the noise.

Tried and dropped in the fifth round: in the best-first search, walking a label's plays through
the graph's plays of its mask rather than looking the masks after them up by mask (9% slower); no
new run hoped for once the stock is spent (mean labels 1,795 to 1,794); a figure per rank for a
streak of 0 (what going on from a top scores with the run's streak not yet counted, two more
writes per play) for the hopes of labels made by drawing: 6% fewer labels (900 to 851 and 3,174
to 2,966), the pass 28% longer (27.5 to 35.1 ms); a label dropped also when one taken out at the
mask whose top fits more cards makes it redundant (groups by mask, then by the cards fitting): 5%
fewer labels (900 to 853 and 3,174 to 3,030), no faster (two turns: 0.94 to 1.04 of the time);
in the pass, walking tuples of (place, place after) pairs rather than zipping the graph's two
tuples: a bare loop over the plays took 3.7 rather than 4.9 ms, but the pairs are 119,364 more
tuples (about 6 MB), which a forked child copies as it first counts references to them.
Reasoned about, not measured: counting the runs from the number of cards played, which would
spare the pass its ``+ 1`` per play, needs as many subtractions in ``y``; making a play's label
only when it is kept (12% of them are not, counted) saves a tuple each. The pass now spends about
a tenth of its time walking the pairs and the rest on three reads and five tests a play: below
that it still needs a smaller relaxation.

A follow-up to the fifth round tightened ``y`` at no cost to the pass. A card followed at once by a
new run makes a run of one card, yet ``y`` counted it as heading the longest run going on from it
could make, a point more for each of those cards: ``y`` now takes the better of going on (the run's
points) and a new run (this card's point alone), which the admissibility tests check
(:func:`relaxed_bounds`). The extra test cost the pass 11 to 12%, won back by counting the peak
bonuses earned into the figures by mask (the play's own score and a new run's charge cancel, so the
pass adds nothing per play but the streak's points). In one process, deal by deal in turns with the
tree before (the bounds and :func:`_best_first` timed apart, the better of two runs each): labels
taken out from a median of 898 to 526 (standard) and 3,174 to 2,398 (no-wrap), means 1,794 to 1,463
and 9,108 to 8,309; the best-first search 0.86 and 0.85 of the time (per-deal median), the pass
1.00 and 0.98 of it (0.98 is what two identical trees differ by). In forked children as the bench
runs them, the two trees deal by deal in turns (``find_par`` alone, CPU time, the order flipped
every deal; three runs): per-deal median 0.93, 0.93 and 0.96 of the time before on no-wrap deals
(medians 42.7 to 37.4, 48.7 to 50.0 and 53.9 to 50.7 ms), 0.96, 0.98 and 0.95 on standard deals.
``bench/solver.py 40``, the tree before and this one back to back in turns, eight times, on two
cores shared with another engineer's benchmarks (load average 1.7 to 5.7, which inflates CPU time
and makes it jump by 10 ms from one run to the next): CPU medians of 57.3, 52.4, 59.7, 52.2, 44.4,
47.6, 55.3 and 45.0 ms before and 44.4, 49.4, 49.8, 44.0, 48.0, 49.3, 48.0 and 46.8 ms after on
no-wrap deals, of 43.5, 40.1, 43.9, 36.1, 34.2, 42.2, 41.1 and 39.6 ms before and 37.2, 39.4, 37.9,
40.7, 39.7, 36.4, 34.6 and 32.8 ms after on standard deals, every par exact. The aim of 42 ms on
no-wrap deals is not reached: the pass, unchanged, is most of a typical deal.

Tried and dropped in that follow-up: in no-wrap, an Ace top reading the figures of a 3 top and a
King top those of a Jack (the ranks fitting them a subset): four lists fewer, but labels from a
median of 3,174 to 6,222 and the best-first search more than twice as long; a loop of its own in
the pass for the cards that fit one rank (Ace and King in no-wrap), without the second pair of
tests: 0.97 to 0.98 of the pass, what identical trees differ by; the run lists holding one more
than the run (sparing the pass its ``+ 1`` per play, written only when a run is longer): 0.97 to
0.99 of the pass, within the noise. Measured, not acted on: in a forked child, making the bounds'
27 lists takes about 2.2 ms (fresh pages), freeing them about 1 ms; all of par but the pass and the
best-first search, under 1 ms.

>>> from game.engine.deal import Deal
>>> from game.engine.variants import Variant
>>> result = solve(Deal.from_seed("7"), Variant.TRIPEAKS)
>>> result.winnable, len(result.line) >= 28
(True, True)
"""

from __future__ import annotations

import gc
import heapq
import math
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
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
from game.engine.masks import MaskGraph, available_positions, mask_graph
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
GUIDE_WIDTHS: Final[dict[Variant, int]] = {Variant.TRIPEAKS: 8, Variant.NOWRAP: 24}
"""By variant, the played masks kept per level by the beam that looks for a line when the par
search's budget runs out. As the guide that found the exact sweep's floor (before the best-first
search), these widths found par itself on 29 of the first 40 standard deals and 30 of the first 40
no-wrap deals."""
BOUNDS_NODES: Final = 25_000
"""The least node budget with which the par search computes its bounds (about 23,000 masks)."""
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
"""Nodes the par search may spend: the bounds' masks (about 23,000 from a deal) and the labels
taken out, which a deal needs a few thousand of (the unpruned sweep kept 100,000 to 220,000)."""


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
    variant: Variant
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
            variant=variant,
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
        return available_positions(played)

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
    with _collector_paused():
        steps, exact, nodes = par_labels(
            table, start, budget=budget, deadline=Deadline.of(budget, started)
        )
    line = table.moves(steps)
    finished = GameState.replay(state.deal, state.variant, [*state.moves, *line])
    line += _finish(finished)
    return ParResult(finished.score, line, exact, nodes, _ms_since(started))


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Pause Python's cycle collector while a search runs (restored after, as it was).

    A search makes tens of thousands of lists and tuples and frees them together, and none of them
    ever forms a cycle, so the collections their making sets off find nothing: about 7% of the time
    of a par search on a typical deal. Reference counting still frees everything at once.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def par_labels(
    table: Table, start: SearchStart, *, budget: Budget, deadline: Deadline = NO_DEADLINE
) -> tuple[list[int], bool, int]:
    """The best line by points: the bounds, then the best-first search (see the module's notes).

    With a budget too small for the bounds (:data:`BOUNDS_NODES`), the sweep runs unpruned and, as
    soon as the budget is spent, narrows to a beam. Returns (steps, exact, nodes): nodes are the
    masks the bounds cost plus the labels the searches took out or kept.
    """
    if budget.max_nodes < BOUNDS_NODES:
        best, _, exact, nodes = _par_sweep(
            table, start, None, floor=start.score, max_nodes=budget.max_nodes, deadline=deadline
        )
        return _label_steps(best), exact, nodes
    bounds = relaxed_bounds(table, start.played)
    nodes = len(bounds)
    best, points, exact, searched = _best_first(
        table, start, bounds, max_nodes=max(budget.max_nodes - nodes, 0), deadline=deadline
    )
    nodes += searched
    if not exact:  # the budget ran out: a beam may still find a better line than the best met
        line, guided_points, _, guided = _par_sweep(
            table,
            start,
            bounds,
            floor=points,
            width=GUIDE_WIDTHS[table.variant],
            max_nodes=budget.max_nodes,
        )
        nodes += guided
        if guided_points > points:
            best = line
    return _label_steps(best), exact, nodes


def _best_first(
    table: Table,
    start: SearchStart,
    bounds: Bounds,
    *,
    max_nodes: int,
    deadline: Deadline = NO_DEADLINE,
) -> tuple[_Label, int, bool, int]:
    """The best line by points, best first: the label whose points plus bound are highest next.

    Labels are those of :func:`_par_sweep`; a label's hope is its points plus its bound, as
    :func:`_reaching` counts it. The search takes labels out in order of hope (among equal hopes
    the one made last, which meets whole lines sooner), makes their plays and draws, and stops once
    no label left hopes for more than the best line met, which is then par. Every hope is a whole
    number of :data:`_UNIT`, and no label hopes for more than the label it was made from, so the
    labels wait in one list per hope, taken from the highest down: a heap of labels took a third
    longer (its comparisons grow with the number of labels waiting, tens of thousands on the
    hardest deals). A label taken out is dropped when one taken out before at the same mask and in
    the same group makes it redundant (see :func:`_par_sweep`), and its draws are not made when a
    label of the same mask with no more cards drawn and at least its points has drawn: that
    label's draws reach each top rank with no more cards drawn (see :func:`_draws_until` for
    those with more cards drawn). As in :func:`_groups`, a draw goes only as far as the first
    stock card of each rank that fits an available card.

    A label made by drawing never draws: any draw of its own puts a card on top that the label it
    was drawn from put there too, with no more cards drawn and the same points, or a rank that
    label reached from fewer cards drawn. Its hope is therefore what going on from its top may
    score on a streak of 0 (:func:`_reaching` also counts a new run, which it never makes first),
    which drops many of the labels drawing makes. A play after which the top fits no card can only
    draw, and its draws are made at once (when its hope, its points plus ``fresh``, exceeds the
    best line met) rather than the label waiting its turn in the queue. Returns (best label, its
    final points, exact, nodes): nodes are the labels taken out and not dropped; when
    ``max_nodes`` or the deadline runs out, the best line met so far, not exact.
    """
    step, unit, penalty = STREAK_STEP, _UNIT, RUN_PENALTY
    peaks_earned, peak_mask = _PEAKS_EARNED, _PEAK_MASK
    last = table.stock_size
    credit_at = [penalty * (last - drawn) for drawn in range(last + 1)]
    ranks = table.ranks
    fit_masks = table.fit_masks
    draw_order = tuple(
        tuple(sorted((draws, rank) for rank, draws in enumerate(first) if draws != NEVER))
        for first in _first_draws(table)
    )
    graph = mask_graph()
    available_at, places = graph.available_at, graph.places
    fresh_at, going_on, runs = bounds.fresh, bounds.going_on, bounds.runs
    # By a position's bit: the position, its rank, what playing it scores on a streak of 0, and
    # the bounds of a top of its rank.
    cards = {
        1 << p: (p, ranks[p], _play_score(p), going_on[ranks[p]], runs[ranks[p]]) for p in POSITIONS
    }
    root = _root_label(start)
    best, best_points = root, start.score
    expanded: dict[int, list[_Label]] = {}  # by mask and the cards its top fits
    drew: dict[int, list[_Label]] = {}  # by place: the labels whose draws were made
    hope = _reaching_score(
        root,
        bounds.fresh_points(start.played),
        *bounds.going_on_points(start.played, start.top.rank),
        last,
    )
    # By hope in units, the labels that hope for it with their mask, its place and their top, the
    # last made last.
    queue: list[list[_Waiting]] = [[] for _ in range(hope // unit + 1)]
    queue[hope // unit].append((start.played, places[start.played], start.top.rank, root))
    highest = hope // unit  # no label hopes for more
    nodes = 0
    while highest * unit > best_points:
        waiting = queue[highest]
        if not waiting:
            highest -= 1
            continue
        played, place, top, label = waiting.pop()
        if nodes >= max_nodes or (nodes % _TIME_CHECK_EVERY == 0 and deadline.passed()):
            return best, best_points, False, nodes
        drawn, streak, points = label[0], label[1], label[2]
        free = available_at[place]
        fitting = free & fit_masks[top]
        if fitting:
            per_play = (runs[top][place] - 1) * step
            key = played | fitting << TABLEAU_SIZE
            group = expanded.get(key)
            if group is None:
                expanded[key] = [label]
            elif _redundant(label, group, per_play):
                continue
            else:
                group.append(label)
        nodes += 1
        credit = credit_at[drawn]
        # What a child's hope adds to its bounds, which count the peak bonuses earned in: its
        # points less those, and the credit for the stock.
        lifted = points - peaks_earned[played & peak_mask] + (streak + 1) * step + credit
        # The labels whose draws to make: this one unless drawing made it (its own draws would be
        # no better than those made where it was drawn), and its children that fit no card.
        drawing = [(played, place, label)] if drawn < last and label[4] >= 0 else []
        while fitting:
            bit = fitting & -fitting
            fitting ^= bit
            position, rank, play, going_on_rank, runs_rank = cards[bit]
            after = played | bit
            gained = points + streak * step + play
            child = (drawn, streak + 1, gained, label, position)
            if after == ALL_PLAYED:
                final = gained + CLEARING_BONUS_PER_CARD * (last - drawn)
                if final > best_points:
                    best, best_points = child, final
                continue
            if gained > best_points:
                best, best_points = child, gained
            below = places[after]
            going = going_on_rank[below]
            fresh = fresh_at[below] * unit
            if going == _NO_PLAY:  # it can only draw: at once, rather than waiting its turn
                if drawn < last and lifted + fresh > best_points:
                    drawing.append((after, below, child))
                continue
            # _reaching_score's bound for the child (on a streak of streak + 1), inlined.
            going = going * unit + streak * (runs_rank[below] - 1) * step
            hope = lifted + (fresh if fresh > going else going)
            if hope > best_points:
                at = hope // unit
                if at > highest:  # never met (a play hopes for no more than the label before)
                    highest = _raise_to(queue, at)
                queue[at].append((after, below, rank, child))
        for mask, at_place, drawer in drawing:
            made = drew.get(at_place)
            if made is None:
                drew[at_place] = [drawer]
                until = last
            else:
                until = _draws_until(drawer, made)
                if until < 0:
                    continue
                made.append(drawer)
            free = available_at[at_place]
            most = fresh_at[at_place] * unit + penalty  # a new run at most, its charge given back
            points = drawer[2]
            lowered = points - peaks_earned[mask & peak_mask]  # the bounds count those in
            for draws, rank in draw_order[drawn]:
                if draws > until:
                    break
                if free & fit_masks[rank]:
                    # Going on from the card drawn, on a streak of 0: its own draws are no
                    # better than those made here.
                    hope = going_on[rank][at_place] * unit - step
                    if hope > most:
                        hope = most
                    hope += lowered + credit_at[draws]
                    if hope > best_points:
                        at = hope // unit
                        if at > highest:  # never met, as for plays
                            highest = _raise_to(queue, at)
                        child = (draws, 0, points, drawer, drawn - draws)
                        queue[at].append((mask, at_place, rank, child))
    return best, best_points, True, nodes


_Waiting = tuple[int, int, Rank, _Label]
"""A label waiting in :func:`_best_first`'s queue, with its mask, the mask's place and its top."""


def _raise_to(queue: list[list[_Waiting]], at: int) -> int:
    """Make room in ``queue`` for labels hoping for ``at`` units, and return ``at``: the highest
    hope of the queue (see :func:`_best_first`) must never be below that of a label in it."""
    while len(queue) <= at:
        queue.append([])
    return at


def _redundant(label: _Label, group: list[_Label], per_play: int) -> bool:
    """Whether a label of ``group`` makes ``label`` redundant (see :func:`_par_sweep`), the group's
    longest run being worth ``per_play`` a streak."""
    drawn, points = label[0], label[2]
    most = points + label[1] * per_play
    # A loop rather than any() over a generator, which cost hard deals 15% more time.
    for other in group:
        if other[0] <= drawn and other[2] >= points and other[2] + other[1] * per_play >= most:
            return True
    return False


def _draws_until(label: _Label, made: list[_Label]) -> int:
    """How far the draws of ``label`` are worth making, given the labels ``made`` whose draws were
    made at the same mask: -1 when one had no more cards drawn and at least its points (every
    draw of ``label`` is then no better than one already made), else the fewest cards drawn by one
    with at least its points (each draw beyond them is no better than one of that label's, which
    put the same rank on top from fewer cards drawn), or the whole stock."""
    drawn, points = label[0], label[2]
    until = NEVER
    for other in made:
        if other[2] >= points:
            if other[0] <= drawn:
                return -1
            if other[0] < until:
                until = other[0]
    return until


@dataclass(frozen=True, slots=True)
class Bounds:
    """The relaxed game's bounds by played mask (see :func:`relaxed_bounds`), in :data:`_UNIT`:
    one list per figure, by the masks' places in :func:`~game.engine.masks.mask_graph` (found
    through its places). Lists by place and figure need no list per mask (making 22,932 of them
    took about 5 ms); a dictionary by mask, built for each deal, cost about 4 ms more."""

    fresh: list[int]
    """By place: the most a new run and everything after it score, less its charge, plus the peak
    bonuses the mask's played peak tops earned (see :func:`relaxed_bounds`)."""
    going_on: list[list[int]]
    """By the rank of the top card, then by place: the most a line scores that goes on with an
    available card fitting the top, that card on a streak of 1, plus the peak bonuses earned as
    for ``fresh`` (``_NO_PLAY`` when no card fits)."""
    runs: list[list[int]]
    """By the rank of the top card, then by place: the longest run such a line makes, counting
    the top card itself (1 when no card fits it)."""
    places: dict[int, int]
    count: int
    """How many masks the bounds cover: those that can follow the mask they were computed from."""

    def __len__(self) -> int:
        return self.count

    def fresh_points(self, played: int) -> int:
        """``fresh`` at ``played``, in points (the peak bonuses earned left out)."""
        return self.fresh[self.places[played]] * _UNIT - _PEAKS_EARNED[played & _PEAK_MASK]

    def going_on_points(self, played: int, top: Rank) -> tuple[int, int]:
        """At ``played`` with a top of rank ``top``: the most going on scores on a streak of 1 (in
        points, the peak bonuses earned left out), and the longest run going on makes (0 when no
        card fits the top)."""
        place = self.places[played]
        earned = _PEAKS_EARNED[played & _PEAK_MASK]
        return self.going_on[top][place] * _UNIT - earned, self.runs[top][place] - 1

    def longest(self, played: int) -> int:
        """The longest run any line makes from ``played``."""
        place = self.places[played]
        return max(runs[place] for runs in self.runs[1:]) - 1


RUN_PENALTY: Final = CLEARING_BONUS_PER_CARD
"""What the bounds charge a new run for the draw it costs: what a card left in the stock is worth
at the end (see :func:`_reaching` for why that keeps them bounds)."""
_UNIT: Final = math.gcd(STREAK_STEP, PEAK_BONUS, CLEARING_BONUS_PER_CARD)
"""The points every score is a multiple of (10). The bounds count in these units: most of their
numbers are then among the small integers Python shares rather than allocates."""
_PEAK_MASK: Final = sum(1 << p for p in PEAK_TOPS)
_PEAKS_EARNED: Final = {
    peaks: PEAK_BONUS * peaks.bit_count()
    for peaks in range(_PEAK_MASK + 1)
    if peaks & _PEAK_MASK == peaks
}
"""By the peak tops a mask has played (its bits in :data:`_PEAK_MASK`), the bonuses they earned:
the bounds' figures count them in (see :func:`relaxed_bounds`)."""
_NO_PLAY: Final = -(1 << 20)
"""A ``y`` for a rank with no card to play: less than any score."""


def relaxed_bounds(table: Table, played: int) -> Bounds:
    """Upper bounds on what every mask reachable from ``played`` can still score, from a relaxation.

    In the relaxed game a run may start from any available card (the stock's order is forgotten),
    so a mask's future depends on the mask alone; each new run is charged :data:`RUN_PENALTY`, the
    draw it costs. For each mask the bounds hold ``fresh``: the most a new run and everything after
    it can score, less the penalty (0 once every card is played); and for each rank ``t`` of a top
    card, ``y``: the most a line can score that goes on with an available card fitting ``t``, that
    card on a streak of 1 (when a new run follows it at once, that card alone on the streak), and
    the longest run it can make. With streak ``s ≥ 1``, such a line scores at most
    ``y + 10·(s - 1)·longest`` (the streak adds ``10`` per play before the next draw), with streak
    0 at most ``y - 10``, and a line that draws first at most ``fresh``; to any of them the penalty
    for every card left in the stock adds back what the draws and the clearing bonus can be worth
    (see :func:`_reaching`). Every mask reachable from ``played`` is visited
    once, level by level (:attr:`~game.engine.masks.MaskGraph.levels`) and card by card within a
    level, so that what a card's rank decides is looked up once for all the masks it is played
    from. A play on a streak of 0 scores what a new run is charged (``STREAK_STEP`` is
    :data:`RUN_PENALTY`) besides its peak bonus, so the figures count in the peak bonuses their
    mask's played peak tops earned (:data:`_PEAKS_EARNED`), and a play adds nothing to what
    follows it but its streak's points. Read the bounds through :meth:`Bounds.fresh_points` and
    :meth:`Bounds.going_on_points`, which give points, those bonuses left out.

    >>> from game.engine.deal import Deal
    >>> from game.engine.variants import Variant
    >>> bounds = relaxed_bounds(Table.of(Deal.from_seed("7"), Variant.TRIPEAKS), 0)
    >>> intercept, longest = bounds.going_on_points(ALL_PLAYED, 5)
    >>> bounds.fresh_points(ALL_PLAYED), intercept < -1_000_000, longest, len(bounds) > 20_000
    (0, True, 0, True)
    """
    graph = mask_graph()
    count = len(graph.masks)
    fresh = [0] * count
    fresh[graph.places[ALL_PLAYED]] = _PEAKS_EARNED[_PEAK_MASK] // _UNIT  # every bonus earned
    # By rank, after an empty list for rank 0, which is no rank.
    going_on = [[], *([_NO_PLAY] * count for _ in range(KING))]
    runs = [[], *([1] * count for _ in range(KING))]
    cards = _bound_cards(table, going_on, runs)
    levels, covered = _levels_above(graph, played)
    for level in levels:
        for position, sources, afters in level:
            y_card, runs_card, y_one, y_other, runs_one, runs_other = cards[position]
            for i, after in zip(sources, afters, strict=True):
                # This card heading a new run (``value``), or played on a streak of 1 (``going``,
                # its charge given back): going on after it, where the run it heads scores a
                # point per card more, or a new run at once, where only this card does.
                value = y_card[after]
                run = runs_card[after] + 1
                going = value + run
                other = fresh[after]
                if other > value:
                    value = other
                    other += 2
                    if other > going:
                        going = other
                if value > fresh[i]:
                    fresh[i] = value
                if going > y_one[i]:
                    y_one[i] = going
                if going > y_other[i]:
                    y_other[i] = going
                if run > runs_one[i]:
                    runs_one[i] = run
                if run > runs_other[i]:
                    runs_other[i] = run
    return Bounds(fresh, going_on, runs, graph.places, covered)


_Level = tuple[tuple[int, tuple[int, ...], tuple[int, ...]], ...]


def _levels_above(graph: MaskGraph, played: int) -> tuple[tuple[_Level, ...], int]:
    """The graph's plays by level and card (:attr:`~game.engine.masks.MaskGraph.levels`) from the
    masks that can follow ``played``, and how many masks those are."""
    if not played:
        return graph.levels, len(graph.masks)
    masks = graph.masks
    levels = []
    for level in graph.levels[: TABLEAU_SIZE - played.bit_count()]:
        kept = []
        for position, sources, afters in level:
            pairs = [
                (i, after)
                for i, after in zip(sources, afters, strict=True)
                if masks[i] & played == played
            ]
            if pairs:
                kept_sources, kept_afters = zip(*pairs, strict=True)
                kept.append((position, kept_sources, kept_afters))
        levels.append(tuple(kept))
    return tuple(levels), len(graph.above(played))


def _bound_cards(
    table: Table, going_on: list[list[int]], runs: list[list[int]]
) -> list[tuple[list[int], list[int], list[int], list[int], list[int], list[int]]]:
    """By position, what :func:`relaxed_bounds` needs of its card: the lists of the bounds it
    reads (those of tops of its rank) and the lists it adds to (those of the ranks it fits, twice
    when it fits one)."""
    cards = []
    for p in POSITIONS:
        rank = table.ranks[p]
        one, other = _pair(table.neighbours[rank])
        y_card, y_one, y_other = going_on[rank], going_on[one], going_on[other]
        cards.append((y_card, runs[rank], y_one, y_other, runs[one], runs[other]))
    return cards


def _play_score(position: int) -> int:
    """What playing the card at ``position`` scores on a streak of 0, its peak bonus included."""
    return STREAK_STEP + (PEAK_BONUS if position in PEAK_TOPS else 0)


def _par_sweep(
    table: Table,
    start: SearchStart,
    bounds: Bounds | None,
    *,
    floor: int,
    max_nodes: int,
    deadline: Deadline = NO_DEADLINE,
    width: int | None = None,
) -> tuple[_Label, int, bool, int]:
    """The best line by points, one level (cards played) at a time, keeping Pareto-best labels.

    At each played mask, the labels that can still make plays are grouped by the set of available
    cards their top card fits (only that set matters about the top). Within a group, label A makes
    label B redundant when A has drawn no more cards, has at least B's points, and would still have
    at least B's points after the longest run the group can still make went onto the current streak
    (the streak is worth 10 × streak more for each further play of it). Every continuation of B
    then exists for A with at least the same points.

    With ``bounds``, a label whose points plus its bound (see :func:`relaxed_bounds`, plus the
    clearing bonus for every card left in the stock) cannot reach ``floor`` is dropped; the floor
    is the score of a real line, and rises as the sweep meets better ones. With a ``width``, each
    level keeps only that many masks (a beam, never exact); otherwise the sweep narrows to
    :data:`PAR_BEAM_WIDTH` masks once ``max_nodes`` labels are kept or the deadline passes.
    Returns (best label, its final points, exact, nodes): nodes are labels kept.
    """
    step = STREAK_STEP
    last = table.stock_size
    ranks = table.ranks
    fit_masks = table.fit_masks
    draw_order = tuple(
        tuple(sorted((draws, rank) for rank, draws in enumerate(first) if draws != NEVER))
        for first in _first_draws(table)
    )
    graph_available = mask_graph().available
    # By a position's bit: the position, its rank, and what playing it scores on a streak of 0.
    cards = {1 << p: (p, ranks[p], _play_score(p)) for p in POSITIONS}
    root = _root_label(start)
    level: dict[int, dict[Rank, list[_Label]]] = {start.played: {start.top.rank: [root]}}
    available: dict[int, int] = {start.played: graph_available[start.played]}
    best, best_points = root, start.score
    floor = max(floor, best_points)
    nodes = 0
    exact = width is None
    narrow = width if width is not None else PAR_BEAM_WIDTH
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
            best_at, streak = _survey(by_top)
            if bounds is not None and _hopeless(best_at, streak, bounds, played, last, floor):
                continue
            free = available[played]
            groups, tops, top_label = _groups(by_top, best_at, free, fit_masks, draw_order)
            if top_label[2] > best_points:
                best, best_points = top_label, top_label[2]
                floor = max(floor, best_points)
            fresh = bounds.fresh_points(played) if bounds is not None else 0
            for fitting, group in groups.items():
                if bounds is None:
                    longest = TABLEAU_SIZE - played.bit_count()
                    front = _front(group, longest * step) if len(group) > 1 else group
                else:
                    # The bounds first: they drop most labels, and the front is quadratic.
                    intercept, longest = bounds.going_on_points(played, tops[fitting])
                    front = _reaching(group, fresh, intercept, longest * step, last, floor)
                    if len(front) > 1:
                        front = _front(front, longest * step)
                    elif not front:
                        continue
                nodes += len(front)
                while fitting:
                    bit = fitting & -fitting
                    fitting ^= bit
                    position, rank, play = cards[bit]
                    after = played | bit
                    by_rank = reached.get(after)
                    if by_rank is None:
                        reached_available[after] = graph_available[after]
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
        if exact and (nodes > max_nodes or deadline.passed()):
            exact = False
        if not exact and len(reached) > narrow:
            key = _best_points if bounds is None else _best_hope(bounds, table, reached_available)
            reached = dict(heapq.nlargest(narrow, reached.items(), key=key))
        level, available = reached, reached_available
    return best, best_points, exact, nodes


def _root_label(start: SearchStart) -> _Label:
    """The label of the position the search starts from."""
    return (start.drawn, start.streak, start.score, None, 0)


def _survey(by_top: dict[Rank, list[_Label]]) -> tuple[dict[int, _Label], int]:
    """The labels of a mask at a glance: by cards drawn, the label with the most points (the first
    met among equals); and the longest streak among them."""
    best_at: dict[int, _Label] = {}
    streak = 0
    for labels in by_top.values():
        for label in labels:
            other = best_at.get(label[0])
            if other is None or label[2] > other[2]:
                best_at[label[0]] = label
            if label[1] > streak:
                streak = label[1]
    return best_at, streak


def _hopeless(
    best_at: dict[int, _Label], streak: int, bounds: Bounds, played: int, last: int, floor: int
) -> bool:
    """Whether no label of a mask, nor any label drawing makes from them, can reach ``floor``: a
    quick bound from the most points, the longest streak and the fewest cards drawn among them
    (``best_at`` and ``streak`` as :func:`_survey` gives them)."""
    points = max(label[2] for label in best_at.values())
    credit = RUN_PENALTY * (last - min(best_at))
    longest = bounds.longest(played)
    best = bounds.fresh_points(played) + RUN_PENALTY + streak * STREAK_STEP * longest
    return points + best + credit < floor


def _reaching(
    front: list[_Label], fresh: int, intercept: int, per_play: int, last: int, floor: int
) -> list[_Label]:
    """The labels of ``front`` whose points plus what they may still score reach ``floor``.

    A label on a streak ``s ≥ 1`` going on scores at most ``intercept + (s - 1)·per_play`` (see
    :func:`relaxed_bounds`), on a streak of 0 at most ``intercept - 10`` and at most what any new
    run scores (``fresh`` with its charge given back); after a draw at most ``fresh``. Each new run
    was charged :data:`RUN_PENALTY` for the draw it needs, so each card left in the stock adds it
    back: a line that draws ``u`` of the ``d`` cards left makes at most ``u`` new runs and scores
    at most ``10·(d - u)`` for clearing, in all at most ``10·d``.
    """
    on_zero = min(intercept - STREAK_STEP, fresh + RUN_PENALTY)
    return [
        label
        for label in front
        if label[2]
        + max(fresh, intercept + (label[1] - 1) * per_play if label[1] else on_zero)
        + RUN_PENALTY * (last - label[0])
        >= floor
    ]


def _reaching_score(label: _Label, fresh: int, intercept: int, longest: int, last: int) -> int:
    """The most ``label`` may reach by the bounds, as :func:`_reaching` counts it."""
    streak = label[1]
    on_zero = min(intercept - STREAK_STEP, fresh + RUN_PENALTY)
    going_on = intercept + (streak - 1) * longest * STREAK_STEP if streak else on_zero
    return label[2] + max(fresh, going_on) + RUN_PENALTY * (last - label[0])


def _best_points(item: tuple[int, dict[Rank, list[_Label]]]) -> int:
    return max((label[2] for group in item[1].values() for label in group), default=-1)


def _best_hope(
    bounds: Bounds, table: Table, available: dict[int, int]
) -> Callable[[tuple[int, dict[Rank, list[_Label]]]], int]:
    """Beam order with bounds: the most any label of a mask may score, by its bound."""
    last = table.stock_size

    def hope(item: tuple[int, dict[Rank, list[_Label]]]) -> int:
        played, by_top = item
        fresh = bounds.fresh_points(played)
        most = _NO_PLAY
        for top, labels in by_top.items():
            intercept, longest = bounds.going_on_points(played, top)
            for label in labels:
                score = _reaching_score(label, fresh, intercept, longest, last)
                if score > most:
                    most = score
        return most

    return hope


def _groups(
    by_top: dict[Rank, list[_Label]],
    best_at: dict[int, _Label],
    free: int,
    fit_masks: tuple[int, ...],
    draw_order: tuple[tuple[tuple[int, Rank], ...], ...],
) -> tuple[dict[int, list[_Label]], dict[int, Rank], _Label]:
    """Labels that can play, keyed by the mask of available cards they fit; a top rank for each of
    these masks (any top of the group fits the same cards); and the best label.

    Besides the labels that arrived by a play, drawing makes new ones: after ``d`` draws, the best
    label drawn fewer than ``d`` cards (from ``best_at``, by cards drawn, see :func:`_survey`),
    with the ``d``-th stock card on top and its streak ended. For each top rank only its first
    draw after each improvement in points is worth keeping.
    """
    groups: dict[int, list[_Label]] = {}
    tops: dict[int, Rank] = {}
    for top, arrived in by_top.items():
        fitting = free & fit_masks[top]
        if fitting:
            if fitting in groups:
                groups[fitting].extend(arrived)
            else:
                groups[fitting], tops[fitting] = arrived[:], top
    counts = sorted(best_at)
    best = best_at[counts[0]]
    kept = [-1] * (KING + 1)  # by top rank, the points of the last label kept
    for index, drawn in enumerate(counts):
        if best_at[drawn][2] > best[2]:
            best = best_at[drawn]
        # Draws up to the next label's count see the same best label.
        until = counts[index + 1] if index + 1 < len(counts) else NEVER
        points = best[2]
        for draws, top in draw_order[drawn]:
            if draws > until:
                break
            fitting = free & fit_masks[top]
            if fitting and points > kept[top]:
                kept[top] = points
                label = (draws, 0, points, best, best[0] - draws)
                if fitting in groups:
                    groups[fitting].append(label)
                else:
                    groups[fitting], tops[fitting] = [label], top
    return groups, tops, best


def _front(group: list[_Label], per_play: int) -> list[_Label]:
    """The labels no other label of the group makes redundant (see :func:`par_labels`)."""
    group.sort(key=_front_order)  # fewest cards drawn first: no later label makes one redundant
    front: list[_Label] = []
    for label in group:
        if not _redundant(label, front, per_play):
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
