"""The development provider: "pays" at once. Refused with DEBUG off unless PAYMENTS_DEMO_ENABLED."""

from __future__ import annotations

from django.conf import settings

from .. import purchases
from .base import CheckoutStart, PaymentProvider, PaymentUnavailable


class DemoProvider(PaymentProvider):
    name = "demo"

    def check_available(self) -> None:
        # Free gems on a production site would be a real loss: it takes an explicit opt-in.
        if not (settings.DEBUG or getattr(settings, "PAYMENTS_DEMO_ENABLED", False)):
            raise PaymentUnavailable("the demo payment provider is disabled in production")

    def start_checkout(self, purchase, *, success_url: str, cancel_url: str) -> CheckoutStart:
        self.check_available()
        purchases.complete_paid_purchase(purchase.pk, provider=self.name, provider_reference=f"demo:{purchase.pk}")
        return CheckoutStart(redirect_url=None, completed=True)
