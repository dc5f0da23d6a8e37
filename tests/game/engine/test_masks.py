"""The mask graph against what the layout's overlaps say, checked from first principles."""

from __future__ import annotations

from game.engine import masks
from game.engine.layout import ALL_PLAYED, COVERED_BY, POSITIONS
from game.engine.masks import MaskGraph, available_positions, mask_graph


def allowed(mask: int) -> bool:
    """Whether every played card's overlapping cards are played too (the rule, read directly)."""
    return all(all(mask >> q & 1 for q in COVERED_BY[p]) for p in POSITIONS if mask >> p & 1)


def playable(mask: int) -> list[int]:
    """The positions a player may take from ``mask``: unplayed, every overlapping card gone."""
    return [p for p in POSITIONS if not mask >> p & 1 and all(mask >> q & 1 for q in COVERED_BY[p])]


def test_the_graph_holds_every_allowed_mask_reachable_from_the_start() -> None:
    """Its masks are exactly those reached from no card played by playing available cards, and
    each of them is allowed by the overlaps."""
    reached, pending = {0}, [0]
    while pending:
        mask = pending.pop()
        for p in playable(mask):
            if mask | 1 << p not in reached:
                reached.add(mask | 1 << p)
                pending.append(mask | 1 << p)
    graph = mask_graph()
    assert set(graph.masks) == reached
    assert len(graph.masks) == len(reached)
    assert all(allowed(mask) for mask in graph.masks)


def test_each_mask_leads_by_its_available_cards_to_the_masks_after_them() -> None:
    """For every mask: its available positions are the playable ones, its plays are one per
    available position in order, and each leads to the mask with that position played."""
    graph = mask_graph()
    for place, mask in enumerate(graph.masks):
        positions = playable(mask)
        assert graph.available[mask] == available_positions(mask) == sum(1 << p for p in positions)
        assert [p for p, _ in graph.plays[place]] == positions
        assert [graph.masks[after] for _, after in graph.plays[place]] == [
            mask | 1 << p for p in positions
        ]


def test_every_mask_comes_after_the_masks_that_follow_it() -> None:
    """One pass in order sees a mask's successors first: the order the bounds rely on."""
    graph = mask_graph()
    assert graph.masks[0] == ALL_PLAYED
    assert graph.masks[-1] == 0
    assert all(after < place for place, plays in enumerate(graph.plays) for _, after in plays)


def test_above_is_every_mask_that_can_follow_in_order() -> None:
    graph = mask_graph()
    played = graph.masks[-1] | 1 << 18 | 1 << 19  # the two cards that uncover position 9
    places = graph.above(played)
    assert places == sorted(places)
    assert [graph.masks[i] for i in places] == [m for m in graph.masks if m & played == played]
    assert graph.above(0) == list(range(len(graph.masks)))


def test_the_graph_is_built_once_per_process() -> None:
    assert mask_graph() is mask_graph()
    assert isinstance(mask_graph(), MaskGraph)
    assert masks.mask_graph.cache_info().currsize == 1


def test_the_plays_by_level_and_card_are_the_plays_by_mask() -> None:
    """Grouped by level and position, the plays are those of each mask, each once, the levels
    from the most cards played down; and the available positions by place are those by mask."""
    graph = mask_graph()
    by_mask = {
        (place, position, after)
        for place, plays in enumerate(graph.plays)
        for position, after in plays
    }
    by_level: list[tuple[int, int, int]] = []
    for index, level in enumerate(graph.levels):
        for position, sources, afters in level:
            pairs = zip(sources, afters, strict=True)
            by_level.extend((place, position, after) for place, after in pairs)
            counts = {graph.masks[place].bit_count() for place in sources}
            assert counts == {len(POSITIONS) - 1 - index}
    assert len(by_level) == len(by_mask)
    assert set(by_level) == by_mask
    assert graph.available_at == tuple(graph.available[mask] for mask in graph.masks)
