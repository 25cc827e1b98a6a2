"""Read-only queries the shop pages (and the live table) need."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.core.paginator import Page, Paginator
from django.db.models import Sum
from django.templatetags.static import static

from . import money
from .models import COINS, Item, ItemKind, LedgerEntry, Loadout, Ownership, Purchase, Wallet

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

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


def coins_moved(user, reference: str) -> dict[str, int]:
    """The coins the ledger moved for this person under one reference (a match: "match:<id>"), summed per
    reason: what the match itself paid or took (its reward, a stake held, a pot share)."""
    rows = (
        LedgerEntry.objects.filter(wallet__user=user, currency=COINS, reference=reference)
        .values_list("reason")
        .annotate(total=Sum("amount"))
    )
    return {reason: total for reason, total in rows}


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


def ledger_page(user, page_number, per_page: int = 20) -> Page:
    """A page of the wallet's history, newest first; each line carries its reason's words, `reason_label`
    (shop.money: the reasons' one list)."""
    entries = LedgerEntry.objects.filter(wallet__user=user).order_by("-created_at", "-id")
    page = Paginator(entries, per_page).get_page(page_number)
    page.object_list = list(page.object_list)
    for entry in page.object_list:
        entry.reason_label = money.reason_label(entry.reason)  # type: ignore[attr-defined]  # shown, not stored
    return page


def keyed_amount(user, currency: str, idempotency_key: str) -> int:
    """What the ledger line with this idempotency key moved in this person's wallet (0: there is none)."""
    entry = LedgerEntry.objects.filter(wallet__user=user, currency=currency, idempotency_key=idempotency_key).first()
    return 0 if entry is None else entry.amount


def recent_purchase(user, pk: int) -> Purchase | None:
    return Purchase.objects.filter(user=user, pk=pk).select_related("item").first()
