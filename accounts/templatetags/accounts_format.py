"""Filters for showing a player's figures."""

import math
from datetime import timedelta

from django import template
from django.utils.translation import gettext, gettext_noop

from core import formats
from game.models import Game, Mode

register = template.Library()


@register.filter
def percent(fraction: float | None) -> str:
    """A fraction as a whole percentage, as the reader's language writes it: 0.4567 → "46%" in
    English ("46 %" in French); nothing known → "–".

    >>> percent(0.4567), percent(1), percent(None)
    ('46%', '100%', '–')
    """
    if fraction is None:
        return "–"
    return gettext("%(number)s%%") % {"number": round(fraction * 100)}


@register.filter
def game_time(milliseconds: int | None) -> str:
    """A game's length as its page's clock shows it (``core.formats.game_time``); none → "–".

    >>> game_time(185_000), game_time(3_723_400), game_time(13_999), game_time(None)
    ('3:05', '1:02:03', '0:13', '–')
    """
    if milliseconds is None:
        return "–"
    return formats.game_time(milliseconds)


@register.filter
def whole_minutes(span: timedelta | None) -> int:
    """A span of time in minutes, rounded up: how long to wait.

    >>> whole_minutes(timedelta(minutes=15)), whole_minutes(timedelta(seconds=61))
    (15, 2)
    """
    if span is None:
        return 0
    return math.ceil(span.total_seconds() / 60)


@register.filter
def board_of(game: Game) -> str:
    """Where a game counts, in a few words: the boards, or why none. English, as the API gives it
    (``counts_on``); pages show it in the reader's language (:func:`counts_on`).

    >>> board_of(Game(mode="casual", deal_source="random", ranked=True))
    'Leaderboards'
    >>> board_of(Game(mode="casual", deal_source="replay", ranked=False))
    'Unranked: a deal seen before'
    """
    if game.ranked:
        return (
            gettext_noop("Daily board") if game.mode == Mode.DAILY else gettext_noop("Leaderboards")
        )
    if game.mode == Mode.RACE:
        return gettext_noop("Unranked: a race")
    if game.mode == Mode.CHALLENGE:
        return gettext_noop("Unranked: a friend challenge")
    return gettext_noop("Unranked: a deal seen before")


@register.filter
def counts_on(game: Game) -> str:
    """:func:`board_of` in the reader's language."""
    return gettext(board_of(game))
