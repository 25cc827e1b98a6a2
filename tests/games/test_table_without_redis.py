"""The channel layer (Redis) stops in the middle of a match: moves are still saved, the mover is told and
keeps the socket, the other seat catches up by itself, reconnecting works, and the live updates come
back by themselves when Redis returns. The test runs its own redis-server and stops it."""

from __future__ import annotations

import asyncio
import json

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer

from games import engine
from games.table.consumers import CLOSE_ACCOUNT_DELETED
from games.table.publishing import account_closed_message, player_group
from tests.support.sockets import connect, drain, error_code, session_cookie

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

WATCHDOG_S = 0.5


@pytest.fixture
def private_layer(private_channel_layer, settings):
    settings.GAMES_SOCKET_WATCHDOG_S = WATCHDOG_S
    return private_channel_layer


def next_move(match) -> tuple[int, dict]:
    match.refresh_from_db()
    state = engine.from_json(match.state)
    seat = engine.seats_to_act(state)[0]
    return seat, {"do": "play", "card": engine.seat_view(state, seat)["hand"][0], "v": match.version}


async def frames_until(comm, needle: str, seconds: float) -> list[str]:
    """Frames received until one contains `needle` (fails after `seconds`)."""
    frames: list = []
    async with asyncio.timeout(seconds):
        while not frames or needle not in frames[-1]:
            frames.append(await comm.receive_from(timeout=seconds))
    return frames


async def test_a_move_is_saved_and_the_table_recovers_by_itself_while_redis_is_down(duel, private_layer):
    match, ana, bia = duel
    cookies = [await sync_to_async(session_cookie)(p) for p in (ana, bia)]
    sockets = [await connect(match, c) for c in cookies]
    for s in sockets:
        await s.receive_from()

    private_layer.stop()

    # The mover's move is saved; the mover sees it at once and is told updates are slow; the socket stays.
    seat, move = await sync_to_async(next_move)(match)
    await sockets[seat].send_to(text_data=json.dumps(move))
    mine = await drain(sockets[seat], timeout=1.5)
    texts = [o["text"] for o in mine if o["type"] == "websocket.send"]
    assert all(o["type"] == "websocket.send" for o in mine), mine
    assert any(f'data-version="{move["v"] + 1}"' in t for t in texts)
    assert error_code(texts[-1]) == "updates_delayed"
    await sync_to_async(match.refresh_from_db)()
    assert match.version == move["v"] + 1
    # The other seat's table catches up by itself (its idle check reads the table again).
    await frames_until(sockets[1 - seat], f'data-version="{move["v"] + 1}"', WATCHDOG_S * 6)

    # Reconnecting works without Redis: a full snapshot.
    reconnected_player = (ana, bia)[1 - seat]
    reconnected = await connect(match, cookies[1 - seat])
    assert f'data-version="{move["v"] + 1}"' in await reconnected.receive_from()

    private_layer.start()

    # Live updates are back by themselves: the next move reaches the other seats through the group,
    # sooner than any idle check would.
    await asyncio.sleep(WATCHDOG_S * 3)  # the sockets join again on their next idle check
    seat, move = await sync_to_async(next_move)(match)
    await sockets[seat].send_to(text_data=json.dumps(move))
    for s in (sockets[1 - seat], reconnected):
        await frames_until(s, f'data-version="{move["v"] + 1}"', WATCHDOG_S * 6)
    # The socket opened while Redis was down joined its player's group too: a deletion would reach it.
    await get_channel_layer().group_send(player_group(reconnected_player.pk), account_closed_message())
    outputs = await drain(reconnected, timeout=1.0)
    assert outputs[-1] == {"type": "websocket.close", "code": CLOSE_ACCOUNT_DELETED}
    for s in sockets:
        await s.disconnect()
