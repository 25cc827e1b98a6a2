"""Playing again with the same people (issue 11 item 10): everyone says yes within the time → a new room
and match with the same seats, blue coins charged again once each; a "no", the time running out or a
person without blue coins ends it for all and charges nobody; bad answers are refused and change nothing."""

from datetime import timedelta

import pytest
from django.db import connection
from django.urls import reverse
from django.utils import translation

from games.models import Match, Seat
from rooms import again, selectors, services
from rooms.models import PlayAgain, PlayAgainAnswer, Room, RoomSeat
from rooms.rendering import again_ended_text
from rooms.services import RoomRefused
from shop import wallet
from shop.models import LedgerEntry
from tests.support.matches import win_match_for
from tests.support.rooms import blue, options
from tests.support.threads import run_in_threads


@pytest.fixture
def finished(person):
    """A finished competitive room match between Ana (chief, seat 0) and Bia (seat 1), 5 blue coins each
    before paying their entry."""
    ana, bia = person("Ana"), person("Bia")
    room = services.create_room(ana, options(move_seconds=60), ip="10.0.0.1")
    services.join_room(bia, room.code, ip="10.0.0.2")
    room.refresh_from_db()
    win_match_for(room.match, side=0)
    room.match.refresh_from_db()
    assert room.match.status == Match.Status.FINISHED
    return room, ana, bia


class Refusal:
    def __init__(self, code, message):
        self.code, self.message = code, message


def refused(code, func, *args, **kwargs):
    """The refusal's code, and its message as an English page shows it (the site's default is pt-BR)."""
    with translation.override("en"), pytest.raises(RoomRefused) as caught:
        func(*args, **kwargs)
    assert caught.value.code == code, caught.value
    with translation.override("en"):
        return Refusal(code, str(caught.value.message))


@pytest.mark.django_db
def test_when_everyone_says_yes_a_new_match_starts_with_the_same_seats_and_charges_each_again(finished):
    room, ana, bia = finished
    public_id = room.match.public_id
    again.accept(bia, public_id, ip="10.0.0.12")
    assert selectors.play_again_facts(room).accepted == {bia.pk}
    assert Room.objects.count() == 1 and (blue(ana), blue(bia)) == (4, 4)  # nothing charged yet
    offer = again.accept(ana, public_id, ip="10.0.0.11")
    offer.refresh_from_db()
    assert offer.status == PlayAgain.Status.STARTED
    new = offer.new_room
    assert new.pk != room.pk and new.status == Room.Status.STARTED and new.chief == ana
    assert (new.rules, new.move_seconds, new.mode, new.is_private) == (room.rules, 60, room.mode, False)
    match = new.match
    assert match.status == Match.Status.ACTIVE and match.kind == Match.Kind.ROOM
    assert [(s.number, s.user, s.ip_address) for s in Seat.objects.filter(match=match).order_by("number")] == [
        (0, ana, "10.0.0.11"),
        (1, bia, "10.0.0.12"),
    ]
    assert (blue(ana), blue(bia)) == (3, 3)
    seats = {s.user_id: s.pk for s in RoomSeat.objects.filter(room=new)}
    keys = set(
        LedgerEntry.objects.filter(reason="room_entry", wallet__user__in=[ana, bia]).values_list(
            "idempotency_key", flat=True
        )
    )
    assert {f"room-entry:{seats[ana.pk]}", f"room-entry:{seats[bia.pk]}"} <= keys
    go = selectors.play_again_facts(room)
    assert go.status == PlayAgain.Status.STARTED and go.new_match_public_id == match.public_id


@pytest.mark.django_db
def test_saying_yes_twice_is_refused_and_changes_nothing(finished):
    room, ana, bia = finished
    again.accept(ana, room.match.public_id)
    refused("already_accepted", again.accept, ana, room.match.public_id)
    assert PlayAgainAnswer.objects.count() == 1 and blue(ana) == 4
    again.accept(bia, room.match.public_id)
    refused("started", again.accept, ana, room.match.public_id)
    assert Room.objects.count() == 2 and (blue(ana), blue(bia)) == (3, 3)


@pytest.mark.django_db
def test_a_no_ends_it_for_everyone_and_charges_nobody(finished, client):
    room, ana, bia = finished
    again.accept(ana, room.match.public_id)
    again.decline(bia, room.match.public_id)
    error = refused("declined", again.accept, ana, room.match.public_id)
    assert "Bia chose not to play again." in str(error.message)
    assert Room.objects.count() == 1 and (blue(ana), blue(bia)) == (4, 4)
    client.force_login(ana)
    html = client.get(reverse("rooms:lobby") + f"?again={room.match.public_id}", HTTP_ACCEPT_LANGUAGE="en")
    assert "Bia chose not to play again." in html.content.decode()


@pytest.mark.django_db
def test_after_the_time_runs_out_a_yes_is_refused_and_nobody_is_charged(finished, settings):
    room, ana, bia = finished
    again.accept(ana, room.match.public_id)
    Match.objects.filter(pk=room.match_id).update(finished_at=room.match.finished_at - timedelta(seconds=61))
    PlayAgain.objects.update(expires_at=room.match.finished_at - timedelta(seconds=1))
    error = refused("expired", again.accept, bia, room.match.public_id)
    assert "time to play again has run out" in str(error.message)
    assert selectors.play_again_facts(room).status == PlayAgain.Status.EXPIRED
    assert Room.objects.count() == 1 and (blue(ana), blue(bia)) == (4, 4)


@pytest.mark.django_db
def test_the_time_counts_from_the_end_of_the_match(finished, settings):
    room, ana, _bia = finished
    settings.ROOMS_PLAY_AGAIN_S = 60
    Match.objects.filter(pk=room.match_id).update(finished_at=room.match.finished_at - timedelta(seconds=61))
    room.refresh_from_db()
    assert selectors.play_again_facts(room).status == PlayAgain.Status.EXPIRED
    refused("expired", again.accept, ana, room.match.public_id)
    assert PlayAgainAnswer.objects.count() == 0


@pytest.mark.django_db
def test_someone_without_blue_coins_is_refused_with_a_link_to_the_shop(finished, client):
    room, ana, bia = finished
    wallet.change_balance(bia, currency=wallet.BLUE_COINS, amount=-blue(bia), reason="admin_adjustment")
    client.force_login(bia)
    response = client.post(
        reverse("rooms:again_accept", kwargs={"public_id": room.match.public_id}),
        HTTP_HX_REQUEST="true",
        HTTP_ACCEPT_LANGUAGE="en",
    )
    page = client.get(response["HX-Redirect"], HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Playing again costs 1 blue coins and you have 0." in page and reverse("shop:index") in page
    assert PlayAgainAnswer.objects.count() == 0 and blue(ana) == 4


@pytest.mark.django_db
def test_spending_the_blue_coins_before_the_last_yes_ends_it_and_charges_nobody(finished):
    room, ana, bia = finished
    again.accept(ana, room.match.public_id)
    wallet.change_balance(ana, currency=wallet.BLUE_COINS, amount=-blue(ana), reason="admin_adjustment")
    offer = again.accept(bia, room.match.public_id)
    offer.refresh_from_db()
    assert offer.status == PlayAgain.Status.NO_BLUE_COINS and offer.ended_by == ana
    assert Room.objects.count() == 1 and RoomSeat.objects.count() == 2
    assert (blue(ana), blue(bia)) == (0, 4)
    assert "Ana did not have the blue coins" in selectors_text(room)


def selectors_text(room):
    with translation.override("en"):
        return again_ended_text(selectors.play_again_facts(room))


@pytest.mark.django_db
def test_a_match_a_player_left_is_not_played_again(finished):
    room, ana, _bia = finished
    Seat.objects.filter(match=room.match, number=1).update(left_at=room.match.finished_at - timedelta(seconds=9))
    refused("a_player_left", again.accept, ana, room.match.public_id)
    assert selectors.play_again_facts(room) is None


@pytest.mark.django_db
def test_only_the_rooms_people_answer_and_only_after_the_end(finished, person):
    room, ana, bia = finished
    refused("not_in_room", again.accept, person("Caio"), room.match.public_id)
    refused("no_such_room", again.accept, ana, "nothing-here")
    other = services.create_room(person("Dani"), options())
    services.join_room(person("Edu"), other.code)
    other.refresh_from_db()
    refused("match_not_over", again.accept, other.chief, other.match.public_id)


@pytest.mark.django_db
def test_the_play_again_page_lists_who_said_yes_and_the_table_offers_it(finished, client):
    room, ana, bia = finished
    again.accept(bia, room.match.public_id)
    client.force_login(ana)
    html = client.get(reverse("rooms:room", kwargs={"code": room.code}), follow=True, HTTP_ACCEPT_LANGUAGE="en")
    text = html.content.decode()
    assert html.redirect_chain[-1][0] == reverse("rooms:again", kwargs={"public_id": room.match.public_id})
    assert 'data-again-person="Bia" data-again-answer="yes"' in text
    assert 'data-again-person="Ana" data-again-answer="waiting"' in text
    assert 'data-action="accept-play-again"' in text and "1 of 2 said yes." in text
    table = client.get(reverse("games:table", kwargs={"public_id": room.match.public_id})).content.decode()
    assert reverse("rooms:again", kwargs={"public_id": room.match.public_id}) in table


@pytest.mark.django_db
def test_declining_through_the_page_sends_to_the_lobby_saying_why(finished, client):
    room, ana, bia = finished
    client.force_login(ana)
    response = client.post(reverse("rooms:again_decline", kwargs={"public_id": room.match.public_id}))
    assert response.status_code == 302 and "again=" in response.url
    client.force_login(bia)
    page = client.get(reverse("rooms:again", kwargs={"public_id": room.match.public_id}), HTTP_ACCEPT_LANGUAGE="en")
    text = page.content.decode()
    assert "Ana chose not to play again." in text and "data-room-go" in text and "again=" in text


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(
    connection.vendor != "postgresql", reason="SQLite serialises every writer with one file lock: no row-lock race"
)
def test_four_yeses_at_once_start_one_new_match_and_charge_each_once(person):
    people = [person(name) for name in ("Ana", "Bia", "Caio", "Dani")]
    room = services.create_room(people[0], options(seats=4))
    for other in people[1:]:
        services.join_room(other, room.code)
    room.refresh_from_db()
    win_match_for(room.match, side=0)
    public_id = room.match.public_id
    results, errors = run_in_threads(4, lambda n: again.accept(people[n], public_id))
    assert errors == [] and len(results) == 4
    assert Room.objects.count() == 2 and Match.objects.count() == 2
    new = Room.objects.exclude(pk=room.pk).get()
    assert new.status == Room.Status.STARTED and RoomSeat.objects.filter(room=new).count() == 4
    assert [blue(p) for p in people] == [3, 3, 3, 3]
