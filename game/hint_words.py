"""A hint's reason in the player's words, in the active language (docs/translations.md).

The engine says why a hint is what it is as facts (:class:`game.engine.hint.Why`); this is the one
place that makes a sentence of them: "Play the eight of diamonds: it starts a run of two cards that
turns over one more card." A socket activates its player's language around the call
(:func:`core.sockets.scope_language`); English, the source, otherwise.
"""

from typing import Final

from django.utils.translation import gettext, gettext_noop, ngettext, pgettext

from game.engine import Card, Suit
from game.engine.hint import A_PLAY, GAME_OVER, NOTHING_FITS, Why

# The card names with their article, by rank (1 is the ace): in French the article depends on the
# rank ("l’as", "le roi", "la dame"), so it is translated with it.
_RANKS: Final = (
    gettext_noop("the ace"), gettext_noop("the two"), gettext_noop("the three"),
    gettext_noop("the four"), gettext_noop("the five"), gettext_noop("the six"),
    gettext_noop("the seven"), gettext_noop("the eight"), gettext_noop("the nine"),
    gettext_noop("the ten"), gettext_noop("the jack"), gettext_noop("the queen"),
    gettext_noop("the king"),
)  # fmt: skip
_SUITS: Final = {
    Suit.CLUBS: gettext_noop("clubs"),
    Suit.DIAMONDS: gettext_noop("diamonds"),
    Suit.HEARTS: gettext_noop("hearts"),
    Suit.SPADES: gettext_noop("spades"),
}
# How many cards, in words up to eight (cards are feminine in French: "une", not "un").
_NUMBERS: Final = (
    gettext_noop("no"), gettext_noop("one"), gettext_noop("two"), gettext_noop("three"),
    gettext_noop("four"), gettext_noop("five"), gettext_noop("six"), gettext_noop("seven"),
    gettext_noop("eight"),
)  # fmt: skip


def hint_words(why: Why) -> str:
    """The reason for a hint, as a sentence in the active language."""
    if why.situation == GAME_OVER:
        return gettext("The game is over.")
    if why.situation == NOTHING_FITS:
        return gettext("Draw: nothing fits.")
    if why.situation != A_PLAY or why.card is None:
        return gettext("No move is left.")
    achieved = _achieved(why)
    if why.wraps_onto is None:
        return gettext("Play %(card)s: it %(achieves)s.") % {
            "card": the_card(why.card),
            "achieves": achieved,
        }
    return gettext("Play %(card)s on %(waste)s (King and Ace fit): it %(achieves)s.") % {
        "card": the_card(why.card),
        "waste": the_card(why.wraps_onto),
        "achieves": achieved,
    }


def _achieved(why: Why) -> str:
    """What the play achieves: "clears a peak", "turns over a card and starts a run of …"."""
    parts: list[str] = []
    if why.clears_peak:
        parts.append(gettext("clears a peak"))
    elif why.turns_over:
        parts.append(
            ngettext("turns over a card", "turns over %(count)s cards", why.turns_over)
            % {"count": _number(why.turns_over)}
        )
    if why.run:
        run = gettext("starts a run of %(count)s cards") % {"count": _number(why.run)}
        if why.run_turns_over:
            run = ngettext(
                "%(run)s that turns over one more card",
                "%(run)s that turns over %(count)s more cards",
                why.run_turns_over,
            ) % {"run": run, "count": _number(why.run_turns_over)}
        parts.append(run)
    if not parts:
        parts.append(
            gettext("keeps your streak going") if why.streak else gettext("is the card that fits")
        )
    if len(parts) == 1:
        return parts[0]
    return pgettext("two things a play does", "%(first)s and %(second)s") % {
        "first": parts[0],
        "second": parts[1],
    }


def the_card(card: Card) -> str:
    """The card in words with its article: "the seven of hearts"."""
    return gettext("%(rank)s of %(suit)s") % {
        "rank": gettext(_RANKS[card.rank - 1]),
        "suit": gettext(_SUITS[card.suit]),
    }


def _number(count: int) -> str:
    return gettext(_NUMBERS[count]) if count < len(_NUMBERS) else str(count)
