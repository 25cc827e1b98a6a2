"""Twenty people quick-joining at once fill rooms exactly (PostgreSQL: real row locks between connections)."""

from collections import Counter

import pytest
from django.db import connection

from games import engine
from games.models import Match
from rooms import services
from rooms.models import Room, RoomSeat
from shop.models import LedgerEntry
from tests.support.rooms import blue
from tests.support.threads import run_in_threads

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="SQLite serialises every writer with one file lock, so it cannot show a row-lock race",
    ),
]


def test_twenty_quick_joins_at_once_fill_five_rooms_of_four_exactly(person):
    people = [person(f"Rapido{n}", blue=3) for n in range(20)]
    rules = engine.RuleSet(variant="paulista", seats=4, partnership=True)
    results, errors = run_in_threads(20, lambda n: services.quick_join(people[n], rules, ip=f"10.0.0.{n}"))
    assert errors == []
    rooms = list(Room.objects.all())
    assert len(rooms) == 5 and all(r.status == Room.Status.STARTED for r in rooms)
    seated = Counter(RoomSeat.objects.filter(left_at__isnull=True).values_list("room_id", flat=True))
    assert sorted(seated.values()) == [4, 4, 4, 4, 4]
    users = list(RoomSeat.objects.values_list("user_id", flat=True))
    assert len(users) == len(set(users)) == 20  # nobody in two rooms
    assert Match.objects.filter(kind=Match.Kind.ROOM).count() == 5
    assert all(blue(p) == 2 for p in people)  # each charged once
    assert LedgerEntry.objects.filter(reason="room_entry").count() == 20


def test_one_person_quick_joining_from_many_tabs_at_once_sits_once(person):
    ana = person("Ana", blue=5)
    rules = engine.RuleSet(variant="paulista", seats=4, partnership=True)
    results, errors = run_in_threads(6, lambda n: services.quick_join(ana, rules))
    assert len(results) == 1 and len(errors) == 5
    assert all(isinstance(e, services.RoomRefused) and e.code == "already_in_a_room" for e in errors)
    assert RoomSeat.objects.filter(user=ana).count() == 1 and blue(ana) == 4


def test_many_joining_one_room_at_once_never_overfill_it(person):
    chief = person("Chefe")
    room = services.create_room(chief, services.RoomOptions(rules=engine.RuleSet(seats=4)))
    others = [person(f"Gente{n}") for n in range(8)]
    results, errors = run_in_threads(8, lambda n: services.join_room(others[n], room.code))
    assert len(results) == 3 and len(errors) == 5
    assert {e.code for e in errors} <= {"room_full", "room_started"}
    assert RoomSeat.objects.filter(room=room, left_at__isnull=True).count() == 4
    assert sum(blue(p) for p in others) == 8 * 5 - 3
