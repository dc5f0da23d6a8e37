"""Every write to games: start a game, apply a move, abandon.

Moves go through the live-game cache (:mod:`game.live`): the engine checks the move on the cached
state under the game's lock, the move is committed with any others waiting, and only then is the
new state broadcast to everyone watching the game. An error never changes the game.
"""

import secrets
import uuid
from dataclasses import dataclass
from datetime import datetime
from functools import partial
from typing import Final

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from core.broadcast import broadcast_soon
from core.errors import BadMessage, ClientError, Forbidden, GameOver, NotFound, Unavailable
from core.layers import SKIP_CHANNEL
from core.outages import DatabaseUnavailable
from game import events
from game.engine import (
    Deal,
    GameOverError,
    GameState,
    IllegalMoveError,
    MalformedError,
    Move,
    move_change,
    public_view,
)
from game.engine import Variant as EngineVariant
from game.engine.hint import hint
from game.engine.solver import solve
from game.errors import DealHidden, GameInProgress, IllegalMove, NotStarted, OutOfSync
from game.hint_words import hint_words
from game.live import GameGone, LiveGame, LiveGames, live_games
from game.models import DealSource, Game, Mode, Status, duration_ms, ranks
from game.players import Player
from game.postgame import analysis_wake
from game.protocol import update_event
from game.selectors import GameSnapshot, Moved, View, deal_revealed, game_view, moved_frame
from game.writer import MoveConflict, MoveWrite


@dataclass(frozen=True, slots=True)
class MoveOutcome:
    """The state after a move message (its VIEW is made only if the answer needs it), and the
    move's change to it (``moved``), unless the message was a resend, which changes nothing."""

    snapshot: GameSnapshot
    moved: Moved | None


WINNABLE_SEED_TRIES: Final = 40
"""Deals to try for a winnable one; about 90% of deals are winnable, so this never runs out."""


class NoWinnableDeal(Exception):
    """No winnable deal was found within the tries allowed (vanishingly unlikely)."""


def new_seed() -> str:
    """A fresh secret seed for a casual game."""
    return secrets.token_hex(16)


def winnable_seed(variant: EngineVariant) -> str:
    """A fresh secret seed whose deal the solver proves winnable."""
    for _ in range(WINNABLE_SEED_TRIES):
        seed = new_seed()
        if solve(Deal.from_seed(seed), variant).winnable:
            return seed
    raise NoWinnableDeal(f"no winnable deal in {WINNABLE_SEED_TRIES} tries")


def game_start(
    *,
    player: Player,
    variant: EngineVariant,
    mode: str = Mode.CASUAL,
    seed: str | None = None,
    winnable_only: bool = False,
    secret_daily: bool = False,
    starts_at: datetime | None = None,
    reveal_after: datetime | None = None,
    now: datetime | None = None,
) -> Game:
    """Start a game for ``player``: on ``seed`` when it is public, else on a fresh secret deal
    (one the solver proves winnable, with ``winnable_only``). With ``secret_daily``, ``seed``
    is the day's secret deal and this game the player's ranked attempt at it.

    Whether the game ranks is decided here, once, from where its deal comes from: a fresh deal
    dealt here ranks, and so does a ranked daily attempt (on its day's board only); a game on a
    given seed (a deal played again, a shared one) does not, nor does a race's or a friend
    challenge's (:data:`game.models.RANKED_SOURCES` says why).

    A game may be dealt ahead of its start (``starts_at``, a race's countdown): moves before then
    are refused. ``reveal_after`` keeps the deal of the finished game hidden until that moment.
    """
    if mode == Mode.RACE:
        source = DealSource.RACE
    elif mode == Mode.CHALLENGE:
        source = DealSource.CHALLENGE
    elif secret_daily:
        source = DealSource.DAILY
    elif seed is not None:
        source = DealSource.REPLAY
    else:
        source = DealSource.WINNABLE if winnable_only else DealSource.RANDOM
    if seed is None:
        seed = winnable_seed(variant) if winnable_only else new_seed()
    return Game.objects.create(
        seed=seed,
        variant=variant.value,
        mode=mode,
        deal_source=source,
        ranked=ranks(source),
        owner_id=player.user_id,
        guest_key="" if player.user_id is not None else player.guest_key,
        started_at=starts_at or now or timezone.now(),
        reveal_after=reveal_after,
    )


def game_again(*, player: Player, game_id: uuid.UUID) -> Game:
    """Start a casual game for ``player`` on the deal of a finished game, whose seed is public
    from then on (a daily challenge's, once its day is over). It never ranks: the deal is known."""
    game = Game.objects.filter(id=game_id).first()
    if game is None:
        raise NotFound("There is no such game")
    if not game.is_over:
        raise GameInProgress(gettext_noop("This deal is still being played"))
    if not deal_revealed(game):
        raise DealHidden(
            gettext_noop("This daily challenge's deal is secret until the day is over")
        )
    return game_start(player=player, variant=EngineVariant(game.variant), seed=game.seed)


@transaction.atomic
def games_claim(*, guest_key: str, user_id: int) -> int:
    """Give a guest's games to the account they signed up for or into; return how many moved.

    Their games in play keep their ids and logs, so they go on from where they were; those
    already over enter the score tables under the account, as they would have had they been
    played signed in.
    """
    if not guest_key:
        return 0
    # Locked first, so that a game ending meanwhile ends either before (and is counted here) or
    # after, as the account's (the move path refuses a guest's ending once a game has an owner).
    claimed = Game.objects.select_for_update().filter(owner__isnull=True, guest_key=guest_key)
    games = dict(claimed.values_list("id", "status"))
    Game.objects.filter(id__in=games).update(owner_id=user_id, guest_key="")
    events.games_finished([key for key, status in games.items() if status != Status.IN_PROGRESS])
    return len(games)


async def game_state(*, game_id: uuid.UUID, player: Player) -> View:
    """The current VIEW of a game for its player, checked against the database first."""
    games = live_games()
    async with _Playing(game_id, player, games) as live:
        await games.refresh(live, unless_current=True)
        return game_view(live)


async def move_apply(
    *, game_id: uuid.UUID, player: Player, seq: int, move: str, answered: str | None = None
) -> MoveOutcome:
    """Apply ``move`` as move number ``seq`` and broadcast the new state once it is committed.

    A resend of the move already recorded at ``seq`` changes nothing and returns the state, even
    when this process learns of that move only now (it was made through another process, or
    committed while this one had stopped waiting for the database). ``answered`` names the
    channel of the connection that asked, which gets the new state as the answer and so not again
    by the broadcast.
    """
    games = live_games()
    try:
        parsed = Move.parse(move)
    except MalformedError as error:
        raise BadMessage(str(error)) from None
    async with _Playing(game_id, player, games) as live:
        now = timezone.now()
        if live.started_at > now:  # a race's games are dealt before its countdown ends
            raise NotStarted("The game has not started yet", game_view(live))
        if seq > live.state.seq:  # another process may have recorded moves this one has not seen
            await games.refresh(live)
        if seq < live.state.seq:
            return _resent(live, seq, parsed)
        if seq > live.state.seq:
            raise OutOfSync(f"The next move is number {live.state.seq}, not {seq}", game_view(live))
        before, after = live.state, _tried(live, parsed)
        try:
            await _commit(games, live, after, now)
        except MoveConflict:
            # The number was taken meanwhile (perhaps by this very move), the game was ended
            # elsewhere, or it was handed to an account: read it again.
            await games.refresh(live)
            if seq < live.state.seq:
                return _resent(live, seq, parsed)
            before, after = live.state, _tried(live, parsed)
            await _committed_again(games, live, after, now)
        moved = moved_frame(live, move_change(before, after))
        snapshot = publish(live, moved=moved, answered=answered)
        if live.state.status.is_over:
            analysis_wake()
    return MoveOutcome(snapshot, moved)


def _resent(live: LiveGame, seq: int, move: Move) -> MoveOutcome:
    """The answer to a move for a number already taken: the state if it is the move taken
    there (a resend), else out of sync."""
    if live.state.moves[seq] == move:
        return MoveOutcome(GameSnapshot.of(live), moved=None)
    raise OutOfSync(f"Move {seq} has already been made", game_view(live))


def _tried(live: LiveGame, move: Move) -> GameState:
    """The state ``move`` leads to, on a copy: the cached state changes only once it is stored."""
    after = live.state.copy()
    try:
        after.apply(move)
    except GameOverError as error:
        raise GameOver(str(error), game_view(live)) from None
    except IllegalMoveError as error:
        raise IllegalMove(str(error), game_view(live)) from None
    return after


async def game_abandon(*, game_id: uuid.UUID, player: Player, answered: str | None = None) -> View:
    """Give a game up; the score so far stands (``answered``: as for :func:`move_apply`)."""
    games = live_games()
    async with _Playing(game_id, player, games) as live:
        await games.refresh(live, unless_current=True)
        after = live.state.copy()  # the cached state changes only once it is stored
        try:
            after.abandon()
        except GameOverError as error:
            raise GameOver(str(error), game_view(live)) from None
        finished_at = timezone.now()
        recorded = await games.database.run(
            _store_abandon, game_id, after.seq, finished_at, live.started_at
        )
        if not recorded:
            await games.refresh(live)
            raise OutOfSync("The game changed meanwhile", game_view(live))
        live.state, live.finished_at = after, finished_at
        view = game_view(live)
        publish(live, view=view, answered=answered)
        analysis_wake()
    return view


@dataclass(frozen=True, slots=True)
class HintOutcome:
    """A suggested move, where it is, why, and the game's state (now marked assisted)."""

    move: str | None
    position: int | None
    reason: str
    view: View


async def hint_request(
    *, game_id: uuid.UUID, player: Player, answered: str | None = None
) -> HintOutcome:
    """Suggest a move from what the player can see, and mark the game as assisted.

    Hints are for casual games: a ranked game must be the player's own play.
    """
    games = live_games()
    async with _Playing(game_id, player, games) as live:
        await games.refresh(live, unless_current=True)  # a move made through another process
        if live.mode != Mode.CASUAL:
            raise Forbidden("Hints are only for casual games", game_view(live))
        if live.state.status.is_over:
            raise GameOver("The game is over", game_view(live))
        suggestion = hint(public_view(live.state))
        if not live.assisted:
            await games.database.run(_store_assisted, game_id)
            live.assisted = True
            publish(live, answered=answered)
        view = game_view(live)
    card = suggestion.move.card if suggestion.move is not None else None
    return HintOutcome(
        move=suggestion.move.text if suggestion.move is not None else None,
        position=live.state.deal.positions[card.index] if card is not None else None,
        reason=hint_words(suggestion.why),
        view=view,
    )


def publish(
    live: LiveGame,
    *,
    moved: Moved | None = None,
    view: View | None = None,
    answered: str | None = None,
) -> GameSnapshot:
    """Send a game's new, committed state to every connection watching it (but ``answered``, the
    channel that gets it as its answer), then tell the apps that listen for changes (races).
    Return the state, as a snapshot.

    A move's broadcast carries its change (``moved``) alone: a socket that cannot apply it (it
    missed a broadcast) reads the whole VIEW itself. Any other change carries the VIEW (``view``,
    made here if not given). In the background: the caller's answer never waits for the channel
    layer, and a broadcast that fails costs the others a moment's staleness, never the move
    (``core.broadcast``). A game's broadcasts go out one after the other, in the order of its
    states.
    """
    snapshot = GameSnapshot.of(live)
    if moved is None and view is None:
        view = snapshot.view()
    message = {
        **update_event(snapshot.game_id, snapshot.key, view=view, moved=moved),
        SKIP_CHANNEL: answered,
    }
    broadcast_soon(live.group_name, message, then=partial(events.game_changed, snapshot))
    return snapshot


class _Playing:
    """The player's live game, locked for the length of an ``async with`` block. Should the
    database not answer, here or within the block, the caller is told to try again (nothing was
    stored); a game that is not in the database is not found.

    A class rather than an ``asynccontextmanager``: every move enters one, and a generator-based
    context manager costs three times as much (2.4-3.8 µs against 0.8-0.9, measured alone).
    """

    __slots__ = ("_game_id", "_games", "_live", "_player")

    def __init__(self, game_id: uuid.UUID, player: Player, games: LiveGames) -> None:
        self._game_id, self._player, self._games = game_id, player, games
        self._live: LiveGame | None = None

    async def __aenter__(self) -> LiveGame:
        games, game_id = self._games, self._game_id
        try:
            loading = not games.cached(game_id)
            live = await games.get(game_id)
            await live.lock.acquire()
            try:
                live.just_loaded = loading
                if not self._player.owns(live.owner_id, live.guest_key):
                    # The cache may predate a change of hands (a guest who signed up): ask once.
                    await games.refresh(live)
                    if not self._player.owns(live.owner_id, live.guest_key):
                        raise Forbidden("This game belongs to someone else")
            except BaseException:
                self._release(live)
                raise
        except (GameGone, DatabaseUnavailable) as error:
            raise _service_error(error) from None
        self._live = live
        return live

    async def __aexit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: object
    ) -> None:
        assert self._live is not None
        self._release(self._live)
        if isinstance(error, GameGone | DatabaseUnavailable):
            raise _service_error(error) from None

    @staticmethod
    def _release(live: LiveGame) -> None:
        live.just_loaded = False
        live.lock.release()


def _service_error(error: GameGone | DatabaseUnavailable) -> ClientError:
    """What the player is told: a game gone is not found; a database that did not answer is a
    reason to try again (nothing was stored)."""
    if isinstance(error, GameGone):
        return NotFound("There is no such game")
    return Unavailable("The game could not be saved just now: trying again")


async def _commit(games: LiveGames, live: LiveGame, after: GameState, now: datetime) -> None:
    """Store the last move of ``after``, played at ``now`` (raises MoveConflict if its number was
    taken); once it is committed, ``after`` becomes the game's state."""
    finished_at = now if after.status.is_over else None
    write = MoveWrite(
        game_id=live.game_id,
        seq=after.seq - 1,
        move=after.moves[-1].text,
        played_at=now,
        status=after.status.value,
        score=after.score,
        cards_left=after.cards_left,
        finished_at=finished_at,
        duration_ms=None if finished_at is None else duration_ms(live.started_at, finished_at),
        guest=live.owner_id is None,
    )
    await games.writer.write(write)
    live.state, live.finished_at = after, finished_at


async def _committed_again(
    games: LiveGames, live: LiveGame, after: GameState, now: datetime
) -> None:
    """:func:`_commit` once more, for a move refused although its number was free (the game, read
    again, had been handed to an account); should it be refused again, the player is told to
    take the game's state afresh."""
    try:
        await _commit(games, live, after, now)
    except MoveConflict:
        await games.refresh(live)
        raise OutOfSync("The game changed meanwhile", game_view(live)) from None


def _store_assisted(game_id: uuid.UUID) -> None:
    Game.objects.filter(id=game_id).update(assisted=True)


@transaction.atomic
def _store_abandon(
    game_id: uuid.UUID, seq: int, finished_at: datetime, started_at: datetime
) -> bool:
    """Record that a game was given up, and its result in the score tables, together."""
    updated = Game.objects.filter(id=game_id, move_count=seq, status=Status.IN_PROGRESS).update(
        status=Status.ABANDONED,
        finished_at=finished_at,
        duration_ms=duration_ms(started_at, finished_at),
    )
    if updated != 1:
        return False
    events.games_finished([game_id])
    return True
