"""Moderators' actions: each takes a reason and writes one entry of the append-only log (who,
what, to whom, why, when); without a reason nothing changes and nothing is logged."""

from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.contrib.sessions.models import Session
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from game.models import Game, Move
from moderation import services
from moderation.models import Action, AppendOnly, Flag, FlagKind, FlagStatus, LogEntry
from tests.accounts.helpers import PASSWORD, play_out, signed_in
from tests.moderation.conftest import make_moderator

pytestmark = pytest.mark.django_db


def finished(owner: User, seed: str = "7") -> Game:
    game = Game.objects.create(seed=seed, owner=owner, started_at=timezone.now())
    play_out(game)
    return game


def test_each_action_is_logged_with_actor_target_reason_and_time(
    moderator: User, moderator_client: Client, ada: User
) -> None:
    game = finished(ada)
    before = timezone.now()
    steps = [
        ("moderation:game_hide", game.id, "botting", Action.HIDE_GAME),
        ("moderation:game_restore", game.id, "appeal", Action.RESTORE_GAME),
        ("moderation:game_verify", game.id, "check", Action.VERIFY),
        ("moderation:player_ban", ada.pk, "cheats", Action.BAN),
        ("moderation:player_unban", ada.pk, "sorry", Action.UNBAN),
    ]
    for url_name, target, reason, action in steps:
        url = reverse(url_name, args=[target])
        response = moderator_client.post(url, {"reason": reason})
        assert response.status_code == 303, (url, response.content)
        entry = LogEntry.objects.order_by("-id").first()
        assert entry is not None
        assert (entry.action, entry.actor_id, entry.actor_name) == (action, moderator.pk, "mona")
        assert entry.reason == reason
        assert entry.target_user_id == ada.pk
        assert entry.created_at >= before
        if action in (Action.HIDE_GAME, Action.RESTORE_GAME, Action.VERIFY):
            assert entry.target_game_id == game.id
    assert LogEntry.objects.count() == len(steps)
    assert LogEntry.objects.get(action=Action.VERIFY).details == {"ok": True, "mismatches": {}}


def test_closing_a_flag_is_logged_and_the_queue_shows_it_closed(
    moderator: User, moderator_client: Client, ada: User
) -> None:
    game = finished(ada)
    flag = Flag.objects.create(
        game=game, kind=FlagKind.FAST_PLAY, created_at=timezone.now(), opened_at=timezone.now()
    )
    url = reverse("moderation:flag_close", args=[flag.id])
    response = moderator_client.post(url, {"outcome": "dismiss", "reason": "a fast player"})
    assert response.status_code == 303
    flag.refresh_from_db()
    assert (flag.status, flag.closed_by_id) == (FlagStatus.DISMISSED, moderator.pk)
    entry = LogEntry.objects.get()
    assert (entry.action, entry.flag_id, entry.reason) == (
        Action.DISMISS_FLAG, flag.id, "a fast player",
    )  # fmt: skip
    # A closed flag cannot be closed again (nothing logged).
    again = moderator_client.post(url, {"outcome": "resolve", "reason": "again"})
    assert again.status_code == 409
    assert LogEntry.objects.count() == 1


@pytest.mark.parametrize("reason", ["", "   ", None])
def test_an_action_without_a_reason_is_refused_and_changes_nothing(
    moderator: User, moderator_client: Client, ada: User, reason: str | None
) -> None:
    game = finished(ada)
    flag = Flag.objects.create(
        game=game, kind=FlagKind.REPORTED, created_at=timezone.now(), opened_at=timezone.now()
    )
    data = {} if reason is None else {"reason": reason}
    urls = [
        reverse("moderation:game_hide", args=[game.id]),
        reverse("moderation:game_verify", args=[game.id]),
        reverse("moderation:player_ban", args=[ada.pk]),
        reverse("moderation:flag_close", args=[flag.id]),
    ]
    for url in urls:
        response = moderator_client.post(url, {**data, "outcome": "resolve"})
        assert response.status_code == 400, url
        assert b"reason" in response.content
    assert not LogEntry.objects.exists()
    assert not Game.objects.get(id=game.id).hidden
    assert User.objects.get(pk=ada.pk).is_active
    assert Flag.objects.get(id=flag.id).is_open
    with pytest.raises(services.ReasonRequired):
        services.game_hide(actor=moderator, game_id=game.id, reason="  ")


def test_an_action_that_changes_nothing_is_refused_and_not_logged(
    moderator: User, ada: User
) -> None:
    game = finished(ada)
    with pytest.raises(services.NothingToDo):
        services.game_restore(actor=moderator, game_id=game.id, reason="not hidden")
    with pytest.raises(services.NothingToDo):
        services.player_unban(actor=moderator, user_id=ada.pk, reason="not banned")
    with pytest.raises(services.NotAllowed):
        services.player_ban(actor=moderator, user_id=moderator.pk, reason="me")
    assert not LogEntry.objects.exists()


def test_a_moderator_cannot_ban_staff_but_a_superuser_can(moderator: User, ada: User) -> None:
    other = make_moderator("otto")
    with pytest.raises(services.NotAllowed):
        services.player_ban(actor=moderator, user_id=other.pk, reason="rogue")
    boss = User.objects.create_superuser("boss", "boss@example.com", "x")
    services.player_ban(actor=boss, user_id=other.pk, reason="rogue")
    assert not User.objects.get(pk=other.pk).is_active


def test_services_refuse_anyone_who_is_not_a_moderator(staff: User, ada: User, bob: User) -> None:
    game = finished(ada)
    for actor in (staff, bob):
        with pytest.raises(services.NotAllowed):
            services.game_hide(actor=actor, game_id=game.id, reason="x")
        with pytest.raises(services.NotAllowed):
            services.player_ban(actor=actor, user_id=ada.pk, reason="x")
    assert not LogEntry.objects.exists()


def test_the_log_cannot_be_changed_or_deleted_through_the_orm(moderator: User, ada: User) -> None:
    game = finished(ada)
    entry = services.game_hide(actor=moderator, game_id=game.id, reason="original")
    entry.reason = "rewritten"
    with pytest.raises(AppendOnly):
        entry.save()
    with pytest.raises(AppendOnly):
        entry.delete()
    with pytest.raises(AppendOnly):
        LogEntry.objects.filter(id=entry.id).update(reason="rewritten")
    with pytest.raises(AppendOnly):
        LogEntry.objects.all().delete()
    assert LogEntry.objects.get(id=entry.id).reason == "original"


def test_the_log_outlives_the_player_it_is_about(moderator: User, ada: User) -> None:
    game = finished(ada)
    services.game_hide(actor=moderator, game_id=game.id, reason="kept")
    from accounts.services import account_delete

    account_delete(user=ada)
    entry = LogEntry.objects.get()
    assert (entry.target_user_id, entry.target_game_id) == (None, None)
    assert "ada" in entry.target
    assert entry.reason == "kept"


def sign_in(client: Client, username: str) -> bool:
    """Sign in through the sign-in page; whether it worked."""
    response = client.post(reverse("accounts:login"), {"username": username, "password": PASSWORD})
    return response.status_code == 302 and "_auth_user_id" in client.session


def test_ban_ends_sessions_and_sign_in_and_unban_allows_it_again(
    moderator: User, ada: User
) -> None:
    client = Client()
    assert sign_in(client, "ada")
    assert Session.objects.filter(owner__user_id=ada.pk).exists()

    entry = services.player_ban(actor=moderator, user_id=ada.pk, reason="cheating")

    assert entry.details["sessions_ended"] >= 1
    assert not Session.objects.filter(owner__user_id=ada.pk).exists()
    assert client.get(reverse("accounts:profile")).status_code == 302  # signed out
    assert not sign_in(Client(), "ada")
    services.player_unban(actor=moderator, user_id=ada.pk, reason="appeal")
    assert sign_in(Client(), "ada")


def test_re_verification_of_a_tampered_game_opens_a_flag_and_logs_the_mismatch(
    moderator: User, moderator_client: Client, ada: User
) -> None:
    game = finished(ada)
    Game.objects.filter(id=game.id).update(score=game.score + 500)

    moderator_client.post(reverse("moderation:game_verify", args=[game.id]), {"reason": "odd"})

    entry = LogEntry.objects.get()
    assert entry.details["ok"] is False
    assert entry.details["mismatches"]["score"] == {
        "stored": game.score + 500, "replayed": game.score,
    }  # fmt: skip
    flag = Flag.objects.get(game=game)
    assert (flag.kind, flag.status, entry.flag_id) == (
        FlagKind.IMPOSSIBLE,
        FlagStatus.OPEN,
        flag.id,
    )


@pytest.mark.parametrize(
    ("action", "check"),
    [
        ("hide_games", lambda game, user: Game.objects.get(id=game.id).hidden),
        ("verify_games", lambda game, user: LogEntry.objects.filter(action=Action.VERIFY).exists()),
    ],
)
def test_admin_game_actions_ask_for_a_reason_first(
    moderator_client: Client, ada: User, action: str, check: Callable[[Game, User], bool]
) -> None:
    game = finished(ada)
    url = reverse("admin:game_game_changelist")
    selected = {"action": action, "_selected_action": [str(game.id)]}

    asked = moderator_client.post(url, selected)

    assert asked.status_code == 200
    assert b"Reason" in asked.content
    assert not LogEntry.objects.exists()
    empty = moderator_client.post(url, {**selected, "apply": "1", "reason": ""})
    assert empty.status_code == 200  # asked again
    assert not LogEntry.objects.exists()
    done = moderator_client.post(url, {**selected, "apply": "1", "reason": "seen in the queue"})
    assert done.status_code == 302
    assert check(game, ada)
    assert LogEntry.objects.get().reason == "seen in the queue"


def test_admin_ban_action_bans_with_a_reason(moderator_client: Client, ada: User) -> None:
    url = reverse("admin:auth_user_changelist")
    selected = {"action": "ban_players", "_selected_action": [str(ada.pk)]}
    assert moderator_client.post(url, selected).status_code == 200
    assert User.objects.get(pk=ada.pk).is_active
    moderator_client.post(url, {**selected, "apply": "1", "reason": "cheating"})
    assert not User.objects.get(pk=ada.pk).is_active
    assert LogEntry.objects.get().action == Action.BAN


def test_admin_actions_are_not_offered_to_staff_without_the_group(staff: User, ada: User) -> None:
    from django.contrib.auth.models import Permission

    staff.user_permissions.add(Permission.objects.get(codename="view_game"))
    game = finished(ada)
    client = signed_in(User.objects.get(pk=staff.pk))
    url = reverse("admin:game_game_changelist")
    assert client.get(url).status_code == 200
    response = client.post(
        url, {"action": "hide_games", "_selected_action": [str(game.id)], "apply": "1",
              "reason": "x"},
    )  # fmt: skip
    assert response.status_code in (200, 302)
    assert not Game.objects.get(id=game.id).hidden
    assert not LogEntry.objects.exists()


def test_moves_are_shown_in_the_admin_read_only(moderator_client: Client, ada: User) -> None:
    game = finished(ada)
    page = moderator_client.get(reverse("admin:game_game_change", args=[game.id]))
    first = Move.objects.get(game=game, seq=0)
    assert first.move in page.content.decode()
    assert b"moves-0-move" not in page.content  # not an input
    assert reverse("moderation:game", args=[game.id]).encode() in page.content
