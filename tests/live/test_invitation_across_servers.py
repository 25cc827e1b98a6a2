"""A live invitation between two real daphne processes on PostgreSQL + Redis (issue 33): the chief invites on
one process, the friend's header open on the other shows it at once, and the friend joins from it in one click,
without the password."""

import re
import urllib.request

import pytest
from django.conf import settings as django_settings
from django.db import connection
from websockets.sync.client import connect

from rooms import services
from rooms.models import RoomSeat
from tests.support.friends import befriend
from tests.support.rooms import options
from tests.support.sockets import session_cookie

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql" or not django_settings.REDIS_URL,
        reason="two processes reach each other's sockets only through the Redis channel layer",
    ),
]


def found(pattern: str, text: str) -> str:
    match = re.search(pattern, text)
    assert match is not None, f"{pattern} not in {text[:300]}"
    return match.group(1)


def post(server, path: str, cookie: str, *, page: str, data: bytes = b""):
    """An htmx POST as the browser sends it: the session, and the CSRF token read off a page of that server."""
    with urllib.request.urlopen(urllib.request.Request(server.url + page, headers={"Cookie": cookie}), timeout=30) as r:
        token = found(r'"X-CSRFToken": "([^"]+)"', r.read().decode())
        csrf_cookie = found(r"csrftoken=([^;]+)", r.headers["Set-Cookie"])
    request = urllib.request.Request(
        server.url + path,
        data=data,
        method="POST",
        headers={
            "Cookie": f"{cookie}; csrftoken={csrf_cookie}",
            "X-CSRFToken": token,
            "HX-Request": "true",
            "Origin": server.url,
            "Content-Type": "application/x-www-form-urlencoded",
        },
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        return response.status, response.headers, response.read().decode()


def test_an_invitation_sent_on_one_process_reaches_the_header_on_the_other_and_seats_the_friend(two_servers, make_user):
    here, there = two_servers
    ana, bia = make_user("Ana"), make_user("Bia")
    befriend(ana, bia)
    room = services.create_room(ana, options(seats=4), is_private=True, name="Nossa", password="segredo1")
    ana_cookie, bia_cookie = session_cookie(ana), session_cookie(bia)
    room_page = f"/rooms/r/{room.code}/"

    with connect(
        f"{there.ws_url}/ws/notices/",
        additional_headers={"Origin": there.url, "Cookie": bia_cookie, "Accept-Language": "en"},
        open_timeout=10,
    ) as header:
        assert "data-notices-empty" in header.recv(timeout=10)
        status, _headers, fragment = post(
            here, f"/rooms/r/{room.code}/invite/", ana_cookie, page=room_page, data=b"name=Bia"
        )
        assert status == 200 and "data-invited" in fragment
        frame = header.recv(timeout=10)  # from the other process, through Redis
        assert "<strong>Ana</strong> invites you to a room: Nossa" in frame and 'data-notices-count="1"' in frame
        invitation = found(r'data-invitation="(\d+)"', frame)

        status, headers, _ = post(there, f"/rooms/invitations/{invitation}/join/", bia_cookie, page="/play/")
        assert status == 204 and headers.get("HX-Redirect") == room_page
        assert RoomSeat.objects.filter(room=room, user=bia, left_at__isnull=True).exists()
        assert "data-notices-empty" in header.recv(timeout=10)  # gone from the list: she is in the room
