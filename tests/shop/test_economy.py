"""The economy of docs/economy.md, as the migrations stock it: a new player buys a first coin item within ~5 wins."""

import importlib
import math

import pytest
from django.apps import apps

from games.models import RewardSettings
from shop.models import Item, ShopSettings

pytestmark = pytest.mark.django_db


def wins_to_afford(price: int) -> int:
    starter = ShopSettings.load().starter_coins
    return max(0, math.ceil((price - starter) / RewardSettings.current().single_win_coins))


def cheapest(kind: str) -> Item:
    return Item.objects.on_sale().filter(kind=kind, price_currency="coins", price__gt=0).order_by("price").first()


def test_a_first_avatar_takes_about_five_wins_and_is_not_free():
    avatar = cheapest("avatar")
    assert 2 <= wins_to_afford(avatar.price) <= 5


def test_a_first_deck_takes_under_ten_wins():
    assert wins_to_afford(cheapest("deck").price) <= 10


def test_every_coin_avatar_and_deck_can_be_earned_by_playing():
    # No coin item is out of reach: the dearest costs at most ~50 wins.
    dearest = Item.objects.filter(kind__in=["avatar", "deck"], price_currency="coins").order_by("-price").first()
    assert wins_to_afford(dearest.price) <= 50


def test_the_price_migration_keeps_prices_staff_changed(django_db_setup):
    migration = importlib.import_module("shop.migrations.0003_economy_prices")
    boina, felt = Item.objects.get(slug="boina"), Item.objects.get(slug="felt")
    Item.objects.filter(pk=boina.pk).update(price=80)  # as 0002 stocked it
    Item.objects.filter(pk=felt.pk).update(price=999)  # as staff set it
    migration.set_prices(apps, None)
    assert Item.objects.get(slug="boina").price == 150
    assert Item.objects.get(slug="felt").price == 999
    migration.unset_prices(apps, None)
    assert Item.objects.get(slug="boina").price == 80
