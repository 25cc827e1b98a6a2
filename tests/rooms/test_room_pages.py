"""The room pages: lobby, create form, join (one click, invite link + password, rate-limited), the waiting
room's buttons; bad input gets a clear message and changes nothing."""

import pytest
from django.urls import reverse

from rooms import services
from rooms.models import Room, RoomSeat
from shop.models import LedgerEntry
from stats.models import PlayerStats
from tests.support.rooms import blue, options

pytestmark = pytest.mark.django_db


def signed_in(client, user):
    client.force_login(user)
    return client


def page(client, url, **kwargs):
    response = client.get(url, **kwargs)
    return response.status_code, response.content.decode()


def messages_after(response, client) -> str:
    assert response.status_code in (302, 204)
    return client.get(response.headers.get("HX-Redirect") or response.url).content.decode()


def test_the_lobby_lists_public_waiting_rooms_with_options_chief_and_seats(client, person):
    ana, bia = person("Ana"), person("Bia")
    services.create_room(ana, options(seats=4, move_seconds=60))
    services.create_room(bia, options(), is_private=True, name="Segredo", password="segredo1")
    status, html = page(client, "/rooms/", HTTP_ACCEPT_LANGUAGE="en")
    assert status == 200 and "not built yet" not in html
    assert html.count('class="room-entry"') == 1  # the private room is not listed
    entry = html.split('class="room-entry"')[1].split("</li>")[0]
    assert "Ana" in entry and "2 against 2" in entry and "60 s a move" in entry and "1/4 seated" in entry
    assert "Segredo" not in html and 'ws-connect="/ws/rooms/' in html


def test_the_lobby_filters_by_variant_and_seats(client, person):
    services.create_room(person("Ana"), options(variant="mineiro"))
    services.create_room(person("Bia"), options(seats=4))
    _, html = page(client, "/rooms/?variant=mineiro")
    assert html.count('class="room-entry"') == 1 and "Ana" in html.split("room-list")[1]
    _, html = page(client, "/rooms/?table=4t")
    assert html.count('class="room-entry"') == 1 and "Bia" in html.split("room-list")[1]
    _, html = page(client, "/rooms/?table=junk&variant=%00")
    assert html.count('class="room-entry"') == 2  # bad filters are ignored, not an error


def test_the_lobby_speaks_portuguese(client, person):
    services.create_room(person("Ana"), options(seats=4))
    _, html = page(signed_in(client, person("Bia")), "/rooms/", HTTP_ACCEPT_LANGUAGE="pt-BR")
    assert "Entrada rápida" in html and "2 contra 2" in html


def test_the_home_page_lists_public_waiting_rooms(client, person):
    services.create_room(person("Ana"), options(seats=4))
    _, html = page(client, "/", HTTP_ACCEPT_LANGUAGE="en")
    section = html.split('data-home="rooms-waiting"')[1].split("</section>")[0]
    assert "Ana&#x27;s room" in section or "Ana's room" in section
    assert "1/4 seated" in section and "/rooms/r/" in section


def test_an_online_mineiro_room_says_so_and_paulista_ignores_the_style(client, person):
    ana, bia = person("Ana"), person("Bia")
    base = {"visibility": "public", "table": "2", "deck": "dirty", "all_tied": "dealer", "move_seconds": "99"}
    base["mode"] = "competitive"
    signed_in(client, ana).post("/rooms/new/", {**base, "variant": "mineiro", "mineiro_style": "online"})
    signed_in(client, bia).post("/rooms/new/", {**base, "variant": "paulista", "mineiro_style": "online"})
    styles = {r.variant: r.rules["mineiro_style"] for r in Room.objects.all()}
    assert styles == {"mineiro": "online", "paulista": "classic"}
    _, html = page(client, "/rooms/", HTTP_ACCEPT_LANGUAGE="en")
    assert "Online Mineiro" in html


def test_creating_a_room_through_the_form(client, person):
    ana = person("Ana")
    response = signed_in(client, ana).post(
        "/rooms/new/",
        {
            "visibility": "private",
            "name": "Amigos",
            "password": "segredo1",
            "variant": "paulista",
            "table": "4t",
            "deck": "clean",
            "face_down": "off",
            "all_tied": "nobody",
            "move_seconds": "30",
            "mode": "practice",
        },
    )
    room = Room.objects.get()
    assert response.status_code == 302 and response.url == f"/rooms/r/{room.code}/"
    assert (room.is_private, room.name, room.seats, room.partnership, room.move_seconds, room.mode) == (
        True,
        "Amigos",
        4,
        True,
        30,
        "practice",
    )
    assert room.rules["deck"] == "clean" and room.rules["face_down"] is False and room.rules["all_tied"] == "nobody"
    assert blue(ana) == 4
    _, html = page(client, response.url)
    assert room.code in html and "data-invite-link" in html and "segredo1" not in html


@pytest.mark.parametrize(
    "data, field",
    [
        ({"visibility": "private", "name": "", "password": "segredo1"}, "name"),
        ({"visibility": "private", "name": "Amigos", "password": ""}, "password"),
        ({"visibility": "private", "name": "Amigos", "password": "abc"}, "password"),
        ({"name": "x" * 41, "visibility": "private", "password": "segredo1"}, "name"),
        ({"move_seconds": "45"}, "move_seconds"),
        ({"table": "3"}, "table"),
        ({"variant": "gaucho"}, "variant"),
        ({"mode": "ranked"}, "mode"),
        ({"password": "p" * 65, "visibility": "private", "name": "Amigos"}, "password"),
    ],
)
def test_a_malformed_room_form_shows_the_error_and_changes_nothing(client, person, data, field):
    ana = person("Ana")
    base = {"visibility": "public", "variant": "paulista", "table": "2", "deck": "dirty", "all_tied": "dealer"}
    base.update({"move_seconds": "99", "mode": "competitive"})
    response = signed_in(client, ana).post("/rooms/new/", {**base, **data}, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200
    assert f'data-error-for="{field}"' in response.content.decode()
    assert Room.objects.count() == 0 and blue(ana) == 5


def test_creating_without_blue_coins_says_so_with_a_link_to_the_shop(client, person):
    poor = person("Pobre", blue=0)
    base = {"visibility": "public", "variant": "paulista", "table": "2", "deck": "dirty", "all_tied": "dealer"}
    response = signed_in(client, poor).post(
        "/rooms/new/", {**base, "move_seconds": "99", "mode": "competitive"}, HTTP_ACCEPT_LANGUAGE="en"
    )
    html = response.content.decode()
    assert response.status_code == 200 and "Not enough blue coins" in html and 'data-nav="shop-blue-coins"' in html
    assert Room.objects.count() == 0 and LedgerEntry.objects.filter(reason="room_entry").count() == 0


def test_room_pages_need_an_account(client, person):
    room = services.create_room(person("Ana"), options())
    for url in ("/rooms/new/",):
        assert client.get(url).status_code == 302
    response = client.post(f"/rooms/r/{room.code}/join/")
    assert response.status_code == 302 and "/accounts/login/" in response.url
    assert RoomSeat.objects.count() == 1


def test_one_click_join_from_the_lobby_with_htmx(client, person):
    ana, bia = person("Ana"), person("Bia")
    room = services.create_room(ana, options(seats=4))
    response = signed_in(client, bia).post(f"/rooms/r/{room.code}/join/", HTTP_HX_REQUEST="true")
    assert response.status_code == 204 and response.headers["HX-Redirect"] == f"/rooms/r/{room.code}/"
    _, html = page(client, f"/rooms/r/{room.code}/", HTTP_ACCEPT_LANGUAGE="en")
    assert 'data-seat-user="Bia"' in html and 'data-seat-user="Ana"' in html and "2/4 seated" in html
    assert 'ws-connect="/ws/room/' in html


def test_the_invite_link_asks_for_the_password_and_a_wrong_one_is_refused(client, person):
    ana, bia = person("Ana"), person("Bia")
    room = services.create_room(ana, options(), is_private=True, name="Amigos", password="segredo1")
    signed_in(client, bia)
    _, html = page(client, f"/rooms/r/{room.code}/", HTTP_ACCEPT_LANGUAGE="en")
    assert 'data-form="room-password"' in html and "Amigos" in html
    response = client.post(f"/rooms/r/{room.code}/join/", {"password": "errada"}, HTTP_ACCEPT_LANGUAGE="en")
    assert "That is not the room&#x27;s password." in messages_after(response, client)
    response = client.post(f"/rooms/r/{room.code}/join/", {}, HTTP_ACCEPT_LANGUAGE="en")
    assert "This room needs its password." in messages_after(response, client)
    response = client.post(f"/rooms/r/{room.code}/join/", {"password": "s" * 100_000}, HTTP_ACCEPT_LANGUAGE="en")
    assert "That is not the room&#x27;s password." in messages_after(response, client)
    assert blue(bia) == 5 and RoomSeat.objects.filter(user=bia).count() == 0
    response = client.post(f"/rooms/r/{room.code}/join/", {"password": "segredo1"})
    room.refresh_from_db()
    assert room.status == Room.Status.STARTED
    assert client.get(f"/rooms/r/{room.code}/").url == f"/play/m/{room.match.public_id}/"
    assert client.get(f"/play/m/{room.match.public_id}/").status_code == 200


def test_wrong_passwords_are_rate_limited_even_the_right_one_then(client, person):
    ana, bia = person("Ana"), person("Bia")
    room = services.create_room(ana, options(), is_private=True, name="Amigos", password="segredo1")
    signed_in(client, bia)
    for _ in range(5):
        client.post(f"/rooms/r/{room.code}/join/", {"password": "errada"})
    assert not RoomSeat.objects.filter(user=bia).exists()
    response = client.post(f"/rooms/r/{room.code}/join/", {"password": "segredo1"}, HTTP_ACCEPT_LANGUAGE="en")
    assert "Too many wrong passwords" in messages_after(response, client)
    assert RoomSeat.objects.filter(user=bia).count() == 0 and blue(bia) == 5


def test_a_tampered_invite_code_is_a_clear_404(client, person):
    room = services.create_room(person("Ana"), options(), is_private=True, name="Amigos", password="segredo1")
    bia = person("Bia")
    signed_in(client, bia)
    tampered = room.code[:-2] + ("xy" if not room.code.endswith("xy") else "zz")
    status, html = page(client, f"/rooms/r/{tampered}/", HTTP_ACCEPT_LANGUAGE="en")
    assert status == 404 and "There is no room at this link." in html
    assert client.post(f"/rooms/r/{tampered}/join/", {"password": "segredo1"}).status_code == 404
    assert client.get("/rooms/r/" + "a" * 40 + "/").status_code == 404
    assert RoomSeat.objects.filter(user=bia).count() == 0


def test_joining_a_started_room_says_so(client, person):
    ana, bia, caio = person("Ana"), person("Bia"), person("Caio")
    room = services.create_room(ana, options())
    services.join_room(bia, room.code)
    signed_in(client, caio)
    _, html = page(client, f"/rooms/r/{room.code}/", HTTP_ACCEPT_LANGUAGE="en")
    assert "already started" in html
    response = client.post(f"/rooms/r/{room.code}/join/", HTTP_ACCEPT_LANGUAGE="en")
    assert "This room&#x27;s match has already started." in messages_after(response, client)
    assert blue(caio) == 5


def test_waiting_room_buttons_leave_seat_remove(client, person):
    ana, bia, caio = person("Ana"), person("Bia"), person("Caio")
    room = services.create_room(ana, options(seats=4))
    services.join_room(bia, room.code)
    services.join_room(caio, room.code)
    signed_in(client, bia)
    response = client.post(f"/rooms/r/{room.code}/seat/", {"number": "3"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 204 and RoomSeat.objects.get(user=bia, left_at__isnull=True).number == 3
    response = client.post(f"/rooms/r/{room.code}/seat/", {"number": "x"}, HTTP_ACCEPT_LANGUAGE="en")
    assert "That seat is taken" in messages_after(response, client)
    response = client.post(f"/rooms/r/{room.code}/remove/", {"user": str(caio.pk)}, HTTP_ACCEPT_LANGUAGE="en")
    assert "Only the room&#x27;s chief may do that." in messages_after(response, client)
    response = client.post(f"/rooms/r/{room.code}/leave/", HTTP_HX_REQUEST="true")
    assert response.headers["HX-Redirect"] == "/rooms/" and blue(bia) == 5
    signed_in(client, ana)
    client.post(f"/rooms/r/{room.code}/remove/", {"user": str(caio.pk)})
    assert blue(caio) == 5 and RoomSeat.objects.filter(room=room, left_at__isnull=True).count() == 1


def test_quick_join_from_the_lobby(client, person):
    ana = person("Ana")
    response = signed_in(client, ana).post("/rooms/quick/", {"variant": "mineiro", "table": "4s"})
    room = Room.objects.get()
    assert response.url == f"/rooms/r/{room.code}/" and (room.variant, room.seats, room.partnership) == (
        "mineiro",
        4,
        False,
    )
    response = client.post("/rooms/quick/", {"variant": "truco-gaucho", "table": "9"}, HTTP_ACCEPT_LANGUAGE="en")
    assert "Pick a variant and a number of players." in messages_after(response, client)
    assert Room.objects.count() == 1 and blue(ana) == 4


def test_get_is_not_an_action(client, person):
    room = services.create_room(person("Ana"), options(seats=4))
    signed_in(client, person("Bia"))
    for action in ("join", "leave", "seat", "remove", "bots", "close"):
        assert client.get(f"/rooms/r/{room.code}/{action}/").status_code == 405
    assert client.get("/rooms/quick/").status_code == 405
    assert RoomSeat.objects.count() == 1


def test_the_wallet_names_room_charges_and_refunds(client, person):
    ana = person("Ana")
    room = services.create_room(ana, options())
    services.leave_room(ana, room.code)
    html = signed_in(client, ana).get(reverse("shop:wallet"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Seat in a room" in html and "Room seat given back" in html


def test_the_waiting_room_shows_each_persons_level_and_links_their_name_to_their_profile(client, person):
    ana, bia = person("Ana"), person("Bia")
    PlayerStats.objects.create(user=bia, counters={"played": 10, "won": 10, "lost": 0})  # 300 experience: level 3
    room = services.create_room(ana, options(seats=4))
    signed_in(client, bia).post(f"/rooms/r/{room.code}/join/")
    _, html = page(client, f"/rooms/r/{room.code}/", HTTP_ACCEPT_LANGUAGE="en")
    seats = {seat.split('"')[0]: seat for seat in html.split('data-seat-user="')[1:]}
    assert 'data-level="3"' in seats["Bia"].split("</li>")[0] and "Level 3" in seats["Bia"]
    assert 'data-level="1"' in seats["Ana"].split("</li>")[0]  # no counted match yet
    profile = reverse("accounts:public_profile", args=[bia.username])
    assert f'href="{profile}" data-profile-link' in seats["Bia"]  # the name leads to the profile


def test_the_chiefs_name_links_to_their_profile_in_the_lobby_and_on_the_room_page(client, person):
    ana, bia = person("Ana"), person("Bia")
    room = services.create_room(ana, options(seats=4))
    client.force_login(bia)
    profile = reverse("accounts:public_profile", args=["Ana"])
    assert f'<a href="{profile}">Ana</a>' in client.get(reverse("rooms:lobby")).content.decode()
    assert f'<a href="{profile}">Ana</a>' in client.get(reverse("rooms:room", args=[room.code])).content.decode()
