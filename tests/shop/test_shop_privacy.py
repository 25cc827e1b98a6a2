"""Export and deletion: the shop's part of "Download my data" and "Delete my data"."""

import uuid

import pytest
from django.apps import apps
from django.db import models

from accounts import services as account_services
from shop import inventory, purchases, wallet
from shop.models import Item, LedgerEntry, Loadout, Ownership, Purchase, Wallet

pytestmark = pytest.mark.django_db


@pytest.fixture
def shopper(make_user):
    person = make_user("Compradora")
    wallet.change_balance(person, currency=wallet.COINS, amount=60, reason="match_reward")  # four wins
    item = Item.objects.get(slug="boina")
    purchases.buy(person, item, idempotency_key=uuid.uuid4().hex)
    inventory.equip(person, item)
    return person


def test_export_holds_wallet_ledger_purchases_and_inventory(shopper):
    data = account_services.export_personal_data(shopper)
    assert data["wallet"]["coins"] == 10
    ledger = {(e["currency"], e["amount"]) for e in data["ledger"]}
    assert ledger == {("coins", 100), ("blue_coins", 5), ("coins", 60), ("coins", -150)}
    assert [(p["item"], p["price"], p["price_currency"]) for p in data["purchases"]] == [("boina", 150, "coins")]
    inv = {i["item"]: i["equipped"] for i in data["inventory"]}
    assert inv == {"classic-avatar": False, "classic": True, "boina": True}


def test_deletion_drops_wallet_and_ownership_and_keeps_anonymous_books(shopper, make_user):
    staff = make_user("Caixa", is_staff=True)
    wallet.change_balance(
        shopper, currency=wallet.GEMS, amount=3, reason="admin_adjustment", note="for Compradora", actor=staff
    )
    ledger_ids = set(LedgerEntry.objects.filter(wallet__user=shopper).values_list("pk", flat=True))
    purchase_ids = set(Purchase.objects.filter(user=shopper).values_list("pk", flat=True))

    account_services.delete_account(shopper)

    assert not Wallet.objects.exists() or not Wallet.objects.filter(user_id=shopper.pk).exists()
    assert not Ownership.objects.filter(user_id=shopper.pk).exists()
    assert not Loadout.objects.filter(user_id=shopper.pk).exists()
    kept = LedgerEntry.objects.filter(pk__in=ledger_ids)
    assert kept.count() == len(ledger_ids)
    assert all(e.wallet_id is None and "Compradora" not in e.note for e in kept)
    kept_purchases = Purchase.objects.filter(pk__in=purchase_ids)
    assert kept_purchases.count() == len(purchase_ids)
    assert all(p.user_id is None and p.idempotency_key is None for p in kept_purchases)


def test_deleting_a_staff_account_forgets_them_on_the_adjustments_they_made(user, make_user):
    staff = make_user("Caixa", is_staff=True)
    line = wallet.change_balance(
        user, currency=wallet.GEMS, amount=3, reason="admin_adjustment", note="goodwill", actor=staff
    )
    account_services.delete_account(staff)
    line.refresh_from_db()
    assert line.actor_id is None and line.wallet.user == user


def test_no_shop_row_points_at_a_deleted_user(shopper):
    pk = shopper.pk
    account_services.delete_account(shopper)
    user_model = apps.get_model("accounts", "User")
    for model in apps.get_app_config("shop").get_models():
        for field in model._meta.get_fields():
            if isinstance(field, (models.ForeignKey, models.OneToOneField)) and field.related_model is user_model:
                assert not model.objects.filter(**{field.attname: pk}).exists(), (model, field.name)
