"""The embedded default's channel layer: Channels' in-memory layer, its expiry sweep run at most once a second
and its messages not deep-copied.

Channels' `InMemoryChannelLayer` runs `_clean_expired` on every `receive`: it walks every queued
channel and every membership of every group. A table socket is in three groups (the match's, its
seat's, its player's), so each message delivered costs a walk over every socket's memberships:
O(sockets) per message, O(sockets²) per second. Profiled with 200 sockets in rooms of four
(`manage.py loadtest_rooms`, docs/performance.md) that walk was 22 % of the server's GIL samples.
Messages expire after 60 s and group memberships after a day, so sweeping once a second changes
nothing a socket could notice.

Channels' `send` deep-copies every message for every channel it reaches, so that a sender changing a
message afterwards, or one receiver changing it, cannot reach another receiver. Here messages are
immutable by contract: every publisher builds a new dict per `group_send` and never touches it again,
and no handler changes what it receives (tests/site/test_channel_layer.py sends every kind of message a
match publishes and checks it is unchanged after every socket handled it). The deep copy of a seat's
view was the layer's main cost per move (docs/performance.md, issue 31). Everything else is Channels'
own code.
"""

from __future__ import annotations

import asyncio
import time

from channels.exceptions import ChannelFull
from channels.layers import InMemoryChannelLayer

CLEAN_INTERVAL_S = 1.0


class ThrottledInMemoryChannelLayer(InMemoryChannelLayer):
    _cleaned_at = float("-inf")

    def _clean_expired(self):
        now = time.monotonic()
        if now - self._cleaned_at < CLEAN_INTERVAL_S:
            return
        self._cleaned_at = now
        super()._clean_expired()

    async def send(self, channel, message):
        """Channels' `send`, queuing the message itself rather than a deep copy (see the module's docstring)."""
        assert isinstance(message, dict), "message is not a dict"
        self.require_valid_channel_name(channel)
        assert "__asgi_channel__" not in message
        queue = self.channels.setdefault(channel, asyncio.Queue(maxsize=self.get_capacity(channel)))
        try:
            queue.put_nowait((time.time() + self.expiry, message))
        except asyncio.queues.QueueFull:
            raise ChannelFull(channel) from None
