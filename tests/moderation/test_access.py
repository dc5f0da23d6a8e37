"""Who gets in: moderators (staff in the "moderator" group) everywhere; anonymous visitors,
players and staff without the group nowhere, not in the admin's moderation either."""

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from game.engine import Deal, Variant
from game.models import Game, Mode, Move, Status
from moderation.models import Flag, FlagKind, LogEntry
from moderation.services import flag_close
from tests.accounts.helpers import play_out, signed_in
from tests.moderation.conftest import make_moderator

pytestmark = pytest.mark.django_db


def a_game(owner: User, *, seed: str = "7", moves: int | None = None) -> Game:
    game = Game.objects.create(seed=seed, owner=owner, started_at=timezone.now())
    play_out(game, moves=moves)
    return game


def staff_pages(game: Game, player: User, flag: Flag) -> list[str]:
    return [
        reverse("moderation:queue"),
        reverse("moderation:log"),
        reverse("moderation:game", kwargs={"game_id": game.id}),
        reverse("moderation:player", kwargs={"user_id": player.pk}),
    ]


def staff_actions(game: Game, player: User, flag: Flag) -> list[str]:
    return [
        reverse("moderation:game_hide", kwargs={"game_id": game.id}),
        reverse("moderation:game_restore", kwargs={"game_id": game.id}),
        reverse("moderation:game_verify", kwargs={"game_id": game.id}),
        reverse("moderation:player_ban", kwargs={"user_id": player.pk}),
        reverse("moderation:player_unban", kwargs={"user_id": player.pk}),
        reverse("moderation:flag_close", kwargs={"flag_id": flag.id}),
    ]


ADMIN_PAGES = [
    "admin:index",
    "admin:auth_user_changelist",
    "admin:game_game_changelist",
    "admin:moderation_flag_changelist",
    "admin:moderation_report_changelist",
    "admin:moderation_logentry_changelist",
    "admin:leaderboard_daily_changelist",
    "admin:races_room_changelist",
    "admin:races_round_changelist",
    "admin:races_playerrating_changelist",
]


@pytest.fixture
def scene(ada: User) -> tuple[Game, User, Flag]:
    game = a_game(ada, moves=5)
    flag = Flag.objects.create(
        game=game, kind=FlagKind.FAST_PLAY, created_at=timezone.now(), opened_at=timezone.now()
    )
    return game, ada, flag


def test_anonymous_visitors_are_sent_to_the_admin_sign_in(scene: tuple[Game, User, Flag]) -> None:
    client = Client()
    for url in staff_pages(*scene):
        response = client.get(url)
        assert response.status_code == 302, url
        assert response["Location"].startswith(reverse("admin:login")), url
        assert "no-store" in response["Cache-Control"]
    for url in staff_actions(*scene):
        response = client.post(url, {"reason": "because", "outcome": "dismiss"})
        assert response.status_code == 302, url
    assert not LogEntry.objects.exists()
    assert not Game.objects.get(id=scene[0].id).hidden
    assert User.objects.get(pk=scene[1].pk).is_active


def test_players_and_staff_without_the_group_are_refused(
    scene: tuple[Game, User, Flag], bob: User, staff: User
) -> None:
    for user, status in ((bob, 302), (staff, 403)):
        client = signed_in(user)
        for url in staff_pages(*scene):
            assert client.get(url).status_code == status, (user, url)
        for url in staff_actions(*scene):
            response = client.post(url, {"reason": "because", "outcome": "dismiss"})
            assert response.status_code == status, (user, url)
    assert not LogEntry.objects.exists()
    assert not Game.objects.get(id=scene[0].id).hidden
    assert User.objects.get(pk=scene[1].pk).is_active
    assert Flag.objects.get(id=scene[2].id).is_open


def test_the_admin_lets_in_staff_only_and_moderation_only_to_moderators(
    scene: tuple[Game, User, Flag], bob: User, staff: User, moderator: User
) -> None:
    game = scene[0]
    for url_name in ADMIN_PAGES:
        url = reverse(url_name)
        assert Client().get(url).status_code == 302, url_name
        assert signed_in(bob).get(url).status_code == 302, url_name
        assert signed_in(moderator).get(url).status_code == 200, url_name
    # Staff without the group get the admin's index, but none of these models.
    assert signed_in(staff).get(reverse("admin:index")).status_code == 200
    for url_name in ADMIN_PAGES[1:]:
        assert signed_in(staff).get(reverse(url_name)).status_code == 403, url_name
    change = reverse("admin:game_game_change", args=[game.id])
    assert signed_in(moderator).get(change).status_code == 200


def test_moderators_cannot_edit_derived_rows_or_the_log_in_the_admin(
    scene: tuple[Game, User, Flag], moderator: User
) -> None:
    game, player, flag = scene
    flag_close(actor=moderator, flag_id=flag.id, resolved=False, reason="nothing")
    entry = LogEntry.objects.get()
    client = signed_in(moderator)
    page = client.get(reverse("admin:game_game_change", args=[game.id]))
    assert b'name="score"' not in page.content  # read-only: shown, not a field
    assert (
        client.post(reverse("admin:game_game_change", args=[game.id]), {"score": 9}).status_code
        == 403
    )
    assert (
        client.post(reverse("admin:game_game_delete", args=[game.id]), {"post": "yes"}).status_code
        == 403
    )
    assert (
        client.post(
            reverse("admin:moderation_logentry_delete", args=[entry.pk]), {"post": "yes"}
        ).status_code
        == 403
    )
    assert client.get(reverse("admin:moderation_logentry_add")).status_code == 403
    # Not even a superuser can change a log entry through the admin.
    boss = User.objects.create_superuser("boss", "boss@example.com", "x")
    root = signed_in(boss)
    assert (
        root.post(
            reverse("admin:moderation_logentry_delete", args=[entry.pk]), {"post": "yes"}
        ).status_code
        == 403
    )
    assert (
        root.post(
            reverse("admin:moderation_logentry_change", args=[entry.pk]), {"reason": "x"}
        ).status_code
        == 403
    )
    assert LogEntry.objects.get().reason == "nothing"
    # A player's is_active is the ban: only the logged actions change it.
    user_page = root.get(reverse("admin:auth_user_change", args=[player.pk]))
    assert b'name="is_active"' not in user_page.content


def test_staff_pages_are_never_cached(
    scene: tuple[Game, User, Flag], moderator_client: Client
) -> None:
    for url in staff_pages(*scene):
        response = moderator_client.get(url)
        assert response.status_code == 200, url
        directives = {part.strip() for part in response["Cache-Control"].split(",")}
        assert {"private", "no-store"} <= directives, url


def test_the_viewer_shows_every_card_of_a_game_in_play_to_moderators_only(
    ada: User, bob: User, moderator_client: Client
) -> None:
    game = a_game(ada, seed="viewer-seed", moves=3)
    assert game.status == Status.IN_PROGRESS
    deal = Deal.from_seed("viewer-seed")
    url = reverse("moderation:game", kwargs={"game_id": game.id})

    page = moderator_client.get(url)

    frames = page.context["frames"]
    assert len(frames) == 4
    assert [card["card"] for card in frames[0]["tableau"]] == [c.code for c in deal.tableau]
    assert frames[0]["stock"] == [c.code for c in deal.stock]
    assert deal.tableau[0].code in page.content.decode()  # a face-down peak top, in the page
    assert b"viewer-seed" in page.content
    for client in (Client(), signed_in(bob), signed_in(ada)):  # not even its own player
        response = client.get(url)
        assert response.status_code == 302
        assert b"viewer-seed" not in response.content


def test_the_viewer_works_for_a_daily_game_before_its_reveal_and_a_broken_log(
    ada: User, moderator_client: Client
) -> None:
    game = Game.objects.create(
        seed="d", owner=ada, mode=Mode.DAILY, started_at=timezone.now(),
        reveal_after=timezone.now() + timedelta(days=1),
    )  # fmt: skip
    play_out(game)
    Move.objects.filter(game=game, seq=2).update(move="zz")
    response = moderator_client.get(reverse("moderation:game", kwargs={"game_id": game.id}))
    assert response.status_code == 200
    assert "breaks the rules" in response.context["broken_log"]
    assert len(response.context["frames"]) == 3


def test_a_moderator_made_by_the_group_alone_can_act(ada: User) -> None:
    game = a_game(ada)
    mod = make_moderator("mo2")
    assert not mod.is_superuser
    response = signed_in(mod).post(
        reverse("moderation:game_hide", kwargs={"game_id": game.id}), {"reason": "test"}
    )
    assert response.status_code == 303
    assert Game.objects.get(id=game.id).hidden


def test_viewer_has_no_variant_it_cannot_show(ada: User, moderator_client: Client) -> None:
    game = Game.objects.create(
        seed="nw", owner=ada, variant=Variant.NOWRAP.value, started_at=timezone.now()
    )
    play_out(game, moves=2)
    assert (
        moderator_client.get(reverse("moderation:game", kwargs={"game_id": game.id})).status_code
        == 200
    )


def test_the_menu_links_the_queue_for_moderators_only(
    moderator_client: Client, staff: User, ada: User
) -> None:
    queue = reverse("moderation:queue")
    assert f'href="{queue}"' in moderator_client.get(reverse("game:home")).text
    for user in (staff, ada):
        assert f'href="{queue}"' not in signed_in(user).get(reverse("game:home")).text
    assert f'href="{queue}"' not in Client().get(reverse("game:home")).text
