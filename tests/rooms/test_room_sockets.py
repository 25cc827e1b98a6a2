"""The lobby's and the waiting room's sockets: live pushes when rooms open, fill, start or close; the start
sends every browser in the room to the table; a room match shows each person only their own cards."""

import re

import pytest
from asgiref.sync import sync_to_async

from games import engine
from rooms import again, publishing, services
from rooms.consumers import CLOSE_NOT_IN_ROOM
from rooms.models import PlayAgain
from tests.support.leaks import cards_shown
from tests.support.matches import win_match_for
from tests.support.rooms import hidden_at_the_deal, options
from tests.support.sockets import open_socket

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def next_frame(comm, timeout=3):
    return await comm.receive_from(timeout=timeout)


def call(func, *args, **kwargs):
    return sync_to_async(func)(*args, **kwargs)


async def test_the_lobby_is_pushed_when_rooms_open_fill_and_start(person):
    ana, bia, caio = await call(person, "Ana"), await call(person, "Bia"), await call(person, "Caio")
    dani = await call(person, "Dani")
    lobby = await open_socket("/ws/rooms/", dani)
    assert "No public room is waiting" in await next_frame(lobby)
    room = await call(services.create_room, ana, options(seats=2))
    frame = await next_frame(lobby)
    assert 'id="lobby-rooms" hx-swap-oob="true"' in frame and "Ana" in frame and "1/2 seated" in frame
    assert f'hx-post="/rooms/r/{room.code}/join/"' in frame  # Dani may join with one click
    await call(services.create_room, caio, options(seats=4))
    assert "Caio" in await next_frame(lobby)
    await call(services.join_room, bia, room.code)
    frame = await next_frame(lobby)  # Ana's room started: off the waiting list, on the list to watch
    waiting, _, to_watch = frame.partition("data-watch-room")
    assert "Ana" not in waiting and "Caio" in waiting
    assert "Ana" in to_watch and f'data-watch-room="{room.code}"' in frame
    await lobby.disconnect()


async def test_a_guest_and_someone_already_waiting_get_no_join_button(person):
    bia = await call(person, "Bia")
    await call(services.create_room, bia, options(seats=4))
    for viewer in (None, bia):
        lobby = await open_socket("/ws/rooms/", viewer)
        frame = await next_frame(lobby)
        assert "Bia" in frame and 'data-action="join-room"' not in frame
        await lobby.disconnect()
    lobby = await open_socket("/ws/rooms/", bia)
    assert 'data-nav="my-room"' in await next_frame(lobby)
    await lobby.disconnect()


async def test_the_lobby_socket_keeps_the_page_filters(person):
    ana, bia = await call(person, "Ana"), await call(person, "Bia")
    lobby = await open_socket("/ws/rooms/?variant=mineiro&table=2")
    await next_frame(lobby)
    await call(services.create_room, ana, options(variant="paulista"))
    await call(services.create_room, bia, options(variant="mineiro"))
    frames = [await next_frame(lobby)]
    assert "Bia" in frames[-1] and "Ana" not in frames[-1]
    await lobby.disconnect()


async def test_the_waiting_room_is_pushed_and_the_start_sends_everyone_to_the_table(person):
    ana, bia, caio, dani = [await call(person, n) for n in ("Ana", "Bia", "Caio", "Dani")]
    room = await call(services.create_room, ana, options(seats=4))
    await call(services.join_room, bia, room.code)
    a = await open_socket(f"/ws/room/{room.code}/", ana)
    b = await open_socket(f"/ws/room/{room.code}/", bia)
    first = await next_frame(a)
    assert 'id="room-seats"' in first and 'data-seat-user="Bia"' in first and "data-room-go" not in first
    assert 'data-action="remove-player"' in first  # Ana is the chief
    assert 'data-action="remove-player"' not in await next_frame(b)
    await call(services.choose_seat, bia, room.code, 2)
    frame = await next_frame(a)
    assert re.search(r'data-seat="2" data-seat-user="Bia"', frame)
    await next_frame(b)
    await call(services.join_room, caio, room.code)
    await next_frame(a), await next_frame(b)
    await call(services.join_room, dani, room.code)
    await room.arefresh_from_db()
    match = await call(lambda: room.match)
    for comm in (a, b):
        frame = await next_frame(comm)
        while "data-room-go" not in frame:
            frame = await next_frame(comm)
        assert f'href="/play/m/{match.public_id}/" data-room-go>The match has started' in frame
    await a.disconnect()
    await b.disconnect()


async def test_a_lost_room_message_is_caught_up_by_the_idle_re_read(person, settings, monkeypatch):
    settings.GAMES_SOCKET_WATCHDOG_S = 0.2
    ana, bia = await call(person, "Ana"), await call(person, "Bia")
    room = await call(services.create_room, ana, options(seats=2))
    a = await open_socket(f"/ws/room/{room.code}/", ana)
    await next_frame(a)
    monkeypatch.setattr(publishing, "_send", lambda room_pk: None)  # every "room changed" is lost
    await call(services.join_room, bia, room.code)
    assert "data-room-go>The match has started" in await next_frame(a, timeout=3)
    await a.disconnect()


async def test_a_removed_player_is_sent_back_to_the_lobby_and_their_old_socket_hears_no_more(person):
    ana, bia, caio = await call(person, "Ana"), await call(person, "Bia"), await call(person, "Caio")
    room = await call(services.create_room, ana, options(seats=4))
    await call(services.join_room, bia, room.code)
    b = await open_socket(f"/ws/room/{room.code}/", bia)
    await next_frame(b)
    await call(services.remove_player, ana, room.code, bia.pk)
    last = await next_frame(b)
    # To the lobby, which reads Bia's seat to say why (tests/rooms/test_room_departures.py).
    assert f'href="/rooms/?out_of={room.code}" data-room-go>You are no longer in this room' in last
    assert "data-seat-user" not in last  # nothing of the room any more: not even who is in it
    assert (await b.receive_output(timeout=3))["type"] == "websocket.close"
    # The room goes on without them: their old socket is sent nothing of it.
    await call(services.join_room, caio, room.code)
    assert await b.receive_nothing(timeout=0.5)
    await b.disconnect()


async def test_the_room_sockets_read_nothing_a_browser_sends(person):
    """These sockets only push (the buttons are forms posted over HTTP): garbage, oversized and binary
    frames are ignored, change nothing, and the socket goes on pushing."""
    ana, bia = await call(person, "Ana"), await call(person, "Bia")
    room = await call(services.create_room, ana, options(seats=4))
    lobby = await open_socket("/ws/rooms/", bia)
    waiting = await open_socket(f"/ws/room/{room.code}/", ana)
    await next_frame(lobby), await next_frame(waiting)
    for comm in (lobby, waiting):
        for text in (
            "",
            "{not json",
            '{"do": "join"}',
            "x" * 1_000_000,
            '{"do": "leave", "room": "' + room.code + '"}',
        ):
            await comm.send_input({"type": "websocket.receive", "text": text})
        await comm.send_input({"type": "websocket.receive", "bytes": b"\x00\xff" * 1000})
        assert await comm.receive_nothing(timeout=0.3)
    seats = await call(lambda: list(room.room_seats.values_list("user_id", "left_at")))
    assert seats == [(ana.pk, None)]
    await call(services.join_room, bia, room.code)  # both sockets still push
    assert "2/4 seated" in await next_frame(lobby)
    assert 'data-seat-user="Bia"' in await next_frame(waiting)
    await lobby.disconnect()
    await waiting.disconnect()


async def test_someone_not_in_the_room_is_refused_and_closed(person):
    ana, bia = await call(person, "Ana"), await call(person, "Bia")
    room = await call(services.create_room, ana, options(seats=4))
    for user in (bia, None):
        comm = await open_socket(f"/ws/room/{room.code}/", user)
        frame = await next_frame(comm)
        assert "You are not in this room." in frame
        assert f'href="/rooms/?out_of={room.code}" data-room-go>' in frame and "data-seat-user" not in frame
        assert (await comm.receive_output(timeout=3))["code"] == CLOSE_NOT_IN_ROOM
    comm = await open_socket("/ws/room/NoSuchRoomCodeHere/", ana)
    assert "You are not in this room." in await next_frame(comm)


async def test_at_the_room_table_each_person_sees_only_their_own_cards(person):
    people = [await call(person, n) for n in ("Ana", "Bia", "Caio", "Dani")]
    room = await call(services.create_room, people[0], options(seats=4))
    for other in people[1:]:
        await call(services.join_room, other, room.code)
    await room.arefresh_from_db()
    match = await call(lambda: room.match)
    state = engine.from_json(match.state)
    seat_numbers = await call(lambda: {s.user_id: s.number for s in match.seats.all()})
    for user in people:
        comm = await open_socket(f"/ws/match/{match.public_id}/", user)
        frame = await next_frame(comm)
        mine = seat_numbers[user.pk]
        shown = cards_shown(frame)
        assert set(engine.seat_view(state, mine)["hand"]) <= shown  # the scanner sees cards
        assert len(hidden_at_the_deal(state, mine)) >= 9  # three other hands at least
        assert not shown & hidden_at_the_deal(state, mine)
        await comm.disconnect()


async def test_play_again_is_pushed_to_everyone_and_the_last_yes_sends_them_to_the_new_table(person):
    ana, bia = await call(person, "Ana"), await call(person, "Bia")
    room = await call(services.create_room, ana, options())
    await call(services.join_room, bia, room.code)
    await room.arefresh_from_db()
    match = await call(lambda: room.match)
    await call(win_match_for, match, side=1)
    a = await open_socket(f"/ws/room/{room.code}/", ana)
    b = await open_socket(f"/ws/room/{room.code}/", bia)
    first = await next_frame(a)
    assert 'id="room-again"' in first and "0 of 2 said yes." in first and "data-room-go" not in first
    await next_frame(b)
    await call(again.accept, bia, match.public_id)
    frame = await next_frame(a)
    assert 'data-again-person="Bia" data-again-answer="yes"' in frame and "1 of 2 said yes." in frame
    assert 'data-action="accept-play-again"' in frame  # Ana has not answered
    assert 'data-action="accept-play-again"' not in await next_frame(b)  # Bia has
    await call(again.accept, ana, match.public_id)
    new = await call(lambda: PlayAgain.objects.select_related("new_room__match").get().new_room.match)
    for comm in (a, b):
        frame = await next_frame(comm)
        assert f'href="/play/m/{new.public_id}/" data-room-go>Everyone said yes' in frame
    await a.disconnect()
    await b.disconnect()


async def test_a_no_sends_everyone_to_the_lobby_with_the_reason(person):
    ana, bia = await call(person, "Ana"), await call(person, "Bia")
    room = await call(services.create_room, ana, options())
    await call(services.join_room, bia, room.code)
    await room.arefresh_from_db()
    match = await call(lambda: room.match)
    await call(win_match_for, match, side=0)
    a = await open_socket(f"/ws/room/{room.code}/", ana)
    await next_frame(a)
    await call(again.decline, bia, match.public_id)
    frame = await next_frame(a)
    assert "Bia chose not to play again." in frame
    assert f'href="/rooms/?again={match.public_id}" data-room-go>' in frame
    await a.disconnect()
