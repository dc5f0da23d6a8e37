"""``{% script_catalog %}``: the script element that loads the scripts' words in the page's
language (core.script_catalog), or nothing on an English page."""

from django import template
from django.utils import translation
from django.utils.html import format_html
from django.utils.safestring import SafeString

from core.script_catalog import catalog_url, needs_catalog

register = template.Library()


@register.simple_tag
def script_catalog() -> SafeString:
    """A deferred classic script: it runs before the page's modules (deferred too, and after it
    in the document), which find its ``gettext`` and the rest on ``globalThis.django``."""
    language = translation.get_language()
    if not needs_catalog(language):
        return SafeString("")
    return format_html('<script defer src="{}"></script>', catalog_url(language))
