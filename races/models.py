"""Race rooms, their rounds, every racer's entry and game, and the players' ratings.

A room is where up to eight players race; each start of a race is a round, dealt from one secret
seed, in which every racer plays their own game. A room's membership (its seats) carries over from
round to round; a round's entries are who raced it, and how they finished.

A friend challenge is a room of another kind (``RoomKind.CHALLENGE``, docs/challenges.md): one
round, dealt when the challenge is made and open for days (``Round.ends_at`` is when it closes),
in which each friend starts their own game when they choose to play; ``players`` say how many
play it, so that it ends once they all have.
"""

from typing import Final

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse

from core.groups import room_group
from game.engine.deal import SEED_MAX_LENGTH
from game.models import Game, Variant
from races.rating import BASE_RATING, MAX_DEVIATION

MAX_RACERS: Final = 8
"""Seats of a room: the database refuses a ninth racer (seat numbers 0 to 7, each taken once)."""
CODE_LENGTH: Final = 12
"""Characters of a room's code: 72 random bits, so that a private room's link cannot be guessed."""


MIN_CHALLENGERS: Final = 2
"""A friend challenge is for its maker and at least one friend."""


class RoomKind(models.TextChoices):
    RACE = "race", "Race room"
    CHALLENGE = "challenge", "Friend challenge"


class RoomState(models.TextChoices):
    WAITING = "waiting", "Waiting for racers"
    RACING = "racing", "Racing"
    FINISHED = "finished", "Finished"


class Room(models.Model):
    """A race room, reachable by its code; public rooms are listed in the lobby."""

    code = models.CharField(max_length=CODE_LENGTH, unique=True)
    host = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="hosted_rooms"
    )
    kind = models.CharField(max_length=16, choices=RoomKind, default=RoomKind.RACE)
    public = models.BooleanField(default=True)
    variant = models.CharField(max_length=32, choices=Variant, default=Variant.TRIPEAKS)
    time_limit_s = models.PositiveIntegerField(
        null=True,
        blank=True,
        help_text="Seconds a round (a challenge: each game) may last once started; none: no limit",
    )
    # A challenge's number of players, its maker included: it ends once they all have played.
    players = models.PositiveSmallIntegerField(null=True, blank=True)
    state = models.CharField(max_length=16, choices=RoomState, default=RoomState.WAITING)
    # The latest round (0: none yet), so that the room's page reads it without a search.
    round_number = models.PositiveIntegerField(default=0)
    # Bumped by every change to the room, so that clients keep only the newest snapshot.
    version = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(state__in=RoomState.values), name="room_state_valid"
            ),
            models.CheckConstraint(
                condition=Q(variant__in=Variant.values), name="room_variant_valid"
            ),
            models.CheckConstraint(
                condition=Q(time_limit_s__isnull=True) | Q(time_limit_s__gt=0),
                name="room_time_limit_positive",
            ),
            models.CheckConstraint(condition=Q(kind__in=RoomKind.values), name="room_kind_valid"),
            models.CheckConstraint(
                condition=Q(kind=RoomKind.RACE, players__isnull=True)
                | Q(
                    kind=RoomKind.CHALLENGE,
                    public=False,
                    players__gte=MIN_CHALLENGERS,
                    players__lte=MAX_RACERS,
                ),
                name="room_challenge_players_in_range",
            ),
        ]
        indexes = [
            models.Index(fields=["public", "state", "-created_at"], name="room_lobby"),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.code} ({self.state})"

    def get_absolute_url(self) -> str:
        if self.kind == RoomKind.CHALLENGE:
            return reverse("races:challenge", kwargs={"code": self.code})
        return reverse("races:room", kwargs={"code": self.code})

    @property
    def is_challenge(self) -> bool:
        return self.kind == RoomKind.CHALLENGE

    @property
    def group_name(self) -> str:
        """The channel-layer group of every socket on the room's page."""
        return room_group(self.code)


class Racer(models.Model):
    """A player's seat in a room. Leaving frees the seat; joining again takes a free one."""

    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="racers")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="race_seats"
    )
    seat = models.PositiveSmallIntegerField()
    joined_at = models.DateTimeField()
    left_at = models.DateTimeField(null=True, blank=True)
    # How many of the room's sockets the player has open, on every process: 0 shows them as
    # disconnected (their game goes on).
    sockets = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["room", "user"], name="racer_once_per_room"),
            models.UniqueConstraint(
                fields=["room", "seat"],
                condition=Q(left_at__isnull=True),
                name="racer_seat_taken_once",
            ),
            models.CheckConstraint(condition=Q(seat__lt=MAX_RACERS), name="racer_seat_in_room"),
        ]

    def __str__(self) -> str:
        return f"Racer {self.user_id} in seat {self.seat} of room {self.room_id}"

    @property
    def present(self) -> bool:
        return self.left_at is None


class Round(models.Model):
    """One race in a room: one secret deal, a countdown, and an optional time limit."""

    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveIntegerField()
    # The deal every racer of the round plays: secret until the round is over.
    seed = models.CharField(max_length=SEED_MAX_LENGTH)
    starts_at = models.DateTimeField(help_text="The end of the countdown: moves count from here")
    ends_at = models.DateTimeField(null=True, blank=True, help_text="The time limit, if any")
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["room", "number"], name="round_number_unique"),
        ]

    def __str__(self) -> str:
        return f"Round {self.number} of room {self.room_id}"


class Entry(models.Model):
    """A racer in a round: their game, and once the round is over, their place and rating."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="entries")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="race_entries"
    )
    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="race_entry")
    left_at = models.DateTimeField(null=True, blank=True)
    # The time limit ended the game while it was still in play.
    timed_out = models.BooleanField(default=False)
    rank = models.PositiveSmallIntegerField(null=True, blank=True)
    rating_before = models.FloatField(null=True, blank=True)
    rating_after = models.FloatField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["round", "user"], name="entry_once_per_round"),
        ]
        verbose_name_plural = "entries"

    def __str__(self) -> str:
        return f"Entry of user {self.user_id} in round {self.round_id}"


class PlayerRating(models.Model):
    """A player's Glicko-2 race rating (one rating period per race with at least two racers)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        primary_key=True,
        on_delete=models.CASCADE,
        related_name="race_rating",
    )
    rating = models.FloatField(default=BASE_RATING)
    deviation = models.FloatField(default=MAX_DEVIATION)
    volatility = models.FloatField(default=0.06)
    races = models.PositiveIntegerField(default=0)
    updated = models.DateTimeField()

    class Meta:
        constraints = [
            models.CheckConstraint(condition=Q(deviation__gt=0), name="rating_deviation_positive"),
            models.CheckConstraint(
                condition=Q(volatility__gt=0), name="rating_volatility_positive"
            ),
        ]

    def __str__(self) -> str:
        return f"Rating of user {self.user_id}: {self.rating:.0f}"
