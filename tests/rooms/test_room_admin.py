"""Staff set the price of a room seat in the admin; rooms themselves are read-only there."""

import pytest

from rooms import services
from rooms.models import Room, RoomSettings
from tests.support.rooms import blue, options

pytestmark = pytest.mark.django_db


def test_staff_change_the_blue_coin_price_and_the_next_seat_costs_it(admin_client, person):
    settings_row = RoomSettings.current()
    response = admin_client.post(
        f"/admin/rooms/roomsettings/{settings_row.pk}/change/", {"entry_blue_coins": "2"}, follow=True
    )
    assert response.status_code == 200
    assert RoomSettings.current().entry_blue_coins == 2
    ana = person("Ana", blue=5)
    services.create_room(ana, options())
    assert blue(ana) == 3


def test_a_negative_price_is_refused_in_the_admin(admin_client):
    settings_row = RoomSettings.current()
    response = admin_client.post(f"/admin/rooms/roomsettings/{settings_row.pk}/change/", {"entry_blue_coins": "-1"})
    assert response.status_code == 200 and "errornote" in response.content.decode()
    assert RoomSettings.current().entry_blue_coins == 1


def test_rooms_are_shown_to_staff_without_the_password_hash(admin_client, person):
    room = services.create_room(person("Ana"), options(), is_private=True, name="Amigos", password="segredo1")
    html = admin_client.get(f"/admin/rooms/room/{room.pk}/change/").content.decode()
    assert "Amigos" in html and room.password_hash not in html and "pbkdf2" not in html
    assert admin_client.get("/admin/rooms/room/add/").status_code == 403
    assert Room.objects.count() == 1
