"""Who is at a room's table: away, a robot for a dropped person, taking the seat back, leaving.

A room's match waits for people, so it must know who is still there (issue 11 items 7-8, seed 002).
Nothing here lives in one process's memory only: every live table socket of a room's match has a
`SocketPresence` row whose `last_seen` its process refreshes (`heartbeat`, one statement per process
every `GAMES_PRESENCE_HEARTBEAT_S`). A seat is **present** while one of its open rows was seen within
`GAMES_PRESENCE_STALE_S`, or one of its rows was closed cleanly within `GAMES_PRESENCE_RELOAD_S`.

Two ways to go, told apart (issue 28 item 8):

- a socket **closed** cleanly (the page closed, or is reloading: the consumer's disconnect runs,
  `depart`) keeps the seat present for RELOAD_S, so a reload is not "away"; after that the seat is
  away and a robot takes it after `GAMES_ROBOT_AFTER_CLOSE_S` (0: at once). The socket's process
  looks again right when the grace ends (`games.table.timers.check_presence_after`), so the others see it
  within a moment of RELOAD_S, and every process's check (every `GAMES_PRESENCE_CHECK_S`) within
  RELOAD_S + CHECK_S anyway;
- a socket gone **silent** (its process died, a network stalled) closes nothing: its row goes stale by
  itself, so its person counts as away within STALE_S + CHECK_S wherever the check runs, and the
  robot comes `GAMES_ROBOT_AFTER_AWAY_S` later (such a network may well come back).

What follows from presence is stored on the match row, under its lock, and each change is a new
version (so the timers set for the old one stand down and every socket orders it among the moves):

- no fresh socket → `away_since[seat]` (the table shows "away");
- away for `GAMES_ROBOT_AFTER_AWAY_S` (`GAMES_ROBOT_AFTER_CLOSE_S` when its last socket was closed
  cleanly) → the seat joins `robot_seats`: the clock treats it as an AI seat
  (`clock.machine_seats`), so a robot of `GAMES_ROBOT_LEVEL` plays it at the AI's speed;
- away for `GAMES_LEAVE_AFTER_AWAY_S`, or "Leave match" → **left**: `Seat.left_at` is set, the
  seat is in `left_seats` and a robot plays it to the end (the match goes on for the others);
- a socket of an away (not left) seat opens → the person takes the seat back (`arrive`); the
  deadline is set again if the seat is acting, so their next action is theirs.

Every process checks (`check_candidates` reads, `settle` writes one match at a time with
`skip_locked`), so the check survives any process's death; the deadline in the row stays the truth
and the sweeper remains the safety net for a timer that never fires.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Max, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games import engine
from games.match.clock import machine_seats, schedule_next_turn
from games.match.locked import locked_match
from games.models import Match, MatchEvent, Seat, SocketPresence

log = logging.getLogger(__name__)

PRESENCE_FIELDS = [
    "away_since",
    "robot_seats",
    "left_seats",
    "version",
    "deadline",
    "deadline_seat",
    "turn_started_at",
    "missed_turns",
    "updated_at",
]

# This process's open table sockets of room matches: key -> (match pk, seat). Only what this
# process refreshes; a crash loses it and the rows go stale, which is the point.
live_sockets: dict[str, tuple[int, int]] = {}


class LeaveRefused(Exception):
    """A leave that changes nothing; `code` is stable for tests, `message` is for people."""

    def __init__(self, code: str, message):
        super().__init__(str(message))
        self.code = code
        self.message = message


def tracked(match: Match) -> bool:
    """Presence matters only where a match waits for people who chose to play each other: rooms."""
    return match.kind == Match.Kind.ROOM


def _s(name: str, default: float) -> float:
    return float(getattr(settings, name, default))


def stale_after() -> timedelta:
    return timedelta(seconds=_s("GAMES_PRESENCE_STALE_S", 25))


def reload_grace() -> timedelta:
    return timedelta(seconds=_s("GAMES_PRESENCE_RELOAD_S", 3))


@dataclass
class Seats:
    """Who is at one match's table now, as the sockets' rows say."""

    present: set[int] = field(default_factory=set)  # a fresh socket
    closed: set[int] = field(default_factory=set)  # not present, and the last socket was closed cleanly


# --- the sockets' rows ------------------------------------------------------------------------


def arrive(match_pk: int, seat: int, key: str, now: datetime | None = None) -> Match | None:
    """A socket of `seat` opened: record it, and if the person was away (not left) give the seat back.

    Returns the match to publish when the seat changed hands, else None.
    """
    now = now or timezone.now()
    SocketPresence.objects.update_or_create(
        key=key, defaults={"match_id": match_pk, "seat": seat, "last_seen": now, "closed_at": None}
    )
    live_sockets[key] = (match_pk, seat)
    current = Match.objects.filter(pk=match_pk).values("away_since", "robot_seats", "left_seats", "status").first()
    if current is None or not _comes_back(current, seat):
        return None
    with transaction.atomic():
        match = Match.objects.select_for_update().filter(pk=match_pk, status=Match.Status.ACTIVE).first()
        if match is None or not _comes_back(_presence_of(match), seat):
            return None
        if not _apply(match, now, Seats(present={seat}), only={seat}):
            return None
    return match


def _presence_of(match: Match) -> dict:
    keys = ("pk", "seat_bots", "away_since", "robot_seats", "left_seats", "created_at", "status")
    return {key: getattr(match, key) for key in keys}


def _comes_back(match: Mapping[str, Any], seat: int) -> bool:
    return (
        match["status"] == Match.Status.ACTIVE
        and seat not in match["left_seats"]
        and (str(seat) in match["away_since"] or seat in match["robot_seats"])
    )


def depart(key: str, now: datetime | None = None) -> None:
    """A socket closed cleanly (the page closed or is reloading): its row says when.

    It keeps its seat present for `GAMES_PRESENCE_RELOAD_S` (a reload is not away); then, unless a
    new socket of the seat opened, the seat is away as a closed page (`seats_at`). A heartbeat that
    still had the key refreshes only `last_seen`, which no longer counts for a closed row.
    """
    now = now or timezone.now()
    live_sockets.pop(key, None)
    SocketPresence.objects.filter(key=key).update(closed_at=now)


def heartbeat(sockets: dict[str, tuple[int, int]], now: datetime | None = None) -> int:
    """Refresh this process's sockets' rows in one statement (recreating any a cleanup removed)."""
    if not sockets:
        return 0
    now = now or timezone.now()
    rows = [SocketPresence(key=k, match_id=m, seat=s, last_seen=now) for k, (m, s) in sockets.items()]
    SocketPresence.objects.bulk_create(rows, update_conflicts=True, unique_fields=["key"], update_fields=["last_seen"])
    return len(rows)


def seats_at(match_pks, now: datetime) -> dict[int, Seats]:
    """match pk -> its seats with a fresh socket, and those whose page was closed (one grouped read).

    A seat's page counts as closed when its latest news is a clean close: a cleanly closed row no
    older than any open row's last heartbeat. An open row that went silent after that close (the
    person opened the table again, then their network died) makes it a silent seat instead.
    """
    rows = (
        SocketPresence.objects.filter(match_id__in=match_pks)
        .values("match_id", "seat")
        .annotate(last_open=Max("last_seen", filter=Q(closed_at__isnull=True)), last_close=Max("closed_at"))
    )
    seats: dict[int, Seats] = {}
    for row in rows:
        last_open, last_close = row["last_open"], row["last_close"]
        at = seats.setdefault(row["match_id"], Seats())
        if (last_open is not None and last_open >= now - stale_after()) or (
            last_close is not None and last_close >= now - reload_grace()
        ):
            at.present.add(row["seat"])
        elif last_close is not None and (last_open is None or last_close >= last_open):
            at.closed.add(row["seat"])
    return seats


# --- the check: who went away, whom a robot plays, who left -------------------------------------


def check_candidates(now: datetime | None = None) -> list[int]:
    """The active room matches whose presence needs a change now (a read; `settle` makes each change)."""
    now = now or timezone.now()
    rows = list(
        Match.objects.filter(kind=Match.Kind.ROOM, status=Match.Status.ACTIVE).values(
            "pk", "seat_bots", "away_since", "robot_seats", "left_seats", "created_at"
        )
    )
    seats = seats_at([r["pk"] for r in rows], now)
    return [r["pk"] for r in rows if _plan(r, seats.get(r["pk"], Seats()), now) is not None]


def settle(match_pk: int, now: datetime | None = None) -> Match | None:
    """Make the presence changes due in one match, under its row lock; the match to publish, or None."""
    now = now or timezone.now()
    with transaction.atomic():
        match = (
            Match.objects.select_for_update(skip_locked=True)
            .filter(pk=match_pk, kind=Match.Kind.ROOM, status=Match.Status.ACTIVE)
            .first()
        )
        if match is None:
            return None
        if not _apply(match, now, seats_at([match.pk], now).get(match.pk, Seats())):
            return None
    return match


def settle_safely(match_pk: int, now: datetime | None = None) -> Match | None:
    """`settle`, but a failure is logged and skipped: one broken match must not stop the others' check."""
    try:
        return settle(match_pk, now)
    except Exception:
        log.exception("presence check failed on match %s", match_pk)
        return None


def forget_finished(now: datetime | None = None) -> int:
    """Delete the rows of sockets long gone, and of matches no longer active (nothing reads them)."""
    now = now or timezone.now()
    gone = SocketPresence.objects.filter(last_seen__lt=now - 2 * stale_after()).delete()[0]
    return gone + SocketPresence.objects.exclude(match__status=Match.Status.ACTIVE).delete()[0]


def _plan(match: Mapping[str, Any], seats: Seats, now: datetime) -> tuple[dict, list[int], list[int]] | None:
    """The new (away_since, robot_seats, newly left seats) of a match, or None if nothing changes. Pure."""
    away = dict(match["away_since"])
    robots = set(match["robot_seats"])
    left = set(match["left_seats"])
    newly_left = []
    # The browsers of a match just started are on their way from the room page: nobody is away yet,
    # except a person whose page came and was closed (they are not on their way any more).
    arriving = now - match["created_at"] < stale_after()
    leave_after = _s("GAMES_LEAVE_AFTER_AWAY_S", 180)
    for seat, bot in enumerate(match["seat_bots"]):
        if bot or seat in left:
            continue
        if seat in seats.present:
            away.pop(str(seat), None)
            robots.discard(seat)
            continue
        if arriving and seat not in seats.closed:
            continue
        since = away.setdefault(str(seat), now.timestamp())
        gone_for = now.timestamp() - since
        # A closed page is not coming back by itself (its reload grace is already over); a silent
        # socket's network may, so its seat waits longer for the robot.
        if seat in seats.closed:
            robot_after = _s("GAMES_ROBOT_AFTER_CLOSE_S", 0)
        else:
            robot_after = _s("GAMES_ROBOT_AFTER_AWAY_S", 15)
        if gone_for >= leave_after:
            newly_left.append(seat)
        elif gone_for >= robot_after:
            robots.add(seat)
    if away == match["away_since"] and robots == set(match["robot_seats"]) and not newly_left:
        return None
    return away, sorted(robots), newly_left


def _apply(match: Match, now: datetime, seats: Seats, *, only: set[int] | None = None) -> bool:
    """Apply `_plan` to the locked match (only to the `only` seats if given) and store it as a new version."""
    plan = _plan(_presence_of(match), seats, now)
    if plan is None:
        return False
    away, robots, newly_left = plan
    if only is not None:
        away = {k: v for k, v in match.away_since.items() if int(k) not in only} | {
            k: v for k, v in away.items() if int(k) in only
        }
        robots = sorted({s for s in match.robot_seats if s not in only} | {s for s in robots if s in only})
        newly_left = [s for s in newly_left if s in only]
        if away == match.away_since and robots == match.robot_seats and not newly_left:
            return False
    state = engine.from_json(match.state)
    before = _acting_machines(match, state)
    taken_over = set(robots) - set(match.robot_seats)
    match.away_since, match.robot_seats = away, robots
    for seat in newly_left:
        _mark_left(match, seat, now, reason="away")
    for seat in sorted(taken_over - set(newly_left)):
        _event(match, seat, "robot_playing", reason="away")
    _store(match, state, now, before)
    return True


def _acting_machines(match: Match, state: engine.MatchState) -> set[int]:
    return machine_seats(match) & set(engine.seats_to_act(state)) if not engine.is_over(state) else set()


def _store(match: Match, state: engine.MatchState, now: datetime, before: set[int]) -> None:
    """Save the presence change as a new version; the deadline moves only if who plays the acting seats changed."""
    if _acting_machines(match, state) != before:
        # A robot now plays the acting seat (AI speed), or its person is back (a fresh clock).
        schedule_next_turn(match, state, now)
    match.version += 1
    match.save(update_fields=PRESENCE_FIELDS)


def _event(match: Match, seat: int, kind: str, **data) -> None:
    # Staff see it in the match's events; the replay and the statistics skip types they do not know.
    MatchEvent.objects.create(
        match=match, version=match.version + 1, seat=seat, actor="system", data={"type": kind, "seat": seat, **data}
    )


def _mark_left(match: Match, seat: int, now: datetime, *, reason: str) -> None:
    """The person of `seat` has left (the caller holds the row lock and saves): a robot plays it to the end."""
    match.away_since = {k: v for k, v in match.away_since.items() if k != str(seat)}
    match.robot_seats = sorted({*match.robot_seats, seat})
    match.left_seats = sorted({*match.left_seats, seat})
    Seat.objects.filter(match=match, number=seat, left_at__isnull=True).update(left_at=now)
    _event(match, seat, "seat_left", reason=reason)


def mark_left(match: Match, seat: int, now: datetime, *, reason: str) -> None:
    """For the move service: the clock ran out `GAMES_ABANDON_AFTER_MISSED_TURNS` times in a row for a
    person in a room's match, which counts as leaving (the caller saves, as part of its move)."""
    _mark_left(match, seat, now, reason=reason)


def leave_match(public_id: str, seat: int, now: datetime | None = None) -> Match:
    """The person of `seat` leaves (the "Leave match" button): LeaveRefused if that changes nothing."""
    now = now or timezone.now()
    with transaction.atomic():
        match = locked_match(public_id)
        if match is None:
            raise LeaveRefused("not_found", _("This match does not exist."))
        if not tracked(match):
            raise LeaveRefused("not_a_room", _("Only a room's match can be left; this one simply stops if you go."))
        if match.status != Match.Status.ACTIVE:
            raise LeaveRefused("match_over", _("This match is over: there is nothing to leave."))
        if seat in match.left_seats:
            raise LeaveRefused("already_left", _("You already left this match: a robot is playing your seat."))
        state = engine.from_json(match.state)
        before = _acting_machines(match, state)
        _mark_left(match, seat, now, reason="left")
        _store(match, state, now, before)
    return match
