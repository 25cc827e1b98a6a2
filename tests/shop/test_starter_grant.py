"""New players get the starter grant, written to the ledger like everything else."""

import pytest
from django.urls import reverse

from accounts.models import User
from shop import inventory, selectors, wallet
from shop.models import LedgerEntry, Loadout, Ownership, ShopSettings
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db


def test_sign_up_through_the_site_grants_coins_blue_coins_avatar_and_deck(client):
    client.post(
        reverse("account_signup"),
        {"email": "new@example.com", "username": "Novato", "password1": PASSWORD, "password2": PASSWORD},
    )
    player = User.objects.get(username="Novato")
    assert wallet.balance(player, currency=wallet.COINS) == 100
    assert wallet.balance(player, currency=wallet.BLUE_COINS) == 5
    assert wallet.balance(player, currency=wallet.GEMS) == 0
    lines = LedgerEntry.objects.filter(wallet__user=player, reason="starter_grant")
    assert sorted((e.currency, e.amount) for e in lines) == [("blue_coins", 5), ("coins", 100)]
    owned = set(Ownership.objects.filter(user=player).values_list("item__slug", flat=True))
    assert owned == {"classic-avatar", "classic"}
    assert Loadout.objects.get(user=player).deck.slug == "classic"
    assert selectors.equipped_deck(player)["slug"] == "classic"


def test_starter_grant_follows_the_admin_settings(make_user, make_item):
    deck = make_item("deck")
    ShopSettings.objects.filter(pk=1).update(starter_coins=7, starter_blue_coins=0, starter_gems=3, starter_deck=deck)
    player = make_user()
    assert wallet.balance(player, currency=wallet.COINS) == 7
    assert wallet.balance(player, currency=wallet.BLUE_COINS) == 0
    assert wallet.balance(player, currency=wallet.GEMS) == 3
    assert selectors.equipped_deck(player)["slug"] == deck.slug


def test_granting_the_starter_pack_twice_gives_it_once(user):
    inventory.grant_starter_pack(user)
    assert wallet.balance(user, currency=wallet.COINS) == 100
    assert LedgerEntry.objects.filter(wallet__user=user, reason="starter_grant").count() == 2
