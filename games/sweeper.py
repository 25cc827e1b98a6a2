"""The sweeper: in every web process, a small loop makes the moves whose deadline passed (AI seats, timed-out humans).

Deadlines live in the database, so a restart or a second process loses nothing; row locks with
skip_locked keep two processes from acting on one match at once.
"""

from __future__ import annotations

import asyncio
import logging

from django.conf import settings

from . import db
from .moves import play_due_seat_safely
from .publishing import publish
from .selectors import due_match_ids

log = logging.getLogger(__name__)
_task: asyncio.Task | None = None


def interval() -> float:
    return getattr(settings, "SWEEPER_INTERVAL_S", 0.2)


async def run_forever() -> None:
    while True:
        # Busy: go again at once so chains of AI moves are not slowed down by the poll interval.
        if not await sweep_once():
            await asyncio.sleep(interval())


async def sweep_once(now=None) -> int:
    """Play every due seat once and publish each new version; returns how many due matches it found."""
    try:
        match_ids = await db.read(due_match_ids)(now)
    except Exception:
        log.exception("sweeper could not read the due matches")
        return 0
    # One match per trip to the database thread, so players' own moves interleave with the AI's
    # instead of waiting behind a whole batch; publishing happens here, off that thread.
    for pk in match_ids:
        version = await db.write(play_due_seat_safely)(pk, now)
        if version is not None:
            try:
                await publish(pk, version)
            except Exception:  # the move is stored; sockets catch up with the next version or on reconnect
                log.exception("could not publish version %s of match %s", version, pk)
    return len(match_ids)


def ensure_started() -> None:
    """Start the loop once per process, on the running event loop (daphne has no startup hook)."""
    global _task
    if not getattr(settings, "SWEEPER_ENABLED", True):
        return
    loop = asyncio.get_running_loop()
    if _task is None or _task.done() or _task.get_loop() is not loop:
        _task = loop.create_task(run_forever())


class StartSweeper:
    """ASGI wrapper: the first request or socket of a process starts that process's sweeper."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        ensure_started()
        return await self.app(scope, receive, send)
