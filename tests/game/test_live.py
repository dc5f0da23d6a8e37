"""The live-game cache and the move writer: one LiveGame per game, however many calls ask for it
at once; the stored log is asked again only when it may have moved on elsewhere; a move the
database refuses fails alone in its batch; the moves of games in play never wait for a game's
ending to be written."""

import asyncio
import dataclasses
import threading
import uuid
from datetime import datetime

import pytest
from channels.db import database_sync_to_async
from django.db import connection
from django.utils import timezone

from core.errors import NotFound
from game.engine import GameState, Variant
from game.live import live_games, load_live_game, replay_log
from game.models import Game, Move
from game.players import Player
from game.services import game_start, move_apply
from game.writer import MoveWrite
from tests.game.conftest import Seat, game_opened


def a_game(key: str) -> Game:
    """A guest's new game on seed 1, stored."""
    return game_start(player=Player(None, key), variant=Variant.TRIPEAKS, seed="1")


def first_draw(game: Game, now: datetime, status: str = "in_progress") -> MoveWrite:
    """The game's first move, a draw, as the writer takes it: ``status`` is the game's after it."""
    over = status != "in_progress"
    return MoveWrite(
        game_id=game.id, seq=0, move="draw", played_at=now, status=status, score=0,
        cards_left=28, finished_at=now if over else None, duration_ms=1 if over else None,
    )  # fmt: skip


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_calls_racing_to_load_a_game_share_one_live_game(make_seat) -> None:
    seat: Seat = await make_seat()
    games = live_games()
    first, second = await asyncio.gather(games.get(seat.game.id), games.get(seat.game.id))
    assert first is second
    assert first.lock is second.lock


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_cached_game_is_checked_against_the_database_on_open(make_seat) -> None:
    """Another process's move (written straight to the database here) shows on the next
    state read, although this process had the game cached."""
    seat: Seat = await make_seat()
    socket = await seat.connect()  # loads and caches the game at seq 0
    await socket.disconnect()

    def move_elsewhere() -> None:
        Move.objects.create(game_id=seat.game.id, seq=0, move="draw", played_at=timezone.now())
        Game.objects.filter(id=seat.game.id).update(move_count=1)

    await database_sync_to_async(move_elsewhere)()
    socket, state = await game_opened(seat.game.id, seat.session_key)
    await socket.disconnect()
    assert (state["game"]["seq"], state["game"]["stock_count"]) == (1, 22)
    assert (await live_games().get(seat.game.id)).just_loaded is False


def facts(state: GameState) -> tuple[object, ...]:
    """What a state shows: enough to tell two replays apart."""
    return (
        [move.text for move in state.moves], state.status, state.score, state.stock_count,
        state.waste_top.code, state.playable_positions(),
    )  # fmt: skip


@pytest.mark.django_db
def test_a_loaded_game_holds_its_row_and_the_state_its_log_gives(django_user_model) -> None:
    """On PostgreSQL a game is read in one statement of its own, elsewhere through the ORM: both
    give its row's facts and the state its stored log replays to, an abandonment included."""
    new, played, given_up = a_game("new"), a_game("played"), a_game("given-up")
    owner = django_user_model.objects.create_user("owner", password="pw-for-the-test-1")
    now = timezone.now()
    log = ["draw", "draw", "draw"]
    for game in (played, given_up):
        Move.objects.bulk_create(
            Move(game=game, seq=seq, move=move, played_at=now) for seq, move in enumerate(log)
        )
    Game.objects.filter(id=played.id).update(move_count=3, owner=owner, guest_key="")
    Game.objects.filter(id=given_up.id).update(
        move_count=3, status="abandoned", finished_at=now, duration_ms=5
    )

    for game in (new, played, given_up):
        stored = Game.objects.get(id=game.id)
        live = load_live_game(game.id)
        assert (live.game_id, live.owner_id, live.guest_key, live.mode) == (
            stored.id, stored.owner_id, stored.guest_key, stored.mode,
        )  # fmt: skip
        assert (live.started_at, live.finished_at, live.assisted, live.reveal_after) == (
            stored.started_at, stored.finished_at, stored.assisted, stored.reveal_after,
        )  # fmt: skip
        assert facts(live.state) == facts(replay_log(stored))
    assert load_live_game(new.id).state.seq == 0
    assert [move.text for move in load_live_game(played.id).state.moves] == log
    assert load_live_game(played.id).owner_id == owner.id
    assert load_live_game(given_up.id).state.status.value == "abandoned"
    with pytest.raises(Game.DoesNotExist):
        load_live_game(uuid.uuid4())


@pytest.mark.django_db
def test_a_move_the_database_refuses_fails_alone_in_its_batch() -> None:
    """A batch with one row the database refuses (a constraint) is written move by move: the
    refused move fails with Django's IntegrityError, the others are written."""
    from django.db import IntegrityError

    from game.writer import write_moves

    good, bad = a_game("good"), a_game("bad")
    now = timezone.now()
    # "won" with 28 cards left breaks the game_won_means_cleared constraint.
    results = write_moves([first_draw(good, now), first_draw(bad, now, "won")])
    assert results[0] is None
    assert isinstance(results[1], IntegrityError)
    assert list(Move.objects.filter(game=good).values_list("move", flat=True)) == ["draw"]
    assert not Move.objects.filter(game=bad).exists()
    assert Game.objects.get(id=bad.id).move_count == 0


@pytest.mark.django_db
@pytest.mark.parametrize("ending", [False, True], ids=["moves", "moves-and-a-game-ending"])
def test_a_move_whose_number_was_taken_fails_alone_in_its_batch(ending: bool) -> None:
    """A batch holding a move whose seq another process has meanwhile written: that move fails
    with MoveConflict and changes nothing; the others are written, whether or not a game of the
    batch ends (for a batch sent from the event loop, see the last test here)."""
    from game.writer import MoveConflict, write_moves

    fresh, taken, ends = a_game("fresh"), a_game("taken"), a_game("ends")
    now = timezone.now()
    Move.objects.create(game=taken, seq=0, move="draw", played_at=now)
    Game.objects.filter(id=taken.id).update(move_count=1)

    batch = [first_draw(fresh, now), first_draw(taken, now)]
    batch += [first_draw(ends, now, "lost")] if ending else []
    results = write_moves(batch)
    assert results[0] is None
    assert isinstance(results[1], MoveConflict)
    assert results[2:] == [None] * ending
    assert Game.objects.get(id=fresh.id).move_count == 1
    assert Game.objects.get(id=taken.id).move_count == 1
    assert Move.objects.filter(game=taken).count() == 1
    if ending:
        assert Game.objects.get(id=ends.id).status == "lost"
        assert Move.objects.filter(game=ends).count() == 1


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="SQLite writes one at a time")
async def test_moves_in_play_are_written_while_a_game_ending_is_held_up() -> None:
    """The moves that end a game go in a lane of their own: while one's transaction is held up
    (here by a listener of finished games that waits), a move of a game still in play is
    written and acknowledged; the ending is written once let go."""
    from game import events

    ends, plays = await database_sync_to_async(lambda: [a_game("ends"), a_game("plays")])()
    now = timezone.now()
    entered, release = threading.Event(), threading.Event()

    def hold(game_ids: list[uuid.UUID]) -> None:
        entered.set()
        release.wait(10)

    events.on_games_finished(hold)
    writer = live_games().writer
    try:
        ending = asyncio.ensure_future(writer.write(first_draw(ends, now, "lost")))
        assert await asyncio.to_thread(entered.wait, 5)  # its transaction is under way
        await asyncio.wait_for(writer.write(first_draw(plays, now)), 5)
        assert not ending.done()
    finally:
        release.set()
        events._finished_listeners.remove(hold)
    await asyncio.wait_for(ending, 5)
    stored = await database_sync_to_async(
        lambda: dict(Game.objects.filter(id__in=[ends.id, plays.id]).values_list("id", "status"))
    )()
    assert stored == {ends.id: "lost", plays.id: "in_progress"}


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="sent from the loop on PostgreSQL")
async def test_a_batch_sent_from_the_loop_writes_the_moves_it_can() -> None:
    """The batch of moves in play as the loop sends it: a move whose number was taken fails with
    MoveConflict, one the database refuses with psycopg's IntegrityError, and the rest are
    written; through the writer, the refused move reaches its service as MoveConflict."""
    import psycopg

    from core.database import LoopConnection
    from game.writer import MoveConflict, write_moves_now

    def games() -> list[Game]:
        fresh, taken, refused, later = (a_game(key) for key in ("fresh", "taken", "bad", "late"))
        Move.objects.create(game=taken, seq=0, move="draw", played_at=timezone.now())
        Game.objects.filter(id=taken.id).update(move_count=1)
        return [fresh, taken, refused, later]

    fresh, taken, refused, later = await database_sync_to_async(games)()
    now = timezone.now()
    # A move in play that says its game is "in_progress" with -1 cards left breaks a constraint.
    broken = dataclasses.replace(first_draw(refused, now), cards_left=-1)
    session = LoopConnection("test-loop", timeout=2)
    try:
        batch = [first_draw(fresh, now), first_draw(taken, now), broken]
        results = await write_moves_now(session, batch)
    finally:
        session.close()
    assert results[0] is None
    assert isinstance(results[1], MoveConflict)
    assert isinstance(results[2], psycopg.IntegrityError)
    with pytest.raises(MoveConflict):
        await live_games().writer.write(dataclasses.replace(broken, game_id=later.id))

    def stored() -> dict[uuid.UUID, int]:
        ids = [fresh.id, taken.id, refused.id, later.id]
        return dict(Game.objects.filter(id__in=ids).values_list("id", "move_count"))

    assert await database_sync_to_async(stored)() == {
        fresh.id: 1, taken.id: 1, refused.id: 0, later.id: 0,
    }  # fmt: skip


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="sent from the loop on PostgreSQL")
async def test_a_guest_s_game_ends_from_the_loop_unless_an_account_has_it_by_then() -> None:
    """The last move of a guest's game goes with the moves in play, and no listener of finished
    games hears of it; if the game has been handed to an account meanwhile, the move is refused
    (its service then reads the game again and sends the move as the account's)."""
    from django.contrib.auth.models import User

    from game import events
    from game.writer import MoveConflict

    def games() -> list[Game]:
        kept, handed = a_game("kept"), a_game("handed")
        user = User.objects.create_user("taker")
        Game.objects.filter(id=handed.id).update(owner=user, guest_key="")
        return [kept, handed]

    kept, handed = await database_sync_to_async(games)()
    now = timezone.now()
    told: list[uuid.UUID] = []
    events.on_games_finished(told.extend)
    writer = live_games().writer
    try:
        await writer.write(dataclasses.replace(first_draw(kept, now, "lost"), guest=True))
        with pytest.raises(MoveConflict):
            await writer.write(dataclasses.replace(first_draw(handed, now, "lost"), guest=True))
        await writer.write(first_draw(handed, now, "lost"))  # as the account's
    finally:
        events._finished_listeners.remove(told.extend)
    assert told == [handed.id]
    stored = await database_sync_to_async(
        lambda: dict(Game.objects.filter(id__in=[kept.id, handed.id]).values_list("id", "status"))
    )()
    assert stored == {kept.id: "lost", handed.id: "lost"}


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_move_on_a_game_deleted_while_cached_is_not_found_and_lets_the_game_go(
    make_seat,
) -> None:
    """The game's row went (its player's account deleted) while the process had it cached: the
    move fails as taken, the game is read again, and the player is told there is no such game;
    the game's lock is let go and the cache forgets it."""
    seat: Seat = await make_seat()
    games = live_games()
    live = await games.get(seat.game.id)
    await database_sync_to_async(Game.objects.filter(id=seat.game.id).delete)()

    for _ in range(2):  # first from the cache (gone within the block), then from the database
        with pytest.raises(NotFound, match="no such game"):
            await move_apply(game_id=seat.game.id, player=seat.player, seq=0, move="draw")
        assert not live.lock.locked()
        assert not games.cached(seat.game.id)
    assert live.state.seq == 0
