"""Sign-in throttling: five wrong passwords for one username from one address pause that pair for
fifteen minutes; the right password works again after the pause, or after a password reset."""

import re
from datetime import timedelta
from typing import Any

import pytest
from axes.models import AccessAttempt
from django.conf import settings
from django.contrib.auth import SESSION_KEY
from django.contrib.auth.models import User
from django.core import mail
from django.test import Client

from tests.accounts.helpers import PASSWORD

pytestmark = pytest.mark.django_db

ATTACKER = "203.0.113.9"
PLAYER = "198.51.100.7"
NEW_PASSWORD = "three-peaks-at-dawn-7"


def sign_in(client: Client, password: str, username: str = "ada") -> Any:
    return client.post("/accounts/login/", {"username": username, "password": password})


def fail(client: Client, times: int, username: str = "ada") -> list[int]:
    return [sign_in(client, f"guess-{n}", username).status_code for n in range(times)]


def let_time_pass(span: timedelta) -> None:
    """Move every recorded failure back in time, as if ``span`` had gone by."""
    for attempt in AccessAttempt.objects.all():
        AccessAttempt.objects.filter(pk=attempt.pk).update(attempt_time=attempt.attempt_time - span)


def test_the_configuration() -> None:
    """Five failures, fifteen minutes, username and address together, reset on success."""
    assert settings.AXES_FAILURE_LIMIT == 5
    assert timedelta(minutes=15) == settings.AXES_COOLOFF_TIME
    assert settings.AXES_LOCKOUT_PARAMETERS == [["username", "ip_address"]]
    assert settings.AXES_RESET_ON_SUCCESS is True
    assert settings.AUTHENTICATION_BACKENDS[0] == "axes.backends.AxesStandaloneBackend"


def test_five_wrong_passwords_lock_the_username_from_that_address(player: User) -> None:
    """The fifth failure answers 429 with a clear message; then even the right password waits."""
    client = Client(REMOTE_ADDR=ATTACKER)
    assert fail(client, 4) == [200, 200, 200, 200]
    locked = sign_in(client, "guess-5")
    assert locked.status_code == 429
    html = locked.content.decode()
    assert "Too many sign-in attempts" in html
    assert "paused for 15 minutes, after 5 wrong passwords" in html
    assert 'href="/accounts/password/reset/"' in html

    right = sign_in(client, PASSWORD)
    assert right.status_code == 429
    assert SESSION_KEY not in client.session


def test_the_lock_is_only_on_that_pair(player: User) -> None:
    """An attacker cannot lock a player out everywhere, nor lock their own address for others."""
    fail(Client(REMOTE_ADDR=ATTACKER), 5)
    at_home = Client(REMOTE_ADDR=PLAYER)
    assert sign_in(at_home, PASSWORD).status_code == 302
    User.objects.create_user("bea", password=PASSWORD)
    same_address = Client(REMOTE_ADDR=ATTACKER)
    assert sign_in(same_address, PASSWORD, username="bea").status_code == 302


def test_the_right_password_works_after_the_cool_off(player: User) -> None:
    client = Client(REMOTE_ADDR=ATTACKER)
    fail(client, 5)
    let_time_pass(timedelta(minutes=14))
    assert sign_in(client, PASSWORD).status_code == 429
    let_time_pass(timedelta(minutes=2))
    response = sign_in(client, PASSWORD)
    assert response.status_code == 302
    assert client.session[SESSION_KEY] == str(player.pk)


def test_trying_during_the_pause_does_not_make_it_longer(player: User) -> None:
    """The pause runs from the fifth failure, however often the door is tried meanwhile."""
    client = Client(REMOTE_ADDR=ATTACKER)
    fail(client, 5)
    let_time_pass(timedelta(minutes=10))
    assert fail(client, 3) == [429, 429, 429]
    let_time_pass(timedelta(minutes=6))
    assert sign_in(client, PASSWORD).status_code == 302


def test_a_successful_sign_in_forgets_earlier_failures(player: User) -> None:
    client = Client(REMOTE_ADDR=PLAYER)
    assert fail(client, 4) == [200] * 4
    assert sign_in(client, PASSWORD).status_code == 302
    client.post("/accounts/logout/")
    assert fail(client, 4) == [200] * 4
    assert sign_in(client, PASSWORD).status_code == 302


def test_a_password_reset_lifts_the_lock(player: User) -> None:
    """Proving the account is theirs by email ends the pause at once."""
    client = Client(REMOTE_ADDR=PLAYER)
    fail(client, 5)
    client.post("/accounts/password/reset/", {"email": "ada@example.com"})
    link = re.search(
        r"http://testserver(/accounts/password/reset/\S+/\S+/)", str(mail.outbox[0].body)
    )
    assert link is not None
    form = client.get(link.group(1), follow=True)
    set_url = form.redirect_chain[-1][0]
    client.post(set_url, {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})
    assert sign_in(client, NEW_PASSWORD).status_code == 302
