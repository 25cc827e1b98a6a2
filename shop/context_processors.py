"""What every page's header shows from the shop: the signed-in player's balances."""

from __future__ import annotations

from django.utils.functional import SimpleLazyObject

from . import selectors


def header_balances(request) -> dict:
    # Lazy: the wallet is read only by templates that show it (not by redirects or JSON views).
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"header_balances": None}
    return {"header_balances": SimpleLazyObject(lambda: selectors.balances(user))}
