"""The base of the site's websocket consumers.

Channels (since 4.2) runs ``close_old_connections`` in a worker thread before every message a
consumer handles, in case the handler used the ORM from the event loop's thread. That hop costs
more than a move. Our consumers never touch the ORM that way: game services use their own database
thread (:mod:`game.live`), and everything else goes through ``database_sync_to_async``, which
tidies its own connection. So these consumers skip the hop; a consumer that needs the ORM must use
``database_sync_to_async``, never a bare ``sync_to_async``.

A consumer that acts for a signed-in player derives from :class:`PlayerSocket` and calls
:meth:`PlayerSocket.player_join` once it has accepted the connection: :func:`player_sockets_close`
then reaches every such socket of that player, on every process, so that a ban closes them all.
"""

import json
from collections.abc import Mapping
from typing import Any, ClassVar

from channels.auth import AuthMiddleware
from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.security.websocket import AllowedHostsOriginValidator
from channels.sessions import CookieMiddleware, InstanceSessionWrapper, SessionMiddleware
from django.conf import settings
from django.utils.translation import get_supported_language_variant
from django.utils.translation.trans_real import parse_accept_lang_header

from core.broadcast import group_send
from core.errors import Banned, ClientError, RateLimited, Unavailable
from core.groups import player_group
from core.messages import Fields, TokenBucket, typed_message
from core.metrics import OPEN_SOCKETS
from core.outages import DATABASE, database_unavailable


class JsonSocket(AsyncWebsocketConsumer):
    """A websocket that speaks JSON text frames and dispatches without a thread hop.

    What every socket of the site does the same way is here: a client's message is rate-limited
    (:meth:`rate_limit`), read strictly against :attr:`messages` and handed to :meth:`handle`; a
    :class:`~core.errors.ClientError` raised on the way is sent as an error frame; a socket refused
    on connect says why and closes with the error's close code (:meth:`refuse`).

    When it ends, it tells the channel layer that its channel is gone (``channel_discard``, on the
    site's layers), which Channels itself never does: else its subscriptions and group memberships
    would outlive it.
    """

    messages: ClassVar[Fields] = {}
    """The client messages this socket takes (none: it ignores whatever it is sent)."""
    max_message_chars: ClassVar[int] = 256

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        open_sockets = OPEN_SOCKETS.labels(type(self).__name__)
        open_sockets.inc()
        try:
            await super().__call__(scope, receive, send)
        finally:
            open_sockets.dec()
            channel = getattr(self, "channel_name", None)
            discard = getattr(self.channel_layer, "channel_discard", None)
            if channel is not None and discard is not None:
                await discard(channel)

    async def dispatch(self, message: dict[str, Any]) -> None:
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    def rate_limit(self) -> tuple[float, int]:
        """Messages a client may send per second on average, and in a burst."""
        return settings.GAME_SOCKET_RATE, settings.GAME_SOCKET_BURST

    async def websocket_connect(self, message: dict[str, Any]) -> None:
        self.bucket = TokenBucket(*self.rate_limit())
        await super().websocket_connect(message)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if not self.messages:
            return
        try:
            if not self.bucket.take():
                raise RateLimited("Too many messages: slow down")
            kind, fields = typed_message(text_data, self.messages, max_chars=self.max_message_chars)
            await self.handle(kind, fields)
        except ClientError as error:
            await self.send_error(error)

    async def handle(self, kind: str, fields: dict[str, Any]) -> None:
        """Act on one client message of ``kind`` (a key of :attr:`messages`), or raise a
        :class:`~core.errors.ClientError`."""
        raise NotImplementedError(f"{type(self).__name__} takes messages but handles none")

    async def send_json(self, content: Mapping[str, Any]) -> None:
        await self.send(text_data=json.dumps(content))

    async def send_error(self, error: ClientError) -> None:
        await self.send_json(error.frame())

    async def refuse(self, error: ClientError) -> None:
        """Say why this socket cannot go on, and close it with the error's close code."""
        await self.send_error(error)
        await self.close(code=error.close_code)


class SocketSessionMiddleware(SessionMiddleware):
    """Channels' session middleware, without its wrapper around every frame a websocket sends.

    The wrapper saves a modified session as an HTTP response starts, which is the only message
    that can carry its cookie; a websocket frame never does, so for a websocket the wrapper only
    costs time on every frame. A websocket consumer that changes the session saves it itself, as
    with Channels' own middleware.
    """

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if scope["type"] != "websocket":
            return await super().__call__(scope, receive, send)
        wrapper = InstanceSessionWrapper(scope, send)
        await wrapper.resolve_session()
        return await self.inner(wrapper.scope, receive, send)


class PlayerSocket(JsonSocket):
    """A websocket that belongs to the player who opened it."""

    player_group: str | None = None

    async def player_join(self) -> None:
        """Join the player's group (guests have none: they cannot be banned)."""
        user = self.scope.get("user")
        if user is not None and user.is_authenticated:
            self.player_group = player_group(user.pk)
            await self.channel_layer.group_add(self.player_group, self.channel_name)

    async def player_leave(self) -> None:
        """Leave the player's group; call from ``disconnect``."""
        if self.player_group is not None:
            await self.channel_layer.group_discard(self.player_group, self.channel_name)
            self.player_group = None

    async def player_banned(self, event: dict[str, Any]) -> None:
        """The player was banned: say so and hang up."""
        await self.refuse(Banned("This account is suspended"))


async def player_sockets_close(user_id: int) -> None:
    """Close every websocket ``user_id`` has open, on every process."""
    await group_send(player_group(user_id), {"type": "player.banned"})


class OutageGuard:
    """Closes a websocket with "try again later" (4503) when the database cannot be reached,
    instead of letting the error end the socket with a server error (1011, or a 500 for a
    handshake): the session and the user are read from the database before any consumer runs, and
    a consumer may need it too. Any other error goes on as before."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        accepted = closed = False

        async def watched_send(message: dict[str, Any]) -> None:
            nonlocal accepted, closed
            accepted = accepted or message["type"] == "websocket.accept"
            closed = closed or message["type"] == "websocket.close"
            await send(message)

        try:
            return await self.inner(scope, receive, watched_send)
        except Exception as error:
            if not database_unavailable(error):
                raise
            DATABASE.failed(error)
            if closed:
                return None
            if not accepted:  # a refused handshake would be a bare 403: say why, then close
                await send({"type": "websocket.accept"})
            refusal = Unavailable("The site cannot reach its records right now: reconnecting")
            await send({"type": "websocket.send", "text": json.dumps(refusal.frame())})
            await send({"type": "websocket.close", "code": refusal.close_code})
            return None


def websocket_stack(inner: Any) -> Any:
    """What stands before every websocket of the site: the Origin header must name an allowed
    host, and the session cookie says who is connecting (Channels' ``AuthMiddlewareStack``, its
    session middleware replaced by :class:`SocketSessionMiddleware`); a database outage closes
    the socket with "try again later" (:class:`OutageGuard`)."""
    return OutageGuard(
        AllowedHostsOriginValidator(
            CookieMiddleware(SocketSessionMiddleware(AuthMiddleware(inner)))
        )
    )


def scope_language(scope: Mapping[str, Any]) -> str:
    """The language a socket speaks its player's words in (a hint's reason): as a page would
    choose it (``LocaleMiddleware``), from the language cookie, else the browser's
    ``Accept-Language``, else ``LANGUAGE_CODE``. The protocol itself stays English."""
    wanted = [scope.get("cookies", {}).get(settings.LANGUAGE_COOKIE_NAME) or ""]
    headers = dict(scope.get("headers", ()))
    accepted = headers.get(b"accept-language", b"").decode("latin-1")
    wanted += [code for code, _ in parse_accept_lang_header(accepted) if code != "*"]
    for code in filter(None, wanted):
        try:
            return get_supported_language_variant(code)
        except LookupError:
            continue
    return settings.LANGUAGE_CODE
