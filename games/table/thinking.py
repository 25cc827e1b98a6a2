"""Due moves (AI seats, bot partners, the clock) made without holding up the table.

A bot's decision is work (a search bot spends tens of milliseconds on it), so it happens outside
the match's row lock and outside the one database-writer thread (games.table.db):

1. read the due move's view with a plain read, in the readers' thread pool (`moves.due_decision`);
2. decide in the bots' own pool: the cheap bots (0.1 ms) in `GAMES_BOT_THREADS` threads, the
   search bot (`SEARCH_LEVELS`, 10–40 ms of pure Python) in `GAMES_SEARCH_PROCESSES` processes, so
   it does not hold the GIL against the event loop and the writer thread (docs/performance.md);
3. store it on the writer thread with the usual version check (`moves.apply_due_decision`); if the
   table moved on meanwhile the decision is dropped and made again from the new version.

One bot thinking never delays another table's moves or a person's move: only step 3 uses the
writer thread, and at most `GAMES_TIMER_RUNNERS` due moves are written at once (1: the AI's moves
never queue in front of people's on that thread; docs/performance.md).
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import weakref
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from datetime import datetime

from django.conf import settings

from games.engine.bots import SEARCH_LEVELS, decide
from games.match.moves import DUE_ATTEMPTS, TableMovedOn, apply_due_decision, due_decision
from games.models import Match
from games.table import db

log = logging.getLogger(__name__)

# One thread pool and one process pool per process, each made on first use.
_threads: ThreadPoolExecutor | None = None
_processes: ProcessPoolExecutor | None = None
# One write slot per event loop (tests run several loops in one process).
_write_slots: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def bot_executor(level: str) -> Executor:
    """The pool a bot of ``level`` thinks in."""
    global _threads, _processes
    processes = getattr(settings, "GAMES_SEARCH_PROCESSES", 1)
    if level in SEARCH_LEVELS and processes > 0:
        if _processes is None:
            # forkserver: a child never inherits the server's event loop, sockets or threads.
            context = multiprocessing.get_context("forkserver")
            _processes = ProcessPoolExecutor(max_workers=processes, mp_context=context)
        return _processes
    if _threads is None:
        _threads = ThreadPoolExecutor(max_workers=getattr(settings, "GAMES_BOT_THREADS", 4), thread_name_prefix="bot")
    return _threads


def shutdown() -> None:
    """Drop the pools (tests change their settings)."""
    global _threads, _processes
    for pool in (_threads, _processes):
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)
    _threads = _processes = None


def _write_slot() -> asyncio.Semaphore:
    loop = asyncio.get_running_loop()
    slot = _write_slots.get(loop)
    if slot is None:
        slot = _write_slots[loop] = asyncio.Semaphore(max(1, getattr(settings, "GAMES_TIMER_RUNNERS", 1)))
    return slot


async def play_due(match_pk: int, now: datetime, *, version: int | None = None) -> Match | None:
    """Make the match's due move: read, decide in the bots' pool, store; None if nothing was due.

    With `version` (a timer's) only that version's move is made. A failure is logged and gives
    None: one broken match must not stop the others' clocks.
    """
    try:
        for _attempt in range(DUE_ATTEMPTS):
            decision = await db.read(due_decision)(match_pk, now, version=version)
            if decision is None:
                return None
            loop = asyncio.get_running_loop()
            pool = bot_executor(decision.level)
            action = await loop.run_in_executor(pool, decide, decision.level, decision.view, decision.seed)
            try:
                async with _write_slot():
                    return await db.write(apply_due_decision)(decision, action, now)
            except TableMovedOn:
                continue  # someone moved first: decide again from the new version
        return None
    except Exception:
        log.exception("due move failed on match %s", match_pk)
        return None
