"""Parallel purchases by one player never overspend (PostgreSQL: real row locks between connections)."""

import uuid

import pytest
from django.db import connection

from shop import purchases, wallet
from shop.models import LedgerEntry, Purchase
from tests.support.threads import run_in_threads

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="SQLite serialises every writer with one file lock, so it cannot show a row-lock race",
    ),
]


def test_parallel_purchases_can_never_overspend(make_user, make_item):
    buyer = make_user("Apressada")
    pack = make_item("blue_coin_pack", price=30, price_currency="coins", grant_amount=1)
    # 100 starter coins pay for exactly three packs; ten parallel buyers try.
    results, errors = run_in_threads(10, lambda n: purchases.buy(buyer, pack, idempotency_key=uuid.uuid4().hex))
    assert len(results) == 3
    assert len(errors) == 7 and all(isinstance(e, wallet.InsufficientFunds) for e in errors)
    assert wallet.balance(buyer, currency=wallet.COINS) == 10
    assert wallet.balance(buyer, currency=wallet.BLUE_COINS) == 5 + 3
    assert Purchase.objects.filter(user=buyer).count() == 3


def test_parallel_double_submit_of_one_form_buys_once(make_user, make_item):
    buyer = make_user("Clicadora")
    avatar = make_item("avatar", price=40)
    token = uuid.uuid4().hex
    results, errors = run_in_threads(6, lambda n: purchases.buy(buyer, avatar, idempotency_key=token))
    assert not errors
    assert len({p.pk for p in results}) == 1
    assert wallet.balance(buyer, currency=wallet.COINS) == 60


def test_parallel_debits_keep_the_ledger_consistent(make_user):
    buyer = make_user("Paralela")
    results, errors = run_in_threads(
        8, lambda n: wallet.change_balance(buyer, currency=wallet.COINS, amount=-15, reason="room_entry")
    )
    assert len(results) == 6 and len(errors) == 2
    assert wallet.balance(buyer, currency=wallet.COINS) == 10
    assert sorted(e.balance_after for e in LedgerEntry.objects.filter(wallet__user=buyer, reason="room_entry")) == [
        10,
        25,
        40,
        55,
        70,
        85,
    ]
