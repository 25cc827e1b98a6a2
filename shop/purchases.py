"""Buying: wallet-paid items complete at once; real-money gem packs start pending and complete
when the payment provider confirms. Every path is idempotent and never overspends.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:
    from accounts.models import User

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from . import inventory, money, wallet
from .models import REAL_MONEY, Item, Ownership, Purchase, PurchaseStatus, Wallet
from .wallet import InsufficientFunds

__all__ = [
    "PurchaseRefused",
    "NotOnSale",
    "AlreadyOwned",
    "NeedsPaymentProvider",
    "InsufficientFunds",
    "buy",
    "start_paid_purchase",
    "complete_paid_purchase",
    "fail_paid_purchase",
]


class PurchaseRefused(Exception):
    message = _("This purchase is not possible.")

    def __str__(self) -> str:
        return str(self.message)


class NotOnSale(PurchaseRefused):
    message = _("This item is not on sale right now.")


class AlreadyOwned(PurchaseRefused):
    message = _("You already own this item.")


class NeedsPaymentProvider(PurchaseRefused):
    message = _("This item is paid with real money.")


def _lock_wallet_and_find(user, idempotency_key: str) -> Purchase | None:
    """Lock the buyer's wallet row and return the purchase already made with this key, if any.

    The lock serialises all purchases of one user, so the checks that follow cannot race with a
    parallel request (double click, second tab).
    """
    Wallet.objects.select_for_update().get(user=user)
    return Purchase.objects.filter(user=user, idempotency_key=idempotency_key).first()


def buy(user, item: Item, *, idempotency_key: str) -> Purchase:
    """Buy an item paid from the wallet. A repeated key returns the first purchase unchanged.

    Raises NotOnSale, AlreadyOwned or InsufficientFunds with nothing changed.
    """
    if item.price_currency == REAL_MONEY:
        raise NeedsPaymentProvider()
    wallet.get_or_create_wallet(user)
    with transaction.atomic():
        earlier = _lock_wallet_and_find(user, idempotency_key)
        if earlier is not None:
            return earlier
        item = _check_can_buy(user, item)
        purchase = Purchase.objects.create(
            user=user,
            item=item,
            price=item.price,
            price_currency=item.price_currency,
            provider="wallet",
            idempotency_key=idempotency_key,
            status=PurchaseStatus.COMPLETED,
            completed_at=timezone.now(),
        )
        if item.price:
            wallet.change_balance(
                user,
                currency=item.price_currency,
                amount=-item.price,
                reason=money.Reason.PURCHASE,
                reference=money.purchase_reference(purchase.pk),
                idempotency_key=money.purchase_payment_key(purchase.pk),
            )
        _deliver(purchase)
    return purchase


def start_paid_purchase(user, item: Item, *, idempotency_key: str, provider: str) -> Purchase:
    """Record a pending real-money purchase (a gem pack); the provider completes it later."""
    if item.price_currency != REAL_MONEY:
        raise PurchaseRefused()
    wallet.get_or_create_wallet(user)
    with transaction.atomic():
        earlier = _lock_wallet_and_find(user, idempotency_key)
        if earlier is not None:
            return earlier
        item = _check_can_buy(user, item)
        return Purchase.objects.create(
            user=user,
            item=item,
            price=item.price,
            price_currency=REAL_MONEY,
            provider=provider,
            idempotency_key=idempotency_key,
        )


def complete_paid_purchase(purchase_id: int, *, provider: str, provider_reference: str) -> Purchase:
    """The provider says the money arrived: deliver exactly once (replays return the same purchase)."""
    with transaction.atomic():
        purchase = Purchase.objects.select_for_update().select_related("item").get(pk=purchase_id)
        if purchase.status == PurchaseStatus.COMPLETED:
            return purchase
        if purchase.provider != provider:
            raise PurchaseRefused()
        purchase.status = PurchaseStatus.COMPLETED
        purchase.completed_at = timezone.now()
        purchase.provider_reference = provider_reference
        purchase.save(update_fields=["status", "completed_at", "provider_reference"])
        # A buyer who deleted their account meanwhile has nothing left to credit.
        if purchase.user_id is not None:
            _deliver(purchase)
    return purchase


def fail_paid_purchase(purchase_id: int) -> None:
    """The checkout could not start (the provider was unreachable or refused): a pending purchase fails.

    Nothing was paid, so nothing is credited or taken back; a completed purchase stays completed.
    """
    Purchase.objects.filter(pk=purchase_id, status=PurchaseStatus.PENDING).update(status=PurchaseStatus.FAILED)


def _check_can_buy(user, item: Item) -> Item:
    item = Item.objects.get(pk=item.pk)  # fresh: the admin may have just switched it off
    if not item.is_on_sale():
        raise NotOnSale()
    if item.is_ownable and Ownership.objects.filter(user=user, item=item).exists():
        raise AlreadyOwned()
    return item


def _deliver(purchase: Purchase) -> None:
    item = purchase.item
    if item.is_ownable:
        inventory.grant_item(purchase.user, item, how="purchase")
    elif item.grant_currency:
        wallet.change_balance(
            cast("User", purchase.user),  # a paid purchase has its buyer
            currency=item.grant_currency,
            amount=item.grant_amount,
            reason=money.Reason.PACK,
            reference=money.purchase_reference(purchase.pk),
            idempotency_key=money.pack_grant_key(purchase.pk),
        )
