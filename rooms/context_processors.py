"""What every page's header shows from rooms: the signed-in person's notices (invitations, friend requests)."""

from __future__ import annotations

from django.utils.functional import SimpleLazyObject

from . import rendering, selectors


def notices(request) -> dict:
    # Lazy: read only by pages that draw the header (not by redirects or JSON views).
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"notices": None}
    return {"notices": SimpleLazyObject(lambda: rendering.notices_context(selectors.notices_of(user.pk)))}
