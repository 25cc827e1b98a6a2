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


def test_quick_joins_racing_people_leaving_charge_and_refund_each_seat_exactly_once(person):
    """Three people wait in a room; at the same instant they leave and thirteen others quick-join. Whatever
    the order the locks give, no room over-fills, a room started only when full, nobody sits twice, and
    every blue coin matches a seat: charged once per seat taken, refunded once per seat left."""
    rules = engine.RuleSet(variant="paulista", seats=4, partnership=True)
    leavers = [person(f"Sai{n}", blue=3) for n in range(3)]
    first = [services.quick_join(p, rules) for p in leavers][0]
    newcomers = [person(f"Chega{n}", blue=3) for n in range(13)]

    def act(n):
        if n < 3:
            return services.leave_room(leavers[n], first.code)
        return services.quick_join(newcomers[n - 3], rules)

    results, errors = run_in_threads(16, act)
    # A leaver is refused only when the room started (it filled) before their leave took the lock.
    assert all(isinstance(e, services.RoomRefused) and e.code == "room_started" for e in errors), errors
    seated = Counter(RoomSeat.objects.filter(left_at__isnull=True).values_list("room_id", flat=True))
    for room in Room.objects.all():
        count = seated.get(room.pk, 0)
        assert count == 4 if room.status == Room.Status.STARTED else count < 4, (room.status, count)
    active = list(RoomSeat.objects.filter(left_at__isnull=True).values_list("user_id", flat=True))
    assert len(active) == len(set(active))  # nobody in two rooms
    assert {p.pk for p in newcomers} <= set(active)  # every quick join seated someone
    for p in leavers + newcomers:
        mine = RoomSeat.objects.filter(user=p)
        assert blue(p) == 3 - mine.filter(left_at__isnull=True).count()
        lines = LedgerEntry.objects.filter(wallet__user=p)
        assert lines.filter(reason="room_entry").count() == mine.count()
        assert lines.filter(reason="room_refund").count() == mine.exclude(left_at=None).count()
