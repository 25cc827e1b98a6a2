"""The load test's floor socket: off unless BENCH_ROUTES, and then a plain group round trip (and the analyses'
loop beside a load test)."""

import asyncio
import json
import time

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from games.models import MatchAnalysis
from tests.support.matches import finished_match
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


async def test_the_bench_socket_runs_a_loop_of_analyses_in_the_server_and_stops_it(settings, user):
    """`loadtest_rooms --analyses`: the server analyses a finished match's seats in turn with its own analysis
    code until told to stop, then says how many decisions it estimated; junk starts nothing."""
    settings.BENCH_ROUTES = True
    settings.GAMES_ANALYSIS_PROCESSES = 0  # estimated in the loop's thread: no worker process to start
    match = await sync_to_async(finished_match)(user)
    comm = await open_floor(3)
    for junk in ("1", None, True, match.pk + 1000):
        await comm.send_to(text_data=json.dumps({"analyse": junk}))
        assert json.loads(await comm.receive_from())["analysing"] is False
    await comm.send_to(text_data=json.dumps({"analyse": match.pk}))
    assert json.loads(await comm.receive_from())["analysing"] is True
    await comm.send_to(text_data=json.dumps({"analyse": match.pk}))  # one loop at a time
    assert json.loads(await comm.receive_from())["analysing"] is False
    deadline = time.monotonic() + 60
    while not await sync_to_async(MatchAnalysis.objects.filter(match=match, done__gt=0).exists)():
        assert time.monotonic() < deadline
        await asyncio.sleep(0.1)
    await comm.send_to(text_data=json.dumps({"analysed": 1}))
    answer = json.loads(await comm.receive_from(timeout=120))
    assert answer["decisions"] > 0 and answer["failed"] == ""
    await comm.send_to(text_data=json.dumps({"analysed": 1}))
    assert json.loads(await comm.receive_from())["failed"] == "no loop was running"
    await comm.disconnect()
