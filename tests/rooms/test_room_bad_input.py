"""Bad input to the room pages that tests/rooms/test_room_pages.py does not already send: a closed room, a
second tab joining, a removed player's buttons, numbers and levels no form would post. Each gets a clear
message in the person's language and changes nothing (no seat, no blue coin, no ledger line)."""

import pytest

from rooms import services
from rooms.models import Room, RoomSeat
from shop.models import LedgerEntry
from tests.support.rooms import blue, options

pytestmark = pytest.mark.django_db


def signed_in(client, user):
    client.force_login(user)
    return client


def message_after(response, client, language="en") -> str:
    """The page the refusal redirected to (htmx: `HX-Redirect`), where the message is shown."""
    assert response.status_code in (302, 204)
    url = response.headers.get("HX-Redirect") or response.url
    return client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()


def everything():
    return (
        list(RoomSeat.objects.values_list("room_id", "user_id", "number", "left_at", "removed")),
        list(Room.objects.values_list("pk", "status", "chief_id")),
        LedgerEntry.objects.count(),
    )


def test_joining_a_closed_room_says_so_and_charges_nothing(client, person):
    ana, bia = person("Ana"), person("Bia")
    room = services.create_room(ana, options(seats=4))
    services.close_room(ana, room.code)
    before = everything()
    response = signed_in(client, bia).post(
        f"/rooms/r/{room.code}/join/", HTTP_HX_REQUEST="true", HTTP_ACCEPT_LANGUAGE="en"
    )
    assert "This room is closed." in message_after(response, client)
    assert everything() == before and blue(bia) == 5


def test_joining_a_full_room_in_portuguese_says_it_started(client, person):
    # A room starts the moment its last seat is taken: "full" is "started" to anyone arriving later.
    ana, bia, caio = person("Ana"), person("Bia"), person("Caio")
    room = services.create_room(ana, options(seats=2))
    services.join_room(bia, room.code)
    before = everything()
    response = signed_in(client, caio).post(f"/rooms/r/{room.code}/join/", HTTP_ACCEPT_LANGUAGE="pt-br")
    assert "A partida desta sala já começou." in message_after(response, client, language="pt-br")
    assert everything() == before and blue(caio) == 5


def test_joining_from_a_second_tab_is_refused_and_charged_once(client, person):
    ana, bia = person("Ana"), person("Bia")
    room = services.create_room(ana, options(seats=4))
    signed_in(client, bia).post(f"/rooms/r/{room.code}/join/", HTTP_HX_REQUEST="true", HTTP_ACCEPT_LANGUAGE="en")
    assert blue(bia) == 4
    before = everything()
    second_tab = client.post(f"/rooms/r/{room.code}/join/", HTTP_HX_REQUEST="true", HTTP_ACCEPT_LANGUAGE="en")
    assert "You are already waiting in a room; leave it first." in message_after(second_tab, client)
    quick = client.post("/rooms/quick/", {"variant": "paulista", "table": "4t"}, HTTP_ACCEPT_LANGUAGE="en")
    assert "already waiting in a room" in message_after(quick, client)
    assert everything() == before and blue(bia) == 4
    assert RoomSeat.objects.filter(user=bia, left_at__isnull=True).count() == 1


def test_a_removed_players_buttons_are_refused(client, person):
    ana, bia, caio = person("Ana"), person("Bia"), person("Caio")
    room = services.create_room(ana, options(seats=4))
    services.join_room(bia, room.code)
    services.join_room(caio, room.code)
    services.remove_player(ana, room.code, bia.pk)
    assert blue(bia) == 5  # refunded once
    before = everything()
    signed_in(client, bia)
    for action, data in (("seat", {"number": "3"}), ("leave", {}), ("remove", {"user": str(caio.pk)})):
        response = client.post(f"/rooms/r/{room.code}/{action}/", data, HTTP_ACCEPT_LANGUAGE="en")
        html = message_after(response, client)
        assert "You are not in this room." in html or "Only the room&#x27;s chief may do that." in html, action
    assert everything() == before and blue(bia) == 5
    # The waiting room's page no longer shows them the room's seats.
    html = client.get(f"/rooms/r/{room.code}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'data-seat-user="Caio"' not in html


@pytest.mark.parametrize(
    "action, field, value, message",
    [
        ("seat", "number", "9" * 40, "That seat is taken; pick a free one."),
        ("seat", "number", "-1", "That seat is taken; pick a free one."),
        ("seat", "number", "1.5", "That seat is taken; pick a free one."),
        ("seat", "number", "", "That seat is taken; pick a free one."),
        ("remove", "user", "9" * 40, "That player is not in this room."),
        ("remove", "user", "0x10", "That player is not in this room."),
        ("bots", "level", "x" * 10_000, "Pick a bot level: easy, medium or hard."),
        ("bots", "level", "", "Pick a bot level: easy, medium or hard."),
    ],
)
def test_numbers_and_levels_no_form_would_post_are_refused_with_a_message(
    client, person, action, field, value, message
):
    ana, bia = person("Ana"), person("Bia")
    room = services.create_room(ana, options(seats=4), is_private=True, name="Amigos", password="segredo1")
    services.join_room(bia, room.code, password="segredo1")
    before = everything()
    response = signed_in(client, ana).post(f"/rooms/r/{room.code}/{action}/", {field: value}, HTTP_ACCEPT_LANGUAGE="en")
    assert message.replace("'", "&#x27;") in message_after(response, client)
    assert everything() == before and blue(ana) == 4 and blue(bia) == 4


def test_a_quick_join_form_that_is_oversized_or_repeated_is_refused(client, person):
    ana = person("Ana")
    signed_in(client, ana)
    # A repeated field counts by its last value (Django's QueryDict), here one no form offers.
    for data in ({"variant": "p" * 100_000, "table": "2"}, {"variant": ["paulista", "mineiro"], "table": ["2", "9"]}):
        response = client.post("/rooms/quick/", data, HTTP_ACCEPT_LANGUAGE="en")
        assert "Pick a variant and a number of players." in message_after(response, client)
    assert Room.objects.count() == 0 and blue(ana) == 5
