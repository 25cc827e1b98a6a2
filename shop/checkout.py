"""Checking out one item: paid from the wallet at once, or (real money) a pending purchase and the provider's checkout.

The one service the buy button calls, so the shop's view only parses the form and redirects.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from . import purchases
from .models import REAL_MONEY, Item, Purchase, PurchaseStatus
from .payments import get_provider


@dataclass(frozen=True)
class Checkout:
    purchase: Purchase
    redirect_url: str | None = None  # the payment provider's page, when the buyer must pay there


def check_out(
    user, item: Item, *, idempotency_key: str, return_url: Callable[[Purchase], str], cancel_url: str
) -> Checkout:
    """Buy `item` for `user`; a repeated key returns the first purchase. `return_url(purchase)` is
    where the provider sends the buyer back after paying, `cancel_url` where it sends them if they
    give up.

    Raises PurchaseRefused, InsufficientFunds or PaymentUnavailable (each with a `message` for
    people) with nothing changed.
    """
    if item.price_currency != REAL_MONEY:
        return Checkout(purchases.buy(user, item, idempotency_key=idempotency_key))
    provider = get_provider()
    purchase = purchases.start_paid_purchase(user, item, idempotency_key=idempotency_key, provider=provider.name)
    if purchase.status != PurchaseStatus.PENDING:
        return Checkout(purchase)
    start = provider.start_checkout(purchase, success_url=return_url(purchase), cancel_url=cancel_url)
    return Checkout(purchase, start.redirect_url)
