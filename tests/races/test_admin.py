"""Race rooms in the admin: moderators look (racers, rounds, places, links to every game), never
edit, and the round's seed is not on the page."""

import pytest
from django.urls import reverse

from game.engine import Variant
from races import services
from races.models import Entry, Round
from tests.accounts.helpers import signed_in
from tests.moderation.conftest import make_moderator
from tests.races.conftest import make_player

pytestmark = pytest.mark.django_db

SEED = "race-admin-seed-42"


def test_moderators_see_a_room_and_its_round_without_the_seed() -> None:
    ada, bea = make_player("ada"), make_player("bea")
    room = services.room_open(user=ada, variant=Variant.TRIPEAKS, public=True, time_limit_s=None)
    services.room_join(code=room.code, user=bea)
    services.race_start(code=room.code, user=ada, seed=SEED)
    round_ = Round.objects.get(room=room)
    client = signed_in(make_moderator())

    room_page = client.get(reverse("admin:races_room_change", args=[room.pk]))
    assert room_page.status_code == 200
    assert "bea" in room_page.text
    round_page = client.get(reverse("admin:races_round_change", args=[round_.pk]))
    assert round_page.status_code == 200
    assert SEED not in round_page.text
    for entry in Entry.objects.filter(round=round_):
        viewer = reverse("moderation:game", kwargs={"game_id": entry.game_id})
        assert viewer in round_page.text
    assert 'name="number"' not in round_page.text  # shown, not editable


def test_players_are_kept_out_of_the_race_admin() -> None:
    ada = make_player("ada")
    page = signed_in(ada).get(reverse("admin:races_room_changelist"))
    assert page.status_code == 302
