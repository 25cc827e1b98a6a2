"""How many matches one person may have in progress, and start: the clock and the AI cost the server for
every active match, so one visitor must not be able to start thousands (issue 9).

- At most `GAMES_MAX_ACTIVE_MATCHES` active matches per account, and per guest browser (the guest's
  seats are remembered in the session).
- At most `GAMES_STARTS_PER_IP` starts per IP address per `GAMES_STARTS_WINDOW_S`: a guest who
  throws the session cookie away each time is still one address. Counted in the cache (Redis, or
  this process's memory while Redis is down), like the sign-in limits.
- A match nobody plays is ended by the sweeper after `GAMES_ABANDON_AFTER_MISSED_TURNS` missed turns
  (games.match.moves.play_due_seat), so the cap frees itself.
"""

from __future__ import annotations

import time

from django.conf import settings
from django.core.cache import cache
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.selectors import active_match_count


class StartRefused(Exception):
    """A match may not be started now; `message` says why, for the Play page."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


def check_can_start(*, user=None, guest_tokens=(), ip: str = "") -> None:
    """Raise StartRefused when this person (or address) may not start another match now."""
    limit = settings.GAMES_MAX_ACTIVE_MATCHES
    if active_match_count(user=user, guest_tokens=guest_tokens) >= limit:
        raise StartRefused(
            "too_many_active",
            ngettext(
                "You already have %(count)d match in progress, the most at once. Finish it first: a match "
                "you stop playing ends by itself after %(turns)d missed turns.",
                "You already have %(count)d matches in progress, the most at once. Finish one first: a match "
                "you stop playing ends by itself after %(turns)d missed turns.",
                limit,
            )
            % {"count": limit, "turns": settings.GAMES_ABANDON_AFTER_MISSED_TURNS},
        )
    if ip and (cache.get(_starts_key(ip)) or 0) >= settings.GAMES_STARTS_PER_IP:
        raise StartRefused(
            "too_many_starts",
            _("Too many matches were started from your network in the last few minutes. Please try again later."),
        )


def count_start(ip: str) -> None:
    """Count one match started from this address (call after the start succeeded)."""
    if not ip:
        return
    key = _starts_key(ip)
    cache.add(key, 0, timeout=settings.GAMES_STARTS_WINDOW_S * 2)
    try:
        cache.incr(key)
    except ValueError:  # the key expired between add and incr
        cache.set(key, 1, timeout=settings.GAMES_STARTS_WINDOW_S * 2)


def _starts_key(ip: str) -> str:
    window = int(time.time() // settings.GAMES_STARTS_WINDOW_S)
    return f"games:starts:{ip}:{window}"
