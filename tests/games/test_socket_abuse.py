"""Whatever a browser or a script sends on a table socket: an answer, the socket kept, nothing changed;
a flood is refused and then closed, and the other players at the process do not notice."""

from __future__ import annotations

import functools
import json
import sys

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.testing import WebsocketCommunicator
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from devtools.loadtest import parse_frame
from games import engine
from games.models import Match
from games.table.consumers import CLOSE_FLOODING
from games.table.publishing import publish
from games.table.socket_limits import FRAME_BURST, FRAMES_PER_SECOND, FloodPenalties, FrameBucket
from tests.support.sockets import connect, drain, error_code, send_frame, session_cookie
from truco_site.asgi import application

pytestmark = pytest.mark.django_db(transaction=True)


def state_of(match):
    match.refresh_from_db()
    return match.version, match.state


def on_the_wire(output: dict) -> str:
    """A frame as daphne would send it: UTF-8 text (a lone surrogate could not be encoded)."""
    assert output["type"] == "websocket.send", output
    output["text"].encode("utf-8")
    return output["text"]


async def legal_move(match) -> tuple[int, dict]:
    version, state = await sync_to_async(state_of)(match)
    state = engine.from_json(state)
    seat = engine.seats_to_act(state)[0]
    card = engine.seat_view(state, seat)["hand"][0]
    return seat, {"do": "play", "card": card, "v": version}


NASTY_FRAMES = {
    "deep arrays": "[" * 1020 + "]" * 1020,  # 2,040 bytes: under the size limit
    "deep inside an action": '{"do": "raise", "v": ' + "[" * 1000 + "]" * 1000 + "}",
    "superscript two": json.dumps({"do": "raise", "v": "²"}),
    "superscripts": json.dumps({"do": "raise", "v": "¹²"}),
    "superscript five": json.dumps({"do": "raise", "v": "⁵"}),
    "circled one": json.dumps({"do": "raise", "v": "①"}),
    "not json": "raise please",
    "empty": "",
    "huge": json.dumps({"do": "raise", "v": 1, "pad": "x" * 1_000_000}),
    "a list": "[1, 2, 3]",
    "a number": "17",
    "action as a list": json.dumps({"do": ["raise"], "v": 1}),
    "card as an object": json.dumps({"do": "play", "card": {"rank": "4"}, "v": 1}),
    "lone surrogate card": '{"do": "play", "card": "\\ud800", "v": 1}',
    "version as an object": json.dumps({"do": "raise", "v": {"n": 1}}),
    "face down as a list": json.dumps({"do": "play", "card": "ZZ", "v": 1, "face_down": [1]}),
}


@pytest.mark.asyncio
@pytest.mark.parametrize("frame", NASTY_FRAMES.values(), ids=NASTY_FRAMES.keys())
async def test_any_frame_gets_an_error_frame_and_keeps_the_socket(duel, frame):
    match, ana, bia = duel
    sockets = [await connect(match, await sync_to_async(session_cookie)(p)) for p in (ana, bia)]
    for s in sockets:
        await s.receive_from()
    before = await sync_to_async(state_of)(match)
    seat, move = await legal_move(match)
    mover = sockets[seat]

    await send_frame(mover, frame)
    (answer,) = await drain(mover)
    assert error_code(on_the_wire(answer)) in ("malformed", "too_large")
    assert await sync_to_async(state_of)(match) == before

    # The same socket still plays.
    await mover.send_to(text_data=json.dumps(move))
    assert f'data-version="{move["v"] + 1}"' in await mover.receive_from()
    for s in sockets:
        await s.disconnect()


@pytest.mark.asyncio
async def test_a_binary_frame_gets_an_error_frame_and_keeps_the_socket(duel):
    match, ana, _ = duel
    comm = await connect(match, await sync_to_async(session_cookie)(ana))
    await comm.receive_from()
    await comm.send_to(bytes_data=b"\x00\xff" * 100)
    assert error_code(await comm.receive_from()) == "malformed"
    assert await comm.receive_nothing(timeout=0.2)
    await comm.disconnect()


@pytest.mark.asyncio
async def test_an_unexpected_failure_on_a_frame_is_an_error_frame_not_a_closed_socket(duel, monkeypatch):
    match, ana, _ = duel
    comm = await connect(match, await sync_to_async(session_cookie)(ana))
    await comm.receive_from()

    def broken(*args, **kwargs):
        raise KeyError("a bug somewhere in a move")

    monkeypatch.setattr("games.match.moves.apply_action", broken)
    await comm.send_to(text_data=json.dumps({"do": "raise", "v": 1}))
    (answer,) = await drain(comm)
    assert error_code(on_the_wire(answer)) == "error"
    monkeypatch.undo()
    await comm.send_to(text_data=json.dumps({"do": "raise", "v": 0}))
    assert error_code(await comm.receive_from()) == "stale"  # still answering
    await comm.disconnect()


JSON_LEAVES = st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=12)
JSON_VALUES = st.recursive(
    JSON_LEAVES, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
)
ACTION_LIKE = st.fixed_dictionaries(
    {"do": st.sampled_from(["play", "raise", "accept", "run", "", "fold"]) | JSON_VALUES},
    optional={
        "card": st.sampled_from(["4C", "3D", "ZZ", "\ud800"]) | JSON_VALUES,
        "v": st.sampled_from(["1", "²", "①", "-1", 1, 0, 1.0]) | JSON_VALUES,
        "face_down": JSON_VALUES,
    },
)
FRAMES = (
    ACTION_LIKE.map(json.dumps)
    | JSON_VALUES.map(json.dumps)
    | st.text(max_size=200)
    | (st.sampled_from([0, 1, 1000, 1020]) | st.integers(min_value=0, max_value=1100)).map(lambda d: "[" * d + "]" * d)
    | st.sampled_from(list(NASTY_FRAMES.values()))
)


@settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
@given(frames=st.lists(FRAMES, min_size=1, max_size=4))
@example(frames=[NASTY_FRAMES["deep arrays"], NASTY_FRAMES["superscript two"]])
def test_fuzz_the_sockets_receive_path_always_answers_and_keeps_the_socket(duel, frames):
    match, ana, _ = duel

    async def send_all() -> None:
        comm = await connect(match, await sync_to_async(session_cookie)(ana))
        await comm.receive_from()
        for frame in frames:
            await send_frame(comm, frame)
            outputs = await drain(comm, timeout=0.15)
            assert outputs, f"no answer to {frame!r}"
            for output in outputs:
                on_the_wire(output)  # a frame, never a close, always sendable
        await comm.disconnect()

    # Hypothesis raises the recursion limit while a test runs; daphne runs with Python's default (1,000),
    # the limit a deeply nested frame exhausts.
    raised = sys.getrecursionlimit()
    sys.setrecursionlimit(1000)
    try:
        async_to_sync(send_all)()
    finally:
        sys.setrecursionlimit(raised)


def test_the_bucket_lets_a_person_through_and_refuses_a_script():
    now = [0.0]
    bucket = FrameBucket(rate=5, burst=20, flood_after=50, flood_window_s=10, clock=lambda: now[0])
    # A person: a click every 0.2 s for a minute, never refused.
    for _ in range(300):
        assert bucket.take()
        now[0] += 0.2
    # A burst of 20 at once is fine; the 21st frame in the same instant is refused.
    bucket = FrameBucket(rate=5, burst=20, flood_after=50, flood_window_s=10, clock=lambda: now[0])
    assert all(bucket.take() for _ in range(20))
    assert not bucket.take() and not bucket.flooding
    # Tokens come back at the rate: one per 0.2 s.
    now[0] += 0.2
    assert bucket.take() and not bucket.take()
    # Refused 50 times within 10 s: flooding.
    for _ in range(48):
        assert not bucket.take()
    assert bucket.flooding


def test_refusals_in_a_row_are_counted_so_a_run_gets_one_answer():
    now = [0.0]
    bucket = FrameBucket(rate=1, burst=1, clock=lambda: now[0])
    assert bucket.take()
    assert [bucket.take() or bucket.refused_in_a_row for _ in range(3)] == [1, 2, 3]
    now[0] += 1
    assert bucket.take() and bucket.refused_in_a_row == 0


def test_a_flooder_is_kept_out_for_the_penalty_then_let_back():
    now = [0.0]
    penalties = FloodPenalties(penalty_s=30, clock=lambda: now[0])
    penalties.punish("session:abc")
    assert penalties.punished("session:abc") and not penalties.punished("session:other")
    now[0] += 31
    assert not penalties.punished("session:abc")
    penalties.punish("session:new")
    assert list(penalties.until) == ["session:new"]  # the served penalties are forgotten


def test_refusals_spread_over_more_than_the_window_are_not_a_flood():
    now = [0.0]
    bucket = FrameBucket(rate=0, burst=1, flood_after=3, flood_window_s=10, clock=lambda: now[0])
    assert bucket.take()
    for _ in range(10):  # one refusal every 6 s: never 3 within 10 s
        now[0] += 6
        assert not bucket.take()
        assert not bucket.flooding
    now[0] += 1
    assert not bucket.take() and bucket.flooding  # 3 within 10 s: 6 + 1 after the two before


@pytest.mark.asyncio
async def test_a_flooding_socket_is_refused_then_closed_and_the_other_player_does_not_notice(duel, monkeypatch):
    # No refill during the test: on a loaded machine sending 300 frames takes long enough to earn tokens
    # back, which would make the counts below vary (the refill is the bucket's own test's).
    monkeypatch.setattr("games.table.consumers.FrameBucket", functools.partial(FrameBucket, rate=0.0))
    match, ana, bia = duel
    seat, move = await legal_move(match)
    players = (ana, bia)
    # The flooder waits; the other player is the one to move.
    flooder_cookie = await sync_to_async(session_cookie)(players[1 - seat])
    flooder = await connect(match, flooder_cookie)
    other = await connect(match, await sync_to_async(session_cookie)(players[seat]))
    await flooder.receive_from(), await other.receive_from()

    junk = json.dumps({"do": "raise", "v": "x"})
    for _ in range(300):
        await flooder.send_to(text_data=junk)
    outputs = await drain(flooder)
    codes = [error_code(o["text"]) for o in outputs if o["type"] == "websocket.send"]
    # The burst is read (and refused by the move service), then frames are refused unread with one
    # answer for the whole run, then the socket closes.
    assert codes == ["malformed"] * FRAME_BURST + ["too_fast", "flooding"]
    assert outputs[-1] == {"type": "websocket.close", "code": CLOSE_FLOODING}
    # Reconnecting at once does not buy a fresh bucket: the handshake is refused.
    again = WebsocketCommunicator(
        application,
        f"/ws/match/{match.public_id}/",
        headers=[(b"origin", b"http://127.0.0.1"), (b"cookie", flooder_cookie.encode())],
    )
    assert await again.connect() == (False, CLOSE_FLOODING)

    # The other player's socket plays on as before.
    await other.send_to(text_data=json.dumps(move))
    assert f'data-version="{move["v"] + 1}"' in await other.receive_from()
    assert await other.receive_nothing(timeout=0.2)
    await other.disconnect()


@pytest.mark.asyncio
async def test_a_click_refused_too_fast_leaves_the_buttons_and_the_same_click_a_moment_later_is_played(
    duel, monkeypatch
):
    # A refused click must not leave its player stuck while the table waits on them: the refusal swaps
    # only the message (the page keeps its buttons) and the bucket refills.
    now = [0.0]
    monkeypatch.setattr("games.table.consumers.FrameBucket", functools.partial(FrameBucket, clock=lambda: now[0]))
    match, ana, bia = duel
    seat, move = await legal_move(match)
    player = await connect(match, await sync_to_async(session_cookie)((ana, bia)[seat]))
    assert "data-card" in await player.receive_from()  # the page shows the player's buttons
    for _ in range(FRAME_BURST):
        await player.send_to(text_data=json.dumps({"do": "raise", "v": "x"}))
    assert [error_code(o["text"]) for o in await drain(player)] == ["malformed"] * FRAME_BURST

    await player.send_to(text_data=json.dumps(move))
    refused = await player.receive_from()
    assert error_code(refused) == "too_fast"
    assert [region.id for region in parse_frame(refused)] == ["table-message"]
    assert (await sync_to_async(state_of)(match))[0] == move["v"]  # nothing was played

    now[0] += 1 / FRAMES_PER_SECOND  # a moment later: one token back
    await player.send_to(text_data=json.dumps(move))
    assert f'data-version="{move["v"] + 1}"' in await player.receive_from()
    await player.disconnect()


@pytest.mark.asyncio
async def test_an_update_that_cannot_be_pushed_does_not_close_the_socket(duel):
    # E.g. a tournament match deleted with its account while a socket still listened.
    match, ana, _ = duel
    comm = await connect(match, await sync_to_async(session_cookie)(ana))
    await comm.receive_from()
    await sync_to_async(Match.objects.filter(pk=match.pk).delete)()
    await publish(match.pk, match.version + 1)
    assert await comm.receive_nothing(timeout=0.3)  # raises the consumer's exception had it died
    assert not comm.future.done()
    await comm.disconnect()
