"""`games.match.locked.locked_match`: the ORM's locked read of a match from SQL compiled once, the same row."""

import psycopg
import pytest
from django.db import connection, transaction

from games.match.locked import locked_match
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
