"""Every write of moderation: the moderators' actions, the flags raised on finished games, and
players' reports.

Each action takes a reason, runs in one transaction, and writes its row of the moderation log in
that same transaction: an action is never recorded without having happened, nor the reverse.
What has to reach other processes (closing a banned player's sockets, pushing a day's board) is
sent once the transaction has committed.
"""

import logging
import uuid
from datetime import datetime
from typing import Any

from asgiref.sync import async_to_sync
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser, AbstractUser
from django.contrib.sessions.models import Session
from django.db import IntegrityError, transaction
from django.utils import timezone, translation
from django.utils.translation import gettext_noop

from core.broadcast import after_commit
from core.errors import ClientError
from core.sockets import player_sockets_close
from game.models import Game
from leaderboard.scores import daily_boards_announce_on_commit, player_scores_rebuild
from leaderboard.selectors import daily_boards_of
from moderation.models import (
    REASON_MAX_LENGTH,
    REPORT_REASON_MAX_LENGTH,
    Action,
    Flag,
    FlagKind,
    FlagStatus,
    LogEntry,
    Report,
)
from moderation.selectors import (
    Verification,
    can_moderate,
    fast_play_evidence,
    game_verification,
    perfect_run_evidence,
    recent_reports_count,
)

logger = logging.getLogger(__name__)


class ModerationError(ClientError):
    """A moderation request that is refused; the message says why, in words for the person
    (the site's one family of refusals, :mod:`core.errors`)."""

    code = "moderation_refused"


class NotAllowed(ModerationError):
    """The person may not do this."""

    code = "forbidden"


class ReasonRequired(ModerationError):
    """Every action needs a reason, for the log."""

    code = "reason_required"


class NothingToDo(ModerationError):
    """The game or player is already as asked (hidden, banned, …)."""

    code = "nothing_to_do"


class ReportRefused(ModerationError):
    """A player's report that cannot be taken."""

    code = "report_refused"


class AlreadyReported(ReportRefused):
    """One report per game per player."""

    code = "already_reported"


class TooManyReports(ReportRefused):
    """The player filed their hour's worth of reports."""

    code = "too_many_reports"


def clean_reason(reason: str, *, limit: int = REASON_MAX_LENGTH) -> str:
    """The reason, trimmed; refused when empty or too long.

    >>> clean_reason("  seen on stream  ")
    'seen on stream'
    """
    cleaned = (reason or "").strip()
    if not cleaned:
        raise ReasonRequired(gettext_noop("Give a reason: it goes in the moderation log."))
    if len(cleaned) > limit:
        raise ReasonRequired(
            gettext_noop("Keep the reason under %(limit)s characters."), values={"limit": limit}
        )
    return cleaned


def _check_moderator(actor: AbstractBaseUser) -> None:
    if not can_moderate(actor):
        raise NotAllowed(gettext_noop("Only moderators can do this."))


def _log(
    *,
    actor: AbstractBaseUser,
    action: Action,
    reason: str,
    target: str,
    target_user_id: int | None = None,
    target_game: Game | None = None,
    flag: Flag | None = None,
    details: dict[str, Any] | None = None,
) -> LogEntry:
    return LogEntry.objects.create(
        created_at=timezone.now(),
        actor_id=actor.pk,
        actor_name=actor.get_username(),
        action=action,
        target_user_id=target_user_id,
        target_game=target_game,
        flag=flag,
        target=target[:200],
        reason=reason,
        details=details or {},
    )


def _kind_in_english(kind: str) -> str:
    """A flag's kind in the log's words: English, whatever the moderator reads the site in (the
    log is written in one language; its pages show the kind's label in the reader's)."""
    with translation.override("en"):
        return str(FlagKind(kind).label).lower()


def _game_label(game: Game) -> str:
    owner = game.owner.get_username() if game.owner is not None else "a guest"
    return f"game {game.id} of {owner}"


# ---- Games: hide, restore, re-verify -------------------------------------------------------------


def game_hide(*, actor: AbstractBaseUser, game_id: uuid.UUID, reason: str) -> LogEntry:
    """Take a game off every board (it stays its player's own game, with its page and replay)."""
    return _game_hidden_set(actor=actor, game_id=game_id, reason=reason, hidden=True)


def game_restore(*, actor: AbstractBaseUser, game_id: uuid.UUID, reason: str) -> LogEntry:
    """Put a hidden game back on the boards it earned a place on."""
    return _game_hidden_set(actor=actor, game_id=game_id, reason=reason, hidden=False)


def _game_hidden_set(
    *, actor: AbstractBaseUser, game_id: uuid.UUID, reason: str, hidden: bool
) -> LogEntry:
    _check_moderator(actor)
    reason = clean_reason(reason)
    with transaction.atomic():
        game = Game.objects.select_for_update(of=("self",)).select_related("owner").get(id=game_id)
        if game.hidden == hidden:
            raise NothingToDo(
                gettext_noop("This game is already hidden.")
                if hidden
                else gettext_noop("This game is already shown.")
            )
        Game.objects.filter(id=game.id).update(hidden=hidden)
        game.hidden = hidden
        days: set[int] = set()
        if game.owner_id is not None:
            days = player_scores_rebuild(user_id=game.owner_id)
        return _log(
            actor=actor,
            action=Action.HIDE_GAME if hidden else Action.RESTORE_GAME,
            reason=reason,
            target=_game_label(game),
            target_user_id=game.owner_id,
            target_game=game,
            details={"daily_boards_changed": sorted(days)},
        )


def game_verify(*, actor: AbstractBaseUser, game_id: uuid.UUID, reason: str) -> LogEntry:
    """Replay a game's log through the engine and compare it with what is stored; log the
    outcome, and open an "impossible result" flag when they differ."""
    _check_moderator(actor)
    reason = clean_reason(reason)
    with transaction.atomic():
        game = Game.objects.select_related("owner").get(id=game_id)
        verification = game_verification(game)
        flag = None
        if not verification.ok:
            flag = _flag_raise(game, FlagKind.IMPOSSIBLE, _verification_details(verification))
        return _log(
            actor=actor,
            action=Action.VERIFY,
            reason=reason,
            target=_game_label(game),
            target_user_id=game.owner_id,
            target_game=game,
            flag=flag,
            details=verification.to_json(),
        )


def _verification_details(verification: Verification) -> dict[str, Any]:
    return {"mismatches": verification.mismatches}


# ---- Players: ban, unban -------------------------------------------------------------------------


def player_ban(*, actor: AbstractBaseUser, user_id: int, reason: str) -> LogEntry:
    """Suspend a player: they cannot sign in, their sessions end, their open sockets close, and
    every board leaves them out (the boards read that at query time; the day boards they are
    on are pushed again). Only a superuser may ban staff; nobody bans themselves."""
    _check_moderator(actor)
    reason = clean_reason(reason)
    with transaction.atomic():
        player = get_user_model().objects.select_for_update().get(pk=user_id)
        assert isinstance(player, AbstractUser)
        if player.pk == actor.pk:
            raise NotAllowed(gettext_noop("You cannot ban yourself."))
        if (player.is_staff or player.is_superuser) and not getattr(actor, "is_superuser", False):
            raise NotAllowed(gettext_noop("Only a superuser can ban a member of staff."))
        if not player.is_active:
            raise NothingToDo(gettext_noop("This player is already banned."))
        get_user_model().objects.filter(pk=user_id).update(is_active=False)
        ended, _ = Session.objects.filter(owner__user_id=user_id).delete()
        daily_boards_announce_on_commit(daily_boards_of(user_id))
        after_commit(_sockets_close, user_id)
        return _log(
            actor=actor,
            action=Action.BAN,
            reason=reason,
            target=f"player {player.get_username()}",
            target_user_id=user_id,
            details={"sessions_ended": ended},
        )


def player_unban(*, actor: AbstractBaseUser, user_id: int, reason: str) -> LogEntry:
    """Lift a ban: the player may sign in again and their scores are back on every board."""
    _check_moderator(actor)
    reason = clean_reason(reason)
    with transaction.atomic():
        player = get_user_model().objects.select_for_update().get(pk=user_id)
        assert isinstance(player, AbstractUser)
        if player.is_active:
            raise NothingToDo(gettext_noop("This player is not banned."))
        get_user_model().objects.filter(pk=user_id).update(is_active=True)
        daily_boards_announce_on_commit(daily_boards_of(user_id))
        return _log(
            actor=actor,
            action=Action.UNBAN,
            reason=reason,
            target=f"player {player.get_username()}",
            target_user_id=user_id,
        )


def _sockets_close(user_id: int) -> None:
    """Close the banned player's sockets on every process (run after the commit, in a thread
    where ``async_to_sync`` reaches the channel layer's loop)."""
    async_to_sync(player_sockets_close)(user_id)


# ---- The queue -----------------------------------------------------------------------------------


def flag_close(*, actor: AbstractBaseUser, flag_id: int, resolved: bool, reason: str) -> LogEntry:
    """Close a flag: resolved (something was done about it) or dismissed (nothing was wrong)."""
    _check_moderator(actor)
    reason = clean_reason(reason)
    with transaction.atomic():
        flag = (
            Flag.objects.select_for_update(of=("self",))
            .select_related("game__owner")
            .get(id=flag_id)
        )
        if not flag.is_open:
            raise NothingToDo(gettext_noop("This flag is already closed."))
        flag.status = FlagStatus.RESOLVED if resolved else FlagStatus.DISMISSED
        flag.closed_at = timezone.now()
        flag.closed_by_id = actor.pk
        flag.save(update_fields=["status", "closed_at", "closed_by"])
        return _log(
            actor=actor,
            action=Action.RESOLVE_FLAG if resolved else Action.DISMISS_FLAG,
            reason=reason,
            target=f"{_kind_in_english(flag.kind)} on {_game_label(flag.game)}",
            target_user_id=flag.game.owner_id,
            target_game=flag.game,
            flag=flag,
        )


def _flag_raise(game: Game, kind: FlagKind, details: dict[str, Any]) -> Flag:
    """Open the game's flag of this kind, or open it again with the new details (one per game
    and kind: a unique constraint settles two raising it at once)."""
    now = timezone.now()
    reopen = {"status": FlagStatus.OPEN, "details": details, "opened_at": now,
              "closed_at": None, "closed_by": None}  # fmt: skip
    try:
        with transaction.atomic():
            flag, created = Flag.objects.get_or_create(
                game=game, kind=kind, defaults={**reopen, "created_at": now}
            )
    except IntegrityError:
        flag, created = Flag.objects.get(game=game, kind=kind), False
    if not created:
        Flag.objects.filter(id=flag.id).update(**reopen)
        flag.refresh_from_db()
    return flag


def flags_raise(game_id: uuid.UUID) -> list[Flag]:
    """Look at a game that has just finished (and been analysed) and raise the flags it earns:
    an impossible result, inhumanly fast play, a run of perfect play on hard deals.

    Never raises a flag twice for the same game and kind, and never hides anything.
    """
    game = Game.objects.filter(id=game_id).first()
    if game is None or not game.is_over or game.owner_id is None:
        return []  # a guest's games count on no board
    found: list[tuple[FlagKind, dict[str, Any] | None]] = []
    verification = game_verification(game)
    found.append(
        (FlagKind.IMPOSSIBLE, None if verification.ok else _verification_details(verification))
    )
    found.append((FlagKind.FAST_PLAY, fast_play_evidence(game.id)))
    found.append((FlagKind.PERFECT_RUN, perfect_run_evidence(game)))
    already = set(Flag.objects.filter(game=game).values_list("kind", flat=True))
    raised = []
    for kind, details in found:
        if details is not None and kind not in already:
            raised.append(_flag_raise(game, kind, details))
    return raised


def on_game_analysed(game_id: uuid.UUID) -> None:
    """The listener :mod:`game.events` calls in the database thread once a game is analysed."""
    raised = flags_raise(game_id)
    for flag in raised:
        logger.info("Flagged game %s: %s", game_id, flag.kind)


# ---- Players' reports ----------------------------------------------------------------------------


def report_submit(
    *, reporter: AbstractBaseUser, game_id: uuid.UUID, reason: str, now: datetime | None = None
) -> Report:
    """A signed-in player reports another player's finished game; it lands in the queue (the
    game's "reported" flag, opened again if it was closed).

    One report per game per player (a unique constraint), and at most
    MODERATION_REPORTS_PER_HOUR an hour per player.
    """
    reason = clean_reason(reason, limit=REPORT_REASON_MAX_LENGTH)
    now = now or timezone.now()
    game = Game.objects.filter(id=game_id).first()
    if game is None:
        raise ReportRefused(gettext_noop("There is no such game."))
    if not game.is_over:
        raise ReportRefused(gettext_noop("Only a finished game's score can be reported."))
    if game.owner_id == reporter.pk:
        raise ReportRefused(gettext_noop("You cannot report your own game."))
    if recent_reports_count(reporter.pk, now=now) >= settings.MODERATION_REPORTS_PER_HOUR:
        raise TooManyReports(gettext_noop("You have sent many reports this hour: try again later."))
    try:
        with transaction.atomic():
            flag = _flag_raise(game, FlagKind.REPORTED, {"last_report_at": now.isoformat()})
            return Report.objects.create(
                game=game, reporter_id=reporter.pk, flag=flag, reason=reason, created_at=now
            )
    except IntegrityError:
        raise AlreadyReported(gettext_noop("You have already reported this game.")) from None
