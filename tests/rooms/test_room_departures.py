"""A person the chief removes from a waiting room, or whose room the chief closes, lands in the lobby told why
and how many blue coins came back (issue 30 item 6). The notice is read from their own seat and the refund's
ledger line, never from the address: a made-up `?out_of=` shows nothing, and nothing false."""

import re
from html import unescape

import pytest
from asgiref.sync import sync_to_async

from rooms import services
from rooms.models import Room, RoomSeat, RoomSettings
from rooms.selectors import departure_from
from shop.models import LedgerEntry
from tests.support.rooms import blue, options
from tests.support.sockets import open_socket

pytestmark = pytest.mark.django_db


def lobby(client, user, code: str, language: str = "en") -> str:
    if user is not None:
        client.force_login(user)
    return client.get("/rooms/", {"out_of": code}, HTTP_ACCEPT_LANGUAGE=language).content.decode()


def notice(html: str) -> str:
    """The notice's words, or "" when the page shows none."""
    found = re.search(r'<div class="room-notice".*?</div>', html, re.S)
    return unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", found.group(0)))).strip() if found else ""


def test_a_removed_player_lands_in_the_lobby_told_why_with_the_blue_coin_back(client, person):
    ana, bia = person("Ana"), person("Bia")
    room = services.create_room(ana, options(seats=4))
    services.join_room(bia, room.code)
    assert blue(bia) == 4
    client.force_login(ana)
    client.post(f"/rooms/r/{room.code}/remove/", {"user": str(bia.pk)})
    assert blue(bia) == 5
    html = lobby(client, bia, room.code)
    assert 'data-room-notice="removed" data-refunded="1"' in html
    assert notice(html) == (
        "The chief removed you from the public room (Paulista · 2 against 2). You got your 1 blue coin back."
    )
    pt = notice(lobby(client, bia, room.code, "pt-BR"))
    assert pt == "O chefe tirou você da sala pública (Paulista · 2 contra 2). Você recebeu de volta 1 moeda azul."


def test_the_amount_is_what_the_refund_gave_back_whatever_the_price_is_now(client, person):
    settings = RoomSettings.current()
    settings.entry_blue_coins = 2
    settings.save()
    ana, bia = person("Ana"), person("Bia")
    room = services.create_room(ana, options(seats=4), is_private=True, name="Mesa <b>da</b> Ana", password="truco123")
    services.join_room(bia, room.code, password="truco123")
    settings.entry_blue_coins = 7  # staff change the price while Bia waits: her seat paid 2, 2 come back
    settings.save()
    services.remove_player(ana, room.code, bia.pk)
    refund = LedgerEntry.objects.get(wallet__user=bia, reason="room_refund")
    assert refund.amount == 2
    html = lobby(client, bia, room.code)
    assert 'data-refunded="2"' in html and "&lt;b&gt;da&lt;/b&gt;" in html  # the room's name is text, escaped
    assert notice(html) == "The chief removed you from the room “Mesa <b>da</b> Ana”. You got your 2 blue coins back."


def test_a_seat_that_cost_nothing_is_told_why_and_nothing_about_coins(client, person):
    RoomSettings.objects.filter(pk=RoomSettings.current().pk).update(entry_blue_coins=0)
    ana, bia = person("Ana"), person("Bia")
    room = services.create_room(ana, options(seats=4))
    services.join_room(bia, room.code)
    services.remove_player(ana, room.code, bia.pk)
    html = lobby(client, bia, room.code)
    assert 'data-refunded="0"' in html and notice(html) == (
        "The chief removed you from the public room (Paulista · 2 against 2)."
    )


def test_when_the_chief_closes_the_room_everyone_in_it_is_told_and_the_chief_too(client, person):
    ana, bia, caio = person("Ana"), person("Bia"), person("Caio")
    room = services.create_room(ana, options(seats=4), is_private=True, name="Segredo", password="segredo1")
    services.join_room(bia, room.code, password="segredo1")
    services.join_room(caio, room.code, password="segredo1")
    client.force_login(ana)
    response = client.post(f"/rooms/r/{room.code}/close/")
    assert response.status_code == 302 and response["Location"] == f"/rooms/?out_of={room.code}"
    assert notice(lobby(client, ana, room.code)) == "You closed the room “Segredo”. You got your 1 blue coin back."
    for person_ in (bia, caio):
        assert notice(lobby(client, person_, room.code)) == (
            "The chief closed the room “Segredo”. You got your 1 blue coin back."
        )
    room.refresh_from_db()
    # One time for the close and every seat it emptied.
    assert set(room.room_seats.values_list("left_at", flat=True)) == {room.closed_at}


def test_made_up_addresses_show_nothing(client, person):
    ana, bia, caio, dani, edu = (person(n) for n in ("Ana", "Bia", "Caio", "Dani", "Edu"))
    room = services.create_room(ana, options(seats=4))
    services.join_room(bia, room.code)
    services.join_room(caio, room.code)
    services.leave_room(caio, room.code)  # Caio left by himself before the chief closed the room
    services.join_room(dani, room.code)
    services.remove_player(ana, room.code, dani.pk)
    services.join_room(dani, room.code)  # removed, then back in: nothing to say while he sits there
    other = services.create_room(edu, options(seats=4))
    for user, code in (
        (bia, room.code),  # still seated
        (dani, room.code),  # seated again
        (edu, room.code),  # never in it
        (None, room.code),  # a guest
        (bia, other.code),  # never in that one either
        (bia, "NoSuchRoomCodeHere"),
        (bia, "x" * 5000),
        (bia, ""),
    ):
        client.logout()
        html = lobby(client, user, code)
        assert notice(html) == "" and "data-room-notice" not in html, (user, code[:20])
    services.close_room(ana, room.code)
    assert notice(lobby(client, bia, room.code)).startswith("The chief closed")
    # Caio had left before the close: he is not told it was closed on him.
    assert notice(lobby(client, caio, room.code)) == "" and departure_from(caio, room.code) is None


def test_the_room_page_tells_a_removed_player_too(client, person):
    ana, bia = person("Ana"), person("Bia")
    room = services.create_room(ana, options(seats=4))
    services.join_room(bia, room.code)
    services.remove_player(ana, room.code, bia.pk)
    client.force_login(bia)
    html = client.get(f"/rooms/r/{room.code}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert notice(html).startswith("The chief removed you") and 'data-action="join-room"' in html


def test_a_person_who_left_by_themselves_is_sent_to_the_plain_lobby(client, person):
    ana, bia = person("Ana"), person("Bia")
    room = services.create_room(ana, options(seats=4))
    services.join_room(bia, room.code)
    client.force_login(bia)
    response = client.post(f"/rooms/r/{room.code}/leave/")
    assert response["Location"] == "/rooms/" and RoomSeat.objects.get(user=bia).left_at is not None


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_removed_players_room_socket_sends_them_to_the_lobby_that_tells_them(person):
    ana, bia = await sync_to_async(person)("Ana"), await sync_to_async(person)("Bia")
    room = await sync_to_async(services.create_room)(ana, options(seats=4))
    await sync_to_async(services.join_room)(bia, room.code)
    comm = await open_socket(f"/ws/room/{room.code}/", bia)
    await comm.receive_from(timeout=3)
    await sync_to_async(services.remove_player)(ana, room.code, bia.pk)
    last = await comm.receive_from(timeout=3)
    assert f'href="/rooms/?out_of={room.code}" data-room-go' in last
    departure = await sync_to_async(departure_from)(bia, room.code)
    assert (departure.how, departure.refunded, departure.room.status) == ("removed", 1, Room.Status.WAITING)
    await comm.disconnect()
