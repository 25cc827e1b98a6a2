"""Stripe Checkout: create a hosted checkout session; the signed webhook credits gems once per payment.

Tests replace the HTTP layer through `HTTP_CLIENT` (a `stripe.HTTPClient`); nothing here needs
the network at import time.
"""

from __future__ import annotations

import json
import logging
import re
from typing import cast

import stripe
from django.conf import settings
from django.db import connection

from .. import money, purchases
from ..models import Purchase
from .base import CheckoutStart, PaymentProvider, PaymentUnavailable

logger = logging.getLogger(__name__)

# Replaced in tests with a fake `stripe.HTTPClient`; None means the library's default client with
# NETWORK_TIMEOUT_S (its own default, 80 s, would keep a buyer and a request thread waiting that long).
HTTP_CLIENT: stripe.HTTPClient | None = None
NETWORK_TIMEOUT_S = 10
PAID_EVENTS = {"checkout.session.completed", "checkout.session.async_payment_succeeded"}
# Our purchase ids are positive bigints; anything else in an event names no purchase of ours.
_PURCHASE_ID = re.compile(r"[1-9][0-9]{0,17}")


class BadWebhook(Exception):
    """The webhook's signature or body cannot be trusted."""


def _client() -> stripe.StripeClient:
    http_client = HTTP_CLIENT or stripe.new_default_http_client(timeout=NETWORK_TIMEOUT_S)
    return stripe.StripeClient(settings.STRIPE_SECRET_KEY, http_client=http_client, max_network_retries=0)


class StripeProvider(PaymentProvider):
    name = "stripe"

    def check_available(self) -> None:
        if not (settings.STRIPE_SECRET_KEY and settings.STRIPE_WEBHOOK_SECRET):
            raise PaymentUnavailable("STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET must be set")

    def start_checkout(self, purchase: Purchase, *, success_url: str, cancel_url: str) -> CheckoutStart:
        item = purchase.item
        # The pending purchase is committed; give the pooled database connection back while we wait
        # on the network, so a slow Stripe cannot starve the other requests of connections.
        if not connection.in_atomic_block:
            connection.close()
        try:
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
                options={"idempotency_key": money.stripe_checkout_key(purchase.pk)},
            )
        except stripe.StripeError as exc:
            # Unreachable, timed out or refused: the buyer was never sent to pay, so the purchase fails
            # (if Stripe did create a session and it gets paid after all, the webhook still delivers).
            logger.warning("stripe checkout for purchase %s failed: %s", purchase.pk, exc)
            purchases.fail_paid_purchase(purchase.pk)
            raise PaymentUnavailable(str(exc)) from exc
        Purchase.objects.filter(pk=purchase.pk).update(provider_reference=session.id)
        return CheckoutStart(redirect_url=session.url, completed=False)


def handle_webhook(payload: bytes, signature_header: str | None) -> Purchase | None:
    """Verify the signature, then complete the purchase a paid checkout session names (once).

    Raises BadWebhook (HTTP 400) for a bad signature or a body that is not an event; a signed event
    that names no purchase of ours, or does not match it, is logged and ignored (HTTP 200, so Stripe
    does not retry it for days).
    """
    secret = settings.STRIPE_WEBHOOK_SECRET
    if not secret:
        raise BadWebhook("no webhook secret configured")
    try:
        stripe.WebhookSignature.verify_header(payload, signature_header, secret, tolerance=300)
        event = json.loads(payload)
    except (stripe.SignatureVerificationError, ValueError) as exc:
        raise BadWebhook(str(exc)) from exc
    if not isinstance(event, dict):
        raise BadWebhook("the body is not an event object")
    if event.get("type") not in PAID_EVENTS:
        return None
    data = event.get("data")
    session = data.get("object") if isinstance(data, dict) else None
    if not isinstance(session, dict):
        raise BadWebhook("the event carries no checkout session")
    if session.get("payment_status") != "paid":
        return None  # e.g. a delayed payment method; async_payment_succeeded comes later
    metadata = session.get("metadata") if isinstance(session.get("metadata"), dict) else {}
    named = cast(dict, metadata).get("purchase_id") or session.get("client_reference_id")  # a dict: checked above
    session_id = cast(str, session.get("id") if isinstance(session.get("id"), str) else "")
    purchase_id = _purchase_id(named)
    purchase = None
    if purchase_id is not None:
        purchase = Purchase.objects.filter(pk=purchase_id, provider="stripe").select_related("item").first()
    if purchase is None:
        logger.warning("stripe webhook for unknown purchase %r (session %s)", named, session_id)
        return None
    amount = session.get("amount_total")
    if amount is not None and (not isinstance(amount, int) or isinstance(amount, bool) or amount != purchase.price):
        logger.error("stripe session %s paid %r, purchase %s costs %s", session_id, amount, purchase.pk, purchase.price)
        return None
    return purchases.complete_paid_purchase(purchase.pk, provider="stripe", provider_reference=session_id)


def _purchase_id(value) -> int | None:
    """The purchase an event names, or None: only a plain positive integer (an int or ASCII digits)."""
    if isinstance(value, int) and not isinstance(value, bool):
        value = str(value)
    if isinstance(value, str) and _PURCHASE_ID.fullmatch(value):
        return int(value)
    return None
