"""Money policy: why a balance changes, the key that makes each change happen once, and whether a
person can cover an amount (issue 29). `shop.wallet` stays the only writer; this module only names
and reads.

- **Reasons** (`Reason`): every reason any app gives `shop.wallet.change_balance`, with the words the
  wallet's history shows for it in each language. The wallet refuses a reason not named here
  (`ValueError`), so this class is the single list; its values are stored in ledger lines and must
  never change.
- **Idempotency keys** (the `*_key` functions): a ledger line written with a key already used on
  that wallet is not written again. Stored rows hold these exact strings, so a key builder's output
  must never change (tests/shop/test_money_policy.py pins them).
- **References** (the `*_reference` functions, `ADMIN_REFERENCE`): what a ledger line is about.
- **Coverage** (`coverage`): can this person pay this stake or entry price: one read of the balance,
  the rule "an amount up to the balance", and the balance for the refusal's message.

Callers build every reason, key and reference through this module; a string literal in their place
fails tests/shop/test_money_moves_only_through_the_wallet.py.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from accounts.models import User

from .models import BLUE_COINS, COINS, GEMS, Currency, Wallet

__all__ = [
    "COINS",
    "BLUE_COINS",
    "GEMS",
    "ADMIN_REFERENCE",
    "REASONS",
    "Coverage",
    "Reason",
    "achievement_reference",
    "achievement_reward_key",
    "balance",
    "coverage",
    "house_cut_key",
    "match_reference",
    "match_reward_key",
    "pack_grant_key",
    "purchase_payment_key",
    "purchase_reference",
    "reason_label",
    "room_entry_key",
    "room_reference",
    "room_refund_key",
    "stake_hold_key",
    "stake_pay_key",
    "starter_grant_key",
    "stripe_checkout_key",
    "tournament_reference",
    "tournament_reward_key",
]


# --- Why a balance changes ------------------------------------------------------------------------


class Reason(models.TextChoices):
    """Every reason a balance changes: the stored code, and what it means to the player."""

    # Gifts and the team
    STARTER_GRANT = "starter_grant", _("Welcome gift")
    ADMIN_ADJUSTMENT = "admin_adjustment", _("Adjustment by the team")
    # Rewards of play
    MATCH_REWARD = "match_reward", _("Match reward")
    TOURNAMENT_REWARD = "tournament_reward", _("Tournament prize")
    ACHIEVEMENT_REWARD = "achievement_reward", _("Achievement reward")
    # The shop: an item paid from the wallet; a pack's currency delivered (wallet-paid or real money)
    PURCHASE = "purchase", _("Purchase")
    PACK = "pack", _("Pack")
    # A room's seat (blue coins): taken, given back
    ROOM_ENTRY = "room_entry", _("Seat in a room")
    ROOM_REFUND = "room_refund", _("Room seat given back")
    # A room match's stake (coins): held into the pot, won, given back, the house's share
    STAKE_HELD = "stake_held", _("Stake put into a match's pot")
    STAKE_WON = "stake_won", _("Pot won (less the house's share)")
    STAKE_RETURNED = "stake_returned", _("Stake given back")
    HOUSE_CUT = "house_cut", _("The house's share of a pot")


# What `shop.wallet.change_balance` accepts.
REASONS: frozenset[str] = frozenset(Reason.values)


def reason_label(code: str) -> str:
    """The words for a stored reason in the active language; "Other" for a code no longer named here."""
    if code in REASONS:
        return str(Reason(code).label)
    return gettext("Other")


# --- What a ledger line is about ------------------------------------------------------------------

ADMIN_REFERENCE = "admin"


def match_reference(match_public_id: str) -> str:
    return f"match:{match_public_id}"


def tournament_reference(tournament_public_id: str) -> str:
    return f"tournament:{tournament_public_id}"


def achievement_reference(achievement_code: str) -> str:
    return f"achievement:{achievement_code}"


def room_reference(room_code: str) -> str:
    return f"room:{room_code}"


def purchase_reference(purchase_id: int) -> str:
    return f"purchase:{purchase_id}"


# --- The keys that make a change happen once (per wallet) ------------------------------------------
# Stored in ledger lines: never change what one of these returns.


def starter_grant_key(currency: str) -> str:
    """The welcome gift of one currency."""
    return f"starter-grant:{currency}"


def match_reward_key(match_public_id: str, *, seat: int) -> str:
    """A finished match's reward to the person in one seat."""
    return f"match:{match_public_id}:seat:{seat}"


def tournament_reward_key(tournament_public_id: str) -> str:
    """A tournament's prize (its final won)."""
    return f"tournament:{tournament_public_id}"


def achievement_reward_key(achievement_code: str, *, user_id: int) -> str:
    """An achievement's coins, once per person."""
    return f"achievement:{achievement_code}:user:{user_id}"


def purchase_payment_key(purchase_id: int) -> str:
    """An item's price taken from the wallet."""
    return f"purchase:{purchase_id}:pay"


def pack_grant_key(purchase_id: int) -> str:
    """A pack's currency delivered (a wallet-paid pack, or a gem pack once the payment is confirmed)."""
    return f"purchase:{purchase_id}:grant"


def stripe_checkout_key(purchase_id: int) -> str:
    """Stripe's own idempotency key for a purchase's checkout session (a retried create returns the same one)."""
    return f"truco-purchase-{purchase_id}"


def room_entry_key(room_seat_id: int) -> str:
    """A room seat's entry price (a `RoomSeat` row is never reused: joining again is a new seat)."""
    return f"room-entry:{room_seat_id}"


def room_refund_key(room_seat_id: int) -> str:
    """A room seat's entry price given back."""
    return f"room-refund:{room_seat_id}"


def stake_hold_key(match_public_id: str, *, seat: int) -> str:
    """One person's stake put into a match's pot."""
    return f"stake-hold:{match_public_id}:{seat}"


def stake_pay_key(match_public_id: str, *, seat: int) -> str:
    """What a match's pot pays one person (a winner's share, or their stake back)."""
    return f"stake-pay:{match_public_id}:{seat}"


def house_cut_key(match_public_id: str) -> str:
    """What a match's pot pays the house."""
    return f"stake-house:{match_public_id}"


# --- Can this person cover it ---------------------------------------------------------------------


def balance(user: User | int, *, currency: str) -> int:
    """One balance, read (0 without a wallet). `shop.wallet.balance` is this function."""
    if currency not in Currency.values:
        raise ValueError(f"unknown currency {currency!r}")
    value = Wallet.objects.filter(user=user).values_list(currency, flat=True).first()
    return int(value or 0)


@dataclass(frozen=True, slots=True)
class Coverage:
    """What one person has of one currency, read once: which amounts they can pay."""

    currency: str
    available: int

    def covers(self, amount: int) -> bool:
        """Paying `amount` leaves the balance at zero or above (what the wallet would accept)."""
        return amount <= self.available

    @property
    def largest(self) -> int:
        """The largest amount covered; for a query, every amount up to it (`stake_coins__lte`)."""
        return self.available


def coverage(user: User, *, currency: str = COINS) -> Coverage:
    """Can this person cover a stake (coins, the default) or an entry price (blue coins): `.covers(amount)`.

    A read without a lock: callers that then take the money lock the wallet first, and the wallet
    refuses a debit below zero whatever this said.
    """
    return Coverage(currency=currency, available=balance(user, currency=currency))
