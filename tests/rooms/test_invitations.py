"""Invitations (issue 33 item 2): the chief invites friends from the waiting room; the invited person sees it in
the header wherever they are and sits in one click, without the password; invitations end with the room.
Bad input (strangers, duplicates, floods, forged ids) gets a clear message and changes nothing."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from accounts import friends, notices
from accounts.services import delete_account
from rooms import invitations, selectors, services
from rooms.models import Invitation, RoomSeat
from rooms.services import RoomRefused
from tests.support.friends import befriend
from tests.support.rooms import options

pytestmark = pytest.mark.django_db


@pytest.fixture
def private_room(person):
    """Ana's private room of four with a password; Bia is her friend, Caio a stranger."""
    ana, bia, caio = person("Ana"), person("Bia"), person("Caio")
    befriend(ana, bia)
    room = services.create_room(ana, options(seats=4), is_private=True, name="Nossa", password="segredo1")
    return room, ana, bia, caio


def header(client, user) -> str:
    client.force_login(user)
    return client.get(reverse("games:play"), HTTP_ACCEPT_LANGUAGE="en").content.decode()


def seated(room, user) -> bool:
    return RoomSeat.objects.filter(room=room, user=user, left_at__isnull=True).exists()


def test_an_invited_friend_sees_it_in_the_header_and_sits_without_the_password(client, private_room):
    room, ana, bia, _caio = private_room
    invitations.invite(ana, room.code, name="bia")  # any case, as names are typed
    html = header(client, bia)
    assert 'data-notices-count="1"' in html
    assert "<strong>Ana</strong> invites you to a room: Nossa" in html and "Paulista · 2 against 2" in html
    invitation = Invitation.objects.get(room=room, recipient=bia)
    response = client.post(reverse("rooms:invitation_accept", args=[invitation.pk]), HTTP_HX_REQUEST="true")
    assert response["HX-Redirect"] == reverse("rooms:room", args=[room.code])
    assert seated(room, bia)
    html = header(client, bia)  # in the room now: the invitation has done its work
    assert 'data-notices-count="0"' in html and f'data-invitation="{invitation.pk}"' not in html


def test_the_room_page_tells_an_invited_person_they_sit_without_the_password(client, private_room):
    room, ana, bia, _caio = private_room
    invitations.invite(ana, room.code, name="Bia")
    client.force_login(bia)
    html = client.get(reverse("rooms:room", args=[room.code]), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Ana invited you: sit without the password." in html and 'data-form="room-password"' not in html
    client.post(reverse("rooms:join", args=[room.code]))
    assert seated(room, bia)


def test_the_chief_sees_friends_to_invite_and_who_was_invited(client, private_room, person):
    room, ana, bia, _caio = private_room
    dani = person("Dani")
    befriend(ana, dani)
    client.force_login(ana)
    html = client.get(reverse("rooms:room", args=[room.code]), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'data-invitable="Bia"' in html and 'data-invitable="Dani"' in html and "Caio" not in html
    answer = client.post(reverse("rooms:invite", args=[room.code]), {"name": "Dani"}, HTTP_HX_REQUEST="true")
    fragment = answer.content.decode()
    assert fragment.startswith('<section class="invite-friends" id="invite-friends"')
    dani_row = fragment.split('data-invitable="Dani"')[1].split("</li>")[0]
    assert "data-invited" in dani_row
    bia_row = fragment.split('data-invitable="Bia"')[1].split("</li>")[0]
    assert 'data-action="invite-friend"' in bia_row
    services.join_room(bia, room.code, password="segredo1")
    assert selectors.invitable_friends(room, ana)[0] == selectors.Invitable("Bia", "seated")


@pytest.mark.parametrize(
    "who, name, code",
    [
        ("bia", "Ana", "not_chief"),  # only the chief invites
        ("ana", "Caio", "not_a_friend"),
        ("ana", "Ana", "not_a_friend"),  # oneself
        ("ana", "Nobody", "not_a_friend"),
        ("ana", "", "not_a_friend"),
    ],
)
def test_refused_invitations_change_nothing(private_room, who, name, code):
    room, ana, bia, _caio = private_room
    if who == "bia":
        services.join_room(bia, room.code, password="segredo1")
    with pytest.raises(RoomRefused) as refusal:
        invitations.invite({"ana": ana, "bia": bia}[who], room.code, name=name)
    assert refusal.value.code == code
    assert not Invitation.objects.exists()


def test_an_invitation_is_sent_once_and_not_to_someone_already_seated(private_room, person):
    room, ana, bia, _caio = private_room
    invitations.invite(ana, room.code, name="Bia")
    with pytest.raises(RoomRefused) as refusal:
        invitations.invite(ana, room.code, name="Bia")
    assert refusal.value.code == "already_invited"
    dani = person("Dani")
    befriend(ana, dani)
    services.join_room(dani, room.code, password="segredo1")
    with pytest.raises(RoomRefused) as refusal:
        invitations.invite(ana, room.code, name="Dani")
    assert refusal.value.code == "already_seated"
    assert Invitation.objects.count() == 1


def test_an_invitation_flood_is_refused(private_room, person, monkeypatch):
    room, ana, bia, _caio = private_room
    monkeypatch.setattr(invitations, "INVITATIONS_PER_HOUR", 2)
    for name in ("Dani", "Eva"):
        befriend(ana, person(name))
        invitations.invite(ana, room.code, name=name)
    with pytest.raises(RoomRefused) as refusal:
        invitations.invite(ana, room.code, name="Bia")
    assert refusal.value.code == "too_many_invitations"
    assert not Invitation.objects.filter(recipient=bia).exists()
    Invitation.objects.update(created_at=timezone.now() - timedelta(hours=1, seconds=1))  # an hour later
    invitations.invite(ana, room.code, name="Bia")


def test_forged_and_someone_elses_invitation_ids_are_refused(client, private_room):
    room, ana, bia, caio = private_room
    invitation = invitations.invite(ana, room.code, name="Bia")
    client.force_login(caio)
    for number in (invitation.pk, invitation.pk + 1000, 2**40):
        for route in ("rooms:invitation_accept", "rooms:invitation_dismiss"):
            response = client.post(reverse(route, args=[number]), HTTP_ACCEPT_LANGUAGE="en", follow=True)
            assert response.status_code == 200 and "That invitation does not exist." in response.content.decode()
    assert not seated(room, caio)
    assert Invitation.objects.get().dismissed_at is None
    with pytest.raises(RoomRefused):
        services.join_room(caio, room.code)  # Bia's invitation does not open the room to Caio


def test_invitations_end_with_the_room(client, private_room, person):
    room, ana, bia, _caio = private_room
    invitation = invitations.invite(ana, room.code, name="Bia")
    services.fill_with_bots_and_start(ana, room.code, "easy")
    assert selectors.pending_invitations(bia.pk) == []
    with pytest.raises(RoomRefused) as refusal:
        invitations.accept(bia, invitation.pk)
    assert refusal.value.code == "invitation_ended"
    other = services.create_room(person("Dani"), options(seats=4), is_private=True, name="Outra", password="segredo1")
    befriend(other.chief, bia)
    invitations.invite(other.chief, other.code, name="Bia")
    services.close_room(other.chief, other.code)
    assert selectors.pending_invitations(bia.pk) == []
    client.force_login(bia)
    html = client.get(reverse("games:play"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "invites you" not in html and "data-notices-empty" in html


def test_a_dismissed_invitation_leaves_the_header_and_no_longer_opens_the_room(client, private_room):
    room, ana, bia, _caio = private_room
    invitation = invitations.invite(ana, room.code, name="Bia")
    client.force_login(bia)
    response = client.post(reverse("rooms:invitation_dismiss", args=[invitation.pk]), HTTP_HX_REQUEST="true")
    assert response.status_code == 204
    assert selectors.pending_invitations(bia.pk) == []
    with pytest.raises(RoomRefused) as refusal:
        services.join_room(bia, room.code)
    assert refusal.value.code == "missing_password"
    with pytest.raises(RoomRefused) as refusal:
        invitations.invite(ana, room.code, name="Bia")  # not again to the same room
    assert refusal.value.code == "already_invited"


def test_an_invitation_from_someone_blocked_later_never_shows(private_room):
    room, ana, bia, _caio = private_room
    invitations.invite(ana, room.code, name="Bia")
    friends.block(bia, "Ana")
    assert selectors.pending_invitations(bia.pk) == []
    with pytest.raises(RoomRefused) as refusal:
        invitations.invite(ana, room.code, name="Bia")  # the block ended the friendship
    assert refusal.value.code == "not_a_friend"


def test_opening_the_list_marks_what_is_in_it_as_seen(client, private_room, person):
    room, ana, bia, _caio = private_room
    invitations.invite(ana, room.code, name="Bia")
    friends.send_request(person("Dani"), "Bia")
    assert selectors.notices_of(bia.pk).unread == 2
    client.force_login(bia)
    assert client.post(reverse("rooms:notices_seen")).status_code == 204
    seen = selectors.notices_of(bia.pk)
    assert (seen.unread, len(seen.invitations), seen.friend_requests) == (0, 1, 1)  # seen, still there
    friends.send_request(person("Eva"), "Bia")
    assert selectors.notices_of(bia.pk).unread == 1


def test_the_header_needs_a_signed_in_person_and_says_when_nothing_is_new(client, private_room):
    _room, _ana, bia, _caio = private_room
    html = client.get(reverse("games:play")).content.decode()
    assert "data-notices" not in html  # a guest has no bell and no socket
    html = header(client, bia)
    assert 'ws-connect="/ws/notices/"' in html and "data-notices-empty" in html and 'data-notices-count="0"' in html


def test_the_export_lists_invitations_and_deletion_removes_them(client, private_room):
    room, ana, bia, _caio = private_room
    invitations.invite(ana, room.code, name="Bia")
    client.force_login(bia)
    data = client.get(reverse("accounts:export")).json()
    sent_at = Invitation.objects.get().created_at.isoformat()
    assert data["invitations_received"] == [{"from": "Ana", "room": room.code, "sent_at": sent_at, "dismissed": False}]
    client.force_login(ana)
    assert client.get(reverse("accounts:export")).json()["invitations_sent"][0]["to"] == "Bia"
    delete_account(bia)
    assert not Invitation.objects.exists()


def test_presence_is_stamped_at_most_once_a_minute(private_room):
    _room, ana, _bia, _caio = private_room
    now = timezone.now()
    notices.stamp_online(ana.pk, now=now)
    notices.stamp_online(ana.pk, now=now + timedelta(seconds=30))  # too soon: the first stamp stays
    ana.profile.refresh_from_db()
    assert ana.profile.last_seen_at == now
    assert notices.is_online(ana.profile, now=now + timedelta(seconds=notices.ONLINE_WINDOW_S - 1))
    assert not notices.is_online(ana.profile, now=now + timedelta(seconds=notices.ONLINE_WINDOW_S + 1))


def test_staff_see_invitations_read_only(admin_client, private_room):
    room, ana, _bia, _caio = private_room
    invitation = invitations.invite(ana, room.code, name="Bia")
    page = admin_client.get(reverse("admin:rooms_invitation_changelist"))
    assert page.status_code == 200 and "Bia" in page.content.decode()
    assert admin_client.get(reverse("admin:rooms_invitation_add")).status_code == 403
    admin_client.post(reverse("admin:rooms_invitation_change", args=[invitation.pk]), {"dismissed_at_0": "2026-01-01"})
    assert Invitation.objects.get().dismissed_at is None
