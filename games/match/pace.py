"""How busy this process's tables are: the moves it stored in the last few seconds (issue 34).

A post-match analysis gives way to the tables (`games.table.analysing`): it estimates its next decision
only while this process stores fewer than `GAMES_ANALYSIS_BUSY_MOVES_PER_S` moves a second. Every move,
a person's or a bot's, passes through the move service's store, which notes it here. The count is this
process's own: behind a proxy that spreads the tables over several processes, each one's share of them
stands for the machine's.
"""

from __future__ import annotations

import threading
import time
from collections import deque

WINDOW_S = 2.0  # long enough to smooth a think pause at one table, short enough to notice a rush at once

_lock = threading.Lock()  # moves are stored in the database threads, read in the analysis thread
_stored: deque[float] = deque()


def note_move(now: float | None = None) -> None:
    at = time.monotonic() if now is None else now
    with _lock:
        _stored.append(at)
        _forget_before(at - WINDOW_S)


def moves_per_second(now: float | None = None) -> float:
    at = time.monotonic() if now is None else now
    with _lock:
        _forget_before(at - WINDOW_S)
        return len(_stored) / WINDOW_S


def _forget_before(oldest: float) -> None:
    while _stored and _stored[0] < oldest:
        _stored.popleft()


def forget() -> None:
    """Start counting afresh (tests)."""
    with _lock:
        _stored.clear()
