"""Signal receivers: the starter grant on sign-up, and the personal-data export and deletion hooks."""

from __future__ import annotations

from django.conf import settings
from django.db.models.signals import post_save
from django.dispatch import receiver

from accounts.signals import account_deleting, personal_data_requested

from .inventory import grant_starter_pack
from .models import LedgerEntry, Loadout, Ownership, Purchase, Wallet


@receiver(post_save, sender=settings.AUTH_USER_MODEL, dispatch_uid="shop_starter_grant")
def give_starter_pack(sender, instance, created: bool, raw: bool = False, **kwargs) -> None:
    # The house's account (shop.wallet.house_account) holds only what pots paid it: no gift.
    if created and not raw and instance.get_username() != settings.SHOP_HOUSE_USERNAME:
        grant_starter_pack(instance)


def _iso(value):
    return value.isoformat() if value else None


@receiver(personal_data_requested, dispatch_uid="shop_personal_data")
def export_shop_data(sender, user, **kwargs) -> dict:
    wallet = Wallet.objects.filter(user=user).first()
    loadout = Loadout.objects.filter(user=user).select_related("avatar", "deck").first()
    return {
        "wallet": (
            {
                "coins": wallet.coins,
                "blue_coins": wallet.blue_coins,
                "gems": wallet.gems,
                "created_at": _iso(wallet.created_at),
            }
            if wallet
            else None
        ),
        "ledger": [
            {
                "created_at": _iso(e.created_at),
                "currency": e.currency,
                "amount": e.amount,
                "balance_after": e.balance_after,
                "reason": e.reason,
                "reference": e.reference,
                "note": e.note,
            }
            for e in LedgerEntry.objects.filter(wallet__user=user).order_by("created_at", "id")
        ],
        "purchases": [
            {
                "created_at": _iso(p.created_at),
                "completed_at": _iso(p.completed_at),
                "item": p.item.slug,
                "price": p.price,
                "price_currency": p.price_currency,
                "status": p.status,
                "provider": p.provider,
            }
            for p in Purchase.objects.filter(user=user).select_related("item").order_by("created_at", "id")
        ],
        "inventory": [
            {
                "item": o.item.slug,
                "kind": o.item.kind,
                "acquired_at": _iso(o.acquired_at),
                "how": o.how,
                "equipped": bool(loadout and o.item_id in (loadout.avatar_id, loadout.deck_id)),
            }
            for o in Ownership.objects.filter(user=user).select_related("item").order_by("acquired_at", "id")
        ],
    }


@receiver(account_deleting, dispatch_uid="shop_account_deleting")
def forget_shop_owner(sender, user, **kwargs) -> None:
    """Ledger and purchases stay for the books, with nothing left that points at or names the person."""
    # Staff notes may name the player, so they go with the identity.
    LedgerEntry.objects.filter(wallet__user=user).update(wallet=None, note="")
    LedgerEntry.objects.filter(actor=user).update(actor=None)
    Purchase.objects.filter(user=user).update(user=None, idempotency_key=None)
    Loadout.objects.filter(user=user).delete()
    Ownership.objects.filter(user=user).delete()
    Wallet.objects.filter(user=user).delete()
