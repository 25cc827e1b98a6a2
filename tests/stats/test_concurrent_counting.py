"""Matches of one player finishing at once are all counted, each once (PostgreSQL: real row locks)."""

from datetime import UTC, datetime, timedelta

import pytest
from django.db import connection, transaction

from stats.facts import MatchRecord
from stats.models import CountedMatch, EarnedAchievement, PlayerStats
from stats.services import count_matches
from tests.support.threads import run_in_threads

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="SQLite serialises every writer: no race to show"),
]
T0 = datetime(2026, 11, 1, tzinfo=UTC)


def record(user_id, n, *, won=True):
    return MatchRecord(
        user_id=user_id,
        reference=f"match:race{n}",
        finished_at=T0 + timedelta(minutes=n),
        mode="ai",
        variant="paulista",
        seats=2,
        seat=0,
        side=0,
        won=won,
        events=[{"type": "match_started", "score": [0, 0], "hand_kind": "normal"}],
    )


def counted_in_a_transaction(records):
    with transaction.atomic():
        return count_matches(records)


def test_parallel_finishes_are_each_counted_once_and_award_once(make_user, stocked_achievements):
    ana, bia = make_user("Ana", password=None), make_user("Bia", password=None)
    # Each "match" has both players, given in opposite orders: the user-id order of the locks
    # is what keeps this from deadlocking.
    jobs = [
        [record(ana.pk, n), record(bia.pk, n)] if n % 2 else [record(bia.pk, n), record(ana.pk, n)] for n in range(8)
    ]
    jobs += jobs[:3]  # three retries of the same matches
    results, errors = run_in_threads(len(jobs), lambda n: counted_in_a_transaction(jobs[n]))
    assert not errors
    for user in (ana, bia):
        stats = PlayerStats.objects.get(user=user)
        assert stats.count("played") == stats.count("won") == 8
        assert CountedMatch.objects.filter(user=user).count() == 8
        assert EarnedAchievement.objects.filter(user=user, achievement__code="first_win").count() == 1
