"""What the site's header shows live wherever a signed-in person is (issue 33), and whether they are online.

Every page's header holds one socket (`rooms.consumers.NoticesConsumer`) in the person's group. A change
that the header shows (an invitation to a room, a friend request) sends the group one "look again"
message after the commit (`notify`); the socket reads and pushes the header's fragments. The message
carries no content, so a lost one loses nothing: the socket also re-reads on its own every
`NOTICES_REREAD_S`.

"Online now" is that socket: it stamps `Profile.last_seen_at` when it opens and then every
`ONLINE_STAMP_S`; a person is online while the stamp is younger than `ONLINE_WINDOW_S` (so up to that
long after their last page closed, and never while they have no page open).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from datetime import datetime, timedelta

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction
from django.utils import timezone

from .models import Profile

log = logging.getLogger(__name__)

ONLINE_STAMP_S = 60
ONLINE_WINDOW_S = 150  # two stamps and some slack: a socket's stamp may be late by a re-read


def person_group(user_id: int) -> str:
    return f"person.{user_id}"


def notify(user_ids: Iterable[int]) -> None:
    """After the current transaction commits, tell these people's headers to look again."""
    people = sorted(set(user_ids))
    if people:
        transaction.on_commit(lambda: _send(people))


def _send(user_ids: list[int]) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    for user_id in user_ids:
        try:
            async_to_sync(layer.group_send)(person_group(user_id), {"type": "notices.update"})
        except Exception:  # the change is stored; the header's next re-read shows it
            log.exception("could not tell person %s's header", user_id)


def stamp_online(user_id: int, *, now: datetime | None = None) -> None:
    """The person has a page open now (one UPDATE, skipped when the last stamp is recent enough)."""
    now = now or timezone.now()
    stale = now - timedelta(seconds=ONLINE_STAMP_S)
    Profile.objects.filter(user_id=user_id).exclude(last_seen_at__gt=stale).update(last_seen_at=now)


def is_online(profile: Profile | None, *, now: datetime | None = None) -> bool:
    if profile is None or profile.last_seen_at is None:
        return False
    return profile.last_seen_at > (now or timezone.now()) - timedelta(seconds=ONLINE_WINDOW_S)


def mark_seen(user_id: int) -> None:
    """The person opened the header's list: what is in it now is no longer new (in every tab)."""
    with transaction.atomic():
        Profile.objects.filter(user_id=user_id).update(notices_seen_at=timezone.now())
        notify([user_id])
