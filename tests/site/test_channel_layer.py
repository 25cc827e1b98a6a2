"""The embedded default's channel layer: Channels' in-memory layer whose expiry sweep runs at most once a second."""

import pytest

from truco_site import layers
from truco_site.layers import ThrottledInMemoryChannelLayer

pytestmark = pytest.mark.asyncio


async def expire_one(layer, channel, other):
    """Leave an already-expired message on `channel`, then receive on `other` (which sweeps, when due)."""
    layer.expiry = -1
    await layer.send(channel, {"type": "x"})
    layer.expiry = 60
    await layer.send(other, {"type": "y"})
    await layer.receive(other)


async def test_expired_messages_are_still_swept_but_at_most_once_a_second():
    layer = ThrottledInMemoryChannelLayer()
    quiet, busy = await layer.new_channel(), await layer.new_channel()
    await layer.group_add("match.1", quiet)
    await expire_one(layer, quiet, busy)
    # As Channels does it: an expired message takes its channel out of every group.
    assert quiet not in layer.groups.get("match.1", {}) and quiet not in layer.channels
    await layer.group_add("match.1", quiet)
    await expire_one(layer, quiet, busy)
    assert quiet in layer.groups["match.1"]  # not swept again within the second
    layer._cleaned_at -= layers.CLEAN_INTERVAL_S  # a second later
    await layer.send(busy, {"type": "y"})
    await layer.receive(busy)
    assert quiet not in layer.groups.get("match.1", {})


async def test_group_messages_still_reach_every_member():
    layer = ThrottledInMemoryChannelLayer()
    members = [await layer.new_channel() for _ in range(3)]
    for channel in members:
        await layer.group_add("match.7.seat.0", channel)
    await layer.group_send("match.7.seat.0", {"type": "match.update", "version": 3})
    assert [(await layer.receive(c))["version"] for c in members] == [3, 3, 3]
