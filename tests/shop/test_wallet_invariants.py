"""Ledger sums always equal balances, whatever sequence of credits, debits and purchases happens."""

import uuid

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shop import purchases, wallet
from shop.models import Item, LedgerEntry, Wallet

pytestmark = pytest.mark.django_db

operation = st.one_of(
    st.tuples(st.just("change"), st.integers(0, 2), st.sampled_from(wallet.CURRENCIES), st.integers(-150, 150)),
    st.tuples(
        st.just("buy"),
        st.integers(0, 2),
        st.sampled_from(["coins-500", "blue-5-coins", "blue-10-gems", "boina", "night"]),
        st.none(),
    ),
    st.tuples(st.just("repeat_key"), st.integers(0, 2), st.sampled_from(wallet.CURRENCIES), st.integers(1, 20)),
)


def assert_ledger_matches_balances():
    """Every wallet made so far (hypothesis keeps the database between examples), read in two queries:
    per wallet and currency, the ledger's sum and its last line's balance_after equal the balance."""
    totals: dict[tuple[int, str], int] = {}
    last_balance: dict[tuple[int, str], int] = {}
    for wallet_id, currency, amount, balance_after in LedgerEntry.objects.order_by("id").values_list(
        "wallet_id", "currency", "amount", "balance_after"
    ):
        totals[wallet_id, currency] = totals.get((wallet_id, currency), 0) + amount
        last_balance[wallet_id, currency] = balance_after
    for w in Wallet.objects.all():
        for currency in wallet.CURRENCIES:
            assert totals.get((w.pk, currency), 0) == getattr(w, currency), (w, currency)
            assert last_balance.get((w.pk, currency), 0) == getattr(w, currency), (w, currency)
            assert getattr(w, currency) >= 0


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ops=st.lists(operation, max_size=25))
def test_ledger_sum_equals_balance_for_every_wallet(make_user, ops):
    players = [make_user() for _ in range(3)]
    for kind, who, what, amount in ops:
        player = players[who]
        try:
            if kind == "change":
                wallet.change_balance(player, currency=what, amount=amount, reason="admin_adjustment")
            elif kind == "repeat_key":
                for _ in range(2):
                    wallet.change_balance(
                        player, currency=what, amount=amount, reason="admin_adjustment", idempotency_key=f"same:{what}"
                    )
            else:
                purchases.buy(player, Item.objects.get(slug=what), idempotency_key=uuid.uuid4().hex)
        except (wallet.InsufficientFunds, purchases.PurchaseRefused):
            pass
    assert_ledger_matches_balances()
