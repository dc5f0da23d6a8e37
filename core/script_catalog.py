"""The scripts' catalog (docs/translations.md, "Scripts: the JavaScript catalog"): the French of
the words that static/js writes, served as Django's JavaScript catalog.

A page in another language than English names the catalog with its language and a version (a
digest of the compiled catalogs), so that the browser may keep it for good: a new compilation
changes the version, and so the address. English pages load no catalog: the scripts' English is
their source, which they fall back to (static/js/i18n.js).
"""

import hashlib
from functools import lru_cache
from pathlib import Path
from typing import Final
from urllib.parse import urlencode

import django
from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.urls import reverse
from django.utils import translation
from django.utils.cache import get_conditional_response, patch_cache_control, patch_vary_headers
from django.utils.translation.trans_real import DjangoTranslation
from django.views.decorators.http import require_safe
from django.views.i18n import JavaScriptCatalog

DOMAIN: Final = "djangojs"
SOURCE_LANGUAGE: Final = "en"
FOREVER: Final = 365 * 24 * 3600  # a versioned catalog never changes under its address


def compiled_catalogs() -> list[Path]:
    """The site's compiled script catalogs, one a language."""
    return sorted(
        path
        for locale in settings.LOCALE_PATHS
        for path in Path(locale).glob(f"*/LC_MESSAGES/{DOMAIN}.mo")
    )


@lru_cache(maxsize=8)
def _digest(stamps: tuple[tuple[str, int, int], ...]) -> str:
    digest = hashlib.sha256(django.get_version().encode())
    for name, _size, _mtime in stamps:
        digest.update(name.encode())
        digest.update(Path(name).read_bytes())
    return digest.hexdigest()[:12]


def catalog_version() -> str:
    """A digest of the compiled catalogs (and of Django, which writes the script around them):
    read again only when a file's size or time changes."""
    stamps = tuple(
        (str(path), stat.st_size, stat.st_mtime_ns)
        for path in compiled_catalogs()
        for stat in [path.stat()]
    )
    return _digest(stamps)


def needs_catalog(language: str | None) -> bool:
    """Whether a page in `language` loads the catalog: every language but the scripts' own."""
    return language is not None and language.split("-")[0] not in {"", SOURCE_LANGUAGE}


def catalog_url(language: str) -> str:
    """The catalog's address for `language`, at the current version."""
    query = urlencode({"language": language, "v": catalog_version()})
    return f"{reverse('javascript_catalog')}?{query}"


@lru_cache(maxsize=16)
def _script(language: str, version: str) -> bytes:
    """The catalog script of `language`, rendered once a version (`version` keys the cache)."""
    view = JavaScriptCatalog(domain=DOMAIN)
    # The site's own catalogs (LOCALE_PATHS) only: the admin brings its own to its pages.
    view.translation = DjangoTranslation(
        language, domain=DOMAIN, localedirs=[str(path) for path in settings.LOCALE_PATHS]
    )
    with translation.override(language):
        response = view.render_to_response(view.get_context_data())
    return bytes(response.content)


@require_safe
def script_catalog(request: HttpRequest) -> HttpResponseBase:
    """The catalog, as Django's JavaScriptCatalog writes it: of the language in the address
    (`?language=fr&v=…`, kept for good when the version is current), or else of the request's
    language (the cookie's or the browser's), checked again on every use."""
    asked = request.GET.get("language", "")
    languages = {code for code, _name in settings.LANGUAGES}
    language = asked if asked in languages else translation.get_language() or SOURCE_LANGUAGE
    version = catalog_version()
    etag = f'"{language}-{version}"'
    response = get_conditional_response(request, etag=etag)
    if response is None:
        response = HttpResponse(_script(language, version), content_type="text/javascript")
        response["ETag"] = etag
    if asked in languages and request.GET.get("v") == version:
        patch_cache_control(response, public=True, max_age=FOREVER, immutable=True)
    else:
        patch_cache_control(response, no_cache=True)
        patch_vary_headers(response, ("Cookie", "Accept-Language"))
    response["Content-Language"] = language
    return response
