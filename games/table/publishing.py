"""Telling live tables what happened: one message per seat after a move, or to a match's or a player's sockets.

After a move's transaction commits, `publish_move` sends each seated person's group
(`seat_group`) the new version and that seat's engine view, plus the few facts of the match
the fragments need (`TableUpdate`). A socket renders its viewer's fragments from that message
without reading the database; it reads the database only when it sees a gap in the versions,
when the match is over (what the result pays is read from the ledger's settings), or when the
message carries no table (`publish`, the plain "version N is out" to the match's group).

Why one group per seat and not one message for the whole table: the message for a seat holds
that seat's hand. A message to the whole table would carry every hand to every socket's
process, and a mistake in one consumer would put them on the wire. With a group per seat a
socket only ever receives what its own seat may see (docs/decisions.md).

Spectators (a room's match that allows them) have one group of their own, `spectator_group`: it is
sent the engine's spectator view, which holds no hidden card at all. The number of spectators goes to
the table's group (`publish_spectators`: a count, nothing else). A partner signal goes to the two
partners' seat groups only (`publish_signal`).

Every signed-in player's sockets are also in the player's group, so the deletion of an account
reaches its sockets on every process. Called after the commit, from the event loop: by the
socket that made the move, by the timer that made an AI seat's move (`games.table.timers`), and by
the sweeper.

The channel layer (Redis) may be down: every call here gives up after `LAYER_TIMEOUT_S` and raises,
and the callers decide (a move is already stored; sockets re-read a quiet table by themselves).
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, fields

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

from games import engine
from games.match.signals import partner_of, signal_facts
from games.models import Match

log = logging.getLogger(__name__)
# Long enough for a Redis round trip under load, short enough that a dead Redis does not hold a
# socket's handler or the sweeper (an unreachable host would otherwise wait for TCP's timeout).
LAYER_TIMEOUT_S = 1.0


def group_name(match_pk: int) -> str:
    """The channel-layer group of a match's live table (every socket at it)."""
    return f"match.{match_pk}"


def seat_group(match_pk: int, seat: int) -> str:
    """The group of one seat's sockets: the only group its hidden cards are ever sent to."""
    return f"match.{match_pk}.seat.{seat}"


def spectator_group(match_pk: int) -> str:
    """The group of every spectator's socket: sent the spectator view (no hand, no face-down card)."""
    return f"match.{match_pk}.spectators"


def player_group(user_pk: int) -> str:
    """The channel-layer group of every table socket a signed-in player has open, on any process."""
    return f"player.{user_pk}"


@dataclass(frozen=True)
class TableUpdate:
    """What one seat's socket needs to render the fragments of a new version, besides what it keeps
    for the whole match (seats, deck, tournament): plain values, so it travels through any layer."""

    version: int
    view: engine.SeatView  # engine.seat_view for this seat: nothing another seat hides
    deadline_ts: float | None  # the match's deadline as a POSIX timestamp
    deadline_seat: int | None
    timed_out_seat: int | None
    timed_out_version: int | None
    over: bool
    # The viewer's partner-signals panel (`games.match.signals.signal_facts`): only ever the seat's own and its
    # partner's signal, so it travels in the seat's own group with its view.
    signals: dict | None = None
    # Who is at a room's table (games.match.presence): seats away, played by a robot, left.
    away_seats: tuple[int, ...] = ()
    robot_seats: tuple[int, ...] = ()
    left_seats: tuple[int, ...] = ()

    @classmethod
    def from_message(cls, table: dict) -> TableUpdate:
        return cls(**table)


def update_message(version: int, table: TableUpdate | None = None) -> dict:
    """The group message handled by `TableConsumer.match_update`; without `table` it only says
    "version N is out" and every socket reads the database."""
    message = {"type": "match.update", "version": version}
    if table is not None:
        # Shallow on purpose: dataclasses.asdict would deep-copy the view (measured: 5 % of the
        # server's CPU under load); the layer copies or serialises the message anyway.
        message["table"] = {f.name: getattr(table, f.name) for f in fields(table)}
    return message


def seat_updates(match: Match, state: engine.MatchState | None = None) -> dict[int, TableUpdate]:
    """Each person's seat and its update for the match as just stored (AI seats have no socket)."""
    state = state if state is not None else engine.from_json(match.state)
    deadline_ts = match.deadline.timestamp() if match.deadline is not None else None
    over = match.status != Match.Status.ACTIVE
    updates = {}
    for seat, bot in enumerate(match.seat_bots):
        if not bot:
            view = seat_view_of(match, state, seat)
            facts = signal_facts(match.signals, view, match.partner_signals)
            updates[seat] = _update(match, view, deadline_ts, over, facts)
    return updates


def spectator_update(match: Match, state: engine.MatchState | None = None) -> TableUpdate:
    """The update every spectator gets: the engine's spectator view, nothing a seat hides, no signals."""
    state = state if state is not None else engine.from_json(match.state)
    deadline_ts = match.deadline.timestamp() if match.deadline is not None else None
    return _update(match, engine.spectator_view(state), deadline_ts, match.status != Match.Status.ACTIVE, None)


def _update(match: Match, view: engine.SeatView, deadline_ts, over: bool, signals: dict | None) -> TableUpdate:
    return TableUpdate(
        version=match.version,
        view=view,
        deadline_ts=deadline_ts,
        deadline_seat=match.deadline_seat,
        timed_out_seat=match.timed_out_seat,
        timed_out_version=match.timed_out_version,
        over=over,
        away_seats=tuple(sorted(int(s) for s in match.away_since)),
        robot_seats=tuple(match.robot_seats),
        left_seats=tuple(match.left_seats),
        signals=signals,
    )


def seat_view_of(match: Match, state: engine.MatchState, seat: int) -> engine.SeatView:
    """The engine's view for a person's seat; while a robot plays it (away, or left) it offers no action."""
    view = engine.seat_view(state, seat)
    if seat in match.robot_seats:
        view = {**view, "legal_actions": []}
    return view


async def publish_move(match: Match, state: engine.MatchState | None = None) -> None:
    """Send each person's seat group its `TableUpdate` for the version just stored. Raises what the
    layer raises: the caller decides (the move is stored; see `publish`)."""
    state = state if state is not None else engine.from_json(match.state)
    for seat, table in seat_updates(match, state).items():
        await send_to_group(seat_group(match.pk, seat), update_message(match.version, table))
    if match.allow_spectators:
        await send_to_group(spectator_group(match.pk), update_message(match.version, spectator_update(match, state)))


def signal_messages(match: Match, seat: int) -> dict[int, dict]:
    """After `seat` signalled: for it and its partner (people only), their own panel's facts. Nobody else."""
    state = engine.from_json(match.state)
    partner = partner_of(engine.seat_view(state, seat))
    messages = {}
    for n in (seat, partner):
        if n is not None and not match.seat_bots[n]:
            facts = signal_facts(match.signals, engine.seat_view(state, n), match.partner_signals)
            messages[n] = {"type": "partner.signal", "version": match.version, "signals": facts}
    return messages


async def publish_signal(match: Match, seat: int) -> None:
    for n, message in signal_messages(match, seat).items():
        await send_to_group(seat_group(match.pk, n), message)


async def publish_spectators(match_pk: int, count: int) -> None:
    """Tell the whole table (players and spectators) how many people watch: a number, nothing else."""
    await send_to_group(group_name(match_pk), {"type": "spectators.count", "count": count})


def account_closed_message() -> dict:
    """The player-group message that closes the sockets of a deleted account (`TableConsumer.account_closed`)."""
    return {"type": "account.closed"}


async def publish(match_pk: int, version: int) -> None:
    """Send the plain `update_message(version)` to the whole table: every socket reads the database.

    For a change made where no engine state is at hand. Raises what the layer raises: the caller
    decides. The move is already stored when this runs, so a failed publish loses nothing: every
    socket reads an idle table again after a few seconds (`GAMES_SOCKET_WATCHDOG_S`) or on reconnect.
    """
    await send_to_group(group_name(match_pk), update_message(version))


async def send_to_group(group: str, message: dict) -> None:
    layer = get_channel_layer()
    if layer is not None:
        await asyncio.wait_for(layer.group_send(group, message), LAYER_TIMEOUT_S)


def publish_after_commit(match: Match) -> None:
    """From a request (sync code, no event loop of its own): `publish_move` once stored; a failure is
    logged, the change is committed and every socket re-reads a quiet table."""

    def send() -> None:
        try:
            async_to_sync(publish_move)(match)
        except Exception:
            log.exception("could not publish version %s of match %s", match.version, match.pk)

    transaction.on_commit(send)
