"""The wallet: the ONE place balances change. Each change locks the wallet row, checks, updates
and appends a ledger line in the same transaction.

Other apps call `change_balance`, `balance` and `get_or_create_wallet`; nothing else writes
`Wallet` balances. Why a balance changes, the idempotency keys and "can this person cover it" are
`shop.money`'s: `change_balance` refuses a reason `shop.money.Reason` does not name.

A transaction that changes several people's balances (a room's start: the entry price and the
stakes; a match's settlement: the pot, the rewards, the house's cut) first locks every wallet it
will touch with `lock_wallets`, in one query ordered by user id, so two such transactions never
hold one wallet each while waiting for the other's (issue 28: a join deadlocked with a settlement
and answered 500). Should PostgreSQL still find a deadlock (a lock outside the wallets), the entry
points that run these transactions retry it once (`retry_once_on_deadlock`).
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, ParamSpec, TypeVar, cast

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import OperationalError, transaction
from django.utils.translation import gettext_lazy as _

from .models import BLUE_COINS, COINS, GEMS, Currency, LedgerEntry, Wallet
from .money import REASONS, Reason, balance

if TYPE_CHECKING:
    from accounts.models import User

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
    "lock_wallets",
    "retry_once_on_deadlock",
]

log = logging.getLogger(__name__)

CURRENCIES = (COINS, BLUE_COINS, GEMS)

P = ParamSpec("P")
R = TypeVar("R")


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


def get_or_create_wallet(user: User) -> Wallet:
    wallet, _created = Wallet.objects.get_or_create(user=user)
    return wallet


def house_account() -> User:
    """The house's account: the user whose wallet receives the house's share of stake pots (games.match.stakes).

    Inactive, with no usable password and a name no person can sign up with (validators refuse "~"),
    so nobody can sign in as the house; it gets no starter grant (shop.receivers).
    """
    user, _created = get_user_model().objects.get_or_create(
        username=settings.SHOP_HOUSE_USERNAME, defaults={"is_active": False, "password": "!"}
    )
    return user


def lock_wallets(users: Iterable[User | int | None]) -> None:
    """Lock the wallets of these users (users or ids; None is skipped), in user-id order, in one query.

    Call inside the transaction, before its first balance change: `change_balance` then finds its
    row already locked. Wallets that do not exist yet are created first (a concurrent creation of
    the same one waits on the unique index, then is ignored).
    """
    # Each a user's pk, or an id (types only: no check).
    ids = sorted(cast(set[int], {getattr(user, "pk", user) for user in users if user is not None}))
    if not ids:
        return
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("lock_wallets holds its locks until the transaction ends: call it inside one")
    have = set(Wallet.objects.filter(user_id__in=ids).values_list("user_id", flat=True))
    if len(have) < len(ids):
        Wallet.objects.bulk_create([Wallet(user_id=i) for i in ids if i not in have], ignore_conflicts=True)
    # PostgreSQL takes the row locks as the sorted rows come out (LockRows sits above the Sort).
    list(Wallet.objects.select_for_update().filter(user_id__in=ids).order_by("user_id").values_list("pk", flat=True))


def is_deadlock(error: BaseException) -> bool:
    """A Django OperationalError that PostgreSQL raised on finding a deadlock (SQLSTATE 40P01)."""
    return isinstance(error, OperationalError) and getattr(error.__cause__, "sqlstate", None) == "40P01"


def retry_once_on_deadlock(func: Callable[P, R]) -> Callable[P, R]:
    """Run a function whose transaction PostgreSQL may abort as a deadlock victim, and retry it once.

    Only at the outermost transaction: inside a caller's, the whole transaction is aborted and only
    the caller may start it again, so the function then runs as it is. A deadlock victim was rolled
    back whole (nothing to undo; callbacks on commit were dropped), so running it again is safe. A
    second deadlock propagates. SQLite has no deadlocks: one writer at a time.
    """

    @functools.wraps(func)
    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        if transaction.get_connection().in_atomic_block:
            return func(*args, **kwargs)
        try:
            return func(*args, **kwargs)
        except OperationalError as error:
            if not is_deadlock(error):
                raise
            log.warning("%s was chosen as a deadlock victim; trying it once more", func.__qualname__)
            return func(*args, **kwargs)

    return run


def change_balance(
    user: User,
    *,
    currency: str,
    amount: int,
    reason: Reason,
    reference: str = "",
    idempotency_key: str | None = None,
    note: str = "",
    actor: User | None = None,
) -> LedgerEntry:
    """Credit (positive) or debit (negative) one currency and write the ledger line.

    `reason`, `reference` and `idempotency_key` come from `shop.money`; a reason it does not name is
    refused (`ValueError`, nothing changed). Raises `InsufficientFunds` (changing nothing) if the
    balance would go negative. With an `idempotency_key` already used for this wallet, returns that
    earlier entry and changes nothing. `note` and `actor` (the staff member) are for admin adjustments.
    """
    _check_currency(currency)
    if not isinstance(amount, int) or isinstance(amount, bool):
        raise TypeError("amount must be an int")
    if not reason:
        raise ValueError("a reason is required")
    if reason not in REASONS:
        raise ValueError(f"unknown ledger reason {reason!r}: name it in shop.money.Reason")
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
