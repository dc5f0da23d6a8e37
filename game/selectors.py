"""Reads: the VIEW a player may see of a live game, and what a finished game reveals."""

import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models.functions import Coalesce
from django.utils import timezone

from core.formats import iso
from game.engine import GameState, export_document, public_view
from game.engine.layout import POSITIONS
from game.engine.view import MoveChange, PublicView
from game.errors import DealHidden, GameInProgress
from game.live import LiveGame, replay_log
from game.models import Game, GameAnalysis, Mode, Status
from game.players import Player
from game.protocol import StateKey


class View(PublicView):
    """The protocol's VIEW (``docs/protocol.md``): the engine's public view and the server's own
    fields. All a player, or a spectator, ever sees of a game in play."""

    id: str
    mode: str
    assisted: bool
    started_at: str | None
    finished_at: str | None


class Moved(MoveChange):
    """Protocol v2's ``moved`` frame: one move's change to a game's VIEW (``docs/protocol.md``)."""

    type: str
    game: str
    finished_at: str | None


def moved_frame(live: LiveGame, change: MoveChange) -> Moved:
    """The ``moved`` frame of the move that brought ``live`` to its state."""
    return {
        "type": "moved",
        "game": str(live.game_id),
        **change,
        "finished_at": iso(live.finished_at),
    }


def game_view(live: LiveGame) -> View:
    """The protocol's VIEW of a live game."""
    return GameSnapshot.of(live).view()


@dataclass(frozen=True, slots=True)
class GameSnapshot:
    """A live game as one committed change left it, with its VIEW made only when asked for.

    Most moves need only their change (``moved``): the mover's answer, and the broadcast to the
    game's other sockets, are the change alone while it follows on from what each was sent last.
    The engine state is safe to keep: a change never alters a committed state, it makes a new one.
    """

    game_id: uuid.UUID
    mode: str
    state: GameState
    assisted: bool
    started_at: datetime
    finished_at: datetime | None

    @classmethod
    def of(cls, live: LiveGame) -> "GameSnapshot":
        return cls(
            live.game_id, live.mode, live.state, live.assisted, live.started_at, live.finished_at
        )

    @property
    def key(self) -> StateKey:
        """This state's place in the game's history (:func:`game.protocol.state_key` of its
        VIEW)."""
        return self.state.seq, self.state.status.is_over, self.assisted

    @property
    def over(self) -> bool:
        return self.state.status.is_over

    def view(self) -> View:
        """The protocol's VIEW of the game in this state."""
        return {
            "id": str(self.game_id),
            "mode": self.mode,
            **public_view(self.state),
            "assisted": self.assisted,
            "started_at": iso(self.started_at),
            "finished_at": iso(self.finished_at),
        }


def deal_revealed(game: Game, now: datetime | None = None) -> bool:
    """Whether a game's deal may be shown (its seed, cards, export, replay and par line).

    Only once the game is over, and, for a daily challenge's game, once its day is over too: until
    then someone who finished could hand the deal to players who have not played it yet. Every
    page and document that shows a deal asks this one function.
    """
    return game.is_over and reveal_due(game.reveal_after, now)


def reveal_due(reveal_after: datetime | None, now: datetime | None = None) -> bool:
    """Whether the moment a finished game's deal may be revealed has come."""
    return reveal_after is None or (now or timezone.now()) >= reveal_after


EXPORTED_ONCE_OVER = "A game can be exported once it is over"
ANALYSED_ONCE_OVER = "A game is analysed once it is over"
DEAL_SECRET_TODAY = "This is a daily challenge's deal: it is published when the day is over"


def game_over_check(game: Game, refusal: str) -> None:
    """Refuse (:class:`GameInProgress`, with ``refusal`` as its message) a game still in play."""
    if not game.is_over:
        raise GameInProgress(refusal)


def deal_reveal_check(game: Game, refusal: str) -> None:
    """Refuse what would show a game's deal before :func:`deal_revealed` allows it: a game in
    play (:class:`GameInProgress`, with ``refusal`` as its message), or a daily challenge's game
    before its day is over (:class:`DealHidden`, saying when it will be shown)."""
    game_over_check(game, refusal)
    if not deal_revealed(game):
        raise DealHidden(DEAL_SECRET_TODAY, reveal_after=iso(game.reveal_after))


def game_export(game: Game) -> dict[str, Any]:
    """The ``tripeaks-game/1`` document of a game whose deal may be shown; refused (see
    :func:`deal_reveal_check`) for any other."""
    deal_reveal_check(game, EXPORTED_ONCE_OVER)
    return game_document(game)


def revealed_analysis(game: Game) -> dict[str, Any] | None:
    """The whole analysis of a game whose deal may be shown (None while it is being computed);
    refused (see :func:`deal_reveal_check`) for any other."""
    deal_reveal_check(game, ANALYSED_ONCE_OVER)
    return game_analysis(game)


def analysis_before_reveal(report: dict[str, Any], *, own: bool) -> dict[str, Any]:
    """What a finished game's analysis may say while its deal is still secret.

    Never the par line: it names cards the player never saw. Par, the score and its share stay.
    The cards the mistakes name were face up for the player, so their own view keeps them;
    anyone else gets the mistakes and their move numbers without the cards.
    """
    shown = {**report, "par_line": None}
    if not own:
        for key, cards in _MISTAKE_CARDS.items():
            shown[key] = [{**mistake, **cards} for mistake in report.get(key, [])]
    return shown


_MISTAKE_CARDS: dict[str, dict[str, Any]] = {
    "draws_while_play_fit": {"fits": []},
    "plays_opening_nothing": {"card": None, "openers": []},
    "missed_king_ace": {"waste": None, "cards": []},
}
"""The fields naming cards in each list of mistakes of an analysis, and what hides them."""


def game_document(game: Game, state: GameState | None = None) -> dict[str, Any]:
    """The ``tripeaks-game/1`` document of a finished game (the engine refuses unfinished ones),
    with what the result is: its mode, whether it ranks, whether a hint was used, and where its
    deal came from (``docs/boards.md``)."""
    owner = game.owner
    return export_document(
        state or replay_log(game),
        game_id=str(game.id),
        player=owner.get_username() if owner is not None else None,
        started_at=iso(game.started_at),
        finished_at=iso(game.finished_at),
        duration_ms=game.duration_ms,
        mode=game.mode,
        ranked=game.ranked,
        assisted=game.assisted,
        deal_source=game.deal_source,
    )


def replay_frames(state: GameState) -> list[dict[str, Any]]:
    """Every position of a finished game, with every card shown, for the step-by-step replay.

    Each frame gives the move that led to it, the tableau (card, face-up flag, played flag), the
    waste top, the stock still to come, the score and the streak.
    """
    replay = GameState(state.deal, state.variant)
    frames = [_frame(replay, None)]
    for move in state.moves:
        replay.apply(move)
        frames.append(_frame(replay, move.text))
    frames[-1]["status"] = state.status.value  # an abandonment is not a move
    return frames


def finished_game(game: Game) -> dict[str, Any]:
    """What the page of a finished game shows: the replay, the document and the score's lines."""
    state = replay_log(game)
    return {
        "game": game,
        "frames": replay_frames(state),
        "document": game_document(game, state),
        "breakdown": state.score_breakdown().to_json(),
        "analysis": game_analysis(game),
    }


def finished_hidden(game: Game) -> dict[str, Any]:
    """What the page of a finished game shows while its deal is secret: the result and how the
    score was made, and nothing that names a card."""
    state = replay_log(game)
    analysis = game_analysis(game)
    return {
        "game": game,
        "moves": state.seq,
        "breakdown": state.score_breakdown().to_json(),
        "par": analysis["par"] if analysis is not None else None,
        "share": analysis["share"] if analysis is not None else None,
    }


def _frame(state: GameState, move: str | None) -> dict[str, Any]:
    drawn = len(state.deal.stock) - state.stock_count
    return {
        "move": move,
        "tableau": [
            {
                "card": state.deal.tableau[p].code,
                "face_up": state.is_face_up(p),
                "played": state.is_played(p),
            }
            for p in POSITIONS
        ],
        "waste": state.waste_top.code,
        "stock": [card.code for card in state.deal.stock[drawn:]],
        "score": state.score,
        "streak": state.streak,
        "status": state.status.value,
    }


def game_analysis(game: Game) -> dict[str, Any] | None:
    """The stored analysis of a finished game, or None while it is being computed."""
    return GameAnalysis.objects.filter(game=game).values_list("report", flat=True).first()


def analysis_backlog() -> int:
    """How many finished games are waiting for their analysis."""
    return Game.objects.filter(finished_at__isnull=False, analysis__isnull=True).count()


def unfinished_game(player: Player) -> Game | None:
    """The player's game still in play that they touched last, to carry on from the home page: a
    casual game or a daily attempt (a race's game belongs to its room), None if they have none.

    Reads the owner's (or the guest's) recent games through their index, newest first.
    """
    games = Game.objects.filter(
        status=Status.IN_PROGRESS, mode__in=(Mode.CASUAL, Mode.DAILY)
    ).order_by(Coalesce("last_move_at", "started_at").desc())
    if player.user_id is not None:
        return games.filter(owner_id=player.user_id).first()
    if player.guest_key:
        return games.filter(owner__isnull=True, guest_key=player.guest_key).first()
    return None
