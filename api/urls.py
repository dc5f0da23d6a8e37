"""The API's URLs: ``/api/v1/`` (the endpoints), ``/api/openapi.json``, ``/api/docs/``."""

from collections.abc import Sequence

from django.urls import URLPattern, URLResolver, include, path, re_path

import leaderboard.converters  # noqa: F401  (registers the isodate converter)
from api import views
from api.application import public_api


def _endpoints() -> tuple[Sequence[URLResolver | URLPattern], str | None, str | None]:
    """The API's URL patterns, each wrapped by :func:`api.views.endpoint`."""
    patterns, app_name, namespace = public_api.urls
    wrapped = [
        URLPattern(p.pattern, views.endpoint(p.callback), p.default_args, p.name)
        if isinstance(p, URLPattern)
        else p
        for p in patterns
    ]
    return include((wrapped, app_name), namespace=namespace)


urlpatterns = [
    path("api/", views.index, name="api_index"),
    path("api/openapi.json", views.openapi_json, name="api_openapi"),
    path("api/docs/", views.docs, name="api_docs"),
    path("api/", _endpoints()),
    re_path(r"^api/v1/(?P<rest>.*)$", views.not_found),
]
