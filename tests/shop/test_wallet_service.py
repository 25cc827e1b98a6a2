"""The wallet service: the one place balances change, always with a ledger line."""

import pytest
from django.db import IntegrityError, transaction
from django.utils import translation

from shop import wallet
from shop.models import LedgerEntry, Wallet

pytestmark = pytest.mark.django_db


def test_credit_raises_balance_and_writes_a_ledger_line_with_balance_after(user):
    before = wallet.balance(user, currency=wallet.GEMS)
    entry = wallet.change_balance(user, currency=wallet.GEMS, amount=7, reason="match_reward", reference="match:12")
    assert wallet.balance(user, currency=wallet.GEMS) == before + 7
    assert (entry.currency, entry.amount, entry.balance_after, entry.reason, entry.reference) == (
        "gems",
        7,
        before + 7,
        "match_reward",
        "match:12",
    )
    assert entry.wallet.user == user


def test_debit_beyond_balance_raises_insufficient_funds_and_changes_nothing(user):
    coins = wallet.balance(user, currency=wallet.COINS)
    lines = LedgerEntry.objects.count()
    with pytest.raises(wallet.InsufficientFunds) as refusal:
        wallet.change_balance(user, currency=wallet.COINS, amount=-(coins + 1), reason="room_entry")
    assert refusal.value.available == coins
    assert wallet.balance(user, currency=wallet.COINS) == coins
    assert LedgerEntry.objects.count() == lines


def test_insufficient_funds_message_is_translated(user):
    with translation.override("pt-br"), pytest.raises(wallet.InsufficientFunds) as refusal:
        wallet.change_balance(user, currency=wallet.GEMS, amount=-1, reason="purchase")
    assert "gemas" in str(refusal.value.message)
    with translation.override("en"), pytest.raises(wallet.InsufficientFunds) as refusal:
        wallet.change_balance(user, currency=wallet.GEMS, amount=-1, reason="purchase")
    assert "Not enough gems" in str(refusal.value.message)


def test_debit_to_exactly_zero_is_allowed(user):
    blue = wallet.balance(user, currency=wallet.BLUE_COINS)
    entry = wallet.change_balance(user, currency=wallet.BLUE_COINS, amount=-blue, reason="room_entry")
    assert entry.balance_after == 0 and wallet.balance(user, currency=wallet.BLUE_COINS) == 0


def test_repeated_idempotency_key_returns_the_first_entry_and_changes_nothing(user):
    first = wallet.change_balance(
        user, currency=wallet.COINS, amount=30, reason="match_reward", idempotency_key="match:9:seat:1"
    )
    balance = wallet.balance(user, currency=wallet.COINS)
    again = wallet.change_balance(
        user, currency=wallet.COINS, amount=30, reason="match_reward", idempotency_key="match:9:seat:1"
    )
    assert again.pk == first.pk
    assert wallet.balance(user, currency=wallet.COINS) == balance
    assert LedgerEntry.objects.filter(idempotency_key="match:9:seat:1").count() == 1


def test_same_idempotency_key_on_two_wallets_is_two_changes(make_user):
    a, b = make_user(), make_user()
    wallet.change_balance(a, currency=wallet.COINS, amount=5, reason="admin_adjustment", idempotency_key="k")
    wallet.change_balance(b, currency=wallet.COINS, amount=5, reason="admin_adjustment", idempotency_key="k")
    assert LedgerEntry.objects.filter(idempotency_key="k").count() == 2


def test_database_refuses_a_duplicate_idempotency_key_for_one_wallet(user):
    entry = wallet.change_balance(
        user, currency=wallet.COINS, amount=1, reason="admin_adjustment", idempotency_key="dup"
    )
    with pytest.raises(IntegrityError), transaction.atomic():
        LedgerEntry.objects.create(
            wallet=entry.wallet, currency="coins", amount=1, balance_after=1, reason="r", idempotency_key="dup"
        )


def test_database_check_constraint_refuses_a_negative_balance(user):
    wallet.get_or_create_wallet(user)
    with pytest.raises(IntegrityError), transaction.atomic():
        Wallet.objects.filter(user=user).update(coins=-1)


def test_unknown_currency_is_refused(user):
    with pytest.raises(ValueError):
        wallet.change_balance(user, currency="doubloons", amount=1, reason="admin_adjustment")


def test_ledger_lines_cannot_be_edited_or_deleted(user):
    entry = wallet.change_balance(user, currency=wallet.COINS, amount=1, reason="admin_adjustment")
    entry.amount = 1000
    with pytest.raises(ValueError):
        entry.save()
    with pytest.raises(ValueError):
        entry.delete()


def test_balance_of_a_user_without_wallet_is_zero(user):
    Wallet.objects.filter(user=user).delete()
    assert wallet.balance(user, currency=wallet.COINS) == 0
    assert wallet.get_or_create_wallet(user).coins == 0
