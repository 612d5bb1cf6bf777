"""The table server's own figures for Prometheus (`/metrics`, config/metrics.py).

Counters and histograms live in each process; with PROMETHEUS_MULTIPROC_DIR set (every process
of a deployment: the uvicorns and the Celery workers) prometheus-client keeps them in files
there, and whichever uvicorn is scraped adds them all up. Counting costs a lock and an add, so
it stays on the move path (bench/tables.py measures it with the rest).
"""

from __future__ import annotations

from prometheus_client import Counter, Gauge, Histogram

# Moves are fast (a few ms) and occasionally slow (a cold table, a busy pool): fine buckets
# below 100 ms, coarse above.
_MOVE_BUCKETS = (0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
# A bot's lag includes its pause (GAMEPLAY_BOT_DELAY) and its thinking: seconds, not ms.
_LAG_BUCKETS = (0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0, 10.0, 30.0, 60.0)

MOVES = Counter(
    "mediana_moves",
    "Actions applied to tables, by who made them (player, bot, timeout: the turn clock).",
    ["kind"],
)
MOVE_SECONDS = Histogram(
    "mediana_move_seconds",
    "A player's action over a socket, from its message received to applied (or refused).",
    ["outcome"],
    buckets=_MOVE_BUCKETS,
)
SOCKETS = Gauge(
    "mediana_sockets",
    "Open WebSockets, by kind (seat, spectator, lobby).",
    ["kind"],
    multiprocess_mode="livesum",
)
STATES_PUBLISHED = Counter(
    "mediana_states_published",
    "Table states sent to the channel layer's groups (one per seat and one for spectators).",
)
GAPS_FILLED = Counter(
    "mediana_gaps_filled",
    "Times a socket saw a state's seq skip ahead and re-read the missing states from the log.",
)
BOT_LAG = Histogram(
    "mediana_bot_lag_seconds",
    "A bot's move, from the moment it was due (its turn came) to applied, by level.",
    ["level"],
    buckets=_LAG_BUCKETS,
)
