"""A hint's reason in words (game.hint_words): the engine's facts made a sentence, in English (the
source) and in French; and a socket's hint speaks its player's language."""

import pytest
from django.utils import translation

from game.engine import Card, Deal, GameState, Move, Variant, public_view
from game.engine.cards import RANK_NAMES, SUITS
from game.engine.hint import A_PLAY, GAME_OVER, NO_MOVE_LEFT, NOTHING_FITS, Why, hint
from game.hint_words import hint_words, the_card
from tests.game.conftest import Seat

EIGHT = Card.parse("8d")


@pytest.mark.parametrize(
    ("why", "english", "french"),
    [
        (Why(GAME_OVER), "The game is over.", "La partie est terminée."),
        (Why(NOTHING_FITS), "Draw: nothing fits.", "Piochez : rien ne convient."),
        (Why(NO_MOVE_LEFT), "No move is left.", "Il ne reste aucun coup."),
        (
            Why(A_PLAY, card=EIGHT, run=2, run_turns_over=1),
            "Play the eight of diamonds: it starts a run of two cards that turns over one more"
            " card.",
            "Jouez le huit de carreau : ce coup commence une suite de deux cartes qui retourne"
            " une carte de plus.",
        ),
        (
            Why(A_PLAY, card=Card.parse("4d"), turns_over=2, run=3, run_turns_over=3),
            "Play the four of diamonds: it turns over two cards and starts a run of three cards"
            " that turns over three more cards.",
            "Jouez le quatre de carreau : ce coup retourne deux cartes et commence une suite de"
            " trois cartes qui retourne trois cartes de plus.",
        ),
        (
            Why(A_PLAY, card=Card.parse("Ah"), wraps_onto=Card.parse("Kc"), clears_peak=True),
            "Play the ace of hearts on the king of clubs (King and Ace fit): it clears a peak.",
            "Jouez l’as de cœur sur le roi de trèfle (le roi et l’as se suivent) : ce coup"
            " dégage un sommet.",
        ),
        (
            Why(A_PLAY, card=Card.parse("Qs"), streak=True),
            "Play the queen of spades: it keeps your streak going.",
            "Jouez la dame de pique : ce coup prolonge votre série.",
        ),
        (
            Why(A_PLAY, card=Card.parse("Qs")),
            "Play the queen of spades: it is the card that fits.",
            "Jouez la dame de pique : ce coup est la carte qui convient.",
        ),
    ],
)
def test_the_reason_in_english_and_in_french(why: Why, english: str, french: str) -> None:
    with translation.override("en"):
        assert hint_words(why) == english
    with translation.override("fr"):
        assert hint_words(why) == french


def test_every_card_is_named_as_the_engine_names_it() -> None:
    """The words' English is the engine's own card names, with their article."""
    with translation.override("en"):
        for rank, name in enumerate(RANK_NAMES, start=1):
            for suit in SUITS:
                card = Card(rank, suit)
                assert the_card(card) == f"the {card.name}", card
                assert name in the_card(card)


def test_a_real_hint_reads_as_before() -> None:
    """The first hint of deal 1, worded: a sentence about the very card it suggests."""
    state = GameState(Deal.from_seed("1"), Variant.TRIPEAKS)
    advice = hint(public_view(state))
    assert isinstance(advice.move, Move)
    assert advice.move.card is not None
    with translation.override("en"):
        assert hint_words(advice.why).startswith(f"Play the {advice.move.card.name}")


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("headers", "start"),
    [
        ([], "Play the "),
        ([(b"accept-language", b"fr-FR,fr;q=0.9")], "Jouez "),
        ([(b"accept-language", b"fr"), (b"cookie", b"django_language=en")], "Play the "),
    ],
)
async def test_a_socket_s_hint_speaks_its_player_s_language(
    make_seat, sockets, headers: list[tuple[bytes, bytes]], start: str
) -> None:
    """As a page would: the language cookie first, then the browser's languages."""
    seat: Seat = await make_seat()
    socket = await seat.connect(headers)
    sockets.append(socket)
    await socket.send_json_to({"type": "hint"})
    answer = await socket.receive_json_from(timeout=5)
    assert answer["type"] == "hint", answer
    assert answer["reason"].startswith(start)
