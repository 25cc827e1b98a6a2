"""Inventory, equipping, the shop and wallet pages, and the stocked catalogue."""

import uuid

import pytest
from django.contrib.staticfiles import finders
from django.urls import reverse

from accounts.models import Profile
from shop import inventory, purchases, selectors, wallet
from shop.models import Item, ItemKind, Loadout

pytestmark = pytest.mark.django_db


def buy(user, item):
    return purchases.buy(user, item, idempotency_key=uuid.uuid4().hex)


def test_equipping_an_owned_avatar_writes_the_profile_avatar(user, make_item):
    item = make_item("avatar", price=10, static_image="shop/avatars/gaucho.svg")
    buy(user, item)
    inventory.equip(user, item)
    profile = Profile.objects.get(user=user)
    assert profile.avatar == "shop/avatars/gaucho.svg"
    assert profile.avatar_url.endswith("/static/shop/avatars/gaucho.svg")
    assert Loadout.objects.get(user=user).avatar == item


def test_equipping_an_avatar_with_an_uploaded_image_stores_its_media_url(user, make_item):
    item = make_item("avatar", price=0, image="shop/items/custom.png")
    buy(user, item)
    inventory.equip(user, item)
    assert Profile.objects.get(user=user).avatar == "/media/shop/items/custom.png"


def test_equipping_an_item_you_do_not_own_is_refused(user, make_item):
    item = make_item("avatar", static_image="shop/avatars/rei.svg")
    with pytest.raises(inventory.NotOwned):
        inventory.equip(user, item)
    assert Profile.objects.get(user=user).avatar != "shop/avatars/rei.svg"


def test_equip_page_refuses_an_unowned_deck_and_keeps_the_current_one(signed_in_client, user, make_item):
    deck = make_item("deck")
    response = signed_in_client.post(reverse("shop:equip"), {"item": deck.slug}, follow=True, HTTP_ACCEPT_LANGUAGE="en")
    assert "You can only use items you own." in response.content.decode()
    assert selectors.equipped_deck(user)["slug"] == "classic"


def test_pressing_an_owned_deck_equips_it_for_the_table(signed_in_client, user, make_item):
    deck = make_item("deck", price=10, static_image="shop/decks/night.svg", face_style="night")
    buy(user, deck)
    signed_in_client.post(reverse("shop:equip"), {"item": deck.slug})
    assert selectors.equipped_deck(user) == {
        "slug": deck.slug,
        "back_url": "/static/shop/decks/night.svg",
        "face_style": "night",
    }


def earn_coins(user, amount):
    # The first coin avatar takes a few wins beyond the welcome gift (docs/economy.md).
    wallet.change_balance(user, currency=wallet.COINS, amount=amount, reason="match_reward")


def test_guests_get_the_default_deck():
    assert selectors.equipped_deck(None) == {
        "slug": "classic",
        "back_url": "/static/shop/decks/classic.svg",
        "face_style": "classic",
    }


def test_equipped_avatar_shows_beside_the_name_in_the_header(signed_in_client, user):
    item = Item.objects.get(slug="boina")
    earn_coins(user, 100)
    buy(user, item)
    inventory.equip(user, item)
    html = signed_in_client.get(reverse("home")).content.decode()
    assert "/static/shop/avatars/boina.svg" in html


def test_shop_page_lists_categories_prices_and_what_you_own(signed_in_client, user):
    earn_coins(user, 100)
    buy(user, Item.objects.get(slug="boina"))
    html = signed_in_client.get(reverse("shop:index"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    for kind in ItemKind.values:
        assert f'data-section="{kind}"' in html
    assert "Bag of coins" in html and "5 gems" in html
    boina_card = html.split('data-item="boina"')[1].split("</li>")[0]
    assert 'data-owned="true"' in boina_card
    assert "R$ 4.90" in html


def test_shop_page_speaks_portuguese_by_default(client):
    html = client.get(reverse("shop:index"), HTTP_ACCEPT_LANGUAGE="pt-br").content.decode()
    assert "Saco de moedas" in html and "Avatares" in html and "R$ 4,90" in html


def test_shop_category_filter_shows_only_that_kind(client):
    html = client.get(reverse("shop:index") + "?kind=deck").content.decode()
    assert 'data-section="deck"' in html and 'data-section="avatar"' not in html


def test_inactive_items_are_hidden_from_the_shop(client, make_item):
    item = make_item("avatar", is_active=False)
    assert item.slug not in client.get(reverse("shop:index")).content.decode()
    assert client.get(reverse("shop:item", args=[item.slug])).status_code == 404


def test_inventory_lists_owned_items_by_kind_and_marks_the_equipped(signed_in_client, user):
    html = signed_in_client.get(reverse("shop:inventory")).content.decode()
    deck_card = html.split('data-item="classic"')[1].split("</li>")[0]
    assert 'data-equipped="true"' in deck_card
    assert 'data-item="classic-avatar"' in html


def test_wallet_page_shows_balances_and_a_paginated_history(signed_in_client, user):
    for n in range(25):
        wallet.change_balance(user, currency=wallet.COINS, amount=1, reason="match_reward", reference=f"match:{n}")
    first = signed_in_client.get(reverse("shop:wallet")).content.decode()
    assert '<div data-balance="coins"><dt>' in first and "<dd>125</dd>" in first
    assert first.count("data-ledger-entry=") == 20
    second = signed_in_client.get(reverse("shop:wallet") + "?page=2").content.decode()
    assert second.count("data-ledger-entry=") == 7  # 25 rewards + 2 starter lines


def test_someone_elses_purchase_result_is_not_found(signed_in_client, make_user):
    other = make_user()
    earn_coins(other, 100)
    purchase = buy(other, Item.objects.get(slug="boina"))
    assert signed_in_client.get(reverse("shop:purchase", args=[purchase.pk])).status_code == 404


def test_the_data_migration_stocks_the_shop_with_art_that_exists():
    on_sale = Item.objects.on_sale()
    assert on_sale.filter(kind="avatar").exclude(static_image="avatars/default.svg").count() >= 8
    assert on_sale.filter(kind="deck").count() >= 4
    for kind in ("coin_pack", "blue_coin_pack", "gem_pack"):
        assert on_sale.filter(kind=kind).exists()
    assert set(on_sale.filter(kind="blue_coin_pack").values_list("price_currency", flat=True)) == {"coins", "gems"}
    for item in Item.objects.all():
        assert finders.find(item.static_image), item.static_image
        if item.kind == "deck":
            assert item.face_style
