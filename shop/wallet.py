"""The wallet: the ONE place balances change. Each change locks the wallet row, checks, updates
and appends a ledger line in the same transaction.

Other apps call `change_balance`, `balance` and `get_or_create_wallet`; nothing else writes
`Wallet` balances.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils.translation import gettext_lazy as _

from .models import BLUE_COINS, COINS, GEMS, Currency, LedgerEntry, Wallet

__all__ = [
    "COINS",
    "BLUE_COINS",
    "GEMS",
    "CURRENCIES",
    "InsufficientFunds",
    "change_balance",
    "balance",
    "get_or_create_wallet",
    "house_account",
]

CURRENCIES = (COINS, BLUE_COINS, GEMS)


class InsufficientFunds(Exception):
    """The change would take a balance below zero; nothing was changed."""

    def __init__(self, currency: str, needed: int, available: int):
        self.currency, self.needed, self.available = currency, needed, available
        self.message = _("Not enough %(currency)s: you need %(needed)s and have %(available)s.") % {
            "currency": Currency(currency).label,
            "needed": needed,
            "available": available,
        }
        super().__init__(str(self.message))


def get_or_create_wallet(user) -> Wallet:
    wallet, _created = Wallet.objects.get_or_create(user=user)
    return wallet


def house_account():
    """The house's account: the user whose wallet receives the house's share of stake pots (games.stakes).

    Inactive, with no usable password and a name no person can sign up with (validators refuse "~"),
    so nobody can sign in as the house; it gets no starter grant (shop.receivers).
    """
    user, _created = get_user_model().objects.get_or_create(
        username=settings.SHOP_HOUSE_USERNAME, defaults={"is_active": False, "password": "!"}
    )
    return user


def balance(user, currency: str) -> int:
    _check_currency(currency)
    value = Wallet.objects.filter(user=user).values_list(currency, flat=True).first()
    return int(value or 0)


def change_balance(
    user,
    currency: str,
    amount: int,
    *,
    reason: str,
    reference: str = "",
    idempotency_key: str | None = None,
    note: str = "",
    actor=None,
) -> LedgerEntry:
    """Credit (positive) or debit (negative) one currency and write the ledger line.

    Raises `InsufficientFunds` (changing nothing) if the balance would go negative. With an
    `idempotency_key` already used for this wallet, returns that earlier entry and changes nothing.
    `note` and `actor` (the staff member) are for admin adjustments.
    """
    _check_currency(currency)
    if not isinstance(amount, int) or isinstance(amount, bool):
        raise TypeError("amount must be an int")
    if not reason:
        raise ValueError("a reason is required")
    get_or_create_wallet(user)
    with transaction.atomic():
        wallet = Wallet.objects.select_for_update().get(user=user)
        if idempotency_key is not None:
            existing = LedgerEntry.objects.filter(wallet=wallet, idempotency_key=idempotency_key).first()
            if existing is not None:
                return existing
        current = getattr(wallet, currency)
        new_balance = current + amount
        if new_balance < 0:
            raise InsufficientFunds(currency, -amount, current)
        setattr(wallet, currency, new_balance)
        wallet.save(update_fields=[currency, "updated_at"])
        # The row lock serialises writers, so the idempotency check above is race-free; the
        # unique constraint still backs it should anyone bypass this function.
        return LedgerEntry.objects.create(
            wallet=wallet,
            currency=currency,
            amount=amount,
            balance_after=new_balance,
            reason=reason,
            reference=str(reference)[:200],
            note=note[:300],
            actor=actor,
            idempotency_key=idempotency_key,
        )


def _check_currency(currency: str) -> None:
    if currency not in CURRENCIES:
        raise ValueError(f"unknown currency {currency!r}")
