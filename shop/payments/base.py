"""The small interface every payment provider implements."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext_lazy as _


class PaymentUnavailable(Exception):
    """The provider is not configured or not allowed here (e.g. the demo in production)."""

    message = _("Payments are not available right now.")


@dataclass(frozen=True)
class CheckoutStart:
    """Where to send the buyer next: the provider's page, or nowhere if already paid."""

    redirect_url: str | None
    completed: bool


class PaymentProvider:
    name: str = ""

    def check_available(self) -> None:
        """Raise PaymentUnavailable when this provider must not be used with the current settings."""

    def start_checkout(self, purchase, *, success_url: str, cancel_url: str) -> CheckoutStart:
        raise NotImplementedError
