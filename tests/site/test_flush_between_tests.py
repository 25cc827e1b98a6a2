"""What a test that commits leaves for the next: every table empty (tests/support/flush.py empties them by
DELETE on PostgreSQL, where Django's flush would TRUNCATE them), the content types and permissions back."""

import pytest
from django.apps import apps
from django.contrib.auth.models import Permission
from django.contrib.contenttypes.models import ContentType
from django.core.management import call_command
from django.core.management.color import no_style
from django.db import connection

from shop import money, wallet
from tests.support.matches import make_table, win_match_for

KEPT_BY_POST_MIGRATE = (ContentType, Permission)


def flush_as_between_tests() -> None:
    # What TransactionTestCase._fixture_teardown calls after each test.
    call_command("flush", verbosity=0, interactive=False, reset_sequences=False, allow_cascade=False)


@pytest.mark.django_db(transaction=True)
def test_the_flush_after_a_committing_test_empties_every_table_and_brings_back_the_content_types(make_user):
    match, (winner, _) = make_table(make_user, 2)
    win_match_for(match, 0)  # seats, events, rewards, ledger lines, statistics: rows pointing at rows
    wallet.change_balance(winner, currency=wallet.GEMS, amount=3, reason=money.Reason.ADMIN_ADJUSTMENT)
    filled = [model for model in apps.get_models() if model.objects.exists()]
    assert len(filled) > 10

    flush_as_between_tests()

    emptied = [model for model in apps.get_models() if model not in KEPT_BY_POST_MIGRATE]
    assert [model.__name__ for model in emptied if model.objects.exists()] == []
    assert ContentType.objects.exists() and Permission.objects.exists()
    make_user("Again")  # the next test's first rows go in


@pytest.mark.skipif(connection.vendor != "postgresql", reason="SQLite's flush is DELETE already")
def test_on_postgresql_the_flush_between_tests_deletes_rather_than_truncates():
    statements = connection.ops.sql_flush(no_style(), ["games_match", "accounts_profile"])
    assert statements == [
        'LOCK TABLE "games_match", "accounts_profile" IN ACCESS EXCLUSIVE MODE;',
        'DELETE FROM "games_match";',
        'DELETE FROM "accounts_profile";',
    ]
    # What only TRUNCATE does is still Django's.
    assert connection.ops.sql_flush(no_style(), ["games_match"], reset_sequences=True)[0].startswith("TRUNCATE")
