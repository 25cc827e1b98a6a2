"""A private room's "friends only" option (issue 33 item 2): the chief's friends sit without the password;
everyone else still needs the invite link and the password."""

import pytest
from django.urls import reverse

from rooms import services
from rooms.models import Room, RoomSeat
from rooms.services import RoomRefused
from tests.support.friends import befriend
from tests.support.rooms import options

pytestmark = pytest.mark.django_db


@pytest.fixture
def friends_room(person):
    ana, bia, caio = person("Ana"), person("Bia"), person("Caio")
    befriend(ana, bia)
    room = services.create_room(
        ana, options(seats=4), is_private=True, name="Nossa", password="segredo1", friends_only=True
    )
    return room, ana, bia, caio


def test_a_friend_of_the_chief_sits_without_the_password_and_a_stranger_does_not(friends_room):
    room, _ana, bia, caio = friends_room
    services.join_room(bia, room.code)
    assert RoomSeat.objects.filter(room=room, user=bia, left_at__isnull=True).exists()
    with pytest.raises(RoomRefused) as refusal:
        services.join_room(caio, room.code)
    assert refusal.value.code == "missing_password"
    with pytest.raises(RoomRefused) as refusal:
        services.join_room(caio, room.code, password="wrong")
    assert refusal.value.code == "wrong_password"
    services.join_room(caio, room.code, password="segredo1")  # the password still works for anyone


def test_without_the_option_even_a_friend_needs_the_password(person):
    ana, bia = person("Ana"), person("Bia")
    befriend(ana, bia)
    room = services.create_room(ana, options(seats=4), is_private=True, name="Nossa", password="segredo1")
    with pytest.raises(RoomRefused) as refusal:
        services.join_room(bia, room.code)
    assert refusal.value.code == "missing_password"


def test_a_public_room_keeps_no_friends_only_flag(person):
    room = services.create_room(person("Ana"), options(), friends_only=True)
    assert Room.objects.get(pk=room.pk).friends_only is False


def test_the_room_page_offers_a_friend_one_click_and_a_stranger_the_password_form(client, friends_room):
    room, _ana, bia, caio = friends_room
    page = reverse("rooms:room", args=[room.code])
    client.force_login(bia)
    html = client.get(page, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'data-form="room-friend"' in html and "Ana lets friends sit without the password." in html
    assert 'data-form="room-password"' not in html
    client.post(reverse("rooms:join", args=[room.code]))
    assert RoomSeat.objects.filter(room=room, user=bia, left_at__isnull=True).exists()
    client.force_login(caio)
    html = client.get(page, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'data-form="room-password"' in html and 'data-form="room-friend"' not in html


def test_the_create_form_sets_the_option(client, person):
    ana = person("Ana")
    client.force_login(ana)
    client.post(
        reverse("rooms:create"),
        {
            "visibility": "private",
            "name": "Nossa",
            "password": "segredo1",
            "friends_only": "on",
            "variant": "paulista",
            "table": "2",
            "deck": "dirty",
            "all_tied": "dealer",
            "move_seconds": "99",
            "mode": "competitive",
        },
    )
    assert Room.objects.get(chief=ana).friends_only is True


def test_the_friends_page_links_a_friend_chiefs_friends_only_room(client, friends_room):
    room, _ana, bia, _caio = friends_room
    client.force_login(bia)
    html = client.get(reverse("accounts:friends"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    row = html.split('data-friend="Ana"')[1].split("</li>")[0]
    assert f'href="{reverse("rooms:room", args=[room.code])}"' in row and "Join" in row
