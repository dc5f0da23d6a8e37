"""Middleware of the site's own."""

from urllib.parse import unquote

from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.utils.deprecation import MiddlewareMixin

NUL = "\x00"


def has_nul(path: str, query_string: str) -> bool:
    """Whether a URL's path (as decoded) or query string (raw or decoded) holds a NUL byte.

    >>> has_nul("/players/a\\x00b/", ""), has_nul("/daily/", "page=%00"), has_nul("/", "page=2")
    (True, True, False)
    """
    return NUL in path or NUL in unquote(query_string)


class RefuseNulBytes(MiddlewareMixin):
    """Answer ``400`` to a request with a NUL byte in its path or query string, before any view.

    No name, code or parameter of the site holds one, and PostgreSQL refuses NUL in text: a URL
    argument or a raw query parameter that reached a query failed there with a 500. Form fields
    need no such check: Django's form fields refuse NUL themselves.
    """

    def process_request(self, request: HttpRequest) -> HttpResponse | None:
        if has_nul(request.path, request.META.get("QUERY_STRING", "")):
            return HttpResponseBadRequest(
                "NUL bytes are not allowed in a URL", content_type="text/plain"
            )
        return None
