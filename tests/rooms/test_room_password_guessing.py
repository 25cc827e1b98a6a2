"""Guessing a private room's password (issue 28 item 3).

Wrong passwords are capped per account, per address (whatever the accounts) and per room (whoever
guesses); a full cap refuses typed passwords, the right one too, for a few minutes, with a message
saying so. The invite link carries the room's key: an invitee who types the right password with it gets
in while strangers have locked the room. Sign-up is limited per address too (the accounts a guesser
multiplies).
"""

import re

import pytest
from django.contrib.auth.hashers import check_password

from rooms import passwords, services
from rooms.models import RoomSeat
from rooms.options import TableOptions, change_options
from tests.support.rooms import options
from tests.support.threads import run_in_threads

pytestmark = pytest.mark.django_db

PASSWORD = "segredo1"
ONE_ADDRESS = "198.51.100.7"


@pytest.fixture
def checked(monkeypatch):
    """Every password actually compared with a room's hash (what a guesser gets out of the site)."""
    seen = []

    def counting(password, encoded, *args, **kwargs):
        seen.append(password)
        return check_password(password, encoded, *args, **kwargs)

    monkeypatch.setattr(services, "check_password", counting)
    return seen


def private_room(person, name="Chefe"):
    return services.create_room(person(name), options(), is_private=True, name="Amigos", password=PASSWORD)


def join(client, user, room, password, *, address, invite=None, language="en") -> str:
    """Post the room's password form as `user` from `address`; the text of the page it leads to."""
    client.force_login(user)
    data = {"password": password}
    if invite is not None:
        data["invite"] = invite
    response = client.post(f"/rooms/r/{room.code}/join/", data, REMOTE_ADDR=address, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 302
    return client.get(response.url, REMOTE_ADDR=address, HTTP_ACCEPT_LANGUAGE=language).content.decode()


def seated(user) -> bool:
    return RoomSeat.objects.filter(user=user, left_at__isnull=True).exists()


def invite_link(client, chief, room) -> str:
    client.force_login(chief)
    html = client.get(f"/rooms/r/{room.code}/").content.decode()
    field = re.search(r"<input[^>]*data-invite-link[^>]*>", html).group(0)  # type: ignore[union-attr]
    return re.search(r'value="([^"]+)"', field).group(1).replace("&amp;", "&")  # type: ignore[union-attr]


def test_five_accounts_from_one_address_get_at_most_ten_guesses_checked(client, person, checked):
    # The case: 5 accounts, one address, 6 guesses each at one room. 25 of the 30 were checked.
    room = private_room(person)
    curious = [person(f"Curioso{n}") for n in range(5)]
    for attempt in range(6):
        for account in curious:
            join(client, account, room, f"chute{attempt}", address=ONE_ADDRESS)
    assert len(checked) == 10
    # The right password from that address is refused too, with the reason, and never checked.
    html = join(client, curious[0], room, PASSWORD, address=ONE_ADDRESS)
    assert "Too many wrong room passwords came from your network" in html
    assert len(checked) == 10 and not seated(curious[0])


@pytest.mark.django_db(transaction=True)
def test_thirty_guesses_sent_at_once_from_one_address_get_ten_checked(person, checked):
    # Each guess takes its place under the caps before its password is compared, so guesses racing
    # each other cannot all slip under a cap that none of them has filled yet.
    room = private_room(person)
    curious = [person(f"Curioso{n}") for n in range(6)]

    def guess(n):
        try:
            passwords.join(curious[n % 6], room.code, password=f"chute{n}", ip=ONE_ADDRESS)
        except services.RoomRefused as refusal:
            return refusal.code

    answers, errors = run_in_threads(30, guess)
    assert errors == [] and len(checked) == 10
    assert sorted(answers).count("wrong_password") == 10 and answers.count("too_many_guesses") == 20


def test_an_address_is_capped_over_all_rooms(client, person, checked):
    rooms = [private_room(person, f"Chefe{n}") for n in range(3)]
    curious = [person(f"Curioso{n}") for n in range(3)]
    for account, room in zip(curious, rooms, strict=True):
        for attempt in range(4):
            join(client, account, room, f"chute{attempt}", address=ONE_ADDRESS)
    assert len(checked) == 10
    # Another address is not held by this one's cap.
    assert "That is not the room&#x27;s password." in join(client, curious[2], rooms[2], "outro", address="203.0.113.9")


def test_a_room_takes_no_typed_password_for_a_while_after_ten_wrong_ones_from_anywhere(
    client, person, checked, monkeypatch
):
    room = private_room(person)
    for n in range(10):
        join(client, person(f"Curioso{n}"), room, f"chute{n}", address=f"203.0.113.{n + 1}")
    assert len(checked) == 10
    # A fresh account from a fresh address typing the right password: refused, unchecked, told why.
    bia = person("Bia")
    html = join(client, bia, room, PASSWORD, address="192.0.2.50")
    assert "Someone has been guessing this room&#x27;s password" in html and "for 15 more minutes" in html
    assert len(checked) == 10 and not seated(bia)
    html = join(client, bia, room, PASSWORD, address="192.0.2.50", language="pt-BR")
    assert "Alguém anda tentando adivinhar a senha desta sala" in html
    # The lock is short: 15 minutes after the first wrong password, typed passwords are checked again.
    now = passwords.clock()
    monkeypatch.setattr(passwords, "clock", lambda: now + 15 * 60 + 1)
    join(client, bia, room, PASSWORD, address="192.0.2.50")
    assert seated(bia)


def test_the_invite_link_seats_an_invitee_while_the_room_is_locked(client, person, checked):
    room = private_room(person)
    link = invite_link(client, room.chief, room)
    assert link.startswith(f"http://testserver/rooms/r/{room.code}/?invite=")
    for n in range(10):
        join(client, person(f"Curioso{n}"), room, f"chute{n}", address=f"203.0.113.{n + 1}")
    # Bia opens the link she was sent: the password form carries the room's key.
    bia = person("Bia")
    client.force_login(bia)
    html = client.get(link.removeprefix("http://testserver"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'data-form="room-password"' in html
    key = re.search(r'name="invite" value="([0-9a-f]+)"', html).group(1)
    # A wrong password with the key is refused like any other; the right one seats her.
    assert "That is not the room&#x27;s password." in join(
        client, bia, room, "errada", address="192.0.2.50", invite=key
    )
    join(client, bia, room, PASSWORD, address="192.0.2.50", invite=key)
    assert seated(bia)


def test_a_key_that_is_not_the_rooms_opens_no_lock_and_wrong_passwords_with_the_key_count(client, person, checked):
    room = private_room(person)
    key = invite_link(client, room.chief, room).split("invite=")[1]
    # Ten wrong passwords, all typed with the real key, still lock the room for people without it.
    for n in range(10):
        join(client, person(f"Curioso{n}"), room, f"chute{n}", address=f"203.0.113.{n + 1}", invite=key)
    bia = person("Bia")
    for forged in ("0" * 32, key[:-1] + ("0" if key[-1] != "0" else "1"), "\x00", "k" * 5000):
        html = join(client, bia, room, PASSWORD, address="192.0.2.50", invite=forged)
        assert "Someone has been guessing this room&#x27;s password" in html and not seated(bia)
    assert len(checked) == 10


def test_a_new_password_makes_a_new_invite_key(client, person, checked):
    room = private_room(person)
    old_key = invite_link(client, room.chief, room).split("invite=")[1]
    change_options(
        room.chief,
        room.code,
        TableOptions(
            move_seconds=99,
            mode="competitive",
            stake_coins=0,
            is_private=True,
            allow_spectators=True,
            partner_signals=False,
            password="nova-senha",
        ),
    )
    new_key = invite_link(client, room.chief, room).split("invite=")[1]
    assert new_key != old_key
    for n in range(10):
        join(client, person(f"Curioso{n}"), room, f"chute{n}", address=f"203.0.113.{n + 1}")
    bia = person("Bia")
    assert "Someone has been guessing" in join(client, bia, room, "nova-senha", address="192.0.2.50", invite=old_key)
    join(client, bia, room, "nova-senha", address="192.0.2.50", invite=new_key)
    assert seated(bia)


def test_signing_in_from_an_invite_link_comes_back_to_it(client, person):
    room = private_room(person)
    link = invite_link(client, room.chief, room).removeprefix("http://testserver")
    client.logout()
    html = client.get(link, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "/accounts/login/?next=" in html and "invite%3D" in html


def test_signing_up_is_limited_per_address_with_a_page_that_says_so(client):
    def sign_up(n: int, language: str = "en"):
        client.logout()
        return client.post(
            "/accounts/signup/",
            {
                "email": f"novo{n}@example.com",
                "username": f"Novo{n}",
                "password1": "a-Strong-pass-42",
                "password2": "a-Strong-pass-42",
            },
            REMOTE_ADDR=ONE_ADDRESS,
            HTTP_ACCEPT_LANGUAGE=language,
        )

    for n in range(10):
        assert sign_up(n).status_code == 302
    refused = sign_up(10)
    assert refused.status_code == 429 and "Too many attempts from your network" in refused.content.decode()
    assert "Tentativas demais vindas da sua rede" in sign_up(11, "pt-BR").content.decode()
    # Another address signs up as usual.
    client.logout()
    response = client.post(
        "/accounts/signup/",
        {
            "email": "outra@example.com",
            "username": "Outra",
            "password1": "a-Strong-pass-42",
            "password2": "a-Strong-pass-42",
        },
        REMOTE_ADDR="203.0.113.20",
    )
    assert response.status_code == 302


def test_the_room_stays_locked_until_its_tenth_newest_wrong_password_is_fifteen_minutes_old(
    client, person, checked, monkeypatch
):
    # Wrong passwords typed with the key count even once the cap is full: the lock is read off the ten
    # newest, not the oldest (which would open it early).
    room = private_room(person)
    key = invite_link(client, room.chief, room).split("invite=")[1]
    start = passwords.clock()
    for n in range(12):
        at = start + (0 if n < 2 else 5 * 60)
        monkeypatch.setattr(passwords, "clock", lambda at=at: at)
        join(client, person(f"Curioso{n}"), room, f"chute{n}", address=f"203.0.113.{n + 1}", invite=key)
    monkeypatch.setattr(passwords, "clock", lambda: start + 6 * 60)
    bia = person("Bia")
    assert "for 14 more minutes" in join(client, bia, room, PASSWORD, address="192.0.2.50")
    monkeypatch.setattr(passwords, "clock", lambda: start + 20 * 60 + 1)
    join(client, bia, room, PASSWORD, address="192.0.2.50")
    assert seated(bia)
