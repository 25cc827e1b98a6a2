"""The sweeper: in every web process, a slow loop makes the moves whose deadline passed long ago.

The moves on time are the timers' (`games.table.timers`): the process that stored a move wakes up at
the next deadline. The sweeper is the safety net for a timer that never fired (its process died,
or the match was started by a page and nobody has connected yet): deadlines live in the
database, so a restart or a second process loses nothing. It leaves alone a match overdue by
less than `SWEEPER_GRACE_S`, whose timer is about to fire; row locks with skip_locked and the
version check keep two processes from acting on one match at once.

The same per-process machinery keeps a room's presence (`games.match.presence`): `presence_forever`
refreshes this process's sockets' rows every `GAMES_PRESENCE_HEARTBEAT_S` and, every
`GAMES_PRESENCE_CHECK_S`, makes the presence changes due in any room's match (away, a robot, left),
publishes them and times the new deadline.
"""

from __future__ import annotations

import asyncio
import logging
import time
from datetime import timedelta

from django.conf import settings
from django.utils import timezone

from games.match import presence
from games.selectors import due_match_ids
from games.table import db, thinking, timers
from games.table.publishing import publish_move

log = logging.getLogger(__name__)
_task: asyncio.Task | None = None
_presence_task: asyncio.Task | None = None


def interval() -> float:
    return getattr(settings, "SWEEPER_INTERVAL_S", 1.0)


def grace() -> timedelta:
    """How overdue a match must be before the sweeper takes it from the timers (none without timers)."""
    return timedelta(seconds=getattr(settings, "SWEEPER_GRACE_S", 0.5) if timers.enabled() else 0)


async def run_forever() -> None:
    while True:
        # Busy: go again at once, a backlog (after a restart) is cleared without waiting.
        if not await sweep_once():
            await asyncio.sleep(interval())


async def sweep_once(now=None) -> int:
    """Play every due seat once and publish each new version; returns how many due matches it found."""
    now = (now or timezone.now()) - grace()
    try:
        match_ids = await db.read(due_match_ids)(now)
    except Exception:
        log.exception("sweeper could not read the due matches")
        return 0
    # Every due match at once: one slow bot never holds up the others. Each move is one trip to
    # the database thread (games.table.thinking writes them one at a time), so players' own moves
    # interleave with the AI's instead of waiting behind a whole batch; publishing happens here,
    # off that thread.
    await asyncio.gather(*(_play_one(pk, now) for pk in match_ids))
    return len(match_ids)


async def _play_one(match_pk: int, now) -> None:
    match = await thinking.play_due(match_pk, now)
    if match is None:
        return
    try:
        await publish_move(match)
    except Exception:  # the move is stored; sockets catch up with the next version or on reconnect
        log.exception("could not publish version %s of match %s", match.version, match_pk)
    # From here on this process's timer makes the match's moves on time.
    timers.schedule_after(match)


async def presence_forever() -> None:
    beat_every = getattr(settings, "GAMES_PRESENCE_HEARTBEAT_S", 8.0)
    last_beat = last_cleanup = time.monotonic()
    while True:
        await asyncio.sleep(getattr(settings, "GAMES_PRESENCE_CHECK_S", 2.0))
        beat = time.monotonic() - last_beat >= beat_every
        if beat:
            last_beat = time.monotonic()
        await presence_once(heartbeat=beat)
        if time.monotonic() - last_cleanup >= 60:
            last_cleanup = time.monotonic()
            try:
                await db.write(presence.forget_finished)()
            except Exception:
                log.exception("could not forget old table sockets")


async def presence_once(now=None, *, heartbeat: bool = True) -> int:
    """Refresh this process's sockets (if `heartbeat`), then make and publish the presence changes due;
    returns how many matches changed."""
    if heartbeat:
        try:
            await db.write(presence.heartbeat)(dict(presence.live_sockets))
        except Exception:  # the rows go stale; the next beat refreshes them
            log.exception("could not refresh this process's table sockets")
    try:
        match_ids = await db.read(presence.check_candidates)(now)
    except Exception:
        log.exception("could not read the rooms' matches for presence")
        return 0
    changed = 0
    for pk in match_ids:
        if await timers.settle_presence(pk, now) is not None:
            changed += 1
    return changed


def ensure_started() -> None:
    """Start the loops once per process, on the running event loop (daphne has no startup hook)."""
    global _task, _presence_task
    if not getattr(settings, "SWEEPER_ENABLED", True):
        return
    loop = asyncio.get_running_loop()
    if _task is None or _task.done() or _task.get_loop() is not loop:
        _task = loop.create_task(run_forever())
    if _presence_task is None or _presence_task.done() or _presence_task.get_loop() is not loop:
        _presence_task = loop.create_task(presence_forever())


class StartSweeper:
    """ASGI wrapper: the first request or socket of a process starts that process's sweeper."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        ensure_started()
        return await self.app(scope, receive, send)
