"""The variants of the game: what differs between them is whether King and Ace fit."""

from __future__ import annotations

from enum import StrEnum

from game.engine.errors import MalformedError


class Variant(StrEnum):
    """A rule variant, named as in exports and the protocol."""

    TRIPEAKS = "tripeaks"
    """The standard game: ranks wrap, so King and Ace fit."""
    NOWRAP = "tripeaks-nowrap"
    """Ranks form a straight line: King and Ace do not fit."""

    @property
    def wrap(self) -> bool:
        """Whether King and Ace fit in this variant."""
        return self is Variant.TRIPEAKS

    @classmethod
    def parse(cls, text: object) -> Variant:
        """Read a variant name; anything else raises :class:`MalformedError`."""
        for variant in cls:
            if text == variant.value:
                return variant
        names = ", ".join(variant.value for variant in cls)
        raise MalformedError(f"{text!r} is not a variant: choose one of {names}")
