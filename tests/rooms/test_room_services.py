"""The room services: seats, blue coins charged and refunded once, the chief's powers, the automatic start,
and every refusal changing nothing."""

import pytest
from django.contrib.auth.hashers import check_password

from games import engine
from games.models import Match
from rooms import services
from rooms.models import Room, RoomSeat, RoomSettings
from rooms.services import RoomRefused
from shop.models import LedgerEntry
from tests.support.rooms import blue, options

pytestmark = pytest.mark.django_db


def refused(code, func, *args, **kwargs):
    with pytest.raises(RoomRefused) as caught:
        func(*args, **kwargs)
    assert caught.value.code == code
    return caught.value


def test_creating_a_room_seats_the_chief_and_charges_one_blue_coin(person):
    ana = person("Ana", blue=3)
    room = services.create_room(ana, options(), ip="10.0.0.1")
    assert room.status == Room.Status.WAITING and room.chief == ana and not room.is_private
    seat = RoomSeat.objects.get(room=room)
    assert (seat.user, seat.number, seat.ip_address, seat.blue_coins_paid) == (ana, 0, "10.0.0.1", 1)
    assert blue(ana) == 2
    entry = LedgerEntry.objects.get(wallet__user=ana, reason="room_entry")
    assert entry.amount == -1 and entry.idempotency_key == f"room-entry:{seat.pk}"


def test_the_price_is_the_staff_setting(person):
    RoomSettings.objects.update_or_create(pk=1, defaults={"entry_blue_coins": 3})
    ana = person("Ana", blue=5)
    services.create_room(ana, options())
    assert blue(ana) == 2


def test_a_private_room_keeps_only_a_hash_of_its_password(person):
    ana = person("Ana")
    room = services.create_room(ana, options(), is_private=True, name="Amigos", password="segredo1")
    assert room.password_hash != "segredo1" and check_password("segredo1", room.password_hash)
    assert len(room.code) >= 22


def test_the_last_seat_taken_starts_the_match_with_people_in_their_seats(person):
    ana, bia = person("Ana"), person("Bia")
    room = services.create_room(ana, options(variant="mineiro"), ip="10.0.0.1")
    services.join_room(bia, room.code, ip="10.0.0.2")
    room.refresh_from_db()
    assert room.status == Room.Status.STARTED and room.started_at is not None
    match = room.match
    assert match.kind == Match.Kind.ROOM and match.status == Match.Status.ACTIVE
    assert [(s.number, s.user, s.bot_level) for s in match.seats.order_by("number")] == [(0, ana, ""), (1, bia, "")]
    assert match.seat_bots == ["", ""] and engine.RuleSet.from_dict(match.rules).variant == "mineiro"


@pytest.mark.parametrize("mode, practice", [(Room.Mode.PRACTICE, True), (Room.Mode.COMPETITIVE, False)])
def test_a_practice_rooms_match_is_a_practice_match(person, mode, practice):
    # A practice match counts for nothing (statistics, achievements, ranking): tests/stats.
    ana, bia = person("Ana"), person("Bia")
    room = services.create_room(ana, options(mode=mode))
    services.join_room(bia, room.code)
    room.refresh_from_db()
    assert room.match.practice is practice


def test_four_seats_in_teams_people_pick_free_seats(person):
    ana, bia, caio, dani = (person(n) for n in ("Ana", "Bia", "Caio", "Dani"))
    room = services.create_room(ana, options(seats=4))
    services.join_room(bia, room.code)  # seat 1 (other team)
    services.choose_seat(bia, room.code, 2)  # sits with Ana
    refused("seat_taken", services.choose_seat, bia, room.code, 0)
    services.join_room(caio, room.code, number=1)
    refused("seat_taken", services.join_room, dani, room.code, number=2)
    assert blue(dani) == 5
    services.join_room(dani, room.code)
    room.refresh_from_db()
    seats = {s.number: s.user for s in room.match.seats.all()}
    assert seats == {0: ana, 1: caio, 2: bia, 3: dani}


def test_seats_are_not_chosen_without_teams(person):
    ana, bia = person("Ana"), person("Bia")
    room = services.create_room(ana, options(seats=4, partnership=False))
    services.join_room(bia, room.code)
    refused("no_seat_choice", services.choose_seat, bia, room.code, 3)


def test_leaving_before_the_start_refunds_once_and_the_chief_role_passes_on(person):
    ana, bia = person("Ana"), person("Bia")
    room = services.create_room(ana, options(seats=4))
    services.join_room(bia, room.code)
    assert blue(ana) == 4 and blue(bia) == 4
    services.leave_room(ana, room.code)
    room.refresh_from_db()
    assert blue(ana) == 5 and room.chief == bia and room.status == Room.Status.WAITING
    refused("not_in_room", services.leave_room, ana, room.code)
    assert blue(ana) == 5
    services.leave_room(bia, room.code)
    room.refresh_from_db()
    assert room.status == Room.Status.CLOSED and blue(bia) == 5
    assert LedgerEntry.objects.filter(reason="room_refund").count() == 2


def test_leaving_and_joining_again_charges_and_refunds_each_time(person):
    ana, bia = person("Ana"), person("Bia")
    room = services.create_room(ana, options(seats=4))
    for _ in range(2):
        services.join_room(bia, room.code)
        services.leave_room(bia, room.code)
    assert blue(bia) == 5
    assert LedgerEntry.objects.filter(wallet__user=bia, reason="room_entry").count() == 2
    assert LedgerEntry.objects.filter(wallet__user=bia, reason="room_refund").count() == 2


def test_the_chief_removes_a_player_who_is_refunded_others_may_not(person):
    ana, bia, caio = person("Ana"), person("Bia"), person("Caio")
    room = services.create_room(ana, options(seats=4))
    services.join_room(bia, room.code)
    services.join_room(caio, room.code)
    refused("not_chief", services.remove_player, bia, room.code, caio.pk)
    refused("chief_cannot_remove_self", services.remove_player, ana, room.code, ana.pk)
    refused("not_in_room", services.remove_player, ana, room.code, 999999)
    services.remove_player(ana, room.code, bia.pk)
    assert blue(bia) == 5 and RoomSeat.objects.get(user=bia).removed
    assert sorted(s.user.username for s in RoomSeat.objects.filter(room=room, left_at__isnull=True)) == ["Ana", "Caio"]


def test_a_private_room_chief_fills_with_bots_and_starts(person):
    ana, bia = person("Ana"), person("Bia")
    room = services.create_room(ana, options(seats=4), is_private=True, name="Amigos", password="segredo1")
    services.join_room(bia, room.code, password="segredo1")
    refused("not_chief", services.fill_with_bots_and_start, bia, room.code, "hard")
    refused("bad_bot_level", services.fill_with_bots_and_start, ana, room.code, "godlike")
    services.fill_with_bots_and_start(ana, room.code, "hard")
    room.refresh_from_db()
    assert room.status == Room.Status.STARTED
    assert room.match.seat_bots == ["", "", "hard", "hard"]


def test_a_public_room_is_not_filled_with_bots(person):
    ana = person("Ana")
    room = services.create_room(ana, options())
    refused("public_room_no_bots", services.fill_with_bots_and_start, ana, room.code, "easy")
    room.refresh_from_db()
    assert room.status == Room.Status.WAITING and room.match is None


def test_closing_a_room_refunds_everyone(person):
    ana, bia = person("Ana"), person("Bia")
    room = services.create_room(ana, options(seats=4))
    services.join_room(bia, room.code)
    services.close_room(ana, room.code)
    room.refresh_from_db()
    assert room.status == Room.Status.CLOSED and blue(ana) == 5 and blue(bia) == 5


def test_quick_join_fills_the_oldest_waiting_room_with_those_options_then_opens_a_new_one(person):
    ana, bia, caio, dani, edu = (person(n) for n in ("Ana", "Bia", "Caio", "Dani", "Edu"))
    mineiro = services.create_room(ana, options(variant="mineiro"))
    older = services.create_room(bia, options(seats=4))
    newer = services.create_room(caio, options(seats=4))
    rules = engine.RuleSet(variant="paulista", seats=4, partnership=True)
    assert services.quick_join(dani, rules) == older
    assert services.quick_join(edu, engine.RuleSet(variant="paulista", seats=2)) not in (mineiro, older, newer)
    assert RoomSeat.objects.filter(room=older, left_at__isnull=True).count() == 2


def test_quick_join_leaves_online_mineiro_rooms_to_those_who_pick_them(person):
    ana, bia = person("Ana"), person("Bia")
    online = engine.RuleSet(variant="mineiro", seats=2, mineiro_style="online")
    room = services.create_room(ana, services.RoomOptions(rules=online))
    assert services.quick_join(bia, engine.RuleSet(variant="mineiro", seats=2)) != room


def test_quick_join_opens_a_public_room_when_none_waits(person):
    ana = person("Ana")
    room = services.quick_join(ana, engine.RuleSet(variant="mineiro", seats=2))
    assert (room.is_private, room.variant, room.seats, room.chief, room.move_seconds) == (False, "mineiro", 2, ana, 99)


# --- bad input: a clear refusal and nothing changes ------------------------------------------


def unchanged(*users):
    return [blue(u) for u in users], RoomSeat.objects.count(), Room.objects.count(), LedgerEntry.objects.count()


def test_not_enough_blue_coins_is_refused_and_nothing_is_charged(person):
    poor, ana = person("Pobre", blue=0), person("Ana")
    room = services.create_room(ana, options())
    before = unchanged(poor, ana)
    refusal = refused("no_blue_coins", services.join_room, poor, room.code)
    assert "blue coins" in str(refusal.message).lower() or "moedas azuis" in str(refusal.message).lower()
    refused("no_blue_coins", services.create_room, poor, options())
    refused("no_blue_coins", services.quick_join, poor, engine.RuleSet())
    assert unchanged(poor, ana) == before


def test_joining_twice_or_a_second_room_is_refused(person):
    ana, bia, caio = person("Ana"), person("Bia"), person("Caio")
    room = services.create_room(ana, options(seats=4))
    other = services.create_room(caio, options(seats=4))
    services.join_room(bia, room.code)
    before = unchanged(ana, bia, caio)
    refused("already_in_a_room", services.join_room, bia, room.code)
    refused("already_in_a_room", services.join_room, bia, other.code)
    refused("already_in_a_room", services.create_room, bia, options())
    refused("already_in_a_room", services.quick_join, bia, engine.RuleSet(seats=4))
    assert unchanged(ana, bia, caio) == before


def test_full_started_closed_and_unknown_rooms_are_refused(person):
    ana, bia, caio = person("Ana"), person("Bia"), person("Caio")
    started = services.create_room(ana, options())
    services.join_room(bia, started.code)
    closed = services.create_room(caio, options(seats=4))
    services.close_room(caio, closed.code)
    dani = person("Dani")
    before = unchanged(dani)
    refused("room_started", services.join_room, dani, started.code)
    refused("room_closed", services.join_room, dani, closed.code)
    refused("no_such_room", services.join_room, dani, started.code[:-1] + ("A" if started.code[-1] != "A" else "B"))
    refused("room_started", services.leave_room, ana, started.code)
    assert unchanged(dani) == before and blue(ana) == 4


def test_wrong_or_missing_password_is_refused(person):
    ana, bia = person("Ana"), person("Bia")
    room = services.create_room(ana, options(), is_private=True, name="Amigos", password="segredo1")
    before = unchanged(ana, bia)
    refused("wrong_password", services.join_room, bia, room.code, password="segredo2")
    refused("missing_password", services.join_room, bia, room.code)
    assert unchanged(ana, bia) == before


def test_a_private_room_needs_a_name_and_password(person):
    ana = person("Ana")
    refused("private_needs_name_and_password", services.create_room, ana, options(), is_private=True, name="X")
    assert Room.objects.count() == 0 and blue(ana) == 5
