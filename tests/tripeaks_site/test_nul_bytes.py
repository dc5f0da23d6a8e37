"""A NUL byte in a URL's path or query string, or in a header, is answered ``400`` before any
view reads it."""

import pytest
from axes.models import AccessAttempt
from django.test import Client

from tests.accounts.helpers import make_player

# Each request commits on its own, as on the site (PostgreSQL refuses NUL in text: without the
# check, the lookups below failed there with a 500).
pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize(
    "url",
    [
        "/players/a%00b/",
        "/races/%00/",
        "/games/%00/",
        "/daily/archive/?page=%00",
        "/leaderboards/?period=week%00",
        "/daily/?%00=1",
    ],
)
def test_a_nul_byte_in_the_url_is_a_400(url: str) -> None:
    response = Client(raise_request_exception=False).get(url)

    assert response.status_code == 400
    assert response.content == b"NUL bytes are not allowed in a URL or a header"


def test_a_nul_byte_is_refused_for_every_method() -> None:
    response = Client(raise_request_exception=False).post("/races/a%00b/join")

    assert response.status_code == 400


@pytest.mark.parametrize("header", ["User-Agent", "Accept", "Referer", "X-Forwarded-For"])
def test_a_nul_byte_in_a_header_is_a_400(header: str) -> None:
    """A failed sign-in stores the User-Agent and Accept headers (django-axes): with a NUL byte,
    a 500 on PostgreSQL."""
    make_player("ada")
    client = Client(raise_request_exception=False)

    response = client.post(
        "/accounts/login/", {"username": "ada", "password": "guess"}, headers={header: "a\x00b"}
    )

    assert response.status_code == 400
    assert not AccessAttempt.objects.exists()


def test_an_encoded_percent_sign_is_no_nul_byte() -> None:
    """``%2500`` is the text ``%00``: a username that does not exist, not a NUL byte."""
    make_player("ada")

    assert Client().get("/players/%2500/").status_code == 404
    assert Client().get("/players/ada/?x=%2500").status_code == 200
