"""The load test's floor socket: off unless BENCH_ROUTES, and then a plain group round trip."""

import json

import pytest
from channels.testing import WebsocketCommunicator

from truco_site.asgi import application

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]
HEADERS = [(b"origin", b"http://127.0.0.1"), (b"host", b"127.0.0.1")]


async def open_floor(group: int) -> WebsocketCommunicator:
    comm = WebsocketCommunicator(application, f"/ws/bench/floor/{group}/", headers=HEADERS)
    assert (await comm.connect())[0]
    return comm


async def test_the_floor_route_is_closed_unless_the_setting_opens_it(settings):
    settings.BENCH_ROUTES = False
    comm = await open_floor(1)
    assert (await comm.receive_output()) == {"type": "websocket.close", "code": 4404}


async def test_a_message_goes_round_its_group_of_four_and_nowhere_else(settings):
    settings.BENCH_ROUTES = True
    table = [await open_floor(7) for _ in range(4)]
    elsewhere = await open_floor(8)
    await table[0].send_to(text_data=json.dumps({"id": "0:1"}))
    for comm in table:
        assert json.loads(await comm.receive_from()) == {"id": "0:1"}
    assert await elsewhere.receive_nothing(timeout=0.2)
    await table[1].send_to(text_data=json.dumps({"cpu": 1}))
    answer = json.loads(await table[1].receive_from())
    assert answer["cpu"] > 0 and answer["pid"] > 0
    for comm in [*table, elsewhere]:
        await comm.disconnect()
