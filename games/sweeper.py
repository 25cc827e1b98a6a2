"""The clock: in every web process, a small loop plays AI seats and timed-out humans when their deadline passes.

Deadlines live in the database, so a restart or a second process loses nothing; row locks with
skip_locked keep two processes from acting on one match at once.
"""

from __future__ import annotations

import asyncio
import logging

from channels.layers import get_channel_layer
from django.conf import settings

from . import db, tables

log = logging.getLogger(__name__)
_task: asyncio.Task | None = None


def interval() -> float:
    return getattr(settings, "SWEEPER_INTERVAL_S", 0.2)


async def run_forever() -> None:
    due = db.read(tables.due_match_ids)
    play = db.write(tables.play_due_seat_safely)
    layer = get_channel_layer()
    while True:
        try:
            match_ids = await due()
        except Exception:
            log.exception("sweeper could not read the due matches")
            match_ids = []
        # One match per trip to the database thread, so players' own moves interleave with the AI's
        # instead of waiting behind a whole batch; publishing happens here, off that thread.
        for pk in match_ids:
            version = await play(pk)
            if version is not None and layer is not None:
                try:
                    await layer.group_send(tables.group_name(pk), tables.update_message(version))
                except Exception:  # the move is stored; sockets catch up with the next version or on reconnect
                    log.exception("could not publish version %s of match %s", version, pk)
        # Busy: go again at once so chains of AI moves are not slowed down by the poll interval.
        if not match_ids:
            await asyncio.sleep(interval())


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
