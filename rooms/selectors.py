"""Reads: the lobby's waiting rooms, one room's people, the home page's list, the table chat, invitations."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import cast

from django.conf import settings
from django.db.models import Count, Q
from django.utils import timezone

from accounts import friends
from accounts.models import Block, Profile
from games.models import Match
from games.selectors import spectators_fresh_for
from shop import money
from shop import selectors as shop_selectors
from shop.wallet import BLUE_COINS

from .models import ChatLine, ChatMute, Invitation, PlayAgain, Room, RoomSeat, RoomSettings

LOBBY_LIMIT = 50


def waiting_public_rooms(*, variant: str = "", seats: str = "", limit: int = LOBBY_LIMIT) -> list[Room]:
    """Public rooms waiting for players, oldest first, with `taken` (seats held) and the chief's profile."""
    rooms = (
        Room.objects.filter(status=Room.Status.WAITING, is_private=False)
        .select_related("chief__profile")
        .annotate(taken=Count("room_seats", filter=Q(room_seats__left_at__isnull=True)))
        .order_by("created_at", "pk")
    )
    return list(_filtered(rooms, variant, seats)[:limit])


def watchable_rooms(*, variant: str = "", seats: str = "", limit: int = LOBBY_LIMIT) -> list[Room]:
    """Public rooms whose match is being played and may be watched (the lobby's "Watch"), oldest start first,
    with `watching` (how many people watch now) and the chief's profile."""
    since = timezone.now() - spectators_fresh_for()
    rooms = (
        Room.objects.filter(
            status=Room.Status.STARTED,
            is_private=False,
            match__status=Match.Status.ACTIVE,
            # The match's copy of the option decides (the chief may change the room's between matches).
            match__allow_spectators=True,
        )
        .select_related("chief__profile", "match")
        .annotate(
            watching=Count("match__spectators__user", distinct=True, filter=Q(match__spectators__seen_at__gte=since))
        )
        .order_by("started_at", "pk")
    )
    return list(_filtered(rooms, variant, seats)[:limit])


def _filtered(rooms, variant: str, seats: str):
    if variant:
        rooms = rooms.filter(variant=variant)
    if seats == "2":
        rooms = rooms.filter(seats=2)
    elif seats == "4t":
        rooms = rooms.filter(seats=4, partnership=True)
    elif seats == "4s":
        rooms = rooms.filter(seats=4, partnership=False)
    return rooms


def people_in(room: Room) -> list[RoomSeat]:
    """Who holds which seat now, in seat order, with their profile (name, avatar) and statistics (level)."""
    return list(
        room.room_seats.filter(left_at__isnull=True)
        .select_related("user__profile", "user__player_stats")
        .order_by("number")
    )


def seat_of(room: Room, user) -> RoomSeat | None:
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    return room.room_seats.filter(left_at__isnull=True, user=user).first()


# A room's code as its address carries it (`secrets.token_urlsafe(16)`): anything else names no room.
ROOM_CODE = re.compile(r"[A-Za-z0-9_-]{1,32}")


@dataclass(frozen=True)
class Departure:
    """Why a person is out of a room they sat in, read from their seat: the chief removed them (`removed`) or
    closed the room (`closed`; `by_me` when they were the chief), with the blue coins that the refund's
    ledger line gave back (0: the seat cost nothing)."""

    room: Room
    how: str
    by_me: bool
    refunded: int


def departure_from(user, code: str) -> Departure | None:
    """The person's own latest seat in the room at `code`, if the chief's removal or the room's closing ended it
    and they have not sat there again; None for anyone else, for a seat they left themselves, for junk."""
    if user is None or not getattr(user, "is_authenticated", False) or not ROOM_CODE.fullmatch(str(code)):
        return None
    room = Room.objects.filter(code=code).first()
    if room is None or seat_of(room, user) is not None:
        return None
    seat = room.room_seats.filter(user=user, left_at__isnull=False).order_by("-left_at", "-pk").first()
    if seat is None:
        return None
    if seat.removed:
        how = "removed"
    elif room.status == Room.Status.CLOSED and seat.left_at == room.closed_at:
        how = "closed"  # services.close_room empties every seat at the very time it closes the room
    else:
        return None  # they left by themselves: the Leave button said so
    refunded = shop_selectors.keyed_amount(user, BLUE_COINS, money.room_refund_key(seat.pk))
    return Departure(room=room, how=how, by_me=room.chief_id == user.pk, refunded=refunded)


def watching(room: Room, user) -> bool:
    """Whether this signed-in person, not seated, may watch the room's match (and so read and write its chat)."""
    if user is None or not getattr(user, "is_authenticated", False) or room.match_id is None:
        return False
    match = cast(Match, room.match)  # match_id is set
    return room.status == Room.Status.STARTED and match.allow_spectators and seat_of(room, user) is None


def at_the_table(room: Room, user) -> bool:
    """Seated, or watching: the people who read and write the table chat."""
    return seat_of(room, user) is not None or watching(room, user)


def muted(room: Room, user) -> bool:
    return ChatMute.objects.filter(room=room, user=user).exists()


def muted_spectators(room: Room) -> list[tuple[int, str]]:
    """(user id, name) of the spectators the chief muted at this room's table, first muted first."""
    return list(room.chat_mutes.order_by("created_at", "pk").values_list("user_id", "user__username"))


def waiting_room_of(user) -> Room | None:
    """The room this person is waiting in, if any (one at a time)."""
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    seat = (
        RoomSeat.objects.filter(user=user, left_at__isnull=True, room__status=Room.Status.WAITING)
        .select_related("room")
        .first()
    )
    return None if seat is None else seat.room


CHAT_HISTORY = 50


def chat_line_payload(line: ChatLine) -> dict:
    """What every chat socket needs to show a line (pushed as is: the sockets render it without a query)."""
    return {
        "id": line.pk,
        "author_id": line.author_id,
        "author": line.author.username,
        "text": line.text,
        "phrase": line.phrase,
        "at": line.created_at.isoformat(),
        "by_spectator": line.by_spectator,
    }


def recent_chat_lines(room: Room, viewer_id: int | None, limit: int = CHAT_HISTORY) -> list[dict]:
    """The room's last `limit` visible lines for this viewer, oldest first (what a chat shows on connect and
    reconnect): none by someone the viewer blocked (issue 33)."""
    lines = (
        room.chat_lines.filter(hidden=False)
        .exclude(author_id__in=friends.blocked_by(viewer_id))
        .select_related("author")
        .order_by("-id")[:limit]
    )
    return [chat_line_payload(line) for line in reversed(lines)]


def table_chat_on(user) -> bool:
    """Whether the person wants to see the table chat (their profile's switch; on unless they turned it off)."""
    profile = Profile.objects.filter(user=user).only("table_chat").first()
    return profile is None or profile.table_chat


def room_of_match(public_id: str) -> Room | None:
    return Room.objects.filter(match__public_id=public_id).first()


@dataclass(frozen=True)
class AgainFacts:
    """Where "Play again" stands after a room's match, as of now (read-only: nothing is created)."""

    status: str  # PlayAgain.Status, with an open offer past its time read as expired
    expires_at: datetime
    accepted: frozenset[int]  # user ids who said yes
    ended_by: str  # who declined or lacked blue coins
    new_match_public_id: str  # once started


def again_expiry(match: Match) -> datetime:
    # Called for a finished or annulled match: both set finished_at.
    return cast(datetime, match.finished_at) + timedelta(seconds=settings.ROOMS_PLAY_AGAIN_S)


def again_status(status: str, expires_at: datetime, now=None) -> str:
    """An open offer past its time has expired: read off the clock, no sweeper needed."""
    if status == PlayAgain.Status.OPEN and (now or timezone.now()) >= expires_at:
        return PlayAgain.Status.EXPIRED
    return status


def play_again_facts(room: Room) -> AgainFacts | None:
    """None while the match is in play, when it was abandoned, or when a player left it (no play again)."""
    match = room.match
    if match is None or match.status not in (Match.Status.FINISHED, Match.Status.ANNULLED) or match.finished_at is None:
        return None
    if match.seats.filter(left_at__isnull=False).exists():
        return None
    offer = PlayAgain.objects.select_related("ended_by", "new_room__match").filter(room=room).first()
    if offer is None:
        expires = again_expiry(match)
        return AgainFacts(again_status(PlayAgain.Status.OPEN, expires), expires, frozenset(), "", "")
    new_match = offer.new_room.match if offer.new_room and offer.new_room.match_id else None
    return AgainFacts(
        status=again_status(offer.status, offer.expires_at),
        expires_at=offer.expires_at,
        accepted=frozenset(offer.answers.values_list("user_id", flat=True)),
        ended_by=offer.ended_by.username if offer.ended_by else "",
        new_match_public_id=new_match.public_id if new_match else "",
    )


def options_changeable(room: Room) -> bool:
    """Whether the table's options may change now: before the first match, or between matches (the
    match ended and "play again" has not started the next one). rooms.options enforces the same."""
    if room.status == Room.Status.WAITING:
        return True
    if room.status != Room.Status.STARTED or room.match is None or room.match.status == Match.Status.ACTIVE:
        return False
    return not PlayAgain.objects.filter(room=room, status=PlayAgain.Status.STARTED).exists()


# --- invitations and the header's notices (issue 33) ---------------------------------------------


def pending_invitations(user_id: int) -> list[Invitation]:
    """Invitations this person may still answer, newest first: their room waits, they are not seated in
    it, they did not dismiss it, and its sender is nobody they blocked (nothing of theirs reaches them)."""
    return list(
        Invitation.objects.filter(recipient_id=user_id, dismissed_at__isnull=True, room__status=Room.Status.WAITING)
        .exclude(sender_id__in=Block.objects.filter(blocker_id=user_id).values("blocked_id"))
        .exclude(room__in=RoomSeat.objects.filter(user_id=user_id, left_at__isnull=True).values("room"))
        .select_related("room", "sender__profile")
        .order_by("-created_at", "-pk")
    )


@dataclass(frozen=True)
class Notices:
    """What the header's bell shows: the pending invitations, the friend requests waiting for an answer,
    and how many of both came since the person last opened the list."""

    invitations: list[Invitation]
    friend_requests: int
    unread: int
    price: int = 0  # blue coins a seat costs (said on the Join button; read only when there is an invitation)


def notices_of(user_id: int) -> Notices:
    invitations = pending_invitations(user_id)
    seen = Profile.objects.filter(user_id=user_id).values_list("notices_seen_at", flat=True).first()
    requests = friends.requests_received(user_id)
    unread = sum(1 for i in invitations if seen is None or i.created_at > seen)
    unread += sum(1 for r in requests if seen is None or r.created_at > seen)
    price = RoomSettings.current().entry_blue_coins if invitations else 0
    return Notices(invitations=invitations, friend_requests=len(requests), unread=unread, price=price)


@dataclass(frozen=True)
class Invitable:
    """A friend of the chief as the waiting room's invitation list shows them."""

    name: str
    state: str  # "invite" (a button), "invited" (sent already), "seated" (in this room)


def invitable_friends(room: Room, chief) -> list[Invitable]:
    """The chief's friends, by name, each with whether they can still be invited to this room."""
    names = list(friends.friends_of(chief.pk).values_list("pk", "username"))
    invited = set(Invitation.objects.filter(room=room).values_list("recipient_id", flat=True))
    seated = set(room.room_seats.filter(left_at__isnull=True).values_list("user_id", flat=True))
    return [
        Invitable(name, "seated" if pk in seated else "invited" if pk in invited else "invite") for pk, name in names
    ]
