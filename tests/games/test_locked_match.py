"""`games.match.locked`: the ORM's locked read of a match and its save, from SQL made once: the same rows."""

from datetime import timedelta

import psycopg
import pytest
from django.db import DatabaseError, connection, transaction
from django.utils import timezone

from games.match.locked import locked_match, save_match
from games.match.moves import STORED_FIELDS
from games.models import Match


@pytest.mark.django_db
def test_it_reads_every_field_of_the_match_as_the_orm_does(duel):
    match, _ana, _bia = duel
    with transaction.atomic():
        expected = Match.objects.select_for_update().filter(public_id=match.public_id).first()
        got = locked_match(match.public_id)
    assert got is not None and expected is not None
    for field in Match._meta.concrete_fields:
        assert getattr(got, field.attname) == getattr(expected, field.attname), field.name
    # A row read from the database, saved as an update (not a second match).
    assert got._state.adding is False
    got.version += 1
    got.save(update_fields=["version"])
    assert Match.objects.get(pk=match.pk).version == match.version + 1


@pytest.mark.django_db
def test_an_unknown_public_id_is_no_match(duel):
    with transaction.atomic():
        assert locked_match("no-such-match") is None
        assert locked_match("' OR 1=1 --") is None  # a parameter, never SQL


@pytest.mark.django_db(transaction=True)  # not inside the test's own transaction
def test_outside_a_transaction_it_refuses_rather_than_lock_nothing(duel):
    match, _ana, _bia = duel
    with pytest.raises(RuntimeError, match="transaction"):
        locked_match(match.public_id)


@pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks are PostgreSQL's (SQLite locks the file)")
@pytest.mark.django_db(transaction=True)
def test_on_postgresql_the_row_stays_locked_until_the_transaction_ends(duel):
    match, _ana, _bia = duel
    params = connection.get_connection_params()
    other = psycopg.connect(**params, autocommit=True)
    try:
        with transaction.atomic():
            locked_match(match.public_id)
            with pytest.raises(psycopg.errors.LockNotAvailable):
                other.execute("SELECT id FROM games_match WHERE id = %s FOR UPDATE NOWAIT", [match.pk])
        assert other.execute("SELECT id FROM games_match WHERE id = %s FOR UPDATE NOWAIT", [match.pk]).fetchone()
    finally:
        other.close()


@pytest.mark.django_db
def test_save_match_writes_what_save_writes(duel, make_user):
    """Two copies of one match changed alike in every field a move stores: one saved by the ORM, one by
    save_match; read back, they hold the same values (the clock stamps `updated_at` in both)."""
    match, _ana, _bia = duel
    twin = Match.objects.get(pk=match.pk)
    twin.pk, twin.public_id = None, "twin-of-duel"
    twin.save()
    changed = {
        "state": {**match.state, "note": "ção ✓"},
        "version": match.version + 3,
        "score": [7, 11],
        "status": Match.Status.FINISHED,
        "winner_side": 1,
        "finished_at": timezone.now(),
        "deadline": None,
        "deadline_seat": None,
        "turn_started_at": timezone.now() - timedelta(seconds=5),
        "timed_out_seat": 0,
        "timed_out_version": 4,
        "missed_turns": 2,
        "away_since": {"1": "2026-12-03T10:00:00+00:00"},
        "robot_seats": [1],
        "left_seats": [],
        "own_moves": [3, 4],
    }
    assert set(changed) | {"updated_at"} == set(STORED_FIELDS)
    before = timezone.now()
    for row in (match, twin):
        for name, value in changed.items():
            setattr(row, name, value)
    match.save(update_fields=STORED_FIELDS)
    save_match(twin, STORED_FIELDS)
    by_orm, by_sql = Match.objects.get(pk=match.pk), Match.objects.get(pk=twin.pk)
    for name in changed:
        assert getattr(by_sql, name) == getattr(by_orm, name), name
    assert by_sql.updated_at >= before and by_sql.updated_at == twin.updated_at
    # And nothing else: a field not listed keeps what the row had.
    assert by_sql.rules == by_orm.rules and by_sql.public_id == "twin-of-duel"


@pytest.mark.django_db
def test_save_match_of_a_row_that_is_gone_fails_as_save_does(duel):
    match, _ana, _bia = duel
    Match.objects.filter(pk=match.pk).delete()
    with pytest.raises(DatabaseError, match="did not affect any rows"):
        save_match(match, STORED_FIELDS)
