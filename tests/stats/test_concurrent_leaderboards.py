"""Leaderboards read while matches are settled and tallies folded at once (PostgreSQL: real concurrency):
every read's positions agree with its points, and the tallies end exactly as the totals stand."""

import random
import threading

import pytest
from django.db import connection, connections, transaction

from stats import selectors
from stats.models import BoardTally, RankPointTotal
from stats.services import award_rank_points, fold_tallies
from tests.support.threads import run_in_threads

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="SQLite serialises every writer: no race to show"),
]


def consistent(result) -> bool:
    """Every row's position is one more than the rows above it with more points (the whole board on one page)."""
    rows = result["rows"]
    return len(rows) == result["total"] and all(
        row.position == 1 + sum(1 for other in rows if other.points > row.points) for row in rows
    )


def test_reads_during_settlements_and_folds_agree_with_their_points(make_user):
    people = sorted((make_user(f"c{n}", password=None) for n in range(12)), key=lambda u: u.pk)
    seen, stop = [], threading.Event()

    def settle(n):
        rng = random.Random(n)
        for match in range(15):
            players = sorted(rng.sample(people, 4), key=lambda u: u.pk)  # locks in user-id order
            with transaction.atomic():
                for user in players:
                    award_rank_points(user, rng.choice([1, 2, 3, 10]), reason="race", reference=f"{n}:{match}")
        return n

    def read():
        try:
            while not stop.is_set():
                seen.append(selectors.leaderboard("all"))
                fold_tallies("all", selectors.period_starts(selectors.timezone.localdate())["all"], "")
        finally:
            connections.close_all()

    readers = [threading.Thread(target=read) for _ in range(2)]
    for reader in readers:
        reader.start()
    _results, errors = run_in_threads(4, settle)
    stop.set()
    for reader in readers:
        reader.join(timeout=30)
    assert not errors, errors
    assert len(seen) > 5
    assert all(consistent(result) for result in seen)

    final = selectors.leaderboard("all")
    assert final["total"] == RankPointTotal.objects.filter(period="all", points__gt=0).count() == 12
    by_points = {}
    for total in RankPointTotal.objects.filter(period="all"):
        by_points[total.points] = by_points.get(total.points, 0) + 1
    summed = {}
    for row in BoardTally.objects.filter(period="all", country=""):
        summed[row.points] = summed.get(row.points, 0) + row.players
    assert {p: n for p, n in summed.items() if n} == by_points
