"""The engine's errors: each says what is wrong in words a player understands."""


class TriPeaksError(ValueError):
    """Base of every error the engine raises on bad input."""


class MalformedError(TriPeaksError):
    """Input that is not written the way the contract says: a card, move, seed or document."""


class IllegalMoveError(TriPeaksError):
    """A well-formed move that the rules do not allow in the current position."""


class GameOverError(IllegalMoveError):
    """A move or abandon sent to a game that has already ended."""


class VerificationError(TriPeaksError):
    """A well-formed game document whose claims (deal, moves, score, status) are not true."""
