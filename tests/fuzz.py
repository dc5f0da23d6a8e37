"""What the fuzz tests (``tests/tripeaks_site/test_fuzz.py``) send, generated from the site itself.

Every URL pattern (walked from the root resolver, so a new page is covered the day it is added)
becomes a :class:`Route` whose slots are filled with real values (someone's game, a day, a room)
and with bad ones (not a UUID, a UUID of nothing, NUL bytes, huge numbers, 10,000 characters).
Each real path is then asked with every HTTP method, bad queries and bad bodies. Cases are made
systematically, not at random: a failure names its case, and the next run asks it again.
"""

import json
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any
from urllib.parse import quote, urlencode

from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import URLPattern, URLResolver, get_resolver
from django.urls.resolvers import RegexPattern, RoutePattern

LONG = "a" * 10_000
NUL = "a\x00b"
NUMBERS = (str(2**63), str(2**64), "-1", "1e309", "0x10")
BAD_VALUES = (*NUMBERS, LONG, NUL, "", "\u202e\U0001f0a1", "../../x")
"""Bad values for any field, query parameter or path slot."""

FORM = "application/x-www-form-urlencoded"
MULTIPART = "multipart/form-data"
JSON = "application/json"
METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS")

FORGED_SESSION = '"abcdefgh\\000ij"'
"""A session cookie no server issued: a quoted value, whose octal escape Django decodes to NUL."""
BAD_COOKIES = (FORGED_SESSION, LONG, "../../x")
COOKIE_NAMES = ("sessionid", "csrftoken", "messages")
HEADER_NAMES = (
    "User-Agent", "Accept", "Accept-Language", "Referer", "X-Forwarded-For", "X-Forwarded-Proto",
    "X-Requested-With", "X-CSRFToken", "If-None-Match", "If-Modified-Since", "Range",
)  # fmt: skip
"""Headers the site, Django or django-axes may read."""

QUERY_KEYS = ("page", "period", "view", "next", "kind", "status", "action", "q", "o", "p")
"""Query parameters the site's views (and the admin's lists) read; the test adds every field name
the pages' forms show."""

_ROUTE_SLOT = re.compile(r"<(?:(?P<kind>[^>:]+):)?(?P<name>[^>]+)>")
_REGEX_SLOT = re.compile(r"\(\?P<(?P<name>\w+)>(?P<regex>[^()]*)\)")
_REGEX_LITERAL = re.compile(r"[\w/.-]*")


@dataclass(frozen=True, slots=True)
class Slot:
    """A variable part of a URL: its name, its converter's name (``regex`` for ``re_path``), and
    the regular expression a value must match for the URL to resolve."""

    name: str
    kind: str
    regex: str


@dataclass(frozen=True, slots=True)
class Route:
    """One URL pattern of the site, from the root: literal text and slots."""

    pieces: tuple[str | Slot, ...]

    @property
    def slots(self) -> tuple[Slot, ...]:
        return tuple(piece for piece in self.pieces if isinstance(piece, Slot))

    def __str__(self) -> str:
        return "/" + "".join(
            piece if isinstance(piece, str) else f"<{piece.kind}:{piece.name}>"
            for piece in self.pieces
        )

    def path(self, values: Mapping[str, str]) -> str:
        """The path with each slot's value, percent-encoded as a browser would send it."""
        return "/" + "".join(
            piece if isinstance(piece, str) else quote(values[piece.name], safe="")
            for piece in self.pieces
        )


def site_routes(patterns: Sequence[Any] | None = None) -> list[Route]:
    """Every URL pattern of the site, ``include()``s followed."""
    return list(_walk(get_resolver().url_patterns if patterns is None else patterns, ()))


def _walk(patterns: Sequence[Any], prefix: tuple[str | Slot, ...]) -> Iterator[Route]:
    for entry in patterns:
        pieces = (*prefix, *pattern_pieces(entry.pattern))
        if isinstance(entry, URLResolver):
            yield from _walk(entry.url_patterns, pieces)
        else:
            assert isinstance(entry, URLPattern)
            yield Route(pieces)


def pattern_pieces(pattern: RoutePattern | RegexPattern) -> tuple[str | Slot, ...]:
    """The literal text and the slots of one pattern. A ``re_path`` is read when its slots are
    named groups of plain characters (as the admin's are); anything else raises ValueError, so
    that a new kind of pattern makes the fuzz fail rather than skip it."""
    text = str(pattern)
    if isinstance(pattern, RoutePattern):
        slot_re, converters = _ROUTE_SLOT, pattern.converters
    else:
        text, slot_re, converters = text.removeprefix("^").removesuffix("$"), _REGEX_SLOT, {}
    pieces: list[str | Slot] = []
    end = 0
    for match in slot_re.finditer(text):
        pieces.append(_literal(text[end : match.start()], pattern))
        name = match["name"]
        if isinstance(pattern, RoutePattern):
            pieces.append(Slot(name, match["kind"] or "str", converters[name].regex))
        else:
            pieces.append(Slot(name, "regex", match["regex"]))
        end = match.end()
    pieces.append(_literal(text[end:], pattern))
    return tuple(piece for piece in pieces if piece)


def _literal(text: str, pattern: RoutePattern | RegexPattern) -> str:
    if isinstance(pattern, RegexPattern) and not _REGEX_LITERAL.fullmatch(text):
        raise ValueError(f"The fuzz cannot fill the pattern {pattern}: teach tests/fuzz.py")
    return text


@dataclass(frozen=True, slots=True)
class Values:
    """The values to put in slots: real ones by slot name (the first is the one other slots get
    while a slot is fuzzed) and bad ones by converter."""

    real: Mapping[str, Sequence[str]]
    words: Sequence[str] = ("x",)

    def real_for(self, slot: Slot) -> list[str]:
        known = [value for value in self.real.get(slot.name, ()) if _fits(slot, value)]
        if known:
            return known
        fitting = [word for word in self.words if _fits(slot, word)]
        assert fitting, f"No real value for the slot {slot}: add one to the fuzz's world"
        return fitting[:1]

    def bad_for(self, slot: Slot) -> list[str]:
        return list(BAD_BY_KIND.get(slot.kind, BAD_VALUES))


BAD_BY_KIND: Mapping[str, Sequence[str]] = {
    "uuid": ("00000000-0000-4000-8000-000000000000", "not-a-uuid", NUL, LONG),
    # django-ninja's UUID converter (the API's paths): the same values.
    "uuidstr": ("00000000-0000-4000-8000-000000000000", "not-a-uuid", NUL, LONG),
    "int": (str(2**63), str(2**64), "0", "-1", "1e309", "0x10", NUL, LONG),
    "isodate": ("9999-12-31", "2026-02-30", "0001-01-01", "2026-13-01", NUL),
}


def _fits(slot: Slot, value: str) -> bool:
    return re.fullmatch(slot.regex, value) is not None


class Fill(Enum):
    """How a target's slots are filled."""

    FIRST = "the first real value of every slot"
    REAL = "real values"
    BAD = "a bad value"


@dataclass(frozen=True, slots=True)
class Target:
    """A path to ask, and how its slots were filled."""

    route: Route
    path: str
    fill: Fill
    bad_value: str | None = None


def targets(route: Route, values: Values) -> Iterator[Target]:
    """The paths to ask of one route: every slot filled with its first real value; then each
    other real value and each bad value of each slot in turn, the other slots at their first."""
    first = {slot.name: values.real_for(slot)[0] for slot in route.slots}
    yield Target(route, route.path(first), Fill.FIRST)
    for slot in route.slots:
        for value in values.real_for(slot)[1:]:
            yield Target(route, route.path({**first, slot.name: value}), Fill.REAL)
        for value in values.bad_for(slot):
            yield Target(route, route.path({**first, slot.name: value}), Fill.BAD, value)


@dataclass(frozen=True, slots=True)
class Request:
    """One request to make: a method, a query string, a body and its content type."""

    method: str
    query: str = ""
    body: bytes | str | dict[str, Any] | None = None
    content_type: str | None = None
    headers: Mapping[str, str] | None = None
    """Headers to send (a Cookie header replaces the client's own cookies)."""

    def __str__(self) -> str:
        body = "" if self.body is None else f" {self.content_type} {_short(self.body)}"
        query = f"?{_short(self.query)}" if self.query else ""
        headers = "" if self.headers is None else f" headers {_short(dict(self.headers))}"
        return f"{self.method} {query}{body}{headers}"


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 80 else f"{text[:60]}…({len(text)} chars)"


@dataclass(slots=True)
class Vocabulary:
    """Names the site reads: query keys and form fields (from the pages' forms)."""

    fields: set[str] = field(default_factory=set)

    @property
    def keys(self) -> list[str]:
        return sorted({*QUERY_KEYS, *self.fields})

    def learn(self, html: str) -> None:
        self.fields.update(
            re.findall(r"<(?:input|select|textarea)\b[^>]*\bname=\"([^\"]+)\"", html)
        )


def queries(keys: Sequence[str]) -> Iterator[str]:
    """Every key set to one bad value at a time; then every key given twice."""
    for value in BAD_VALUES:
        yield urlencode(dict.fromkeys(keys, value))
    yield urlencode([(key, value) for key in keys for value in ("1", "2")])


def json_bodies(keys: Sequence[str]) -> Iterator[str]:
    """Malformed JSON, and JSON of the wrong shape."""
    yield from ("{", "[" * 10_000, '{"a":' * 5_000, "\x00", "", "null", "[]", '"x"', "1e309")
    yield '{"a": 1, "a": 2}'
    values: tuple[object, ...] = (True, None, 2**64, LONG, NUL, [])
    for value in values:
        yield json.dumps(dict.fromkeys(keys, value))


def methods_to_ask(target: Target, *, reached: bool) -> tuple[str, ...]:
    """The methods to ask a target with, besides the first GET of every path of real values.

    On a route that the actor ``reached`` (that did not send them to sign in), paths of real
    values are asked every method, bad paths GET and POST. A route that sends the actor to sign
    in reads nothing but its URL: its first path is asked every method, its bad paths GET with
    the two values that make the URL unlike the others (10,000 characters, a NUL byte).
    """
    if target.fill == Fill.FIRST:
        return METHODS
    if target.fill == Fill.REAL:
        return METHODS if reached else ()
    if reached:
        return ("GET", "POST")
    return ("GET",) if target.bad_value in (LONG, NUL) else ()


def bad_inputs(method: str, keys: Sequence[str], *, full: bool) -> Iterator[Request]:
    """Bad input for a method that a path answers with anything but ``405``: with GET, bad
    queries, cookies and headers; with POST, bad form, multipart and JSON bodies, and headers;
    with PUT, PATCH and DELETE, malformed JSON. All of them if ``full``, else one of each kind."""
    if method == "GET":
        for query in queries(keys) if full else [urlencode(dict.fromkeys(keys, NUL))]:
            yield Request("GET", query=query)
        for value in BAD_COOKIES if full else ():
            cookie = "; ".join(f"{name}={value}" for name in COOKIE_NAMES)
            yield Request("GET", headers={"Cookie": cookie})
        for value in (LONG, NUL) if full else ():
            yield Request("GET", headers=dict.fromkeys(HEADER_NAMES, value))
    elif method == "POST" and not full:
        yield Request("POST", body=urlencode(dict.fromkeys(keys, LONG)), content_type=FORM)
        yield Request("POST", body="{", content_type=JSON)
    elif method == "POST":
        for query in queries(keys):
            yield Request("POST", body=query, content_type=FORM)
        form = urlencode(dict.fromkeys(keys, "x"))
        for value in (LONG, NUL):  # a plain form with bad headers: a failed sign-in stores some
            headers = dict.fromkeys(HEADER_NAMES, value)
            yield Request("POST", body=form, content_type=FORM, headers=headers)
        yield Request("POST", query=next(queries(keys)), body=_multipart(keys))
        yield Request(
            "POST", body=b"--x\r\n\r\nnot a part", content_type=f"{MULTIPART}; boundary=x"
        )
        yield Request("POST", body=b"a=b", content_type=MULTIPART)
        yield Request("POST", body="&".join(f"f{n}=1" for n in range(1_001)), content_type=FORM)
        yield Request("POST", body=b"\xff\xfe%\x00=%ff", content_type=FORM)
        for body in json_bodies(keys):
            yield Request("POST", body=body, content_type=JSON)
    elif method in ("PUT", "PATCH", "DELETE"):
        yield Request(method, body="{", content_type=JSON)


def _multipart(keys: Sequence[str]) -> dict[str, Any]:
    """Every field with a long value, and a file in a field of its own."""
    data: dict[str, Any] = dict.fromkeys(keys, LONG)
    data["upload"] = SimpleUploadedFile("x\x00.txt", b"\x00" * 1000, "text/plain")
    return data


# ---- Websockets ---------------------------------------------------------------------------------

UNROUTED_SOCKET_PATHS = (
    "/",
    "/ws/",
    "/ws/nothing/",
    "/ws/games/",
    "/ws/games/not-a-uuid/",
    "/ws/games/00000000-0000-4000-8000-000000000000/",  # protocol v1's socket, retired
    "/ws/daily/2026-02-30/",
    "/games/new",
    f"/ws/{LONG}/",
    "/ws/races/a%00b/",
    "/ws/games/%00/",
    "/ws/play/%00/",
)
"""Socket paths that name no socket: no route matches them, or they hold a NUL byte."""

SOCKET_TYPES = (
    "sync", "move", "hint", "abandon", "open", "new", "again", "join", "leave", "start", "ping",
)  # fmt: skip
"""Message types the site's sockets know (and one they do not)."""


def socket_frames(game_ids: Sequence[str] = ()) -> Iterator[str | bytes]:
    """Frames a client should not send: malformed JSON, JSON of the wrong shape, binary frames,
    known types with wrong fields, moves with bad numbers, games opened with bad ids; then, for
    each of ``game_ids``, the player's socket's messages on that game (anyone's, over or not)."""
    yield from ("{", "[" * 10_000, "", "null", "[]", "{}", '"x"', "1e309", "NaN", LONG, NUL)
    yield from (b"\x00\xff", b"{}")
    for kind in SOCKET_TYPES:
        yield json.dumps({"type": kind, "extra": 1})
    values: tuple[object, ...] = (2**63, 2**64, -1, 1e309, "0x10", NUL, LONG, None, [], {})
    for value in values:
        yield json.dumps({"type": "move", "seq": value, "move": value})
        yield json.dumps({"type": "open", "game": value})
        yield json.dumps({"type": "new", "variant": value, "winnable_only": value})
    for game_id in game_ids:
        yield json.dumps({"type": "open", "game": game_id})
        for kind in ("sync", "hint", "again", "abandon", "again"):
            yield json.dumps({"type": kind})
        yield json.dumps({"type": "move", "seq": 0, "move": "draw"})
