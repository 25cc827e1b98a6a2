"""The live table's socket: reads each message as an action, hands it to `games.match.moves`, pushes each
viewer's fragments.

Thin on purpose: the rules are the engine's, the transaction is the move service's; this only
parses (`games.table.socket_actions`), identifies the seat, and renders what this one viewer may see.

A move reaches the other sockets as a message to each seat's group carrying that seat's view
(`games.table.publishing.publish_move`): the socket renders from it, on the event loop, with no
database query, and only the fragments whose context changed. It reads the database when it
connects, when it sees a gap in the versions, when the match is over, and when its table has
been quiet for a while (a lost message).

Whatever a browser sends, the socket answers with a frame and stays open, except a socket that
floods (`games.table.socket_limits`), which is closed with `CLOSE_FLOODING`. The channel layer (Redis)
may be down: the socket still opens, moves are still saved, and it joins its groups once the
layer is back (docs/decisions.md, "Holding up under abuse and faults").

A signed-in person with no seat at a match that allows spectators gets a spectator's socket: it joins
the spectators' group (the engine's spectator view, no hidden card), is counted while open (the
players see the number), and every action or signal it sends is refused. Partner signals are not
moves: `games.match.signals` stores them, and they go to the two partners' seat groups only.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from typing import cast

from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.layers import get_channel_layer
from channels.utils import await_many_dispatch
from django.conf import settings
from django.db import DatabaseError
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext as _

from games import selectors
from games.match import moves, presence, signals, spectators
from games.models import Match
from games.seating import seat_for
from games.table import analysing, analysis_page, db, rendering, timers
from games.table.publishing import (
    LAYER_TIMEOUT_S,
    TableUpdate,
    group_name,
    player_group,
    publish_move,
    publish_signal,
    publish_spectators,
    seat_group,
    spectator_group,
)
from games.table.socket_actions import parse_socket_action
from games.table.socket_limits import FloodPenalties, FrameBucket
from shop.selectors import equipped_deck

log = logging.getLogger(__name__)
# Close codes (4000-4999 are the application's): what a closed table socket tells the browser.
CLOSE_NOT_YOURS = 4403  # not a seat of this match (or not signed in as its player any more)
CLOSE_ACCOUNT_DELETED = 4410  # the account was deleted, in this tab or another
CLOSE_FLOODING = 4429  # kept sending frames far beyond the rate limit (or reconnected too soon after)
# After a clean close, the presence check waits this much past the reload grace (the close's time is
# taken on the database thread a moment after the close: checking exactly at the grace could miss it).
PRESENCE_CHECK_MARGIN_S = 0.2
# Browser sessions (or addresses) closed for flooding on this process, kept out for a while.
flood_penalties = FloodPenalties()
# The fragments this process rendered for the latest version of each match (what partners see alike).
shared_renders = rendering.SharedRenders()


class TableConsumer(db.DirectDispatch, AsyncWebsocketConsumer):
    match_pk: int | None = None
    seat: int | None = None
    groups_to_join: tuple[str, ...] = ()
    # Who sits where, the viewer's deck, the tournament, a room's or not: fixed for the match, read with
    # the first snapshot (rendering.TableFacts).
    table: rendering.TableFacts | None = None
    watch_id: str | None = None  # a spectator's socket: its row in `Spectator` (None at a seat)
    allow_spectators = False  # fixed for the match: whether there is a spectator count to show
    contexts: dict | None = None  # the fragments' contexts of the last push (render only what changed)
    watchdog: asyncio.Task | None = None
    finished = False
    closing = False
    joined: tuple[str, ...] = ()
    presence_key: str | None = None  # this socket's SocketPresence row (a room's match only)

    async def __call__(self, scope, receive, send):
        """Channels' own `AsyncConsumer.__call__`, except that a channel layer that is down does not
        kill the socket: Channels subscribes the socket's channel before anything else and would
        close it with 1011. The channel is opened later, by the idle check, once the layer is back."""
        self.scope = scope
        self.channel_layer = get_channel_layer(self.channel_layer_alias)
        self.channel_name = None
        self.channel_opened = asyncio.Event()
        self.frames = FrameBucket()
        self.base_send = send
        await self.open_channel()
        try:
            if self.channel_layer is not None:
                await await_many_dispatch([receive, self.receive_from_layer], self.dispatch)
            else:
                await await_many_dispatch([receive], self.dispatch)
        except StopConsumer:
            pass

    async def open_channel(self) -> bool:
        if self.channel_layer is None or self.channel_name is not None:
            return True
        try:
            self.channel_name = await asyncio.wait_for(self.channel_layer.new_channel(), LAYER_TIMEOUT_S)
        except Exception as exc:
            log.warning("channel layer unavailable, socket for %s without live updates: %r", self.scope["path"], exc)
            return False
        self.channel_opened.set()
        return True

    async def receive_from_layer(self):
        await self.channel_opened.wait()
        return await self.channel_layer.receive(self.channel_name)

    async def join_groups(self) -> None:
        """Join the match's group and the player's, each once; a layer that is down is tried again by the idle check."""
        if not await self.open_channel():
            return
        for group in self.groups_to_join:
            if group in self.joined:
                continue
            try:
                await asyncio.wait_for(self.channel_layer.group_add(group, self.channel_name), LAYER_TIMEOUT_S)
            except Exception as exc:
                log.warning("could not join %s (channel layer down?): %r", group, exc)
                return
            self.joined = (*self.joined, group)

    async def leave_groups(self) -> None:
        for group in self.joined:
            try:
                await asyncio.wait_for(self.channel_layer.group_discard(group, self.channel_name), LAYER_TIMEOUT_S)
            except Exception as exc:
                log.warning("could not leave %s (channel layer down?): %r", group, exc)
        self.joined = ()

    async def connect(self):
        # No LocaleMiddleware on sockets: every frame is rendered in the language the page used.
        self.language = language_of(self.scope)
        self.public_id = self.scope["url_route"]["kwargs"]["public_id"]
        self.sent: dict[str, str] = {}
        self.last_version = 0
        self.last_push = time.monotonic()
        self.push_lock = asyncio.Lock()
        if flood_penalties.punished(self.flood_key()):
            # Checked before the database, and the handshake refused (HTTP 403) rather than a socket
            # opened and closed: reconnecting must not buy a flooder a fresh bucket, and costs little.
            self.closing = True
            await self.close(code=CLOSE_FLOODING)
            return
        found = await db.read(self._find_seat)()
        await self.accept()
        if found is None:
            with translation.override(self.language):
                await self.send(rendering.render_message(_("This is not your match."), "not_your_match"))
            await self.close(code=CLOSE_NOT_YOURS)
            return
        self.match_pk, self.seat, user_pk, self.allow_spectators, tracked = found
        # The whole table's group ("go and look", the spectator count), this seat's own group (the
        # moves, with this seat's view: docs/decisions.md) or the spectators' (the spectator view),
        # and the player's (account deletion).
        own = seat_group(self.match_pk, self.seat) if self.seat is not None else spectator_group(self.match_pk)
        self.groups_to_join = (group_name(self.match_pk), own) + ((player_group(user_pk),) if user_pk else ())
        await self.join_groups()
        if tracked:
            await self.arrive()
        if self.seat is None:
            self.watch_id = secrets.token_hex(16)
            await self.count_spectators(spectators.join, user_pk)
        # ext-ws does not replay pushes after a reconnect: always start with a full snapshot.
        await self.push_snapshot(full=True)
        self.watchdog = asyncio.create_task(self.watch_idle_table())

    async def watch_idle_table(self) -> None:
        """Safety net for a lost publish (Redis pub/sub delivers at most once): a table quiet for a
        while is read again, and anything newer is pushed."""
        interval = settings.GAMES_SOCKET_WATCHDOG_S
        while not self.finished:
            await asyncio.sleep(interval)
            if len(self.joined) < len(self.groups_to_join):
                await self.join_groups()  # the channel layer was down: try again
            if self.watch_id is not None:
                try:
                    await db.write(spectators.touch)(self.watch_id)  # still watching: keep counting me
                except Exception:
                    log.exception("could not refresh spectator %s", self.watch_id)
            if time.monotonic() - self.last_push >= interval:
                try:
                    await self.push_snapshot()
                except Exception:  # e.g. the database is down for a moment: try again next time
                    log.exception("idle check failed for match %s", self.public_id)

    def _find_seat(self):
        """(match pk, seat number or None: a spectator, account pk, spectators allowed, presence tracked), or None."""
        match = Match.objects.filter(public_id=self.public_id).first()
        if match is None:
            return None
        user = self.scope.get("user")
        seat = seat_for(match, user, self.scope.get("session"))
        if seat is None:
            # A spectator holds no seat: presence (games.match.presence) never tracks them.
            return (match.pk, None, user.pk, True, False) if spectators.may_watch(match, user) else None
        return match.pk, seat.number, seat.user_id, match.allow_spectators, presence.tracked(match)

    async def count_spectators(self, change, *args) -> None:
        """Add or remove this spectator's row and tell the table the new count (a failure costs only the count)."""
        try:
            count = await db.write(change)(self.match_pk, *args, self.watch_id)
            await publish_spectators(cast(int, self.match_pk), count)  # set on connect
        except Exception as exc:
            log.warning("spectator count of match %s not updated: %r", self.public_id, exc)

    async def arrive(self) -> None:
        """A room's match: this socket counts its seat as present (games.match.presence); a person back from
        away takes their seat back from the robot, and the others see it."""
        self.presence_key = secrets.token_hex(16)
        try:
            match = await db.write(presence.arrive)(self.match_pk, self.seat, self.presence_key)
        except DatabaseError:
            # The next heartbeat writes the row; until then the check may count this seat away.
            log.exception("could not record the socket of seat %s in match %s", self.seat, self.public_id)
            # A room's seat socket (set on connect).
            presence.live_sockets[self.presence_key] = (cast(int, self.match_pk), cast(int, self.seat))
            return
        if match is not None:
            try:
                await publish_move(match)
            except Exception as exc:  # stored; the other sockets re-read a quiet table
                log.warning("could not publish version %s of match %s: %r", match.version, self.public_id, exc)
            timers.schedule_after(match)

    async def disconnect(self, code):
        if self.watchdog is not None:
            self.watchdog.cancel()
        if self.presence_key is not None:
            presence.live_sockets.pop(self.presence_key, None)
            try:
                await db.write(presence.depart)(self.presence_key)
            except Exception:  # the row goes stale by itself: the seat counts as away a little later
                log.exception("could not record the closing of a socket in match %s", self.public_id)
            else:
                # The page closed, or is reloading: look again the moment a reload would have
                # opened its new socket, so the others see a closed page away then.
                grace = presence.reload_grace().total_seconds()
                timers.check_presence_after(self.match_pk, grace + PRESENCE_CHECK_MARGIN_S)
        if self.watch_id is not None:
            await self.count_spectators(spectators.leave)
        if self.channel_layer is not None:
            await self.leave_groups()

    async def receive(self, text_data=None, bytes_data=None):
        # Counted before anything is read, so a flood costs no parsing (and never the database).
        if not self.frames.take():
            await self.refuse_frame()
            return
        if self.match_pk is None:
            return
        with translation.override(self.language):
            try:
                await self._receive(text_data, bytes_data)
            except Exception:
                # Whatever a frame does, the player gets an answer and keeps the socket.
                log.exception("unexpected error on a frame in match %s", self.public_id)
                await self.refuse("error", _("Something went wrong with that action; please try again."))

    async def refuse_frame(self) -> None:
        if self.frames.flooding:
            if not self.closing:
                flood_penalties.punish(self.flood_key())
                await self.close_for_flooding()
            return
        if self.frames.refused_in_a_row == 1:  # one answer per run of refused frames, not one each
            with translation.override(self.language):
                await self.refuse("too_fast", _("Too many actions at once: wait a moment."))

    async def close_for_flooding(self) -> None:
        self.closing = True
        with translation.override(self.language):
            await self.send(rendering.render_message(_("Too many messages: this table is closed."), "flooding"))
        await self.close(code=CLOSE_FLOODING)

    def flood_key(self) -> str:
        session = self.scope.get("session")
        if session is not None and session.session_key:
            return f"session:{session.session_key}"
        client = self.scope.get("client") or ("unknown",)
        return f"address:{client[0]}"

    async def _receive(self, text_data, bytes_data):
        if self.seat is None:
            # A spectator's socket: whatever it sends (a move, a signal), nothing is read or changed.
            await self.refuse("spectator", _("You are watching this match: spectators cannot play or signal."))
            return
        try:
            action = parse_socket_action(text_data, bytes_data)
            if action.payload["do"] == "signal":
                await self._signal(action.payload.get("signal"))
                return
            match = await db.write(moves.apply_action)(self.public_id, self.seat, action.payload, action.version)
        except moves.ActionRefused as refusal:
            await self.refuse(refusal.code, refusal.message)
            if refusal.code == "stale":
                await self.show_again(refusal.version)
            return
        except DatabaseError:
            # Nothing was stored (the transaction rolled back); keep the socket so the player can retry.
            log.exception("database error on a move in match %s", self.public_id)
            await self.refuse("unavailable", _("The table could not save your move just now; please try again."))
            return
        try:
            await publish_move(match)
        except Exception as exc:
            # The move is stored; the other seats' sockets catch up by themselves (the idle check).
            log.warning("could not publish version %s of match %s: %r", match.version, self.public_id, exc)
            await self.push_snapshot()
            await self.refuse("updates_delayed", _("Your move is saved. Live updates are slow right now."))
        timers.schedule_after(match)

    async def _signal(self, signal) -> None:
        """A partner signal: stored (ActionRefused, caught by the caller, when it may not be sent), then
        sent to this seat's and its partner's groups only."""
        match = await db.write(signals.send_signal)(self.public_id, self.seat, signal)
        try:
            await publish_signal(match, cast(int, self.seat))  # a seat's socket: spectators send no signal
        except Exception as exc:
            # Stored: the partner's table shows it on its next snapshot.
            log.warning("could not publish a signal in match %s: %r", self.public_id, exc)
            await self.refuse("updates_delayed", _("Your signal is saved. Live updates are slow right now."))

    async def partner_signal(self, event):
        """This seat's panel after it or its partner signalled: re-render that one fragment."""
        if self.closing or self.contexts is None:
            return
        async with self.push_lock:
            with translation.override(self.language):
                context = rendering.signals_context(event["signals"])
                self.contexts = {**self.contexts, "signals": context}
                html = rendering.render_fragment("signals", context, oob=True)
            if self.sent.get("signals") != html:
                self.sent["signals"] = html
                await self.send(html)

    async def spectators_count(self, event):
        """How many people watch: players and spectators see the number, live."""
        if self.closing or not self.allow_spectators:
            return
        with translation.override(self.language):
            html = rendering.render_spectators(
                rendering.spectators_context(event["count"], allowed=True, watching=self.seat is None)
            )
        if self.sent.get("spectators") != html:
            self.sent["spectators"] = html
            await self.send(html)

    async def account_closed(self, event):
        """The player's account was deleted (on any process): this table is closed."""
        with translation.override(self.language):
            await self.send(rendering.render_message(_("This account was deleted."), "account_deleted"))
        self.closing = True
        await self.close(code=CLOSE_ACCOUNT_DELETED)

    async def refuse(self, code: str, text) -> None:
        with translation.override(self.language):
            html = rendering.render_message(str(text), code)
        self.sent["message"] = html
        await self.send(html)

    async def match_update(self, event):
        if event["version"] <= self.last_version or self.closing:
            return
        try:
            await self._match_update(event)
        except Exception:  # e.g. the database is down for a moment, or the match was deleted with its account
            log.exception("could not push version %s of match %s", event["version"], self.public_id)

    async def _match_update(self, event):
        async with self.push_lock:  # the watchdog and the handlers must not interleave pushes
            if event["version"] <= self.last_version:
                return  # a snapshot pushed it (or something newer) while this waited for the lock
            table = event.get("table")
            follows = event["version"] == self.last_version + 1 and self.table is not None
            if table is None or not follows or table["over"]:
                # "Go and look", a gap in the versions, or a result (what it pays is in the database).
                await self._push_snapshot(full=False)
            else:
                await self._push_update(TableUpdate.from_message(table))

    async def _push_update(self, table: TableUpdate) -> None:
        """Render the published version from the message alone: no database, no thread hop."""
        # A push follows a snapshot (match_update checks): the match's facts are set.
        with translation.override(self.language):
            contexts = rendering.update_contexts(table, cast(rendering.TableFacts, self.table))
            shared = shared_renders.for_version(cast(int, self.match_pk), self.language, table.version)
            regions = rendering.render_changed(contexts, self.contexts, shared=shared)
        self.contexts = contexts
        await self._send_regions(table.version, regions, full=False)

    async def show_again(self, version: int) -> None:
        """After a move made on an old version: make sure the page shows the table as it is.

        A newer version than this socket pushed was published by the move that made it (after its
        commit), so its update is on the way: nothing to read. Otherwise the page clicked on something
        this socket already replaced; send what it pushed again, as it is, so the page matches.
        """
        if version is not None and version > self.last_version:
            return
        async with self.push_lock:
            shown = "".join(html for name, html in self.sent.items() if name != "message")
            if shown:
                await self.send(shown)

    async def push_snapshot(self, full: bool = False) -> None:
        if self.closing:
            return
        async with self.push_lock:  # the watchdog and the handlers must not interleave pushes
            await self._push_snapshot(full)

    async def _push_snapshot(self, full: bool) -> None:
        # A viewer's render never queues behind another seat's write (games/table/db.py).
        version, regions, self.finished, deadline = await db.read(self._render)(full)
        if not self.finished:
            # This process times the match too (its socket may be the first since a restart); the
            # version check keeps two processes' timers from both acting.
            timers.schedule(cast(int, self.match_pk), version, deadline)  # set on connect
        await self._send_regions(version, regions, full)

    async def _send_regions(self, version: int, regions: dict[str, str], full: bool) -> None:
        self.last_push = time.monotonic()
        if version <= self.last_version and not full:
            return
        self.last_version = version
        # Only the regions that changed for this viewer travel; a cleared message goes too.
        if self.sent.get("message"):
            regions["message"] = rendering.render_message("", "")  # empty: no language needed
        changed = [html for name, html in regions.items() if full or self.sent.get(name) != html]
        self.sent.update(regions)
        if changed:
            await self.send("".join(changed))

    def _render(self, full: bool):
        match = Match.objects.select_related("tournament").get(pk=cast(int, self.match_pk))  # set on connect
        if full or self.table is None:
            # Who sits where and the viewer's deck do not change during a match: load them once
            # per snapshot, not on every update.
            seats = selectors.seats_at(match)
            deck = equipped_deck(seats[self.seat].user if self.seat is not None else self.scope.get("user"))
            self.table = rendering.table_facts(match, seats, deck)
        with translation.override(self.language):
            view = rendering.viewer_view(match, self.seat)
            contexts = rendering.table_contexts(match, self.table, view)
            self.contexts = contexts
            regions = rendering.render_regions(contexts, oob=True)
            if match.allow_spectators:
                count = selectors.spectator_count(match.pk)
                spectating = rendering.spectators_context(count, allowed=True, watching=self.seat is None)
                regions["spectators"] = rendering.render_spectators(spectating)
        over = match.status != Match.Status.ACTIVE
        return match.version, regions, over, match.deadline


def language_of(scope) -> str:
    """The page's language for this socket: the language cookie, else the browser's Accept-Language."""
    headers = dict(scope.get("headers") or [])
    cookies = scope.get("cookies") or {}
    chosen = cookies.get(settings.LANGUAGE_COOKIE_NAME)
    candidates = [chosen] if chosen else []
    accept = headers.get(b"accept-language", b"").decode("latin-1")
    candidates += [code for code, _q in translation.trans_real.parse_accept_lang_header(accept)]
    for code in candidates:
        try:
            return translation.get_supported_language_variant(code)
        except LookupError:
            continue
    return settings.LANGUAGE_CODE


class AnalysisConsumer(db.DirectDispatch, AsyncWebsocketConsumer):
    """A match analysis page's socket (issue 34), for the person who played the seat: the region again each
    time the analysis worker says it moved on (`analysing.analysis_group`), so the progress bar fills and
    the review appears when it is done. Anyone else is closed at once (4403). Push-only."""

    group: str | None = None

    async def connect(self):
        self.language = language_of(self.scope)
        self.public_id = self.scope["url_route"]["kwargs"]["public_id"]
        found = await db.read(self._find)()
        await self.accept()
        if found is None:
            await self.close(code=CLOSE_NOT_YOURS)
            return
        self.match_pk, self.seat = found
        self.group = analysing.analysis_group(self.match_pk, self.seat)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.send(await db.read(self._render)())

    def _find(self) -> tuple[int, int] | None:
        match = Match.objects.filter(public_id=self.public_id, status=Match.Status.FINISHED).first()
        seat = seat_for(match, self.scope.get("user"), self.scope.get("session")) if match else None
        return None if match is None or seat is None else (match.pk, seat.number)

    async def disconnect(self, code):
        if self.group is not None:
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None):
        pass  # the page asks for an analysis with a form; nothing is read from this socket

    async def analysis_progress(self, event):
        await self.send(await db.read(self._render)())

    def _render(self) -> str:
        row, others = analysing.analyses_for(Match.objects.get(pk=self.match_pk), self.seat)
        with translation.override(self.language):
            context = analysis_page.analysis_context(row, self.public_id, others)
            return render_to_string("games/_analysis.html", {**context, "oob": True})
