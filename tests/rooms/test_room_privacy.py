"""A person's rooms in their data export; deleting an account leaves its waiting room cleanly."""

import pytest

from accounts.services import delete_account, export_personal_data
from rooms import services
from rooms.models import Room, RoomSeat
from tests.support.rooms import options

pytestmark = pytest.mark.django_db


def test_the_export_lists_room_seats_with_the_address_recorded(person):
    ana = person("Ana")
    room = services.create_room(ana, options(), is_private=True, name="Amigos", password="segredo1", ip="10.1.2.3")
    services.leave_room(ana, room.code)
    (seat,) = export_personal_data(ana)["room_seats"]
    assert seat["room"] == room.code and seat["room_name"] == "Amigos" and seat["chief"] is True
    assert seat["ip_address"] == "10.1.2.3" and seat["left_at"] is not None
    assert "password" not in str(seat)


def test_deleting_a_chief_hands_the_room_on_and_deleting_the_last_person_closes_it(person):
    ana, bia = person("Ana"), person("Bia")
    room = services.create_room(ana, options(seats=4))
    services.join_room(bia, room.code)
    delete_account(ana)
    room.refresh_from_db()
    assert room.chief == bia and room.status == Room.Status.WAITING
    assert list(RoomSeat.objects.filter(room=room).values_list("user__username", flat=True)) == ["Bia"]
    delete_account(bia)
    room.refresh_from_db()
    assert room.status == Room.Status.CLOSED and RoomSeat.objects.filter(room=room).count() == 0
