"""The admin: catalogue editing, a read-only ledger, adjustments only through the reasoned action."""

import io

import pytest
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from PIL import Image

from shop import wallet
from shop.models import Item, LedgerEntry, Wallet

pytestmark = pytest.mark.django_db


def image_bytes(kind: str, size=(64, 64)) -> bytes:
    """A real image, drawn by Pillow."""
    out = io.BytesIO()
    Image.new("RGB", size, (200, 30, 30)).save(out, kind)
    return out.getvalue()


@pytest.fixture
def staff_client(client, make_user):
    staff = make_user("Gerente", is_staff=True, is_superuser=True)
    client.force_login(staff)
    client.staff = staff
    return client


def adjust(staff_client, target, amount: str, *, reason: str, currency: str = "coins"):
    """Staff send the wallet admin's "adjust balance" action with its form filled in (English)."""
    return staff_client.post(
        reverse("admin:shop_wallet_changelist"),
        {
            "action": "adjust_balance",
            ACTION_CHECKBOX_NAME: [target.pk],
            "apply": "1",
            "currency": currency,
            "amount": amount,
            "reason": reason,
        },
        HTTP_ACCEPT_LANGUAGE="en",
    )


def test_adjustment_asks_for_a_reason_then_writes_the_ledger_naming_the_staff_user(staff_client, user):
    target = wallet.get_or_create_wallet(user)
    url = reverse("admin:shop_wallet_changelist")
    ask = staff_client.post(url, {"action": "adjust_balance", ACTION_CHECKBOX_NAME: [target.pk]})
    assert ask.status_code == 200 and b'name="reason"' in ask.content
    assert wallet.balance(user, currency=wallet.GEMS) == 0  # nothing happens before the form is sent

    done = adjust(staff_client, target, "12", reason="Compensation for a server outage", currency="gems")
    assert done.status_code == 302
    assert wallet.balance(user, currency=wallet.GEMS) == 12
    line = LedgerEntry.objects.get(wallet=target, reason="admin_adjustment")
    assert (line.amount, line.currency, line.actor, line.note) == (
        12,
        "gems",
        staff_client.staff,
        "Compensation for a server outage",
    )


def test_adjustment_without_a_reason_is_not_applied(staff_client, user):
    target = wallet.get_or_create_wallet(user)
    adjust(staff_client, target, "5", reason="")
    assert wallet.balance(user, currency=wallet.COINS) == 100


def test_adjustment_that_would_go_negative_is_refused(staff_client, user):
    target = wallet.get_or_create_wallet(user)
    adjust(staff_client, target, "-500", reason="oops")
    assert wallet.balance(user, currency=wallet.COINS) == 100
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
            "image": SimpleUploadedFile("cartola.png", image_bytes("PNG"), content_type="image/png"),
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    item = Item.objects.get(slug="cartola")
    assert item.image_url.startswith("/media/shop/items/cartola")


def item_form(**overrides) -> dict:
    data = {
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
    }
    data.update(overrides)
    return data


SVG = b'<svg xmlns="http://www.w3.org/2000/svg"><script>alert(document.cookie)</script></svg>'
HTML = b"<!doctype html><html><body><script>alert(document.cookie)</script></body></html>"


@pytest.mark.parametrize(
    "name, content, error",
    [
        ("evil.png", SVG, "not a PNG, JPEG or WebP image"),
        ("evil.png", HTML, "not a PNG, JPEG or WebP image"),
        ("evil.png", b"\x89PNG\r\n\x1a\n" + HTML, "not a PNG, JPEG or WebP image"),  # a PNG header, then junk
        ("gif.png", image_bytes("GIF"), "not a PNG, JPEG or WebP image"),
        ("photo.png", image_bytes("JPEG"), "give it a matching name"),
        ("wide.png", image_bytes("PNG", size=(4000, 10)), "at most 2048"),
        ("huge.png", image_bytes("PNG") + b"\0" * (2 * 1024 * 1024), "at most 2 MB"),
    ],
)
def test_the_catalogue_refuses_an_upload_that_is_not_a_sane_image(
    staff_client, settings, tmp_path, name, content, error
):
    settings.MEDIA_ROOT, settings.LANGUAGE_CODE = tmp_path, "en"
    response = staff_client.post(
        reverse("admin:shop_item_add"),
        item_form(image=SimpleUploadedFile(name, content, content_type="image/png")),
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 200
    assert error in response.content.decode()
    assert not Item.objects.filter(slug="cartola").exists()
    assert not list(tmp_path.rglob("*.*"))  # nothing was stored


@pytest.mark.parametrize("kind, name", [("JPEG", "foto.jpg"), ("WEBP", "foto.webp")])
def test_the_catalogue_takes_jpeg_and_webp_images(staff_client, settings, tmp_path, kind, name):
    settings.MEDIA_ROOT = tmp_path
    response = staff_client.post(
        reverse("admin:shop_item_add"), item_form(image=SimpleUploadedFile(name, image_bytes(kind)))
    )
    assert response.status_code == 302


@pytest.mark.parametrize("amount", ["99999999999999999999999", "-99999999999999999999999", "1000001", "-1000001"])
def test_an_adjustment_beyond_the_range_is_refused_with_a_form_error(staff_client, user, amount, settings):
    settings.LANGUAGE_CODE = "en"
    target = wallet.get_or_create_wallet(user)
    response = adjust(staff_client, target, amount, reason="typo")
    assert response.status_code == 200
    assert "Ensure this value is" in response.content.decode()
    assert wallet.balance(user, currency=wallet.COINS) == 100
    assert not LedgerEntry.objects.filter(reason="admin_adjustment").exists()


def test_the_largest_adjustment_is_applied(staff_client, user):
    target = wallet.get_or_create_wallet(user)
    adjust(staff_client, target, "1000000", reason="prize")
    assert wallet.balance(user, currency=wallet.COINS) == 1_000_100
