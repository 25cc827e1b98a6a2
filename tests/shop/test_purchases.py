"""Buying from the wallet: every currency, refusals change nothing, repeats buy once."""

import uuid
from datetime import timedelta

import pytest
from django.urls import reverse

from shop import purchases, wallet
from shop.models import LedgerEntry, Ownership, Purchase

pytestmark = pytest.mark.django_db


def key():
    return uuid.uuid4().hex


def snapshot(user):
    return (
        {c: wallet.balance(user, currency=c) for c in wallet.CURRENCIES},
        LedgerEntry.objects.count(),
        Purchase.objects.count(),
        Ownership.objects.count(),
    )


def test_buying_an_avatar_with_coins_debits_the_price_and_owns_it(user, make_item):
    item = make_item("avatar", price=60, price_currency="coins")
    purchase = purchases.buy(user, item, idempotency_key=key())
    assert purchase.status == "completed"
    assert wallet.balance(user, currency=wallet.COINS) == 40
    assert Ownership.objects.filter(user=user, item=item).exists()
    line = LedgerEntry.objects.get(reference=f"purchase:{purchase.pk}")
    assert (line.currency, line.amount, line.reason) == ("coins", -60, "purchase")


def test_buying_a_deck_with_gems(user, make_item, top_up):
    top_up(user, wallet.GEMS, 20)
    deck = make_item("deck", price=15, price_currency="gems")
    purchases.buy(user, deck, idempotency_key=key())
    assert wallet.balance(user, currency=wallet.GEMS) == 5
    assert Ownership.objects.filter(user=user, item=deck).exists()


def test_buying_with_blue_coins(user, make_item):
    item = make_item("avatar", price=5, price_currency="blue_coins")
    purchases.buy(user, item, idempotency_key=key())
    assert wallet.balance(user, currency=wallet.BLUE_COINS) == 0


def test_coin_pack_paid_in_gems_credits_coins_and_is_not_owned(user, make_item, top_up):
    top_up(user, wallet.GEMS, 5)
    pack = make_item("coin_pack", price=5, price_currency="gems", grant_amount=500)
    purchases.buy(user, pack, idempotency_key=key())
    assert wallet.balance(user, currency=wallet.GEMS) == 0
    assert wallet.balance(user, currency=wallet.COINS) == 600
    assert not Ownership.objects.filter(item=pack).exists()


@pytest.mark.parametrize("currency", ["coins", "gems"])
def test_blue_coin_pack_can_be_paid_in_coins_or_gems_and_bought_again(user, make_item, top_up, currency):
    top_up(user, wallet.GEMS, 10)
    pack = make_item("blue_coin_pack", price=3, price_currency=currency, grant_amount=10)
    purchases.buy(user, pack, idempotency_key=key())
    purchases.buy(user, pack, idempotency_key=key())  # packs are consumable
    assert wallet.balance(user, currency=wallet.BLUE_COINS) == 5 + 20
    assert wallet.balance(user, currency=currency) == {"coins": 100, "gems": 10}[currency] - 6


def test_not_enough_funds_refuses_and_charges_nothing(user, make_item):
    item = make_item("avatar", price=101, price_currency="coins")
    before = snapshot(user)
    with pytest.raises(wallet.InsufficientFunds):
        purchases.buy(user, item, idempotency_key=key())
    assert snapshot(user) == before


def test_buying_an_item_you_already_own_is_refused(user, make_item):
    item = make_item("avatar", price=10)
    purchases.buy(user, item, idempotency_key=key())
    before = snapshot(user)
    with pytest.raises(purchases.AlreadyOwned):
        purchases.buy(user, item, idempotency_key=key())
    assert snapshot(user) == before


def test_inactive_item_cannot_be_bought(user, make_item):
    item = make_item("avatar", price=10, is_active=False)
    before = snapshot(user)
    with pytest.raises(purchases.NotOnSale):
        purchases.buy(user, item, idempotency_key=key())
    assert snapshot(user) == before


@pytest.mark.parametrize("window", ["not_yet", "over"])
def test_item_outside_its_availability_window_cannot_be_bought(user, make_item, now, window):
    if window == "not_yet":
        item = make_item("avatar", price=10, available_from=now + timedelta(days=1))
    else:
        item = make_item(
            "avatar", price=10, available_from=now - timedelta(days=9), available_until=now - timedelta(days=1)
        )
    before = snapshot(user)
    with pytest.raises(purchases.NotOnSale):
        purchases.buy(user, item, idempotency_key=key())
    assert snapshot(user) == before


def test_item_inside_its_window_can_be_bought(user, make_item, now):
    item = make_item(
        "avatar", price=10, available_from=now - timedelta(days=1), available_until=now + timedelta(days=1)
    )
    assert purchases.buy(user, item, idempotency_key=key()).status == "completed"


def test_repeating_the_same_confirmation_buys_once(user, make_item, top_up):
    top_up(user, wallet.GEMS, 10)
    pack = make_item("coin_pack", price=5, price_currency="gems", grant_amount=500)
    token = key()
    first = purchases.buy(user, pack, idempotency_key=token)
    second = purchases.buy(user, pack, idempotency_key=token)
    assert first.pk == second.pk
    assert wallet.balance(user, currency=wallet.GEMS) == 5
    assert wallet.balance(user, currency=wallet.COINS) == 600
    assert Purchase.objects.filter(user=user).count() == 1


def test_real_money_items_cannot_be_bought_from_the_wallet(user, make_item):
    pack = make_item("gem_pack", price=490, price_currency="real_money", grant_amount=10)
    with pytest.raises(purchases.NeedsPaymentProvider):
        purchases.buy(user, pack, idempotency_key=key())


# --- through the pages ------------------------------------------------------------------------


def confirm_token(client, item) -> str:
    html = client.get(reverse("shop:item", args=[item.slug])).content.decode()
    return html.split('name="token" value="')[1].split('"')[0]


def test_press_item_then_confirm_buys_it_and_shows_the_result(signed_in_client, user, make_item):
    item = make_item("avatar", price=30)
    token = confirm_token(signed_in_client, item)
    response = signed_in_client.post(
        reverse("shop:buy", args=[item.slug]), {"token": token}, follow=True, HTTP_ACCEPT_LANGUAGE="en"
    )
    assert response.status_code == 200
    assert f"You bought {item.name_en}." in response.content.decode()
    assert wallet.balance(user, currency=wallet.COINS) == 70


def test_double_submitted_confirm_form_buys_once(signed_in_client, user, make_item):
    pack = make_item("blue_coin_pack", price=20, price_currency="coins", grant_amount=1)
    token = confirm_token(signed_in_client, pack)
    url = reverse("shop:buy", args=[pack.slug])
    first = signed_in_client.post(url, {"token": token})
    second = signed_in_client.post(url, {"token": token})
    assert first["Location"] == second["Location"]
    assert wallet.balance(user, currency=wallet.COINS) == 80
    assert wallet.balance(user, currency=wallet.BLUE_COINS) == 6


def test_not_enough_funds_page_says_so_clearly_in_portuguese(signed_in_client, user, make_item):
    item = make_item("avatar", price=500)
    response = signed_in_client.post(
        reverse("shop:buy", args=[item.slug]), {"token": key()}, follow=True, HTTP_ACCEPT_LANGUAGE="pt-br"
    )
    assert "Saldo insuficiente de moedas" in response.content.decode()
    assert wallet.balance(user, currency=wallet.COINS) == 100


def test_buying_requires_sign_in(client, make_item):
    item = make_item("avatar")
    response = client.post(reverse("shop:buy", args=[item.slug]), {"token": key()})
    assert response.status_code == 302 and "login" in response["Location"]
    assert not Purchase.objects.exists()
