"""What makes the site installable on a phone's home screen: the web app manifest, the service
worker, and the page it shows offline.

The service worker keeps the static files (every one, under its hashed name in production) and
two pages: the offline page and the tutorial, which plays without the server. Every other page
goes to the network and is never stored, so nothing personal or live sits in the browser's cache;
play itself stays online, since the server deals and referees.
"""

import hashlib
import json
from functools import cache
from pathlib import Path
from typing import Any, Final

from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import get_language, gettext
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_safe
from django.views.decorators.vary import vary_on_headers

from core.previews import SITE_DESCRIPTION, SITE_NAME

THEME: Final = "#12653f"
BACKGROUND: Final = "#f4f6f3"
ICONS: Final = ((192, ""), (512, ""), (192, "maskable"), (512, "maskable"))
CACHED_KINDS: Final = (".css", ".js", ".png", ".svg", ".woff2")


def manifest_document() -> dict[str, Any]:
    """The web app manifest: names, colours, where it starts, and its icons; its description in
    the active language (the site's name is the same in every language)."""
    return {
        "name": SITE_NAME,
        "short_name": "TriPeaks",
        "description": gettext(SITE_DESCRIPTION),
        "lang": get_language(),
        "id": "/",
        "start_url": "/?source=home-screen",
        "scope": "/",
        "display": "standalone",
        "orientation": "any",
        "background_color": BACKGROUND,
        "theme_color": THEME,
        "icons": [
            {
                "src": static(f"img/icon-{size}{'-maskable' if purpose else ''}.png"),
                "sizes": f"{size}x{size}",
                "type": "image/png",
                "purpose": purpose or "any",
            }
            for size, purpose in ICONS
        ],
    }


@cache
def static_files() -> tuple[tuple[str, str], ...]:
    """Every static file the pages use (stylesheets, scripts, pictures): its name, and where it
    lies on disk."""
    return tuple(
        sorted(
            (name, storage.path(name))
            for finder in finders.get_finders()
            for name, storage in finder.list(ignore_patterns=["*.map", "*.gz", "*.br"])
            if name.endswith(CACHED_KINDS) and not name.startswith("admin/")
        )
    )


def static_urls() -> tuple[str, ...]:
    """The address of every static file the pages use."""
    return tuple(static(name) for name, _ in static_files())


def files_version() -> str:
    """A digest of the stored files' addresses and when each last changed: a deploy changes the
    hashed names, an edit in development the times, and either installs a new worker."""
    digest = hashlib.sha256()
    for name, path in static_files():
        digest.update(f"{static(name)} {Path(path).stat().st_mtime_ns}\n".encode())
    return digest.hexdigest()[:16]


def precached() -> list[str]:
    """What the service worker stores when it installs: the two offline pages, then the files."""
    return [reverse("offline"), reverse("game:tutorial"), *static_urls()]


@require_safe
@cache_control(max_age=3600)
@vary_on_headers("Accept-Language", "Cookie")  # the reader's language (LocaleMiddleware)
def manifest(request: HttpRequest) -> JsonResponse:
    response = JsonResponse(manifest_document())
    response["Content-Type"] = "application/manifest+json"
    return response


@require_safe
@cache_control(no_cache=True)
def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker, from the site's root so that it serves every page. Its version is a
    digest of what it stores (:func:`files_version`): a changed file installs a new one."""
    files = precached()
    version = files_version()
    script = render(
        request,
        "sw.js",
        {
            "files": json.dumps(files),
            "version": version,
            "offline": reverse("offline"),
            "catalog": reverse("javascript_catalog"),
        },
        content_type="text/javascript",
    )
    script["Service-Worker-Allowed"] = "/"
    return script


@require_safe
def offline(request: HttpRequest) -> HttpResponse:
    """What the installed site shows without a network: the tutorial still plays."""
    return render(request, "offline.html")
