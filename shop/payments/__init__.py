"""Payment providers for real-money purchases (gem packs).

A provider turns a pending `Purchase` into a checkout: either it completes at once (`demo`) or
it returns the URL of the provider's hosted page (`stripe`), and later confirms the payment.
`get_provider()` picks the one named by `settings.PAYMENTS_PROVIDER`.
"""

from __future__ import annotations

from django.conf import settings

from .base import CheckoutStart, PaymentProvider, PaymentUnavailable
from .demo import DemoProvider
from .stripe_checkout import StripeProvider

__all__ = ["CheckoutStart", "PaymentProvider", "PaymentUnavailable", "get_provider"]


def get_provider(name: str | None = None) -> PaymentProvider:
    providers = {"demo": DemoProvider, "stripe": StripeProvider}
    name = name or settings.PAYMENTS_PROVIDER
    if name not in providers:
        raise PaymentUnavailable(f"unknown payment provider {name!r}")
    provider = providers[name]()
    provider.check_available()
    return provider
