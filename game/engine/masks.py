"""Every set of played positions the layout allows, and which follow which: the same for every deal.

A played mask (bit ``p`` set when position ``p`` is played) can occur in a game only when every card
overlapping a played card is played too; from such a mask, playing an available card (one whose
overlapping cards are all gone) leads to another. Which masks there are, and which card leads from
which to which, depend on the overlaps of :mod:`~game.engine.layout` alone, never on the cards
dealt, so :func:`mask_graph` builds them once per process and the solver's searches only add what
the ranks of a deal change.

There are 22,932 masks and 119,364 plays. Building them takes 0.25 to 0.45 s of one core (as busy
as the machine was), once per process, and they hold about 16 MB (measured as the growth of the
resident set; ``bench/solver.py`` prints both). The plays are kept twice: by mask, as tuples of
pairs, and by level and card (:attr:`MaskGraph.levels`), as parallel tuples of the same numbers,
which the relaxed bounds walk card by card (about 2 MB more than the plays by mask alone, for a
pass about a third faster).

>>> from game.engine.layout import ALL_PLAYED, BOTTOM_ROW
>>> graph = mask_graph()
>>> len(graph.masks), graph.masks[0] == ALL_PLAYED, graph.masks[-1]
(22932, True, 0)
>>> [position for position, _ in graph.plays[-1]] == list(BOTTOM_ROW)
True
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from game.engine.layout import COVER_MASKS, POSITIONS, Position


@dataclass(frozen=True, slots=True)
class MaskGraph:
    """The played masks, most played first, and the plays that lead from each to the next.

    The masks run from every card played (``masks[0]`` is :data:`~game.engine.layout.ALL_PLAYED`)
    to none, so each comes after the masks its plays lead to: one pass in order meets every mask
    after all those that can follow it.
    """

    masks: tuple[int, ...]
    available: dict[int, int]
    """By mask, the mask of the positions that may be played from it."""
    places: dict[int, int]
    """By mask, its place in :attr:`masks` (and in :attr:`plays`): the solver's bounds are kept by
    place, in a list, and found through this (a dictionary by mask for each deal cost about 4 ms
    of a par search)."""
    plays: tuple[tuple[tuple[Position, int], ...], ...]
    """By a mask's place: (position, place of the mask after playing it) for each available
    position, lowest position first."""
    available_at: tuple[int, ...]
    """By a mask's place, the mask of its available positions (as :attr:`available` by mask)."""
    levels: tuple[tuple[tuple[Position, tuple[int, ...], tuple[int, ...]], ...], ...]
    """The same plays card by card, for a pass that handles one card at a time: by level (cards
    played), most played first and the full mask's level left out, for each position that may be
    played from a mask of the level: (position, the places it is played from, the places it leads
    to, pair by pair). No mask of a level follows another of it, so a pass over the levels in
    order meets every mask after all those that can follow it, whatever order it takes within one.
    """

    def above(self, played: int) -> list[int]:
        """The places of the masks that can follow ``played`` (itself included), in order."""
        if played == 0:
            return list(range(len(self.masks)))
        return [i for i, mask in enumerate(self.masks) if mask & played == played]


def available_positions(played: int) -> int:
    """The mask of positions not yet played whose overlapping cards are all gone.

    >>> from game.engine.layout import ALL_PLAYED
    >>> bin(available_positions(0)).count("1"), available_positions(ALL_PLAYED)
    (10, 0)
    """
    return sum(
        1 << p
        for p in POSITIONS
        if not played >> p & 1 and played & COVER_MASKS[p] == COVER_MASKS[p]
    )


@functools.cache
def available_at(played: int) -> tuple[Position, ...]:
    """:func:`available_positions` as positions, in order, remembered for the life of the process:
    one entry for each mask a game reaches, of the 22,932 there can be (a few MB at most). Every
    move's answer lists the playable cards; their positions from the cache took 0.7 µs a call
    against 2.3 µs worked out afresh.

    >>> available_at(0)
    (18, 19, 20, 21, 22, 23, 24, 25, 26, 27)
    """
    return tuple(_bits(available_positions(played)))


@functools.cache
def mask_graph() -> MaskGraph:
    """The graph of played masks, built on first use and kept for the life of the process."""
    available = {0: available_positions(0)}
    pending = [0]
    while pending:
        mask = pending.pop()
        for position in _bits(available[mask]):
            after = mask | 1 << position
            if after not in available:
                available[after] = available_positions(after)
                pending.append(after)
    masks = tuple(sorted(available, key=lambda mask: (-mask.bit_count(), mask)))
    places = {mask: i for i, mask in enumerate(masks)}
    plays = tuple(
        tuple((p, places[mask | 1 << p]) for p in _bits(available[mask])) for mask in masks
    )
    return MaskGraph(
        masks=masks,
        available=available,
        places=places,
        plays=plays,
        available_at=tuple(available[mask] for mask in masks),
        levels=_levels(masks, places, plays),
    )


def _levels(
    masks: tuple[int, ...],
    places: dict[int, int],
    plays: tuple[tuple[tuple[Position, int], ...], ...],
) -> tuple[tuple[tuple[Position, tuple[int, ...], tuple[int, ...]], ...], ...]:
    """The plays grouped by level and position (see :attr:`MaskGraph.levels`). The places are
    the graph's own numbers, shared rather than copied."""
    by_level: dict[int, dict[Position, tuple[list[int], list[int]]]] = {}
    for mask in masks[1:]:
        place = places[mask]
        by_position = by_level.setdefault(mask.bit_count(), {})
        for position, after in plays[place]:
            sources, afters = by_position.setdefault(position, ([], []))
            sources.append(place)
            afters.append(after)
    return tuple(
        tuple(
            (position, tuple(sources), tuple(afters))
            for position, (sources, afters) in sorted(by_level[level].items())
        )
        for level in sorted(by_level, reverse=True)
    )


def _bits(mask: int) -> list[Position]:
    """The positions whose bits are set in ``mask``, lowest first."""
    return [p for p in POSITIONS if mask >> p & 1]
