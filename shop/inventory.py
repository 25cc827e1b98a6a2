"""Inventory: what a player owns, the starter grant, and equipping an avatar or a deck."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from accounts.models import Profile

from . import money, wallet
from .models import ItemKind, Loadout, Ownership, ShopSettings


class NotOwned(Exception):
    """Only owned avatars and decks can be equipped."""

    message = _("You can only use items you own.")


def owns(user, item) -> bool:
    return Ownership.objects.filter(user=user, item=item).exists()


def grant_item(user, item, *, how: str = "purchase") -> Ownership:
    ownership, _created = Ownership.objects.get_or_create(user=user, item=item, defaults={"how": how})
    return ownership


@transaction.atomic
def equip(user, item) -> Loadout:
    """Make an owned avatar or deck the current one; an avatar is mirrored into the profile."""
    if item.kind not in (ItemKind.AVATAR, ItemKind.DECK) or not owns(user, item):
        raise NotOwned()
    loadout, _created = Loadout.objects.select_for_update().get_or_create(user=user)
    if item.kind == ItemKind.AVATAR:
        loadout.avatar = item
        profile, _created = Profile.objects.get_or_create(user=user)
        profile.avatar = item.profile_avatar_value
        profile.save(update_fields=["avatar", "updated_at"])
    else:
        loadout.deck = item
    loadout.save()
    return loadout


@transaction.atomic
def grant_starter_pack(user) -> None:
    """Sign-up gift, as configured in the admin. Idempotency keys make a second call a no-op."""
    config = ShopSettings.load()
    for currency, amount in (
        (wallet.COINS, config.starter_coins),
        (wallet.BLUE_COINS, config.starter_blue_coins),
        (wallet.GEMS, config.starter_gems),
    ):
        if amount:
            wallet.change_balance(
                user,
                currency=currency,
                amount=amount,
                reason=money.Reason.STARTER_GRANT,
                idempotency_key=money.starter_grant_key(currency),
            )
    wallet.get_or_create_wallet(user)
    loadout, _created = Loadout.objects.get_or_create(user=user)
    for item in (config.starter_avatar, config.starter_deck):
        if item is None:
            continue
        grant_item(user, item, how="starter_grant")
        # Record the starter as equipped without touching the profile: the profile's default
        # avatar already shows, and the player may have picked something else meanwhile.
        if item.kind == ItemKind.AVATAR and loadout.avatar_id is None:
            loadout.avatar = item
        if item.kind == ItemKind.DECK and loadout.deck_id is None:
            loadout.deck = item
    loadout.save()
