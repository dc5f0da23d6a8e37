"""``{% preview_tags %}``: a page's link preview as OpenGraph and Twitter card tags."""

from typing import Any

from django import template
from django.templatetags.static import static

from core.previews import SITE_IMAGE, SITE_NAME, Preview

register = template.Library()


@register.inclusion_tag("core/preview_tags.html", takes_context=True)
def preview_tags(context: template.Context) -> dict[str, Any]:
    """The tags of the page's ``preview`` (the site's own when it has none), every address
    absolute as the preview readers require."""
    request = context["request"]
    preview = context.get("preview") or Preview(title=SITE_NAME)
    return {
        "preview": preview,
        "site_name": SITE_NAME,
        "url": request.build_absolute_uri(),
        "image": request.build_absolute_uri(preview.image or static(SITE_IMAGE)),
    }
