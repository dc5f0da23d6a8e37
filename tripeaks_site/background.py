"""Work a web process starts as soon as it serves, not when its first game ends.

The analysis loop (:mod:`game.postgame`) works off the finished games still waiting for their
analysis, and starts the scheduled jobs (:mod:`core.scheduled`: the coming days' challenges,
among others). Left to the first game that ends on a process, a process restarted after a crash
would sit idle with a backlog, and make no daily challenge, until somebody finished a game on it.

Daphne has no ASGI lifespan events, so the loop is started from Twisted's reactor, which Daphne
runs on asyncio: once the reactor runs, one turn of the event loop later (an asyncio task needs
the loop running). Under any other server (the test suite's in-process communicators) nothing
starts here: the first game that ends starts the loop, as before.
"""

import sys

from twisted.internet.asyncioreactor import AsyncioSelectorReactor

from game import postgame


def start_with_the_server() -> bool:
    """Have the analysis loop start as soon as Daphne's reactor runs; whether it will."""
    reactor = sys.modules.get("twisted.internet.reactor")
    if not isinstance(reactor, AsyncioSelectorReactor):
        return False
    reactor.callWhenRunning(reactor.callLater, 0, postgame.analysis_loop)
    return True
