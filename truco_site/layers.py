"""The embedded default's channel layer: Channels' in-memory layer, with its expiry sweep run at most once a second.

Channels' `InMemoryChannelLayer` runs `_clean_expired` on every `receive`: it walks every queued
channel and every membership of every group. A table socket is in three groups (the match's, its
seat's, its player's), so each message delivered costs a walk over every socket's memberships:
O(sockets) per message, O(sockets²) per second. Profiled with 200 sockets in rooms of four
(`manage.py loadtest_rooms`, docs/performance.md) that walk was 22 % of the server's GIL samples.
Messages expire after 60 s and group memberships after a day, so sweeping once a second changes
nothing a socket could notice; everything else is Channels' own code.
"""

from __future__ import annotations

import time

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
