"""Friend challenges, a kind of race room (``RoomKind.CHALLENGE``): one round on a secret deal
that each player plays once, in their own time, until everyone has or the challenge closes.

Their end, ranking and reveal are the races' own (:func:`races.services.race_end_if_due`);
``docs/challenges.md`` describes them.
"""

import secrets
from datetime import datetime, timedelta

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from core.errors import ClientError
from game.engine import Variant as EngineVariant
from game.models import Game, Mode
from game.players import Player
from game.services import game_start, new_seed
from races.models import CODE_LENGTH, MAX_RACERS, Entry, Racer, Room, RoomKind, RoomState, Round
from races.services import RoomFull, RoomNotFound, room_changed, room_locked


class ChallengeClosed(ClientError):
    code = "challenge_closed"


@transaction.atomic
def challenge_open(
    *,
    user: AbstractBaseUser,
    variant: EngineVariant,
    players: int,
    open_days: int,
    time_limit_s: int | None,
    seed: str | None = None,
    now: datetime | None = None,
) -> Room:
    """Make a friend challenge: a private room of one round on a fresh secret deal, open for
    ``open_days`` days, for ``players`` players (its maker included), each of whom starts their
    own game when they play (:func:`challenge_play`). ``time_limit_s`` limits each game.

    ``seed`` is for tests only (known deals); no request can pass one.
    """
    now = now or timezone.now()
    room = Room.objects.create(
        code=secrets.token_urlsafe(CODE_LENGTH * 3 // 4),
        kind=RoomKind.CHALLENGE,
        host_id=user.pk,
        public=False,
        variant=variant.value,
        time_limit_s=time_limit_s,
        players=players,
        state=RoomState.RACING,
        round_number=1,
        created_at=now,
    )
    Round.objects.create(
        room=room,
        number=1,
        seed=seed or new_seed(),
        starts_at=now,
        ends_at=now + timedelta(days=open_days),
    )
    Racer.objects.create(room=room, user_id=user.pk, seat=0, joined_at=now)
    return room


@transaction.atomic
def challenge_play(*, code: str, user: AbstractBaseUser, now: datetime | None = None) -> Game:
    """The player's game of a friend challenge: dealt now, on the challenge's deal, the first
    time they play it; the same game ever after (one game each). Its deal stays hidden until the
    challenge ends (``reveal_after`` is the challenge's closing time, brought forward to its end).
    """
    now = now or timezone.now()
    room = room_locked(code)
    if room.kind != RoomKind.CHALLENGE:
        raise RoomNotFound(gettext_noop("There is no such challenge"))
    round_ = Round.objects.get(room=room, number=room.round_number)
    entry = Entry.objects.filter(round=round_, user_id=user.pk).select_related("game").first()
    if entry is not None:
        return entry.game
    if room.state != RoomState.RACING or (round_.ends_at is not None and now >= round_.ends_at):
        raise ChallengeClosed(gettext_noop("This challenge is closed"))
    if Entry.objects.filter(round=round_).count() >= (room.players or 0):
        raise RoomFull(
            gettext_noop("All %(players)s players of this challenge have played it"),
            values={"players": room.players},
        )
    racer = Racer.objects.filter(room=room, user_id=user.pk).first()
    if racer is None:
        taken = set(Racer.objects.filter(room=room).values_list("seat", flat=True))
        seat = min(set(range(MAX_RACERS)) - taken)
        Racer.objects.create(room=room, user_id=user.pk, seat=seat, joined_at=now)
    game = game_start(
        player=Player(user_id=user.pk, guest_key=""),
        variant=EngineVariant(room.variant),
        mode=Mode.CHALLENGE,
        seed=round_.seed,
        starts_at=now,
        reveal_after=round_.ends_at,
    )
    Entry.objects.create(round=round_, user_id=user.pk, game=game)
    room_changed(room)
    return game
