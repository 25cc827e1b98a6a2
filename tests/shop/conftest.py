"""Shop fixtures: catalogue items made on the spot, and wallets topped up through the real service."""

import pytest
from django.utils import timezone

from shop import wallet
from shop.models import Item


@pytest.fixture
def make_item(db):
    counter = iter(range(1, 10_000))

    def make(kind="avatar", *, price=50, price_currency="coins", grant_amount=0, **extra):
        n = next(counter)
        defaults = dict(
            slug=f"test-{kind.replace('_', '-')}-{n}",
            kind=kind,
            name_en=f"Test {kind} {n}",
            name_pt_br=f"Teste {kind} {n}",
            price=price,
            price_currency=price_currency,
            grant_amount=grant_amount,
            static_image="shop/avatars/rei.svg",
            face_style="night" if kind == "deck" else "",
        )
        defaults.update(extra)
        return Item.objects.create(**defaults)

    return make


@pytest.fixture
def top_up():
    def top(user, currency, amount):
        return wallet.change_balance(user, currency=currency, amount=amount, reason="admin_adjustment")

    return top


@pytest.fixture
def now():
    return timezone.now()
