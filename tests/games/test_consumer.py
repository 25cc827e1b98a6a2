"""The table socket against the real consumer and database: every bad message gets a clear error frame
and changes nothing; good ones are applied and pushed."""

import asyncio
import json

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import OperationalError

from games import engine
from games.match import moves
from tests.support.sockets import connect, error_code, session_cookie
from truco_site.asgi import application

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


def current(match):
    match.refresh_from_db()
    state = engine.from_json(match.state)
    return match.version, state


async def versions_and_state(match):
    return await sync_to_async(current)(match)


async def open_pair(duel):
    match, ana, bia = duel
    a = await connect(match, await sync_to_async(session_cookie)(ana))
    b = await connect(match, await sync_to_async(session_cookie)(bia))
    await a.receive_from()
    await b.receive_from()
    return match, a, b


async def turn_seat(match):
    _, state = await versions_and_state(match)
    return engine.seats_to_act(state)[0]


async def test_connect_sends_a_full_snapshot_with_the_players_own_cards(duel):
    match, ana, _ = duel
    comm = await connect(match, await sync_to_async(session_cookie)(ana))
    frame = await comm.receive_from()
    _, state = await versions_and_state(match)
    for region in ("scoreboard", "seats", "trick", "hand", "actions", "status"):
        assert f'id="{region}"' in frame
    for card in engine.seat_view(state, 0)["hand"]:
        assert card in frame
    await comm.disconnect()


async def test_play_is_applied_and_pushed_to_both_players(duel):
    match, a, b = await open_pair(duel)
    seat = await turn_seat(match)
    version, state = await versions_and_state(match)
    card = engine.seat_view(state, seat)["hand"][0]
    mover = a if seat == 0 else b
    await mover.send_to(text_data=json.dumps({"do": "play", "card": card, "v": version}))
    frame_a, frame_b = await a.receive_from(), await b.receive_from()
    assert f'data-version="{version + 1}"' in frame_a and f'data-version="{version + 1}"' in frame_b
    assert f'data-played-by="{seat}"' in frame_a
    new_version, _ = await versions_and_state(match)
    assert new_version == version + 1
    await a.disconnect(), await b.disconnect()


async def test_a_card_played_with_the_face_down_box_ticked_is_stored_face_down(duel):
    """As htmx sends it: the version as a string, the ticked checkbox as "1"."""
    match, a, b = await open_pair(duel)
    sockets = (a, b)
    for face_down in ("", "", "1"):  # round 1 (face-down is not allowed there), then the lead of round 2
        seat = await turn_seat(match)
        version, state = await versions_and_state(match)
        card = engine.seat_view(state, seat)["hand"][0]
        message = {"do": "play", "card": card, "v": str(version), "face_down": face_down}
        await sockets[seat].send_to(text_data=json.dumps(message))
        frames = await a.receive_from(), await b.receive_from()
        assert all(f'data-version="{version + 1}"' in frame for frame in frames)
    _, state = await versions_and_state(match)
    (last_play,) = engine.spectator_view(state)["trick"]
    assert last_play == {"seat": seat, "card": None, "face_down": True}
    assert card not in frames[1 - seat]
    await a.disconnect(), await b.disconnect()


async def test_raise_and_accept_across_two_sockets(duel):
    match, a, b = await open_pair(duel)
    seat = await turn_seat(match)
    asker, answerer = (a, b) if seat == 0 else (b, a)
    version, _ = await versions_and_state(match)
    await asker.send_to(text_data=json.dumps({"do": "raise", "v": version}))
    pushed = await answerer.receive_from()
    assert 'data-action="accept"' in pushed and 'data-action="run"' in pushed
    await asker.receive_from()
    await answerer.send_to(text_data=json.dumps({"do": "accept", "v": version + 1}))
    await answerer.receive_from(), await asker.receive_from()
    new_version, state = await versions_and_state(match)
    assert new_version == version + 2
    assert state.stake == 3
    await a.disconnect(), await b.disconnect()


@pytest.mark.parametrize(
    "message, code",
    [
        ("{not json", "malformed"),
        (json.dumps(["play"]), "malformed"),
        (json.dumps({"do": "fly", "v": 1}), "malformed"),
        (json.dumps({"do": "play", "card": "ZZ", "v": 1}), "malformed"),
        (json.dumps({"do": "play", "card": "4C"}), "malformed"),
        (json.dumps({"do": "raise", "v": 1, "pad": "x" * 5000}), "too_large"),
    ],
)
async def test_bad_messages_get_an_error_frame_and_change_nothing(duel, message, code):
    match, a, b = await open_pair(duel)
    before = await versions_and_state(match)
    await a.send_to(text_data=message)
    frame = await a.receive_from()
    assert error_code(frame) == code
    assert await versions_and_state(match) == before
    assert await b.receive_nothing(timeout=0.2)
    await a.disconnect(), await b.disconnect()


async def test_stale_version_is_refused_and_the_table_shown_is_sent_again(duel):
    match, a, b = await open_pair(duel)
    seat = await turn_seat(match)
    mover = a if seat == 0 else b
    version, state = await versions_and_state(match)
    await mover.send_to(text_data=json.dumps({"do": "raise", "v": version - 1}))
    assert error_code(await mover.receive_from()) == "stale"
    assert f'data-version="{version}"' in await mover.receive_from()
    assert (await versions_and_state(match))[0] == version
    await a.disconnect(), await b.disconnect()


async def test_acting_for_the_wrong_seat_is_refused(duel):
    match, a, b = await open_pair(duel)
    seat = await turn_seat(match)
    waiting = b if seat == 0 else a
    version, state = await versions_and_state(match)
    other_hand = engine.seat_view(state, 1 - seat)["hand"]
    await waiting.send_to(text_data=json.dumps({"do": "play", "card": other_hand[0], "v": version}))
    assert error_code(await waiting.receive_from()) == "illegal"
    assert (await versions_and_state(match))[0] == version
    await a.disconnect(), await b.disconnect()


async def test_someone_elses_match_is_refused_with_an_error_frame_and_closed(duel, make_user):
    match, _, _ = duel
    for cookie in (
        await sync_to_async(session_cookie)(None),
        await sync_to_async(session_cookie)(await sync_to_async(make_user)("Eve")),
    ):
        comm = await connect(match, cookie)
        frame = await comm.receive_from()
        assert error_code(frame) == "not_your_match"
        assert "data-card" not in frame
        closed = await comm.receive_output()
        assert closed == {"type": "websocket.close", "code": 4403}


async def test_unknown_match_is_refused(make_user):
    comm = WebsocketCommunicator(application, "/ws/match/nope/", headers=[(b"origin", b"http://127.0.0.1")])
    await comm.connect()
    assert error_code(await comm.receive_from()) == "not_your_match"


async def test_foreign_origin_is_rejected(duel):
    match, ana, _ = duel
    comm = WebsocketCommunicator(
        application, f"/ws/match/{match.public_id}/", headers=[(b"origin", b"http://evil.example")]
    )
    connected, _ = await comm.connect()
    assert not connected


@pytest.mark.parametrize(
    "headers, cookie_suffix, expected",
    [
        ([(b"accept-language", b"en-US,en;q=0.9")], "", "Hand"),
        ([(b"accept-language", b"de-DE")], "", "Mão"),
        ([(b"accept-language", b"en")], "; django_language=pt-br", "Mão"),
        ([], "; django_language=en", "Hand"),
    ],
)
async def test_frames_use_the_language_of_the_page(duel, headers, cookie_suffix, expected):
    match, ana, _ = duel
    comm = await connect(match, await sync_to_async(session_cookie)(ana) + cookie_suffix, *headers)
    frame = await comm.receive_from()
    assert f"{expected} 1" in frame  # the scoreboard's "Hand 1" / "Mão 1"
    await comm.disconnect()


async def test_many_sockets_join_and_get_their_snapshot_at_once(duel):
    """150 sockets at once (tabs, spectators to come): joining the group must not run out of connections."""
    match, ana, _ = duel
    cookie = await sync_to_async(session_cookie)(ana)
    comms = [
        WebsocketCommunicator(
            application,
            f"/ws/match/{match.public_id}/",
            headers=[(b"origin", b"http://127.0.0.1"), (b"cookie", cookie.encode())],
        )
        for _ in range(150)
    ]
    results = await asyncio.gather(*(c.connect(timeout=30) for c in comms))
    assert all(connected for connected, _ in results)
    frames = await asyncio.gather(*(c.receive_from(timeout=30) for c in comms))
    assert all('id="status"' in f for f in frames)
    await asyncio.gather(*(c.disconnect() for c in comms))


async def test_a_database_failure_on_a_move_keeps_the_socket_and_says_so(duel, monkeypatch):
    match, a, b = await open_pair(duel)
    before = await versions_and_state(match)

    def database_down(*args, **kwargs):
        raise OperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr(moves, "apply_action", database_down)
    await a.send_to(text_data=json.dumps({"do": "raise", "v": before[0]}))
    assert error_code(await a.receive_from()) == "unavailable"
    assert await versions_and_state(match) == before
    monkeypatch.undo()
    seat = await turn_seat(match)
    mover = a if seat == 0 else b
    await mover.send_to(text_data=json.dumps({"do": "raise", "v": before[0]}))  # the same socket still works
    assert f'data-version="{before[0] + 1}"' in await mover.receive_from()
    await a.disconnect(), await b.disconnect()


async def test_a_lost_publish_is_caught_up_by_the_idle_check(duel, settings):
    """Pub/sub delivers at most once; when a publish is lost the socket still sees the move."""
    settings.GAMES_SOCKET_WATCHDOG_S = 0.2
    match, a, b = await open_pair(duel)
    seat = await turn_seat(match)
    version, _ = await versions_and_state(match)
    # Stored, but never published: what a dropped group message looks like to the sockets.
    await sync_to_async(moves.apply_action)(match.public_id, seat, {"do": "raise"}, version)
    assert f'data-version="{version + 1}"' in await a.receive_from(timeout=3)
    assert f'data-version="{version + 1}"' in await b.receive_from(timeout=3)
    await a.disconnect(), await b.disconnect()
