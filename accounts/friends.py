"""Friends and blocks (issue 33): requests, answers, removal, blocking; and the reads other apps ask.

A request goes from one person to another and lives until it is accepted (two `Friendship` rows, one
each way), declined, or withdrawn. Two requests that cross (each asked the other) make friends at once.
A block ends any friendship and request between the two, and from then on the blocked person's requests
never reach the blocker: they are told "sent", nothing is stored, and the block stays the blocker's
secret. Refusals say what is wrong and change nothing (`FriendRefused`, with a stable code for tests).

Everything is keyed by the account, never by a name kept elsewhere: a renamed person keeps their
friends, and a deleted one takes their rows with them (`on_delete=CASCADE`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import timedelta
from typing import cast

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from . import notices
from .models import Block, FriendRequest, Friendship, User
from .signals import whereabouts_requested

# Requests one person may send in an hour: enough for a evening's new acquaintances, not for a flood.
REQUESTS_PER_HOUR = 20


@dataclass(frozen=True)
class Whereabouts:
    """Where a friend is now, as the friends page says it: a waiting room (to join), a match (to watch,
    where its table allows spectators). Answered by rooms and games (`whereabouts_requested`)."""

    label: str
    url: str = ""
    action: str = ""  # what following `url` does: "Join", "Watch"
    rank: int = 0  # when a person is in several places, the one with the highest rank is said (`whereabouts_of`)


class FriendRefused(Exception):
    def __init__(self, code: str, message):
        super().__init__(str(message))
        self.code, self.message = code, message


def find_person(name: str) -> User | None:
    """An active account by its display name, as people type it (any case, spaces around); None otherwise,
    deleted or disabled alike."""
    return User.objects.filter(username__iexact=str(name or "").strip()[:150], is_active=True).first()


def _person(name: str) -> User:
    person = find_person(name)
    if person is None:
        raise FriendRefused("not_found", _("There is no player with that name."))
    return person


def blocked_by(user_id: int | None) -> frozenset[int]:
    """The people this person blocked: nothing they write reaches this person (a room's chat)."""
    if user_id is None:
        return frozenset()
    return frozenset(Block.objects.filter(blocker_id=user_id).values_list("blocked_id", flat=True))


def blocked_by_or_blocking(user_id: int) -> set[int]:
    """Everyone this person blocked or was blocked by: people quick join must not seat with them."""
    rows = Block.objects.filter(Q(blocker_id=user_id) | Q(blocked_id=user_id)).values_list("blocker_id", "blocked_id")
    return {other for pair in rows for other in pair if other != user_id}


def are_friends(a_id: int, b_id: int) -> bool:
    return Friendship.objects.filter(user_id=a_id, friend_id=b_id).exists()


def send_request(sender: User, name: str) -> str:
    """Ask `name` to be friends: "sent", or "friends" when they had asked `sender` already."""
    with transaction.atomic():
        recipient = _person(name)
        if recipient.pk == sender.pk:
            raise FriendRefused("yourself", _("You cannot be your own friend here: ask someone else."))
        if are_friends(sender.pk, recipient.pk):
            raise FriendRefused("already_friends", _("You are friends already."))
        if Block.objects.filter(blocker=sender, blocked=recipient).exists():
            raise FriendRefused("you_blocked", _("You blocked this player: unblock them first."))
        crossing = FriendRequest.objects.filter(sender=recipient, recipient=sender).first()
        if crossing is not None:
            _befriend(sender, recipient)
            return "friends"
        if FriendRequest.objects.filter(sender=sender, recipient=recipient).exists():
            raise FriendRefused("already_sent", _("You already asked this player; wait for their answer."))
        since = timezone.now() - timedelta(hours=1)
        if FriendRequest.objects.filter(sender=sender, created_at__gte=since).count() >= REQUESTS_PER_HOUR:
            raise FriendRefused("too_many", _("You sent many friend requests in the last hour: try again later."))
        if Block.objects.filter(blocker=recipient, blocked=sender).exists():
            return "sent"  # never reaches them; the sender is not told why
        try:
            with transaction.atomic():
                FriendRequest.objects.create(sender=sender, recipient=recipient)
        except IntegrityError:  # the same request, sent twice at once
            raise FriendRefused("already_sent", _("You already asked this player; wait for their answer.")) from None
        notices.notify([recipient.pk])  # their header's "Friends" count
    return "sent"


def _request(request_id, **owner) -> FriendRequest:
    """The request with this id that belongs to `owner` (its sender or its recipient), locked; else refused."""
    try:
        number = int(request_id)
    except (TypeError, ValueError):
        number = 0
    found = FriendRequest.objects.select_for_update().filter(pk=number, **owner).first()
    if found is None:
        raise FriendRefused("no_request", _("That friend request does not exist any more."))
    return found


def accept(user: User, request_id) -> User:
    """Accept a request sent to `user`: the two are friends. Returns the new friend."""
    with transaction.atomic():
        request = _request(request_id, recipient=user)
        _befriend(user, request.sender)
        return request.sender


def _answered(request: FriendRequest) -> None:
    """A request is gone: both people's headers count again."""
    request.delete()
    notices.notify([request.sender_id, request.recipient_id])


def decline(user: User, request_id) -> None:
    with transaction.atomic():
        _answered(_request(request_id, recipient=user))


def withdraw(user: User, request_id) -> None:
    with transaction.atomic():
        _answered(_request(request_id, sender=user))


def remove_friend(user: User, name: str) -> None:
    with transaction.atomic():
        friend = _person(name)
        removed, _rows = Friendship.objects.filter(Q(user=user, friend=friend) | Q(user=friend, friend=user)).delete()
        if not removed:
            raise FriendRefused("not_friends", _("You are not friends with this player."))


def block(user: User, name: str) -> None:
    """Block `name`: any friendship and request between the two ends."""
    with transaction.atomic():
        person = _person(name)
        if person.pk == user.pk:
            raise FriendRefused("yourself", _("You cannot block yourself."))
        _part(user, person)
        Block.objects.get_or_create(blocker=user, blocked=person)
        notices.notify([user.pk])  # invitations from them leave the header


def unblock(user: User, name: str) -> None:
    with transaction.atomic():
        person = _person(name)
        if not Block.objects.filter(blocker=user, blocked=person).delete()[0]:
            raise FriendRefused("not_blocked", _("You have not blocked this player."))


def _befriend(a: User, b: User) -> None:
    FriendRequest.objects.filter(Q(sender=a, recipient=b) | Q(sender=b, recipient=a)).delete()
    notices.notify([a.pk, b.pk])
    Friendship.objects.get_or_create(user=a, friend=b)
    Friendship.objects.get_or_create(user=b, friend=a)


def _part(a: User, b: User) -> None:
    if FriendRequest.objects.filter(Q(sender=a, recipient=b) | Q(sender=b, recipient=a)).delete()[0]:
        notices.notify([a.pk, b.pk])
    Friendship.objects.filter(Q(user=a, friend=b) | Q(user=b, friend=a)).delete()


# --- reads ----------------------------------------------------------------------------------------


def whereabouts_of(people: list[User]) -> dict[int, Whereabouts]:
    """Where each of these people is now, for those who let their friends see it (their profile's switch)."""
    shown = [p.pk for p in people if shows_presence(p)]
    found: dict[int, Whereabouts] = {}
    if not shown:
        return found
    for _receiver, answer in whereabouts_requested.send(sender=User, user_ids=shown):
        for user_id, where in cast(Iterable[tuple[int, Whereabouts]], answer or ()):
            if user_id not in found or where.rank > found[user_id].rank:
                found[user_id] = where
    return found


def shows_presence(person: User) -> bool:
    """Whether this person lets their friends see that they are online and where (their profile's switch)."""
    profile = getattr(person, "profile", None)
    return profile is None or profile.show_whereabouts


def requests_received(user_id: int) -> list[FriendRequest]:
    """Friend requests waiting for this person's answer (the header's notices), newest first."""
    return list(
        FriendRequest.objects.filter(recipient_id=user_id, sender__is_active=True)
        .only("pk", "created_at")
        .order_by("-created_at")
    )


def friends_of(user_id: int):
    """This person's friends with an active account, by name (a queryset of users)."""
    return User.objects.filter(friendships__friend_id=user_id, is_active=True).order_by("username")


def friends_page(user: User) -> dict:
    """What the friends page lists: friends (those online now first, each with where they are), requests
    received and sent, people blocked."""
    people = list(friends_of(user.pk).select_related("profile"))
    where = whereabouts_of(people)
    now = timezone.now()
    online = {p.pk for p in people if shows_presence(p) and notices.is_online(p.profile, now=now)}
    people.sort(key=lambda p: p.pk not in online)  # stable: by name within each part
    return {
        "friends": [{"user": p, "online": p.pk in online, "where": where.get(p.pk)} for p in people],
        "received": list(
            FriendRequest.objects.filter(recipient=user, sender__is_active=True)
            .select_related("sender__profile")
            .order_by("-created_at")
        ),
        "sent": list(FriendRequest.objects.filter(sender=user).select_related("recipient").order_by("-created_at")),
        "blocked": list(Block.objects.filter(blocker=user).select_related("blocked").order_by("blocked__username")),
    }


def relation(viewer: User, person: User) -> str:
    """What `viewer` is to `person`, for the profile's buttons: self, friends, asked (viewer asked),
    asked_you, blocked (viewer blocked them), or none."""
    if viewer.pk == person.pk:
        return "self"
    if Block.objects.filter(blocker=viewer, blocked=person).exists():
        return "blocked"
    if are_friends(viewer.pk, person.pk):
        return "friends"
    if FriendRequest.objects.filter(sender=viewer, recipient=person).exists():
        return "asked"
    if FriendRequest.objects.filter(sender=person, recipient=viewer).exists():
        return "asked_you"
    return "none"


def personal_data(user: User) -> dict:
    """The friends part of the data export: friends, requests both ways, blocks (names and dates)."""
    return {
        "friends": [
            {"name": f.friend.username, "since": f.since.isoformat()}
            for f in Friendship.objects.filter(user=user).select_related("friend").order_by("since")
        ],
        "friend_requests_sent": [
            {"to": r.recipient.username, "at": r.created_at.isoformat()}
            for r in FriendRequest.objects.filter(sender=user).select_related("recipient")
        ],
        "friend_requests_received": [
            {"from": r.sender.username, "at": r.created_at.isoformat()}
            for r in FriendRequest.objects.filter(recipient=user).select_related("sender")
        ],
        "blocked": [
            {"name": b.blocked.username, "at": b.created_at.isoformat()}
            for b in Block.objects.filter(blocker=user).select_related("blocked")
        ],
    }
