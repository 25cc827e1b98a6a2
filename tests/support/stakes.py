"""Helpers for stake tests: people with exact coin balances, a room set to a stake, every coin counted."""

from django.db.models import Sum

from rooms import options as table_options
from rooms.models import Room
from shop import money, wallet
from shop.models import LedgerEntry, Wallet


def set_coins(user, coins: int) -> None:
    have = wallet.balance(user, currency=wallet.COINS)
    if have != coins:
        wallet.change_balance(user, currency=wallet.COINS, amount=coins - have, reason=money.Reason.ADMIN_ADJUSTMENT)


def set_stake(chief, room: Room, stake: int, **more) -> Room:
    """The chief sets the room's stake through the options panel's service (the other options kept)."""
    room.refresh_from_db()
    chosen = {
        "move_seconds": room.move_seconds,
        "mode": room.mode,
        "stake_coins": stake,
        "is_private": room.is_private,
        "allow_spectators": room.allow_spectators,
        "partner_signals": room.partner_signals,
        **more,
    }
    return table_options.change_options(chief, room.code, table_options.TableOptions(**chosen))


def all_coins() -> int:
    """Every coin in every wallet, the house's included."""
    return Wallet.objects.aggregate(total=Sum("coins"))["total"] or 0


def house_coins() -> int:
    return wallet.balance(wallet.house_account(), currency=wallet.COINS)


STAKE_REASONS = ("stake_held", "stake_won", "stake_returned", "house_cut")


def stake_flow(reference: str | None = None) -> int:
    """The sum of every stake ledger line (held: negative; paid out: positive). Once every pot is
    settled it is zero: no coin created or lost by stakes (other rewards are minted on purpose)."""
    lines = LedgerEntry.objects.filter(currency=wallet.COINS, reason__in=STAKE_REASONS)
    if reference is not None:
        lines = lines.filter(reference=reference)
    return lines.aggregate(total=Sum("amount"))["total"] or 0
