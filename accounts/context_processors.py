"""What every page's template needs to know of the visitor beyond ``user``."""

from django.http import HttpRequest

from accounts.looks import looks_of


def looks(request: HttpRequest) -> dict[str, dict[str, str]]:
    """The visitor's colour scheme, felt and card backs, for ``base.html``'s ``<html>``."""
    return {"looks": looks_of(request)}
