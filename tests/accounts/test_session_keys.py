"""A session cookie whose key no server issued is no session: the visitor is a visitor, on a page
and on a socket, and no query sees the key (a NUL byte in it failed on PostgreSQL)."""

import json

import pytest
from django.test import Client

from accounts.sessions import SessionStore
from tests.accounts.helpers import make_player, signed_in_session
from tests.fuzz import FORGED_SESSION
from tests.sockets import socket_to

# Each request commits on its own, as on the site: on PostgreSQL a failed lookup would otherwise
# abort the test's transaction instead of showing as a 500.
pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("key", ["abcdefgh\x00ij", "ABCDEFGHIJ", "abcdefg", "abc-defghij", ""])
def test_a_key_that_was_never_issued_is_no_key(key: str) -> None:
    assert SessionStore(key).session_key is None


def test_an_issued_key_is_kept() -> None:
    key = signed_in_session(make_player("ada"))

    assert SessionStore(key).session_key == key
    assert SessionStore(key).get("_auth_user_id") is not None


def test_a_page_with_a_forged_session_cookie_is_a_visitor_s() -> None:
    client = Client(raise_request_exception=False)

    response = client.get("/", headers={"Cookie": f"sessionid={FORGED_SESSION}"})

    assert response.status_code == 200
    assert response.wsgi_request.session.session_key is None
    assert not response.wsgi_request.user.is_authenticated


@pytest.mark.asyncio
async def test_a_socket_with_a_forged_session_cookie_is_a_visitor_s() -> None:
    """The refusal of an unknown path is one frame: enough to see that the handshake got through
    the session and the user before it."""
    socket = socket_to("/ws/nothing/", FORGED_SESSION)

    connected, _ = await socket.connect(timeout=5)

    assert connected
    assert json.loads(await socket.receive_from(timeout=5))["code"] == "not_found"
    await socket.disconnect()
