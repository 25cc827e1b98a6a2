"""The live table's socket: reads each message as an action, hands it to `games.moves`, pushes each viewer's fragments.

Thin on purpose: the rules are the engine's, the transaction is the move service's; this only
parses (`games.socket_actions`), identifies the seat, and renders what this one viewer may see.

A move reaches the other sockets as a message to each seat's group carrying that seat's view
(`games.publishing.publish_move`): the socket renders from it, on the event loop, with no
database query, and only the fragments whose context changed. It reads the database when it
connects, when it sees a gap in the versions, when the match is over, and when its table has
been quiet for a while (a lost message).
"""

from __future__ import annotations

import asyncio
import logging
import time
from datetime import UTC, datetime

from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.db import DatabaseError
from django.utils import translation
from django.utils.translation import gettext as _

from shop.selectors import equipped_deck

from . import db, moves, rendering, selectors, timers
from .models import Match
from .publishing import TableUpdate, group_name, publish_move, seat_group
from .seating import seat_for
from .socket_actions import parse_socket_action

log = logging.getLogger(__name__)
CLOSE_NOT_YOURS = 4403


class TableConsumer(AsyncWebsocketConsumer):
    match_pk: int | None = None
    seat: int | None = None
    seats: list | None = None
    deck: dict | None = None
    tournament: tuple | None = None  # (stage, tournament public id): fixed for the match
    contexts: dict | None = None  # the fragments' contexts of the last push (render only what changed)
    watchdog: asyncio.Task | None = None
    finished = False

    async def connect(self):
        # No LocaleMiddleware on sockets: every frame is rendered in the language the page used.
        self.language = language_of(self.scope)
        self.public_id = self.scope["url_route"]["kwargs"]["public_id"]
        self.sent: dict[str, str] = {}
        self.last_version = 0
        self.last_push = time.monotonic()
        self.push_lock = asyncio.Lock()
        found = await db.read(self._find_seat)()
        await self.accept()
        if found is None:
            with translation.override(self.language):
                await self.send(rendering.render_message(_("This is not your match."), "not_your_match"))
            await self.close(code=CLOSE_NOT_YOURS)
            return
        self.match_pk, self.seat = found
        self.group = group_name(self.match_pk)
        self.own_group = seat_group(self.match_pk, self.seat)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.channel_layer.group_add(self.own_group, self.channel_name)
        # ext-ws does not replay pushes after a reconnect: always start with a full snapshot.
        await self.push_snapshot(full=True)
        self.watchdog = asyncio.create_task(self.watch_idle_table())

    async def watch_idle_table(self) -> None:
        """Safety net for a lost publish (Redis pub/sub delivers at most once): a table quiet for a
        while is read again, and anything newer is pushed."""
        interval = settings.GAMES_SOCKET_WATCHDOG_S
        while not self.finished:
            await asyncio.sleep(interval)
            if time.monotonic() - self.last_push >= interval:
                try:
                    await self.push_snapshot()
                except Exception:  # e.g. the database is down for a moment: try again next time
                    log.exception("idle check failed for match %s", self.public_id)

    def _find_seat(self):
        match = Match.objects.filter(public_id=self.public_id).first()
        if match is None:
            return None
        seat = seat_for(match, self.scope.get("user"), self.scope.get("session"))
        return None if seat is None else (match.pk, seat.number)

    async def disconnect(self, code):
        if self.watchdog is not None:
            self.watchdog.cancel()
        if self.match_pk is not None:
            await self.channel_layer.group_discard(self.group, self.channel_name)
            await self.channel_layer.group_discard(self.own_group, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None):
        if self.match_pk is None:
            return
        with translation.override(self.language):
            await self._receive(text_data, bytes_data)

    async def _receive(self, text_data, bytes_data):
        try:
            action = parse_socket_action(text_data, bytes_data)
            match = await db.write(moves.apply_action)(self.public_id, self.seat, action.payload, action.version)
        except moves.ActionRefused as refusal:
            await self.refuse(refusal.code, refusal.message)
            if refusal.code == "stale":
                await self.push_snapshot(full=True)
            return
        except DatabaseError:
            # Nothing was stored (the transaction rolled back); keep the socket so the player can retry.
            log.exception("database error on a move in match %s", self.public_id)
            await self.refuse("unavailable", _("The table could not save your move just now; please try again."))
            return
        try:
            await publish_move(match)
        except Exception:  # the move is stored; the others catch up with their idle check
            log.exception("could not publish version %s of match %s", match.version, self.public_id)
        timers.schedule_after(match)

    async def refuse(self, code: str, text) -> None:
        with translation.override(self.language):
            html = rendering.render_message(str(text), code)
        self.sent["message"] = html
        await self.send(html)

    async def match_update(self, event):
        if event["version"] <= self.last_version:
            return
        async with self.push_lock:  # the watchdog and the handlers must not interleave pushes
            if event["version"] <= self.last_version:
                return  # a snapshot pushed it (or something newer) while this waited for the lock
            table = event.get("table")
            follows = event["version"] == self.last_version + 1 and self.seats is not None
            if table is None or not follows or table["over"]:
                # "Go and look", a gap in the versions, or a result (what it pays is in the database).
                await self._push_snapshot(full=False)
            else:
                await self._push_update(TableUpdate.from_message(table))

    async def _push_update(self, table: TableUpdate) -> None:
        """Render the published version from the message alone: no database, no thread hop."""
        deadline = datetime.fromtimestamp(table.deadline_ts, UTC) if table.deadline_ts is not None else None
        with translation.override(self.language):
            contexts = rendering.contexts_for(
                table.view,
                self.seats,
                deck=self.deck,
                version=table.version,
                deadline=deadline,
                deadline_seat=table.deadline_seat,
                timed_out_seat=table.timed_out_seat,
                timed_out_version=table.timed_out_version,
                tournament=self.tournament,
            )
            regions = rendering.render_changed(contexts, self.contexts)
        self.contexts = contexts
        await self._send_regions(table.version, regions, full=False)

    async def push_snapshot(self, full: bool = False) -> None:
        async with self.push_lock:  # the watchdog and the handlers must not interleave pushes
            await self._push_snapshot(full)

    async def _push_snapshot(self, full: bool) -> None:
        # A viewer's render never queues behind another seat's write (games/db.py).
        version, regions, self.finished, deadline = await db.read(self._render)(full)
        if not self.finished:
            # This process times the match too (its socket may be the first since a restart); the
            # version check keeps two processes' timers from both acting.
            timers.schedule(self.match_pk, version, deadline)
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
        match = Match.objects.select_related("tournament").get(pk=self.match_pk)
        if full or self.seats is None:
            # Who sits where and the viewer's deck do not change during a match: load them once
            # per snapshot, not on every update.
            seats = selectors.seats_at(match)
            self.seats = rendering.seat_facts(seats)
            self.deck = equipped_deck(seats[self.seat].user)
            self.tournament = rendering.tournament_facts(match)
        with translation.override(self.language):
            view = rendering.viewer_view(match, self.seat)
            contexts = rendering.table_contexts(match, self.seats, view, deck=self.deck)
            self.contexts = contexts
            regions = rendering.render_regions(contexts, oob=True)
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
