"""Reads: the VIEW a player may see of a live game, and what a finished game reveals."""

from datetime import datetime
from typing import Any

from game.engine import GameState, export_document, public_view
from game.engine.layout import POSITIONS
from game.live import LiveGame, replay_log
from game.models import Game, GameAnalysis


def iso(moment: datetime | None) -> str | None:
    """An aware datetime as ISO 8601 in UTC with a Z, as the protocol writes times."""
    if moment is None:
        return None
    return moment.isoformat().replace("+00:00", "Z")


def game_view(live: LiveGame) -> dict[str, Any]:
    """The protocol's VIEW: the engine's public view and the server's own fields."""
    return {
        "id": str(live.game_id),
        "mode": live.mode,
        **public_view(live.state),
        "assisted": live.assisted,
        "started_at": iso(live.started_at),
        "finished_at": iso(live.finished_at),
    }


def game_document(game: Game, state: GameState | None = None) -> dict[str, Any]:
    """The ``tripeaks-game/1`` document of a finished game (the engine refuses unfinished ones)."""
    owner = game.owner
    return export_document(
        state or replay_log(game),
        game_id=str(game.id),
        player=owner.get_username() if owner is not None else None,
        started_at=iso(game.started_at),
        finished_at=iso(game.finished_at),
        duration_ms=game.duration_ms,
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
