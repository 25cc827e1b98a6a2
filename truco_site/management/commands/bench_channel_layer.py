"""`manage.py bench_channel_layer`: what one delivered message costs the embedded in-memory layer, by socket count.

In one process, no server: N sockets' channels, each in three groups as a table socket is (the
match's, its seat's, its player's); then messages are sent to seat groups and received, one at a
time, as a move's pushes are. Printed per layer: microseconds per message (send + receive), the
median of `--runs`. Channels' stock `InMemoryChannelLayer` walks every group membership on each
receive; `truco_site.layers.ThrottledInMemoryChannelLayer` does that at most once a second.
"""

from __future__ import annotations

import asyncio
import statistics
import time

from channels.layers import InMemoryChannelLayer
from django.core.management.base import BaseCommand

from truco_site.layers import ThrottledInMemoryChannelLayer

LAYERS = {"stock": InMemoryChannelLayer, "throttled": ThrottledInMemoryChannelLayer}


async def per_message_us(layer_class, sockets: int, messages: int) -> float:
    layer = layer_class()
    channels = [await layer.new_channel() for _ in range(sockets)]
    for n, channel in enumerate(channels):
        table, seat = divmod(n, 4)
        for group in (f"match.{table}", f"match.{table}.seat.{seat}", f"player.{n}"):
            await layer.group_add(group, channel)
    view = {"hand": ["4C", "7H", "AS"], "trick": [{"seat": 1, "card": "3D"}], "score": [3, 5]}
    started = time.perf_counter()
    for i in range(messages):
        n = i % sockets
        table, seat = divmod(n, 4)
        await layer.group_send(f"match.{table}.seat.{seat}", {"type": "match.update", "version": i, "table": view})
        await layer.receive(channels[n])
    return (time.perf_counter() - started) * 1e6 / messages


class Command(BaseCommand):
    help = "Microseconds per delivered message of the stock and the throttled in-memory channel layer, by socket count."

    def add_arguments(self, parser):
        parser.add_argument("--sockets", default="40,200,400", help="comma-separated socket counts")
        parser.add_argument("--messages", type=int, default=5000, help="messages per run (default 5000)")
        parser.add_argument("--runs", type=int, default=5, help="runs per figure; the median is printed (default 5)")

    def handle(self, *args, **options):
        counts = [int(c) for c in options["sockets"].split(",") if c.strip()]
        self.stdout.write("sockets  " + "  ".join(f"{name:>22}" for name in LAYERS))
        for sockets in counts:
            cells = []
            for layer_class in LAYERS.values():
                runs = [
                    asyncio.run(per_message_us(layer_class, sockets, options["messages"]))
                    for _ in range(options["runs"])
                ]
                cells.append(f"{statistics.median(runs):8.1f} µs ({min(runs):.0f}–{max(runs):.0f})")
            self.stdout.write(f"{sockets:7d}  " + "  ".join(f"{c:>22}" for c in cells))
