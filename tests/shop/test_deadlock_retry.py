"""A transaction PostgreSQL aborts as a deadlock victim is run once more (issue 28 item 4), and only that.

`shop.wallet.retry_once_on_deadlock` wraps the services that lock several people's rows (joining a
room, a move that settles a match, ...); `shop.wallet.lock_wallets` locks wallets in one ordered step.
"""

import threading

import pytest
from django.db import OperationalError, connection, transaction

from shop import wallet
from shop.models import Wallet
from tests.support.threads import run_in_threads

on_postgresql = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="SQLite serialises every writer with one file lock: no deadlock"
)


class _Deadlock(Exception):
    sqlstate = "40P01"  # what psycopg's DeadlockDetected carries


def deadlock() -> OperationalError:
    """An error as Django raises it for PostgreSQL's deadlock: its cause is the driver's error."""
    error = OperationalError("deadlock detected")
    error.__cause__ = _Deadlock()
    return error


def failing(*errors):
    """A function that raises each error in turn, then answers "done"; `calls` counts the runs."""
    queue = list(errors)

    def run():
        run.calls += 1
        if queue:
            raise queue.pop(0)
        return "done"

    run.calls = 0
    return run


@pytest.mark.django_db(transaction=True)
def test_a_deadlock_victim_is_run_once_more():
    run = failing(deadlock())
    assert wallet.retry_once_on_deadlock(run)() == "done"
    assert run.calls == 2


@pytest.mark.django_db(transaction=True)
def test_a_second_deadlock_in_a_row_is_raised():
    run = failing(deadlock(), deadlock())
    with pytest.raises(OperationalError):
        wallet.retry_once_on_deadlock(run)()
    assert run.calls == 2


@pytest.mark.django_db(transaction=True)
def test_other_database_errors_are_not_retried():
    run = failing(OperationalError("server closed the connection unexpectedly"))
    with pytest.raises(OperationalError):
        wallet.retry_once_on_deadlock(run)()
    assert run.calls == 1


@pytest.mark.django_db(transaction=True)
def test_inside_a_callers_transaction_only_the_caller_may_start_again():
    run = failing(deadlock())
    with pytest.raises(OperationalError), transaction.atomic():
        wallet.retry_once_on_deadlock(run)()
    assert run.calls == 1


@pytest.mark.django_db
def test_lock_wallets_creates_the_missing_ones_and_needs_a_transaction(make_user):
    ana, bia = make_user("Ana"), make_user("Bia")
    Wallet.objects.filter(user=bia).delete()
    with transaction.atomic():
        wallet.lock_wallets([bia, ana.pk, None])
    assert Wallet.objects.filter(user__in=[ana, bia]).count() == 2


@pytest.mark.django_db(transaction=True)
def test_lock_wallets_outside_a_transaction_is_refused(make_user):
    with pytest.raises(RuntimeError):
        wallet.lock_wallets([make_user("Ana")])


@on_postgresql
@pytest.mark.django_db(transaction=True)
def test_two_transactions_locking_in_opposite_orders_both_get_through(make_user):
    """A real deadlock: each locks one wallet, waits for the other to have locked theirs, then asks for
    the other's. PostgreSQL aborts one; run again, it finds the other committed and gets through."""
    ana, bia = make_user("Ana"), make_user("Bia")
    both_hold_one = threading.Barrier(2)
    attempts = []

    def lock_in_order(first, second):
        with transaction.atomic():
            attempts.append(first)
            Wallet.objects.select_for_update().get(user=first)
            if len(attempts) <= 2:  # the first attempts only: a retry goes straight through
                both_hold_one.wait(timeout=10)
            Wallet.objects.select_for_update().get(user=second)
        return first.username

    orders = [(ana, bia), (bia, ana)]
    results, errors = run_in_threads(2, lambda n: wallet.retry_once_on_deadlock(lock_in_order)(*orders[n]))
    assert errors == []
    assert sorted(results) == ["Ana", "Bia"]
    assert len(attempts) == 3  # one of them was the victim, and ran once more
