"""AI seats and clocks on the event loop's timers: the process that stored a move makes the next due
move at its deadline (no sweeper), and a timer set for a version that has moved on does nothing."""

import asyncio
import json
import re
import threading

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from games import engine
from games.engine.bots import decide as bot_decide
from games.match.moves import apply_action, play_due_seat
from games.models import Match, MatchEvent
from games.table import thinking, timers
from tests.support.matches import human_turn_action
from truco_site.asgi import application

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]
VERSION = re.compile(r'data-version="(\d+)"')


@pytest.fixture
def timed(settings):
    settings.GAMES_TIMERS_ENABLED = True
    settings.GAMES_AI_DELAY_S = (0.05, 0.1)
    yield
    for version_and_handle in list(timers._timers.values()):
        version_and_handle[1].cancel()
    timers._timers.clear()


def cookie_of(user) -> str:
    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}"


def fresh(match) -> Match:
    match.refresh_from_db()
    return match


async def frame_with_version_at_least(comm, version: int, timeout: float = 3.0) -> str:
    while True:
        frame = await comm.receive_from(timeout=timeout)
        found = VERSION.search(frame)
        if found and int(found.group(1)) >= version:
            return frame


async def test_the_ai_moves_on_a_timer_with_no_sweeper(timed, start_match, user):
    match = await sync_to_async(start_match)(user, level="easy", seed=3)
    comm = WebsocketCommunicator(
        application,
        f"/ws/match/{match.public_id}/",
        headers=[(b"origin", b"http://127.0.0.1"), (b"cookie", (await sync_to_async(cookie_of)(user)).encode())],
    )
    assert (await comm.connect())[0]
    await comm.receive_from()
    # Play three of our own moves; every AI move in between comes from a timer (the sweeper is off).
    for _ in range(3):
        match = await sync_to_async(fresh)(match)
        action = await sync_to_async(human_turn_action)(match)
        while action is None:  # the AI's turn: its timer will move
            await frame_with_version_at_least(comm, match.version + 1)
            match = await sync_to_async(fresh)(match)
            action = await sync_to_async(human_turn_action)(match)
        await comm.send_to(text_data=json.dumps({**action, "v": match.version}))
        await frame_with_version_at_least(comm, match.version + 1)
    actors = await sync_to_async(lambda: set(MatchEvent.objects.filter(match=match).values_list("actor", flat=True)))()
    assert {"player", "bot"} <= actors  # ("system": the deal at the start)
    await comm.disconnect()


async def test_a_timer_for_a_version_that_moved_on_does_nothing(timed, start_match, user):
    match = await sync_to_async(start_match)(user, level="easy", seed=3)
    if await sync_to_async(human_turn_action)(match) is not None:
        state = engine.from_json(match.state)
        action = engine.legal_actions(state, 0)[0].to_dict()
        match = await sync_to_async(apply_action)(match.public_id, 0, action, match.version)
    assert match.deadline_seat == 1  # the AI's turn
    version, deadline = match.version, match.deadline
    # Someone else (another process's timer, the sweeper) made the AI's move first.
    assert await sync_to_async(play_due_seat)(match.pk, deadline) is not None
    assert await timers.play_due(match.pk, version, deadline) is None
    assert (await sync_to_async(fresh)(match)).version == version + 1


async def test_a_newer_version_replaces_the_timer_of_an_older_one(timed, start_match, user):
    match = await sync_to_async(start_match)(user, level="easy", seed=3)
    timers.schedule(match.pk, 5, match.deadline)
    timers.schedule(match.pk, 4, match.deadline)  # an older version never replaces a newer one
    assert timers.pending() == {match.pk: 5}
    timers.schedule(match.pk, 6, None)  # nobody is waited for any more
    assert timers.pending() == {}


async def test_timers_that_fire_together_think_at_once_and_write_their_moves_one_at_a_time(
    timed, start_match, make_user, monkeypatch
):
    """The bots think side by side, off the database thread; the moves reach that one thread one
    at a time, so it never gets a burst of AI moves in front of a person's move."""
    user = await sync_to_async(make_user)("Caio")
    matches = [await sync_to_async(start_match)(user, level="easy", seed=seed, seats=4) for seed in (5, 8, 9)]
    together = threading.Barrier(3, timeout=10)  # passes only when all three bots think at once
    first_moves = {m.pk: m.version for m in matches}

    def decide(level, view, seed):
        match_pk, version, _ = seed.split(":")
        if first_moves.get(int(match_pk)) == int(version):
            together.wait()
        return bot_decide(level, view, seed)

    writing, most = 0, 0
    real_write = thinking.db.write

    def write(func):
        async def counted(*args, **kwargs):
            nonlocal writing, most
            writing += 1
            most = max(most, writing)
            try:
                await asyncio.sleep(0.01)
                return await real_write(func)(*args, **kwargs)
            finally:
                writing -= 1

        return counted

    monkeypatch.setattr(thinking, "decide", decide)
    monkeypatch.setattr(thinking.db, "write", write)
    due = [m for m in matches if m.deadline_seat != 0]
    assert len(due) == 3, "each match opens with an AI seat to move"
    for match in due:
        timers.schedule(match.pk, match.version, match.deadline)
    for _ in range(300):
        if [await sync_to_async(fresh)(m) for m in due] and all(m.version > 1 for m in due):
            break
        await asyncio.sleep(0.02)
    assert all(m.version > 1 for m in due)
    assert most == 1
