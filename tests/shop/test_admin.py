"""The admin: catalogue editing, a read-only ledger, adjustments only through the reasoned action."""

import pytest
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from shop import wallet
from shop.models import Item, LedgerEntry, Wallet

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff_client(client, make_user):
    staff = make_user("Gerente", is_staff=True, is_superuser=True)
    client.force_login(staff)
    client.staff = staff
    return client


def test_adjustment_asks_for_a_reason_then_writes_the_ledger_naming_the_staff_user(staff_client, user):
    target = wallet.get_or_create_wallet(user)
    url = reverse("admin:shop_wallet_changelist")
    ask = staff_client.post(url, {"action": "adjust_balance", ACTION_CHECKBOX_NAME: [target.pk]})
    assert ask.status_code == 200 and b'name="reason"' in ask.content
    assert wallet.balance(user, wallet.GEMS) == 0  # nothing happens before the form is sent

    done = staff_client.post(
        url,
        {
            "action": "adjust_balance",
            ACTION_CHECKBOX_NAME: [target.pk],
            "apply": "1",
            "currency": "gems",
            "amount": "12",
            "reason": "Compensation for a server outage",
        },
    )
    assert done.status_code == 302
    assert wallet.balance(user, wallet.GEMS) == 12
    line = LedgerEntry.objects.get(wallet=target, reason="admin_adjustment")
    assert (line.amount, line.currency, line.actor, line.note) == (
        12,
        "gems",
        staff_client.staff,
        "Compensation for a server outage",
    )


def test_adjustment_without_a_reason_is_not_applied(staff_client, user):
    target = wallet.get_or_create_wallet(user)
    staff_client.post(
        reverse("admin:shop_wallet_changelist"),
        {
            "action": "adjust_balance",
            ACTION_CHECKBOX_NAME: [target.pk],
            "apply": "1",
            "currency": "coins",
            "amount": "5",
            "reason": "",
        },
    )
    assert wallet.balance(user, wallet.COINS) == 100


def test_adjustment_that_would_go_negative_is_refused(staff_client, user):
    target = wallet.get_or_create_wallet(user)
    staff_client.post(
        reverse("admin:shop_wallet_changelist"),
        {
            "action": "adjust_balance",
            ACTION_CHECKBOX_NAME: [target.pk],
            "apply": "1",
            "currency": "coins",
            "amount": "-500",
            "reason": "oops",
        },
    )
    assert wallet.balance(user, wallet.COINS) == 100
    assert not LedgerEntry.objects.filter(reason="admin_adjustment").exists()


def test_ledger_is_read_only_in_the_admin(staff_client, user):
    line = LedgerEntry.objects.filter(wallet__user=user).first()
    assert staff_client.get(reverse("admin:shop_ledgerentry_changelist")).status_code == 200
    assert staff_client.get(reverse("admin:shop_ledgerentry_add")).status_code == 403
    assert staff_client.get(reverse("admin:shop_ledgerentry_delete", args=[line.pk])).status_code == 403
    staff_client.post(reverse("admin:shop_ledgerentry_change", args=[line.pk]), {"amount": "999"})
    line.refresh_from_db()
    assert line.amount != 999


def test_wallet_balances_cannot_be_typed_in_the_admin(staff_client, user):
    target = wallet.get_or_create_wallet(user)
    staff_client.post(reverse("admin:shop_wallet_change", args=[target.pk]), {"coins": "99999"})
    assert Wallet.objects.get(pk=target.pk).coins == 100


def test_catalogue_pages_render_with_search_and_filters(staff_client):
    assert (
        staff_client.get(reverse("admin:shop_item_changelist") + "?q=rei&kind__exact=avatar&on_sale=yes").status_code
        == 200
    )
    assert staff_client.get(reverse("admin:shop_item_add")).status_code == 200
    assert staff_client.get(reverse("admin:shop_purchase_changelist")).status_code == 200


def test_staff_can_add_an_item_with_an_uploaded_image(staff_client, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    response = staff_client.post(
        reverse("admin:shop_item_add"),
        {
            "slug": "cartola",
            "kind": "avatar",
            "is_active": "on",
            "display_order": "5",
            "name_en": "Top hat",
            "name_pt_br": "Cartola",
            "description_en": "",
            "description_pt_br": "",
            "price": "90",
            "price_currency": "coins",
            "grant_amount": "0",
            "static_image": "",
            "face_style": "",
            "image": SimpleUploadedFile("cartola.png", b"\x89PNG\r\n\x1a\nfake", content_type="image/png"),
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    item = Item.objects.get(slug="cartola")
    assert item.image_url.startswith("/media/shop/items/cartola")
