"""The lobby's socket, a waiting room's socket, a room's chat socket and every page's notices socket: each
pushes its viewer's fragments.

A message names the room that changed (`rooms.publishing`); the socket reads the database again
and sends a fragment only when its HTML differs from the last one sent. Sockets change nothing.
Redis pub/sub delivers at most once, so each socket also re-reads every GAMES_SOCKET_WATCHDOG_S
(as the table does): a lost "room changed" never leaves a browser in a waiting room that started.
"""

from __future__ import annotations

import asyncio
import logging
from typing import cast
from urllib.parse import parse_qs

from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.utils import translation
from django.utils.html import escape
from django.utils.translation import gettext as _

from accounts import friends, notices
from games.models import Match
from games.table.consumers import language_of
from games.table.db import DirectDispatch, read

from . import rendering, selectors
from .forms import LobbyFilterForm
from .models import Room, RoomSettings
from .publishing import LOBBY_GROUP, chat_group, room_group

log = logging.getLogger(__name__)
CLOSE_NOT_IN_ROOM = 4403


class PushingConsumer(DirectDispatch, AsyncWebsocketConsumer):
    """Renders its viewer's fragments (`_render`, in the thread pool) and sends them when they changed."""

    sent = ""
    watchdog: asyncio.Task | None = None

    async def receive(self, text_data=None, bytes_data=None):
        pass  # the buttons are forms posted over HTTP: nothing is read from these sockets

    async def push(self):
        html = await read(self._render)()
        if html != self.sent:
            self.sent = html
            await self.send(html)

    def start_watchdog(self):
        self.watchdog = asyncio.create_task(self._watch())

    async def _watch(self):
        while True:
            await asyncio.sleep(settings.GAMES_SOCKET_WATCHDOG_S)
            try:
                await self.push()
            except Exception:  # e.g. the database is down for a moment: try again next time
                log.exception("idle re-read failed on %s", self.scope.get("path"))

    def stop_watchdog(self):
        if self.watchdog is not None:
            self.watchdog.cancel()

    def _render(self) -> str:
        raise NotImplementedError


class LobbyConsumer(PushingConsumer):
    async def connect(self):
        self.language = language_of(self.scope)
        query = parse_qs(self.scope.get("query_string", b"").decode("latin-1"))
        self.filters = LobbyFilterForm({k: v[0] for k, v in query.items() if k in ("variant", "table")}).filters()
        await self.accept()
        await self.channel_layer.group_add(LOBBY_GROUP, self.channel_name)
        await self.push()
        self.start_watchdog()

    async def disconnect(self, code):
        self.stop_watchdog()
        await self.channel_layer.group_discard(LOBBY_GROUP, self.channel_name)

    async def lobby_update(self, event):
        await self.push()

    def _render(self) -> str:
        user = self.scope.get("user")
        rooms = selectors.waiting_public_rooms(**self.filters)
        with translation.override(self.language):
            context = rendering.lobby_rooms_context(
                rooms,
                my_room=selectors.waiting_room_of(user),
                signed_in=bool(user is not None and user.is_authenticated),
                watchable=selectors.watchable_rooms(**self.filters),
            )
            return rendering.render_lobby_rooms(context, oob=True)


class SeatedRoomConsumer(PushingConsumer):
    """A room's socket for one person seated in it: re-rendered on each "room changed" message of the
    room's group and by the watchdog; anyone else is refused (`refuse`) and the socket closed (4403)."""

    room_pk: int | None = None
    needs_match = False  # only once the room's match exists (the table's panels)

    async def connect(self):
        self.language = language_of(self.scope)
        self.code = self.scope["url_route"]["kwargs"]["code"]
        self.room_pk = await read(self._find_room)()
        await self.accept()
        if self.room_pk is None:
            await self.refuse()
            await self.close(code=CLOSE_NOT_IN_ROOM)
            return
        await self.channel_layer.group_add(room_group(self.room_pk), self.channel_name)
        await self.push()
        self.start_watchdog()

    async def refuse(self):
        pass

    def _find_room(self) -> int | None:
        rooms = Room.objects.filter(code=self.code)
        room = (rooms.filter(match__isnull=False) if self.needs_match else rooms).first()
        if room is None or selectors.seat_of(room, self.scope.get("user")) is None:
            return None
        return room.pk

    async def disconnect(self, code):
        self.stop_watchdog()
        if self.room_pk is not None:
            await self.channel_layer.group_discard(room_group(self.room_pk), self.channel_name)

    async def room_update(self, event):
        await self.push()


class RoomConsumer(SeatedRoomConsumer):
    seated = True  # False once the viewer left or was removed: one last frame, then the socket closes

    async def push(self):
        if self.room_pk is None:
            return  # already let go of the room (below): a push still queued sends nothing
        await super().push()
        if not self.seated:
            # A removed player's old socket must not go on receiving the room (its seats, who joins):
            # out of the room's group at once (the close handshake takes a while), then closed. The
            # watchdog may be the caller, so it is cancelled last, or the close would be cut short.
            room_pk, self.room_pk = self.room_pk, None
            await self.channel_layer.group_discard(room_group(room_pk), self.channel_name)
            await self.close(code=CLOSE_NOT_IN_ROOM)
            self.stop_watchdog()

    async def refuse(self):
        # A page whose person is out of the room by the time its socket (re)connects (a phone asleep while the
        # chief removed them or closed the room): told so, and sent to the lobby, which says why.
        with translation.override(self.language):
            message = _("You are not in this room.")
            go = {"go_href": rendering.lobby_after(self.code), "go_text": _("Back to the rooms")}
            html = f'<p id="room-message" hx-swap-oob="true" role="alert">{message}</p>'
            html += rendering.render_room_go(go, oob=True)
        await self.send(html)

    def _render(self) -> str:
        user = self.scope.get("user")
        room = Room.objects.select_related("match").get(pk=cast(int, self.room_pk))  # set on connect
        self.seated = selectors.seat_of(room, user) is not None
        over = (Match.Status.FINISHED, Match.Status.ANNULLED)
        if self.seated and room.match is not None and room.match.status in over:
            return self._render_play_again(room, user)
        with translation.override(self.language):
            go = rendering.room_go_context(room, seated=self.seated)
            if not self.seated:
                return rendering.render_room_go(go, oob=True)  # the way out, and nothing of the room
            seats = rendering.room_seats_context(room, selectors.people_in(room), user)
            return rendering.render_room_regions(seats, go, oob=True) + self._options(room, user)

    def _options(self, room: Room, user) -> str:
        """The options and their icon ("being changed" while the chief has the panel open), live."""
        context = rendering.options_context(room, user, changeable=selectors.options_changeable(room))
        return rendering.render_room_options(context, oob=True)

    def _render_play_again(self, room: Room, user) -> str:
        """After the match, the same socket carries "Play again": who said yes, and where to go."""
        facts = selectors.play_again_facts(room)
        with translation.override(self.language):
            go = rendering.again_go_context(facts, cast(Match, room.match).public_id)  # facts: a match was played
            if facts is None:
                return ""  # no play again (a player left): the page says so; nothing to push
            again = rendering.again_context(
                room, facts, selectors.people_in(room), user, RoomSettings.current().entry_blue_coins
            )
            return rendering.render_again_regions(again, go, oob=True) + self._options(room, user)


class AnnulConsumer(SeatedRoomConsumer):
    """The friendly-annulment vote at a room's table, for one person playing there: pushed on every
    "room changed" message (a proposal, an answer) and re-read by the watchdog, so a vote whose 30 s
    ran out shows as ended within GAMES_SOCKET_WATCHDOG_S."""

    needs_match = True

    def _render(self) -> str:
        user = self.scope.get("user")
        room = Room.objects.select_related("match").get(pk=cast(int, self.room_pk))  # set on connect
        with translation.override(self.language):
            return rendering.render_annul_vote(rendering.annul_vote_context(room, user), oob=True)


class ChatConsumer(DirectDispatch, AsyncWebsocketConsumer):
    """A room's table chat for one person at the table (seated, or watching its match): the last lines on
    connect, then each new line as it comes.

    Lines arrive whole in the group message (`publishing.announce_chat_line`) and render with no query.
    Writing goes over HTTP (`views.chat_say`), like every other button of a room. The socket also
    listens to the room's "changed" messages so that someone removed from the room stops reading it.
    """

    room_pk: int | None = None
    chief_id: int | None = None  # the chief sees a "mute" button on spectators' lines
    # People the viewer blocked (issue 33), read on connect: their lines never reach this socket.
    blocked: frozenset[int] = frozenset()

    async def connect(self):
        self.language = language_of(self.scope)
        self.code = self.scope["url_route"]["kwargs"]["code"]
        user = self.scope.get("user")
        self.viewer_id = getattr(user, "pk", None)
        opened = await read(self._open)()
        await self.accept()
        if opened is None:
            with translation.override(self.language):
                message = _("Only the people at this table can use its chat.")
            await self.send(f'<p id="chat-message" hx-swap-oob="true" role="alert">{escape(message)}</p>')
            await self.close(code=CLOSE_NOT_IN_ROOM)
            return
        self.room_pk, self.chief_id, self.blocked, lines = opened
        await self.channel_layer.group_add(chat_group(self.room_pk), self.channel_name)
        await self.channel_layer.group_add(room_group(self.room_pk), self.channel_name)
        await self.send(self._lines(lines, append=False))

    def _open(self) -> tuple[int, int | None, frozenset[int], list[dict]] | None:
        room = Room.objects.select_related("match").filter(code=self.code).first()
        user = self.scope.get("user")
        if room is None or not selectors.at_the_table(room, user) or not selectors.table_chat_on(user):
            return None
        blocked = friends.blocked_by(self.viewer_id)
        return room.pk, room.chief_id, blocked, selectors.recent_chat_lines(room, self.viewer_id)

    async def disconnect(self, code):
        if self.room_pk is not None:
            await self.channel_layer.group_discard(chat_group(self.room_pk), self.channel_name)
            await self.channel_layer.group_discard(room_group(self.room_pk), self.channel_name)

    async def receive(self, text_data=None, bytes_data=None):
        pass  # lines are posted over HTTP; nothing is read from this socket

    async def chat_line(self, event):
        if event["line"]["author_id"] in self.blocked:
            return
        await self.send(self._lines([event["line"]], append=True))

    async def chat_hidden(self, event):
        await self.send(rendering.render_chat_removals(event["lines"]))

    async def room_update(self, event):
        if not await read(self._still_seated)():
            await self.close(code=CLOSE_NOT_IN_ROOM)

    def _still_seated(self) -> bool:
        """Still at the table: seated, or watching a match that allows it."""
        room = Room.objects.select_related("match").filter(pk=cast(int, self.room_pk)).first()  # set on connect
        return room is not None and selectors.at_the_table(room, self.scope.get("user"))

    def _lines(self, lines: list[dict], *, append: bool) -> str:
        with translation.override(self.language):
            contexts = [
                rendering.chat_line_context(line, self.viewer_id, self.code, chief_id=self.chief_id) for line in lines
            ]
            return rendering.render_chat_lines(contexts, append=append)


class NoticesConsumer(PushingConsumer):
    """Every page's header, for a signed-in person: the bell's count and list (invitations to rooms, friend
    requests), pushed when `accounts.notices.notify` names the person and re-read every
    `ROOMS_NOTICES_REREAD_S`, which also keeps the person "online" (`accounts.notices.stamp_online`).
    Anyone not signed in is closed at once (4403): there is nothing to tell them."""

    user_id: int | None = None

    async def connect(self):
        user = self.scope.get("user")
        await self.accept()
        if user is None or not user.is_authenticated:
            await self.close(code=CLOSE_NOT_IN_ROOM)
            return
        self.language = language_of(self.scope)
        self.user_id = user.pk
        await self.channel_layer.group_add(notices.person_group(user.pk), self.channel_name)
        await read(notices.stamp_online)(user.pk)
        await self.push()
        self.watchdog = asyncio.create_task(self._reread())

    async def _reread(self):
        while True:
            await asyncio.sleep(settings.ROOMS_NOTICES_REREAD_S)
            try:
                await read(notices.stamp_online)(cast(int, self.user_id))
                await self.push()
            except Exception:  # e.g. the database is down for a moment: try again next time
                log.exception("notices re-read failed for person %s", self.user_id)

    async def disconnect(self, code):
        self.stop_watchdog()
        if self.user_id is not None:
            await self.channel_layer.group_discard(notices.person_group(self.user_id), self.channel_name)

    async def notices_update(self, event):
        await self.push()

    def _render(self) -> str:
        with translation.override(self.language):
            context = rendering.notices_context(selectors.notices_of(cast(int, self.user_id)))
            return rendering.render_notices(context, oob=True)
