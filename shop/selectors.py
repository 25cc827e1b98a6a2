"""Read-only queries the shop pages (and the live table) need."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

from django.core.paginator import Paginator
from django.templatetags.static import static

from .models import Item, ItemKind, LedgerEntry, Loadout, Ownership, Purchase, Wallet

# What a guest (or a player without a deck) sees: the classic deck. The table puts
# `face_style` in a CSS class, `card-face--<face_style>` (shop/static/shop/decks.css).
DEFAULT_DECK = {"slug": "classic", "back_url": "shop/decks/classic.svg", "face_style": "classic"}


def equipped_deck(user) -> dict:
    """`{"slug", "back_url", "face_style"}` for drawing this player's cards; the default for guests."""
    deck = None
    if user is not None and getattr(user, "is_authenticated", False):
        loadout = Loadout.objects.filter(user=user).select_related("deck").first()
        deck = loadout.deck if loadout else None
    if deck is None:
        return {**DEFAULT_DECK, "back_url": static(DEFAULT_DECK["back_url"])}
    return {"slug": deck.slug, "back_url": deck.image_url, "face_style": deck.face_style or "classic"}


def shop_sections(kind: str | None = None) -> list[tuple[str, StrOrPromise, list[Item]]]:
    """Items on sale grouped by kind, in display order: [(kind, label, items)]."""
    items = list(Item.objects.on_sale().order_by("display_order", "id"))
    sections: list[tuple[str, StrOrPromise, list[Item]]] = []
    for value, label in ItemKind.choices:
        if kind and value != kind:
            continue
        in_kind = [item for item in items if item.kind == value]
        if in_kind:
            sections.append((value, label, in_kind))
    return sections


def owned_item_ids(user) -> set[int]:
    if not user.is_authenticated:
        return set()
    return set(Ownership.objects.filter(user=user).values_list("item_id", flat=True))


def balances(user) -> dict[str, int]:
    if not user.is_authenticated:
        return {}
    wallet = Wallet.objects.filter(user=user).first()
    if wallet is None:
        return {"coins": 0, "blue_coins": 0, "gems": 0}
    return {"coins": wallet.coins, "blue_coins": wallet.blue_coins, "gems": wallet.gems}


def inventory_sections(user) -> list[tuple[str, StrOrPromise, list[Item]]]:
    owned = Ownership.objects.filter(user=user).select_related("item").order_by("item__display_order", "item__id")
    sections: list[tuple[str, StrOrPromise, list[Item]]] = []
    for value, label in ((ItemKind.AVATAR, ItemKind.AVATAR.label), (ItemKind.DECK, ItemKind.DECK.label)):
        sections.append((value, label, [o.item for o in owned if o.item.kind == value]))
    return sections


def equipped_ids(user) -> set[int]:
    loadout = Loadout.objects.filter(user=user).first()
    if loadout is None:
        return set()
    return {pk for pk in (loadout.avatar_id, loadout.deck_id) if pk}


def ledger_page(user, page_number, per_page: int = 20):
    entries = LedgerEntry.objects.filter(wallet__user=user).order_by("-created_at", "-id")
    return Paginator(entries, per_page).get_page(page_number)


def recent_purchase(user, pk: int) -> Purchase | None:
    return Purchase.objects.filter(user=user, pk=pk).select_related("item").first()
