"""The embedded default's channel layer: Channels' in-memory layer whose expiry sweep runs at most once a second,
and which queues messages without deep-copying them (no socket changes what it receives)."""

import copy
import random

import pytest
from asgiref.sync import sync_to_async
from channels.layers import channel_layers

from games import engine
from games.match.moves import apply_action
from games.match.signals import send_signal
from games.models import Match
from games.table.publishing import publish, publish_move, publish_signal
from tests.support.matches import make_table
from tests.support.sockets import connect, drain, session_cookie
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


class SnapshottingLayer(ThrottledInMemoryChannelLayer):
    """The layer as shipped, keeping beside every message it queues a deep copy taken as it was sent."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.snapshots: list[tuple[dict, dict]] = []

    async def send(self, channel, message):
        self.snapshots.append((message, copy.deepcopy(message)))
        await super().send(channel, message)


@pytest.fixture
def snapshotting_layer(settings):
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "tests.site.test_channel_layer.SnapshottingLayer"}}
    channel_layers.backends.clear()
    yield channel_layers["default"]
    channel_layers.backends.clear()


@pytest.mark.django_db(transaction=True)
async def test_no_socket_changes_a_message_it_receives_so_sockets_may_share_one(make_user, snapshotting_layer):
    """The contract that lets the layer skip Channels' deep copy: four seats and a spectator handle every
    kind of message a match of people publishes (each seat's move update, the spectators' one, partner
    signals, the spectator count, "go and look"), and every message is as it was sent afterwards."""
    match, users = await sync_to_async(make_table)(make_user, 4, partnership=True, seed=8)
    match.allow_spectators = match.partner_signals = True
    await sync_to_async(match.save)(update_fields=["allow_spectators", "partner_signals"])
    watcher = await sync_to_async(make_user)("Watcher")
    sockets = [await connect(match, await sync_to_async(session_cookie)(u)) for u in [*users, watcher]]
    rng = random.Random(2)
    for n in range(24):
        state = engine.from_json(match.state)
        seat = engine.seats_to_act(state)[0]
        action = rng.choice(engine.legal_actions(state, seat)).to_dict()
        match = await sync_to_async(apply_action)(match.public_id, seat, action, match.version)
        await publish_move(match)
        if n % 8 == 3:
            match = await sync_to_async(send_signal)(match.public_id, seat, "zap")
            await publish_signal(match, seat)
            await publish(match.pk, match.version)
        for comm in sockets:
            await drain(comm, timeout=0.03)
        if match.status != Match.Status.ACTIVE:
            break
    for comm in sockets:
        await comm.disconnect()
    kinds = {message["type"] for message, _ in snapshotting_layer.snapshots}
    assert {"match.update", "partner.signal", "spectators.count"} <= kinds
    assert any(
        "table" in message and message["table"]["view"]["seat"] is None for message, _ in snapshotting_layer.snapshots
    )
    changed = [message["type"] for message, sent in snapshotting_layer.snapshots if message != sent]
    assert changed == []


async def test_the_layer_queues_the_message_itself_not_a_copy():
    layer = ThrottledInMemoryChannelLayer()
    channel = await layer.new_channel()
    message = {"type": "match.update", "table": {"view": {"hand": ["4C"]}}}
    await layer.send(channel, message)
    assert await layer.receive(channel) is message
