"""Stripe Checkout: create a hosted checkout session; the signed webhook credits gems once per payment.

Tests replace the HTTP layer through `HTTP_CLIENT` (a `stripe.HTTPClient`); nothing here needs
the network at import time.
"""

from __future__ import annotations

import json
import logging

import stripe
from django.conf import settings

from .. import purchases
from ..models import Purchase
from .base import CheckoutStart, PaymentProvider, PaymentUnavailable

logger = logging.getLogger(__name__)

# Replaced in tests with a fake `stripe.HTTPClient`; None means the library's default.
HTTP_CLIENT: stripe.HTTPClient | None = None
PAID_EVENTS = {"checkout.session.completed", "checkout.session.async_payment_succeeded"}


class BadWebhook(Exception):
    """The webhook's signature or body cannot be trusted."""


def _client() -> stripe.StripeClient:
    return stripe.StripeClient(settings.STRIPE_SECRET_KEY, http_client=HTTP_CLIENT, max_network_retries=0)


class StripeProvider(PaymentProvider):
    name = "stripe"

    def check_available(self) -> None:
        if not (settings.STRIPE_SECRET_KEY and settings.STRIPE_WEBHOOK_SECRET):
            raise PaymentUnavailable("STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET must be set")

    def start_checkout(self, purchase: Purchase, *, success_url: str, cancel_url: str) -> CheckoutStart:
        item = purchase.item
        session = _client().v1.checkout.sessions.create(
            params={
                "mode": "payment",
                "line_items": [
                    {
                        "quantity": 1,
                        "price_data": {
                            "currency": settings.SHOP_REAL_CURRENCY,
                            "unit_amount": purchase.price,
                            "product_data": {"name": item.name},
                        },
                    }
                ],
                "client_reference_id": str(purchase.pk),
                "metadata": {"purchase_id": str(purchase.pk)},
                "success_url": success_url,
                "cancel_url": cancel_url,
            },
            # Stripe's own idempotency: a retried create returns the same session.
            options={"idempotency_key": f"truco-purchase-{purchase.pk}"},
        )
        Purchase.objects.filter(pk=purchase.pk).update(provider_reference=session.id)
        return CheckoutStart(redirect_url=session.url, completed=False)


def handle_webhook(payload: bytes, signature_header: str | None) -> Purchase | None:
    """Verify the signature, then complete the purchase a paid checkout session names (once)."""
    secret = settings.STRIPE_WEBHOOK_SECRET
    if not secret:
        raise BadWebhook("no webhook secret configured")
    try:
        stripe.WebhookSignature.verify_header(payload, signature_header, secret, tolerance=300)
        event = json.loads(payload)
    except (stripe.SignatureVerificationError, ValueError) as exc:
        raise BadWebhook(str(exc)) from exc
    if event.get("type") not in PAID_EVENTS:
        return None
    session = (event.get("data") or {}).get("object") or {}
    if session.get("payment_status") != "paid":
        return None  # e.g. a delayed payment method; async_payment_succeeded comes later
    purchase_id = (session.get("metadata") or {}).get("purchase_id") or session.get("client_reference_id")
    purchase = Purchase.objects.filter(pk=purchase_id, provider="stripe").select_related("item").first()
    if purchase is None:
        logger.warning("stripe webhook for unknown purchase %r (session %s)", purchase_id, session.get("id"))
        return None
    if session.get("amount_total") is not None and int(session["amount_total"]) != purchase.price:
        logger.error(
            "stripe session %s paid %s, purchase %s costs %s",
            session.get("id"),
            session["amount_total"],
            purchase.pk,
            purchase.price,
        )
        return None
    return purchases.complete_paid_purchase(purchase.pk, provider="stripe", provider_reference=session["id"])
