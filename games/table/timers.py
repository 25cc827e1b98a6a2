"""The clock on the event loop: the process that stored a move wakes up at the next deadline and makes the due move.

The deadline stored on the match row stays the truth (`games.match.clock`); a timer is only this
process's reminder of it. When it fires it makes the due move *at the version it was set for*
(`thinking.play_due(..., version=v)`: decided off the database thread, stored under the row lock
with the version check): a timer in another process, the sweeper, or the person's own move may
have moved the match on, and then the timer does nothing. So two processes never act twice on
one match. A process that dies takes its timers with it; the sweeper (`games.table.sweeper`, a slow
poll) picks those matches up.

One timer per match per process: a newer version replaces the older timer. Timers that fire
together each make their move in their own task (`games.table.thinking`): the bots think at once, off
the database thread, and the moves are written one at a time, so the single database thread
gets at most one AI move at a time and people's moves interleave with the AI's instead of
waiting behind a burst of them (measured: docs/performance.md).

Presence has one timer of its own (`check_presence_after`): a table socket of a room's match that
closed cleanly has its process look at that match again as soon as the reload grace is over, so the
others see a closed page away (and its robot) then, not at the next regular check. It is a reminder
too: the regular check (`games.table.sweeper.presence_forever`) in every process remains the truth.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime

from django.conf import settings
from django.utils import timezone

from games.match import presence
from games.models import Match
from games.table import db, thinking
from games.table.publishing import publish_move

log = logging.getLogger(__name__)

# match pk -> (version, the loop's timer)
_timers: dict[int, tuple[int, asyncio.TimerHandle]] = {}
# The tasks of fired timers (a reference keeps a running task from being collected).
_playing: set[asyncio.Task] = set()


def enabled() -> bool:
    return getattr(settings, "GAMES_TIMERS_ENABLED", True)


def schedule(match_pk: int, version: int, deadline: datetime | None) -> None:
    """Wake up at `deadline` to make the due move of `version` (None: nobody is waited for; forget the match)."""
    if not enabled():
        return
    current = _timers.get(match_pk)
    if current is not None:
        if current[0] > version:
            return  # a newer version is already timed
        if current[0] == version and not current[1].cancelled():
            return  # already timed (a second socket of the same match)
        current[1].cancel()
        del _timers[match_pk]
    if deadline is None:
        return
    loop = asyncio.get_running_loop()
    delay = max(0.0, (deadline - timezone.now()).total_seconds())
    _timers[match_pk] = (version, loop.call_later(delay, _fire, match_pk, version, deadline))


def check_presence_after(match_pk: int, delay: float) -> None:
    """Make the presence changes due in a room's match in `delay` seconds (a socket of it closed cleanly)."""
    if not enabled():
        return
    asyncio.get_running_loop().call_later(delay, _start, settle_presence, match_pk)


def _start(play, *args) -> None:
    task = asyncio.get_running_loop().create_task(play(*args))
    _playing.add(task)
    task.add_done_callback(_playing.discard)


async def settle_presence(match_pk: int, now: datetime | None = None) -> Match | None:
    """Make the presence changes due in one match (`presence.settle`), publish them and time the new deadline."""
    match = await db.write(presence.settle_safely)(match_pk, now)
    if match is None:
        return None
    try:
        await publish_move(match)
    except Exception:  # stored; sockets re-read a quiet table
        log.exception("could not publish version %s of match %s", match.version, match_pk)
    schedule_after(match)
    return match


def schedule_after(match: Match) -> None:
    """Time the match's next deadline, as just stored (an ended match has none)."""
    deadline = match.deadline if match.status == Match.Status.ACTIVE else None
    schedule(match.pk, match.version, deadline)


def pending() -> dict[int, int]:
    """match pk -> the version its timer is set for (for tests and the bench)."""
    return {pk: version for pk, (version, handle) in _timers.items() if not handle.cancelled()}


def _fire(match_pk: int, version: int, deadline: datetime) -> None:
    if _timers.get(match_pk, (None,))[0] == version:
        del _timers[match_pk]
    # Its own task: a bot thinking here never delays another match's timer (games.table.thinking
    # writes the moves one at a time).
    _start(_play_fired, match_pk, version, deadline)


async def _play_fired(match_pk: int, version: int, deadline: datetime) -> None:
    try:
        await play_due(match_pk, version, deadline)
    except Exception:  # one broken match must not stop the others' clocks
        log.exception("timer failed on match %s", match_pk)


async def play_due(match_pk: int, version: int, deadline: datetime) -> Match | None:
    """Make the due move of `version`, publish it and time the next one; None if someone else moved first."""
    # The loop's clock and the wall clock may differ by a hair: never ask before the stored deadline.
    now = max(timezone.now(), deadline)
    match = await thinking.play_due(match_pk, now, version=version)
    if match is None:
        return None
    try:
        await publish_move(match)
    except Exception:  # the move is stored; sockets catch up with the next version or their idle check
        log.exception("could not publish version %s of match %s", match.version, match_pk)
    schedule_after(match)
    return match
