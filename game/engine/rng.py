"""The deal generator's pseudo-random numbers: SHA-256 in counter mode.

The project does not use Python's ``random`` module for deals: its algorithms are not a stable
contract, and a deal must be the same on every machine and every version, forever. This generator
is defined entirely here and pinned by golden vectors in the tests.

**The stream.** For a seed string ``s``, block ``n`` (n = 0, 1, 2, …) is::

    SHA-256( b"tripeaks-deal/1" + b"\\x00" + utf8(s) + b"\\x00" + n as 8 bytes, big-endian )

Each 32-byte block is read as four unsigned 64-bit big-endian words, and the words of blocks 0, 1,
2, … in order make the stream.

**Bounded numbers.** ``below(n)`` takes words ``w`` from the stream until one is smaller than
``2**64 - (2**64 % n)`` (so that every remainder is equally likely) and returns ``w % n``.

**Shuffling.** The deck starts in index order (clubs A–K, diamonds, hearts, spades) and is
shuffled by Fisher–Yates from the end: for ``i`` from 51 down to 1, swap card ``i`` with card
``below(i + 1)``.

>>> DealRandom("42").shuffled("abcdef") == DealRandom("42").shuffled("abcdef")
True
>>> 0 <= DealRandom("42").below(52) < 52
True
"""

import hashlib
from collections.abc import Sequence
from typing import Final, TypeVar

DOMAIN: Final = b"tripeaks-deal/1"
WORD_BITS: Final = 64
_WORD_SPAN: Final = 1 << WORD_BITS

T = TypeVar("T")


class DealRandom:
    """A reproducible stream of random numbers made from a seed string."""

    __slots__ = ("_block", "_prefix", "_words")

    def __init__(self, seed: str) -> None:
        self._prefix = DOMAIN + b"\x00" + seed.encode("utf-8") + b"\x00"
        self._block = 0
        self._words: list[int] = []

    def next_word(self) -> int:
        """The next unsigned 64-bit word of the stream."""
        if not self._words:
            digest = hashlib.sha256(self._prefix + self._block.to_bytes(8, "big")).digest()
            self._block += 1
            # Reversed so that pop() hands out the words in stream order.
            self._words = [int.from_bytes(digest[i : i + 8], "big") for i in (24, 16, 8, 0)]
        return self._words.pop()

    def below(self, n: int) -> int:
        """A whole number from 0 to ``n - 1``, each equally likely."""
        if not 0 < n <= _WORD_SPAN:
            raise ValueError(f"below() needs 1 <= n <= 2**64, not {n}")
        limit = _WORD_SPAN - _WORD_SPAN % n
        while True:
            word = self.next_word()
            if word < limit:
                return word % n

    def shuffled(self, items: Sequence[T]) -> list[T]:
        """A Fisher–Yates shuffle of ``items`` (from the end), as a new list."""
        result = list(items)
        for i in range(len(result) - 1, 0, -1):
            j = self.below(i + 1)
            result[i], result[j] = result[j], result[i]
        return result
