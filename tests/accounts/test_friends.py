"""Friends and blocks (issue 33 item 1): requests and their answers, removal, blocking; bad input gets a
clear refusal and changes nothing; the pages, the profile's buttons, the export, and quick join."""

import json

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse

from accounts import friends
from accounts.friends import FriendRefused
from accounts.models import Block, FriendRequest, Friendship
from accounts.services import delete_account, update_profile
from games import engine
from games.models import Match
from rooms import services as rooms
from tests.support.friends import befriend
from tests.support.rooms import options, started_room_match

pytestmark = pytest.mark.django_db


@pytest.fixture
def ana(make_user):
    return make_user("Ana", password=None)


@pytest.fixture
def bia(make_user):
    return make_user("Bia", password=None)


def rows():
    """Every friends row, to show a refusal changed nothing."""
    return (
        sorted(FriendRequest.objects.values_list("sender_id", "recipient_id")),
        sorted(Friendship.objects.values_list("user_id", "friend_id")),
        sorted(Block.objects.values_list("blocker_id", "blocked_id")),
    )


def refused(code, call, *args):
    before = rows()
    with pytest.raises(FriendRefused) as refusal:
        call(*args)
    assert refusal.value.code == code
    assert rows() == before
    return refusal.value


# --- requests and answers -------------------------------------------------------------------


def test_a_request_accepted_makes_two_friends_and_is_gone(ana, bia):
    assert friends.send_request(ana, "bia") == "sent"  # any case
    request = FriendRequest.objects.get(sender=ana, recipient=bia)
    assert friends.relation(ana, bia) == "asked" and friends.relation(bia, ana) == "asked_you"
    assert friends.accept(bia, request.pk) == ana
    assert friends.are_friends(ana.pk, bia.pk) and friends.are_friends(bia.pk, ana.pk)
    assert not FriendRequest.objects.exists()
    assert [f["user"].username for f in friends.friends_page(ana)["friends"]] == ["Bia"]


def test_declined_and_withdrawn_requests_leave_no_friendship(ana, bia):
    friends.send_request(ana, "Bia")
    friends.decline(bia, FriendRequest.objects.get().pk)
    friends.send_request(ana, "Bia")
    friends.withdraw(ana, FriendRequest.objects.get().pk)
    assert rows() == ([], [], [])


def test_two_requests_that_cross_make_friends_at_once(ana, bia):
    friends.send_request(ana, "Bia")
    assert friends.send_request(bia, "Ana") == "friends"
    assert friends.are_friends(ana.pk, bia.pk) and not FriendRequest.objects.exists()


def test_removing_a_friend_ends_it_both_ways(ana, bia):
    friends.send_request(ana, "Bia")
    friends.accept(bia, FriendRequest.objects.get().pk)
    friends.remove_friend(bia, "Ana")
    assert not Friendship.objects.exists()
    refused("not_friends", friends.remove_friend, ana, "Bia")


# --- bad input: a clear refusal, nothing changed ------------------------------------------------


def test_requests_to_oneself_twice_to_a_friend_or_to_nobody_are_refused(ana, bia, make_user):
    refused("yourself", friends.send_request, ana, "ana")
    refused("not_found", friends.send_request, ana, "Nobody")
    refused("not_found", friends.send_request, ana, "")
    friends.send_request(ana, "Bia")
    refused("already_sent", friends.send_request, ana, "Bia")
    friends.accept(bia, FriendRequest.objects.get().pk)
    refused("already_friends", friends.send_request, ana, "Bia")
    gone = make_user("Caio", password=None)
    delete_account(gone)
    refused("not_found", friends.send_request, ana, "Caio")
    dora = make_user("Dora", password=None)
    dora.is_active = False
    dora.save()
    refused("not_found", friends.send_request, ana, "Dora")


def test_forged_or_someone_elses_request_ids_are_refused(ana, bia, make_user):
    caio = make_user("Caio", password=None)
    friends.send_request(ana, "Bia")
    request = FriendRequest.objects.get()
    for junk in ("", "abc", None, "-1", str(request.pk + 999)):
        refused("no_request", friends.accept, bia, junk)
    refused("no_request", friends.accept, caio, request.pk)  # not theirs to answer
    refused("no_request", friends.accept, ana, request.pk)  # the sender cannot accept their own
    refused("no_request", friends.withdraw, bia, request.pk)  # nor the recipient withdraw it


def test_a_flood_of_requests_is_stopped_at_the_hourly_limit(ana, make_user, monkeypatch):
    monkeypatch.setattr(friends, "REQUESTS_PER_HOUR", 3)
    people = [make_user(f"P{n}", password=None) for n in range(4)]
    for person in people[:3]:
        friends.send_request(ana, person.username)
    refused("too_many", friends.send_request, ana, people[3].username)


# --- blocks ---------------------------------------------------------------------------------


def test_blocking_ends_the_friendship_and_requests_and_refuses_a_request_to_the_blocked(ana, bia):
    friends.send_request(ana, "Bia")
    friends.accept(bia, FriendRequest.objects.get().pk)
    friends.block(ana, "Bia")
    assert not Friendship.objects.exists() and friends.relation(ana, bia) == "blocked"
    refused("you_blocked", friends.send_request, ana, "Bia")
    refused("yourself", friends.block, ana, "Ana")
    friends.unblock(ana, "Bia")
    refused("not_blocked", friends.unblock, ana, "Bia")


def test_a_blocked_persons_request_never_reaches_the_blocker_and_they_are_not_told(ana, bia):
    friends.block(bia, "Ana")
    assert friends.send_request(ana, "Bia") == "sent"
    assert not FriendRequest.objects.exists()
    assert friends.friends_page(bia)["received"] == []


def test_quick_join_never_seats_two_people_one_of_whom_blocked_the_other(ana, bia, make_user):
    rules = engine.RuleSet(variant="paulista", seats=4)
    waiting = rooms.quick_join(ana, rules)
    friends.block(ana, "Bia")
    assert rooms.quick_join(bia, rules).pk != waiting.pk  # a new room rather than Ana's
    caio = make_user("Caio", password=None)
    assert rooms.quick_join(caio, rules).pk == waiting.pk  # the oldest waiting room, as before


# --- pages ----------------------------------------------------------------------------------


def messages_of(response):
    return [str(m) for m in get_messages(response.wsgi_request)]


def test_the_friends_page_sends_answers_and_lists(client, ana, bia):
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    client.force_login(ana)
    response = client.post(reverse("accounts:friend_action", args=["request"]), {"name": "Bia"})
    assert response.status_code == 302 and response.url == reverse("accounts:friends")
    assert messages_of(response) == ["Friend request sent."]
    html = client.get(reverse("accounts:friends")).content.decode()
    assert 'data-request-to="Bia"' in html
    client.force_login(bia)
    html = client.get(reverse("accounts:friends"), HTTP_ACCEPT_LANGUAGE="pt-br").content.decode()
    assert 'data-request-from="Ana"' in html and "Pedidos para você" in html
    request = FriendRequest.objects.get()
    response = client.post(reverse("accounts:friend_action", args=["accept"]), {"request": request.pk})
    assert friends.are_friends(ana.pk, bia.pk)
    html = client.get(reverse("accounts:friends")).content.decode()
    assert 'data-friend="Ana"' in html


def test_a_refused_form_says_why_and_an_unknown_action_or_outside_next_goes_nowhere_strange(client, ana):
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    client.force_login(ana)
    response = client.post(
        reverse("accounts:friend_action", args=["request"]), {"name": "Ana", "next": "https://evil.example/"}
    )
    assert response.url == reverse("accounts:friends")
    assert messages_of(response) == ["You cannot be your own friend here: ask someone else."]
    response = client.post(reverse("accounts:friend_action", args=["hug"]), {"name": "Ana"})
    assert messages_of(response)[-1] == "That is not something you can do with friends."
    assert client.get(reverse("accounts:friend_action", args=["request"])).status_code == 405
    assert rows() == ([], [], [])


def test_the_friends_pages_need_a_signed_in_person(client, bia):
    assert client.get(reverse("accounts:friends")).status_code == 302
    client.post(reverse("accounts:friend_action", args=["request"]), {"name": "Bia"})
    assert not FriendRequest.objects.exists()


def test_a_profile_offers_to_add_or_block_and_comes_back_to_itself(client, ana, bia):
    client.force_login(ana)
    profile = reverse("accounts:public_profile", args=["Bia"])
    html = client.get(profile, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'data-relation="none"' in html and 'data-action="friend-request"' in html and 'data-action="block"' in html
    response = client.post(reverse("accounts:friend_action", args=["request"]), {"name": "Bia", "next": profile})
    assert response.url == profile
    assert 'data-relation="asked"' in client.get(profile).content.decode()
    own = client.get(reverse("accounts:public_profile", args=["Ana"])).content.decode()
    assert "data-relation" not in own


def test_the_export_holds_friends_requests_and_blocks(client, ana, bia, make_user):
    caio = make_user("Caio", password=None)
    friends.send_request(ana, "Bia")
    friends.accept(bia, FriendRequest.objects.get().pk)
    friends.send_request(caio, "Ana")
    friends.block(ana, "Caio")  # ends Caio's request too
    friends.send_request(ana, make_user("Dora", password=None).username)
    client.force_login(ana)
    data = json.loads(client.get(reverse("accounts:export")).content)
    assert [f["name"] for f in data["friends"]] == ["Bia"]
    assert [r["to"] for r in data["friend_requests_sent"]] == ["Dora"]
    assert data["friend_requests_received"] == []
    assert [b["name"] for b in data["blocked"]] == ["Caio"]


def test_deleting_an_account_removes_its_friends_requests_and_blocks(ana, bia, make_user):
    friends.send_request(ana, "Bia")
    friends.accept(bia, FriendRequest.objects.get().pk)
    friends.block(ana, make_user("Caio", password=None).username)
    friends.send_request(ana, make_user("Dora", password=None).username)
    delete_account(ana)
    assert rows() == ([], [], [])


# --- where friends are (the friends page) ----------------------------------------------------------


def friend_row(client, user, name) -> str:
    client.force_login(user)
    html = client.get(reverse("accounts:friends"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    return html.split(f'data-friend="{name}"')[1].split("</li>")[0]


def test_a_friend_in_a_public_waiting_room_can_be_joined_from_the_friends_page(client, ana, bia):
    befriend(ana, bia)
    assert "data-whereabouts" not in friend_row(client, ana, "Bia")  # nowhere now
    room = rooms.create_room(bia, options(seats=4))
    row = friend_row(client, ana, "Bia")
    assert "In a waiting room" in row and f'href="{reverse("rooms:room", args=[room.code])}"' in row


def test_a_friend_in_a_private_room_is_named_there_without_its_link(client, ana, bia):
    befriend(ana, bia)
    room = rooms.create_room(bia, options(seats=4), is_private=True, name="Nossa", password="segredo1")
    row = friend_row(client, ana, "Bia")
    assert "In a private waiting room" in row and room.code not in row


def test_a_friend_playing_a_match_that_allows_spectators_can_be_watched(client, ana, bia, make_user):
    befriend(ana, bia)
    match = started_room_match([bia, make_user("Caio", password=None)])
    Match.objects.filter(pk=match.pk).update(allow_spectators=True)
    row = friend_row(client, ana, "Bia")
    assert "Playing a match" in row and f'href="{reverse("games:table", args=[match.public_id])}"' in row
    Match.objects.filter(pk=match.pk).update(allow_spectators=False)
    row = friend_row(client, ana, "Bia")
    assert "Playing a match" in row and "friend-go" not in row  # no spectators: named, not watchable


def test_a_friend_who_hides_where_they_play_is_listed_without_it(client, ana, bia):
    befriend(ana, bia)
    rooms.create_room(bia, options(seats=4))
    update_profile(bia, display_name="Bia", country="", show_whereabouts=False)
    assert "data-whereabouts" not in friend_row(client, ana, "Bia")


def test_the_profile_switch_for_whereabouts_is_saved_and_exported(client, ana):
    client.force_login(ana)
    client.post(reverse("accounts:profile"), {"display_name": "Ana", "country": "", "public_stats": "on"})
    ana.profile.refresh_from_db()
    assert ana.profile.show_whereabouts is False  # unticked
    data = json.loads(client.get(reverse("accounts:export")).content)
    assert data["profile"]["show_whereabouts"] is False
