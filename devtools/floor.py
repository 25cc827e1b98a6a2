"""Bench-only socket: the floor for any push, a trivial Channels group round trip (off unless `BENCH_ROUTES`).

`manage.py loadtest_table` runs as many sockets through this route as it has players, in groups
of four (a full table), on the same server and in the same run as the table: the table's p95 is
then read as a multiple of this floor, which is what this machine makes of any push at all.

A socket sends `{"id": n}`; the consumer sends it to its group, and every member pushes it to
its browser (as every socket at a table pushes a move). `{"cpu": 1}` answers with this process's
CPU seconds so far, for the load command's CPU per action. Nothing else touches the database but
`{"analyse": match_pk}` and `{"analysed": 1}`, which start and stop a loop of post-match analyses in this
process beside the tables (`devtools.analysis_loop`, `loadtest_rooms --analyses`).
"""

from __future__ import annotations

import json
import os
import time

from asgiref.sync import sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.db import connections

from devtools import analysis_loop
from games.table.db import DirectDispatch
from truco_site.sockets import CLOSE_NOT_FOUND


class GroupRoundTrip(DirectDispatch, AsyncWebsocketConsumer):
    group = None

    async def connect(self):
        if not settings.BENCH_ROUTES:
            # Off: answer as for any path that does not exist.
            await self.accept()
            await self.close(code=CLOSE_NOT_FOUND)
            return
        self.group = f"bench.floor.{self.scope['url_route']['kwargs']['group']}"
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code):
        if self.group is not None:
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None):
        if self.group is None:
            return
        try:
            message = json.loads(text_data or "")
        except ValueError:
            return
        if not isinstance(message, dict):
            return
        if "cpu" in message:
            await self.send(json.dumps({"cpu": time.process_time(), "pid": os.getpid()}))
            return
        if "analyse" in message:
            match_pk = message["analyse"]
            started = type(match_pk) is int and await _off_the_loop(analysis_loop.start, match_pk)
            await self.send(json.dumps({"analysing": started, "pid": os.getpid()}))
            return
        if "analysed" in message:
            await self.send(json.dumps({**await _off_the_loop(analysis_loop.stop), "pid": os.getpid()}))
            return
        await self.channel_layer.group_send(self.group, {"type": "bench.echo", "id": message.get("id")})

    async def bench_echo(self, event):
        await self.send(json.dumps({"id": event["id"]}))


async def _off_the_loop(work, *args):
    """In a thread of its own (stopping waits for the analysis under way), its connection closed after."""

    def closing():
        try:
            return work(*args)
        finally:
            connections.close_all()

    return await sync_to_async(closing, thread_sensitive=False)()
