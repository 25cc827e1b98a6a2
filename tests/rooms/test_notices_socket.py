"""Every page's notices socket (issue 33): an invitation or a friend request reaches the person's header live,
wherever they are; the list empties when the room starts; a guest's socket is closed; an open page keeps its
person "online"."""

import pytest
from asgiref.sync import sync_to_async

from accounts import friends
from accounts.models import Profile
from rooms import invitations, services
from rooms.consumers import CLOSE_NOT_IN_ROOM
from tests.support.friends import befriend
from tests.support.rooms import options
from tests.support.sockets import open_socket

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


def call(func, *args, **kwargs):
    return sync_to_async(func)(*args, **kwargs)


async def test_an_invitation_reaches_the_header_live_and_leaves_it_when_the_room_starts(person):
    ana, bia = await call(person, "Ana"), await call(person, "Bia")
    await call(befriend, ana, bia)
    header = await open_socket("/ws/notices/", bia)
    first = await header.receive_from(timeout=3)
    assert 'id="notices-count" class="notices-count" hx-swap-oob="true" data-notices-count="0"' in first
    assert "data-notices-empty" in first
    room = await call(services.create_room, ana, options(seats=2), is_private=True, name="Nossa", password="segredo1")
    await call(invitations.invite, ana, room.code, name="Bia")
    frame = await header.receive_from(timeout=3)
    assert 'data-notices-count="1"' in frame and "<strong>Ana</strong> invites you to a room: Nossa" in frame
    assert 'id="notices-list" class="notices-list" hx-swap-oob="true"' in frame
    await call(services.fill_with_bots_and_start, ana, room.code, "easy")
    frame = await header.receive_from(timeout=3)
    assert "invites you" not in frame and "data-notices-empty" in frame
    await header.disconnect()


async def test_a_friend_request_is_counted_live(person):
    ana, bia = await call(person, "Ana"), await call(person, "Bia")
    header = await open_socket("/ws/notices/", bia)
    await header.receive_from(timeout=3)
    await call(friends.send_request, ana, "Bia")
    frame = await header.receive_from(timeout=3)
    assert 'data-friend-requests="1"' in frame and 'data-notices-count="1"' in frame
    await header.disconnect()


async def test_a_blocked_persons_request_never_reaches_the_header(person):
    ana, bia = await call(person, "Ana"), await call(person, "Bia")
    await call(friends.block, bia, "Ana")
    header = await open_socket("/ws/notices/", bia)
    await header.receive_from(timeout=3)
    assert await call(friends.send_request, ana, "Bia") == "sent"  # told "sent", as always
    assert await header.receive_nothing(timeout=0.5)
    await header.disconnect()


async def test_a_guest_socket_is_closed_at_once():
    header = await open_socket("/ws/notices/")
    assert (await header.receive_output(timeout=3))["code"] == CLOSE_NOT_IN_ROOM


async def test_an_open_header_stamps_its_person_online(person):
    ana = await call(person, "Ana")
    header = await open_socket("/ws/notices/", ana)
    await header.receive_from(timeout=3)
    profile = await call(Profile.objects.get, user=ana)
    assert profile.last_seen_at is not None
    await header.disconnect()
