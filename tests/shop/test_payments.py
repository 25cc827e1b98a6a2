"""Real-money gem packs: the demo provider and the Stripe Checkout adapter, fully offline."""

import hashlib
import hmac
import json
import time
import uuid
from urllib.parse import parse_qs

import pytest
import stripe
from django.test import Client
from django.urls import reverse

from shop import purchases, wallet
from shop.models import LedgerEntry, Purchase
from shop.payments import PaymentUnavailable, get_provider, stripe_checkout
from tests.support.settings_env import run_with_env

pytestmark = pytest.mark.django_db

WEBHOOK_SECRET = "whsec_test_only_not_a_real_secret"


@pytest.fixture
def gem_pack(make_item):
    return make_item("gem_pack", price=490, price_currency="real_money", grant_amount=10)


# --- demo -------------------------------------------------------------------------------------


def test_demo_provider_credits_gems_at_once_in_development(signed_in_client, user, gem_pack, settings):
    settings.DEBUG, settings.PAYMENTS_PROVIDER = True, "demo"
    response = signed_in_client.post(reverse("shop:buy", args=[gem_pack.slug]), {"token": uuid.uuid4().hex})
    assert response.status_code == 302
    assert wallet.balance(user, currency=wallet.GEMS) == 10
    assert Purchase.objects.get(user=user, item=gem_pack).status == "completed"


def test_demo_provider_is_refused_with_production_settings(signed_in_client, user, gem_pack, settings):
    settings.DEBUG, settings.PAYMENTS_PROVIDER, settings.PAYMENTS_DEMO_ENABLED = False, "demo", False
    with pytest.raises(PaymentUnavailable):
        get_provider()
    response = signed_in_client.post(reverse("shop:buy", args=[gem_pack.slug]), {"token": uuid.uuid4().hex})
    assert response.status_code == 302
    assert wallet.balance(user, currency=wallet.GEMS) == 0
    assert not Purchase.objects.filter(item=gem_pack).exists()


def test_demo_provider_can_be_enabled_explicitly_in_production(settings):
    settings.DEBUG, settings.PAYMENTS_DEMO_ENABLED = False, True
    assert get_provider("demo").name == "demo"


def test_demo_flag_comes_from_the_environment():
    code = "import django; django.setup(); from django.conf import settings as s; print(s.PAYMENTS_DEMO_ENABLED)"
    assert run_with_env(code, DEBUG="0", SECRET_KEY="x" * 50, ALLOWED_HOSTS="t.example").stdout.strip() == "False"
    assert (
        run_with_env(
            code, DEBUG="0", SECRET_KEY="x" * 50, ALLOWED_HOSTS="t.example", PAYMENTS_DEMO_ENABLED="1"
        ).stdout.strip()
        == "True"
    )


# --- Stripe -----------------------------------------------------------------------------------


class FakeStripeHTTP(stripe.HTTPClient):
    """Answers Stripe API calls from memory and records them: the network is never touched."""

    name = "fake"

    def __init__(self):
        super().__init__()
        self.calls = []

    def request(self, method, url, headers, post_data=None, *, _usage=None):
        self.calls.append((method, url, headers, post_data))
        body = {
            "id": "cs_test_123",
            "object": "checkout.session",
            "url": "https://checkout.stripe.com/c/pay/cs_test_123",
        }
        return json.dumps(body), 200, {"request-id": "req_1"}

    def close(self):
        pass


@pytest.fixture
def stripe_on(settings, monkeypatch):
    settings.PAYMENTS_PROVIDER = "stripe"
    settings.STRIPE_SECRET_KEY = "sk_test_offline"
    settings.STRIPE_WEBHOOK_SECRET = WEBHOOK_SECRET
    fake = FakeStripeHTTP()
    monkeypatch.setattr(stripe_checkout, "HTTP_CLIENT", fake)
    return fake


def signed(payload: str, secret: str = WEBHOOK_SECRET, timestamp: int | None = None) -> str:
    """The Stripe-Signature header, computed as Stripe does: HMAC-SHA256 of "<t>.<body>"."""
    timestamp = timestamp or int(time.time())
    digest = hmac.new(secret.encode(), f"{timestamp}.{payload}".encode(), hashlib.sha256).hexdigest()
    return f"t={timestamp},v1={digest}"


def paid_event(purchase, event_id="evt_1", amount=None) -> str:
    return json.dumps(
        {
            "id": event_id,
            "type": "checkout.session.completed",
            "data": {
                "object": {
                    "id": purchase.provider_reference or "cs_test_123",
                    "object": "checkout.session",
                    "payment_status": "paid",
                    "amount_total": purchase.price if amount is None else amount,
                    "client_reference_id": str(purchase.pk),
                    "metadata": {"purchase_id": str(purchase.pk)},
                }
            },
        }
    )


def post_webhook(client, payload, signature):
    return client.post(
        reverse("shop:stripe_webhook"), data=payload, content_type="application/json", HTTP_STRIPE_SIGNATURE=signature
    )


def test_buying_gems_with_stripe_creates_a_checkout_session_and_redirects_to_it(
    signed_in_client, user, gem_pack, stripe_on
):
    response = signed_in_client.post(reverse("shop:buy", args=[gem_pack.slug]), {"token": uuid.uuid4().hex})
    assert response.status_code == 302
    assert response["Location"] == "https://checkout.stripe.com/c/pay/cs_test_123"
    method, url, headers, body = stripe_on.calls[0]
    assert (method, url) == ("post", "https://api.stripe.com/v1/checkout/sessions")
    sent = parse_qs(body)
    purchase = Purchase.objects.get(user=user, item=gem_pack)
    assert sent["line_items[0][price_data][unit_amount]"] == ["490"]
    assert sent["line_items[0][price_data][currency]"] == ["brl"]
    assert sent["metadata[purchase_id]"] == [str(purchase.pk)]
    assert headers["Idempotency-Key"] == f"truco-purchase-{purchase.pk}"
    assert (purchase.status, purchase.provider_reference) == ("pending", "cs_test_123")
    assert wallet.balance(user, currency=wallet.GEMS) == 0  # nothing until Stripe confirms


def start_stripe_purchase(user, gem_pack, stripe_on):
    purchase = purchases.start_paid_purchase(user, gem_pack, idempotency_key=uuid.uuid4().hex, provider="stripe")
    get_provider("stripe").start_checkout(purchase, success_url="http://t/ok", cancel_url="http://t/no")
    purchase.refresh_from_db()
    return purchase


def test_valid_signed_webhook_credits_the_gems(client, user, gem_pack, stripe_on):
    purchase = start_stripe_purchase(user, gem_pack, stripe_on)
    payload = paid_event(purchase)
    assert post_webhook(client, payload, signed(payload)).status_code == 200
    assert wallet.balance(user, currency=wallet.GEMS) == 10
    purchase.refresh_from_db()
    assert purchase.status == "completed"


def test_webhook_with_a_bad_signature_is_rejected_and_credits_nothing(client, user, gem_pack, stripe_on):
    purchase = start_stripe_purchase(user, gem_pack, stripe_on)
    payload = paid_event(purchase)
    assert post_webhook(client, payload, signed(payload, secret="whsec_wrong")).status_code == 400
    assert post_webhook(client, payload, "").status_code == 400
    tampered = payload.replace('"amount_total": 490', '"amount_total": 1')
    assert post_webhook(client, tampered, signed(payload)).status_code == 400
    stale = signed(payload, timestamp=int(time.time()) - 3600)
    assert post_webhook(client, payload, stale).status_code == 400
    assert wallet.balance(user, currency=wallet.GEMS) == 0


def test_replayed_webhook_credits_the_gems_exactly_once(client, user, gem_pack, stripe_on):
    purchase = start_stripe_purchase(user, gem_pack, stripe_on)
    payload = paid_event(purchase)
    for _ in range(3):
        assert post_webhook(client, payload, signed(payload)).status_code == 200
    other_event_same_payment = paid_event(purchase, event_id="evt_2")
    post_webhook(client, other_event_same_payment, signed(other_event_same_payment))
    assert wallet.balance(user, currency=wallet.GEMS) == 10
    assert LedgerEntry.objects.filter(wallet__user=user, currency="gems").count() == 1


def test_webhook_with_a_wrong_amount_credits_nothing(client, user, gem_pack, stripe_on):
    purchase = start_stripe_purchase(user, gem_pack, stripe_on)
    payload = paid_event(purchase, amount=1)
    assert post_webhook(client, payload, signed(payload)).status_code == 200
    assert wallet.balance(user, currency=wallet.GEMS) == 0


def test_webhook_endpoint_needs_no_csrf_token(user, gem_pack, stripe_on):
    purchase = start_stripe_purchase(user, gem_pack, stripe_on)
    payload = paid_event(purchase)
    assert post_webhook(Client(enforce_csrf_checks=True), payload, signed(payload)).status_code == 200


def test_stripe_without_keys_is_unavailable(settings):
    settings.STRIPE_SECRET_KEY = ""
    with pytest.raises(PaymentUnavailable):
        get_provider("stripe")


# --- Stripe faults ------------------------------------------------------------------------------


class UnreachableStripeHTTP(FakeStripeHTTP):
    """What the library's own client raises when the network to Stripe is down or times out."""

    def request(self, method, url, headers, post_data=None, *, _usage=None):
        self.calls.append((method, url, headers, post_data))
        raise stripe.APIConnectionError("Could not connect to Stripe (network is unreachable)")


def test_buying_gems_while_stripe_is_unreachable_is_refused_cleanly_and_the_purchase_fails(
    signed_in_client, user, gem_pack, stripe_on, monkeypatch, settings
):
    settings.LANGUAGE_CODE = "en"
    monkeypatch.setattr(stripe_checkout, "HTTP_CLIENT", UnreachableStripeHTTP())
    response = signed_in_client.post(
        reverse("shop:buy", args=[gem_pack.slug]), {"token": uuid.uuid4().hex}, HTTP_ACCEPT_LANGUAGE="en", follow=True
    )
    assert response.status_code == 200
    assert "Payments are not available right now." in response.content.decode()
    purchase = Purchase.objects.get(user=user, item=gem_pack)
    assert purchase.status == "failed"  # no pending purchase is left behind
    assert wallet.balance(user, currency=wallet.GEMS) == 0


def test_a_paid_webhook_still_delivers_a_purchase_that_failed_to_start(client, user, gem_pack, stripe_on):
    # Stripe may have created the session although its answer never reached us: if it is paid, deliver.
    purchase = purchases.start_paid_purchase(user, gem_pack, idempotency_key=uuid.uuid4().hex, provider="stripe")
    purchases.fail_paid_purchase(purchase.pk)
    payload = paid_event(purchase)
    assert post_webhook(client, payload, signed(payload)).status_code == 200
    assert wallet.balance(user, currency=wallet.GEMS) == 10


def event_naming(purchase_id, **session) -> str:
    body = {
        "id": "evt_x",
        "type": "checkout.session.completed",
        "data": {
            "object": {
                "id": "cs_test_123",
                "payment_status": "paid",
                "amount_total": 490,
                "client_reference_id": purchase_id,
                "metadata": {"purchase_id": purchase_id},
                **session,
            }
        },
    }
    return json.dumps(body)


@pytest.mark.parametrize("purchase_id", ["abc", "", "None", None, "١٢", "1e3", " 1", "-1", "0", "9" * 30, 10**30, True])
def test_a_signed_webhook_naming_no_usable_purchase_is_ignored_and_moves_no_money(
    client, user, gem_pack, stripe_on, purchase_id
):
    start_stripe_purchase(user, gem_pack, stripe_on)
    payload = event_naming(purchase_id)
    assert post_webhook(client, payload, signed(payload)).status_code == 200
    assert wallet.balance(user, currency=wallet.GEMS) == 0
    assert not LedgerEntry.objects.filter(currency="gems").exists()


@pytest.mark.parametrize(
    "payload",
    [
        "[]",
        '"text"',
        '{"type": "checkout.session.completed", "data": "x"}',
        '{"type": "checkout.session.completed", "data": {"object": []}}',
    ],
)
def test_a_signed_body_that_is_not_an_event_is_a_bad_request(client, user, gem_pack, stripe_on, payload):
    assert post_webhook(client, payload, signed(payload)).status_code == 400
    assert wallet.balance(user, currency=wallet.GEMS) == 0


def test_a_signed_webhook_with_a_junk_amount_credits_nothing(client, user, gem_pack, stripe_on):
    purchase = start_stripe_purchase(user, gem_pack, stripe_on)
    payload = event_naming(str(purchase.pk), amount_total="490abc")
    assert post_webhook(client, payload, signed(payload)).status_code == 200
    assert wallet.balance(user, currency=wallet.GEMS) == 0
