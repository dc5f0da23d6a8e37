"""What operators see of a web process: Prometheus metrics, served at ``/metrics``.

Each process counts its own; Prometheus scrapes each one (``docs/operations.md``). nginx does not
pass ``/metrics`` through: the figures are for the operators' network only.
"""

from typing import Final

from prometheus_client import Counter, Gauge, Histogram

MOVES_ACKNOWLEDGED: Final = Counter(
    "tripeaks_moves_acknowledged_total", "Moves committed to their game's log and answered"
)
MOVES_RETRYABLE: Final = Counter(
    "tripeaks_moves_retryable_total",
    "Moves answered 'unavailable' (not stored: the client sends them again)",
)
MOVE_ACK_SECONDS: Final = Histogram(
    "tripeaks_move_ack_seconds",
    "From a move's arrival on its socket to its answer",
    buckets=(0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0),
)
WRITER_BATCH_MOVES: Final = Histogram(
    "tripeaks_writer_batch_moves",
    "Moves in each batch the move writer commits together",
    buckets=(1, 2, 5, 10, 20, 50, 100, 200, 500),
)
WRITER_BATCH_SECONDS: Final = Histogram(
    "tripeaks_writer_batch_seconds",
    "Each batch of the move writer from its start to its answer, as the event loop sees it: the "
    "database's time and the waits for the loop's turns",
    ["lane"],
    buckets=(0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0),
)
OPEN_SOCKETS: Final = Gauge("tripeaks_open_sockets", "Websockets open now", ["socket"])
BROADCASTS_DROPPED: Final = Counter(
    "tripeaks_broadcasts_dropped_total",
    "Broadcasts the channel layer did not take (clients catch up with sync)",
)
PART_DOWN: Final = Gauge("tripeaks_part_down", "1 while a part the site needs is down", ["part"])
PART_FAILURES: Final = Counter(
    "tripeaks_part_failures_total",
    "Operations that failed because a part the site needs was down",
    ["part"],
)
ANALYSIS_BACKLOG: Final = Gauge(
    "tripeaks_analysis_backlog", "Finished games waiting for their analysis (read when scraped)"
)
