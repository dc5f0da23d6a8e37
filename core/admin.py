"""What the site's admin pages share."""

from typing import Any

from django.http import HttpRequest


class ReadOnly:
    """For admin classes (pages and inlines) of rows that staff may look at but never edit: they
    are derived from games, append-only, or changed only by actions that take a reason."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
