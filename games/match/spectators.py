"""Who watches a match: whether a person may, and how many do (the players see the number, live).

One row per open spectator socket (`Spectator`), written when it opens and deleted when it closes;
the socket refreshes its row on its idle check, so the rows a dead process left behind stop counting
after `selectors.spectators_fresh_for()`. The count is of people, not sockets (two tabs are one spectator).
"""

from __future__ import annotations

from django.utils import timezone

from games.models import Match, Spectator
from games.selectors import spectator_count


def may_watch(match: Match, user) -> bool:
    """Anyone signed in may watch a match that allows spectators (a room's option, copied at the start)."""
    return bool(match.allow_spectators and user is not None and getattr(user, "is_authenticated", False))


def join(match_pk: int, user_pk: int, socket_id: str) -> int:
    Spectator.objects.update_or_create(
        socket_id=socket_id, defaults={"match_id": match_pk, "user_id": user_pk, "seen_at": timezone.now()}
    )
    return spectator_count(match_pk)


def leave(match_pk: int, socket_id: str) -> int:
    Spectator.objects.filter(socket_id=socket_id).delete()
    return spectator_count(match_pk)


def touch(socket_id: str) -> None:
    Spectator.objects.filter(socket_id=socket_id).update(seen_at=timezone.now())
