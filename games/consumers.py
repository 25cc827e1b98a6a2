"""The live table socket: checks each message, hands it to `games.tables`, pushes each viewer's fragments.

Thin on purpose: the rules are the engine's, the transaction is the service's; this only parses,
identifies the seat, and renders what this one viewer may see.
"""

from __future__ import annotations

import json

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.utils.translation import gettext as _

from . import rendering, tables
from .models import Match
from .seating import seat_for

MAX_MESSAGE_BYTES = 2048
CLOSE_NOT_YOURS = 4403


class TableConsumer(AsyncWebsocketConsumer):
    match_pk: int | None = None
    seat: int | None = None

    async def connect(self):
        self.public_id = self.scope["url_route"]["kwargs"]["public_id"]
        self.sent: dict[str, str] = {}
        self.last_version = 0
        found = await database_sync_to_async(self._find_seat)()
        await self.accept()
        if found is None:
            await self.send(rendering.render_message(_("This is not your match."), "not_your_match"))
            await self.close(code=CLOSE_NOT_YOURS)
            return
        self.match_pk, self.seat = found
        self.group = f"match.{self.match_pk}"
        await self.channel_layer.group_add(self.group, self.channel_name)
        # ext-ws does not replay pushes after a reconnect: always start with a full snapshot.
        await self.push_snapshot(full=True)

    def _find_seat(self):
        match = Match.objects.filter(public_id=self.public_id).first()
        if match is None:
            return None
        seat = seat_for(match, self.scope.get("user"), self.scope.get("session"))
        return None if seat is None else (match.pk, seat.number)

    async def disconnect(self, code):
        if self.match_pk is not None:
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None):
        if self.match_pk is None:
            return
        if bytes_data is not None or text_data is None:
            return await self.refuse("malformed", _("Send actions as JSON text."))
        if len(text_data.encode()) > MAX_MESSAGE_BYTES:
            return await self.refuse("too_large", _("That message is too large."))
        try:
            message = json.loads(text_data)
        except ValueError:
            return await self.refuse("malformed", _("That message is not valid JSON."))
        if not isinstance(message, dict):
            return await self.refuse("malformed", _("That message is not an action."))
        payload = {"do": message.get("do")}
        if message.get("card") is not None:
            payload["card"] = message["card"]
        # htmx sends form values as strings: the face-down checkbox arrives as "1" when ticked.
        face_down = message.get("face_down", False)
        payload["face_down"] = face_down in (True, "1", "true", "on") if payload["do"] == "play" else bool(face_down)
        version = message.get("v")
        if isinstance(version, str) and version.isdigit():
            version = int(version)
        try:
            await database_sync_to_async(tables.act)(self.public_id, self.seat, payload, version)
        except tables.TableError as exc:
            await self.refuse(exc.code, exc.message)
            if exc.code == "stale":
                await self.push_snapshot(full=True)

    async def refuse(self, code: str, text) -> None:
        html = rendering.render_message(str(text), code)
        self.sent["message"] = html
        await self.send(html)

    async def match_update(self, event):
        if event["version"] > self.last_version:
            await self.push_snapshot()

    async def push_snapshot(self, full: bool = False) -> None:
        version, regions = await database_sync_to_async(self._render)()
        if version <= self.last_version and not full:
            return
        self.last_version = version
        # Only the regions that changed for this viewer travel; a cleared message goes too.
        if self.sent.get("message"):
            regions["message"] = rendering.render_message("", "")
        changed = [html for name, html in regions.items() if full or self.sent.get(name) != html]
        self.sent.update(regions)
        if changed:
            await self.send("".join(changed))

    def _render(self):
        match = Match.objects.select_related("tournament").get(pk=self.match_pk)
        seats = list(match.seats.select_related("user__profile"))
        context = rendering.table_context(match, seats, self.seat)
        return match.version, rendering.render_regions(context, oob=True)
