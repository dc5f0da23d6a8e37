"""Middleware of the site's own."""

from collections.abc import Mapping
from typing import Any
from urllib.parse import unquote

from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.utils.deprecation import MiddlewareMixin

NUL = "\x00"


def has_nul(meta: Mapping[str, Any], path: str) -> bool:
    """Whether a request holds a NUL byte: in its path (as decoded), its query string (raw or
    decoded) or a header's value (``meta`` is the request's WSGI environ).

    >>> has_nul({"QUERY_STRING": "page=%00"}, "/"), has_nul({"HTTP_USER_AGENT": "a\\x00"}, "/")
    (True, True)
    >>> has_nul({}, "/players/a\\x00b/"), has_nul({"QUERY_STRING": "page=2"}, "/")
    (True, False)
    """
    if NUL in path or NUL in unquote(meta.get("QUERY_STRING", "")):
        return True
    return any(
        isinstance(value, str) and NUL in value
        for key, value in meta.items()
        if key.startswith("HTTP_") or key == "CONTENT_TYPE"
    )


class RefuseNulBytes(MiddlewareMixin):
    """Answer ``400`` to a request with a NUL byte in its URL or a header, before any view.

    No name, code or parameter of the site holds one, HTTP forbids them in headers, and
    PostgreSQL refuses NUL in text: a URL argument or a raw query parameter that reached a query
    failed there with a 500, and so did a failed sign-in whose User-Agent or Accept header
    django-axes stores. Form fields need no such check: Django's form fields refuse NUL themselves.
    """

    def process_request(self, request: HttpRequest) -> HttpResponse | None:
        if has_nul(request.META, request.path):
            return HttpResponseBadRequest(
                "NUL bytes are not allowed in a URL or a header", content_type="text/plain"
            )
        return None
