"""Everything that changes a room: create, join, quick join, pick a seat, leave, remove, fill with bots, start.

Each function is one transaction that first locks what it decides on, so concurrent requests queue
instead of racing:
- the person's user row: one person's joins (two tabs) are serialised, so nobody sits in two rooms;
- the room row: its seats are counted and taken under the lock, so a room never over-fills;
- quick join and room creation also lock the `RoomSettings` row: "no waiting room with these
  options, so create one" is decided by one request at a time (else two people arriving together
  would each open a room and sit alone).
Blue coins move only through `shop.wallet.change_balance`, in the same transaction, with
idempotency keys named after the seat taken (`shop.money.room_entry_key`, `room_refund_key`:
`room-entry:<seat>`, `room-refund:<seat>`); whether a person covers the stake or the entry price is
`shop.money.coverage`'s answer.
A refusal is a `RoomRefused` with a stable `code` and a message for the person; nothing changed.

Wallets come last and all at once: the seat that fills a staked room locks the newcomer's wallet
(entry price) and every stake's (`games.match.stakes.hold_stakes`) in one `shop.wallet.lock_wallets` call,
in user-id order, the order every settlement locks them in. The person's user row is locked
"for no key update": rows that merely point at the user (a rank-point award, a seat) may still be
written by the transaction settling their last match, which would otherwise wait on this one while
this one waits on its wallets. Each function that takes or gives back blue coins retries once if
PostgreSQL picks it as a deadlock victim anyway (`shop.wallet.retry_once_on_deadlock`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import check_password, make_password
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts import friends, notices
from games import engine
from games.match.stakes import StakeNotCovered, hold_stakes
from games.match.starting import BOT_NAMES, SeatPlan, create_match
from games.models import BotLevel, Match
from shop import money, wallet

from . import publishing
from .models import Invitation, Room, RoomSeat, RoomSettings

if TYPE_CHECKING:
    from django.utils.functional import _StrPromise

    from accounts.models import User


class RoomRefused(Exception):
    def __init__(self, code: str, message: str | _StrPromise, *, user: User | None = None):
        # `user`: the person the refusal is about, when it is not the one asking (a stake someone
        # else at the table can no longer cover).
        self.code, self.message, self.user = code, message, user
        super().__init__(f"{code}: {message}")


@dataclass(frozen=True)
class RoomOptions:
    rules: engine.RuleSet
    move_seconds: int = 99
    mode: str = Room.Mode.COMPETITIVE


@wallet.retry_once_on_deadlock
def create_room(
    user: User,
    options: RoomOptions,
    *,
    is_private: bool = False,
    name: str = "",
    password: str = "",
    friends_only: bool = False,
    ip: str | None = None,
) -> Room:
    """Open a room with its creator as chief in the first seat, charged the entry price. `friends_only`: a
    private room's chief's friends sit without the password (ignored for a public room)."""
    if is_private and not (name and password):
        raise RoomRefused("private_needs_name_and_password", _("A private room needs a name and a password."))
    with transaction.atomic():
        _lock_person(user)
        room_settings = RoomSettings.objects.select_for_update().get(pk=RoomSettings.current().pk)
        room = _open_room(user, options, is_private=is_private, name=name, password=password, friends_only=friends_only)
        _take_seat(room, user, 0, ip, room_settings.entry_blue_coins)
    return room


@wallet.retry_once_on_deadlock
def quick_join(user: User, rules: engine.RuleSet, *, ip: str | None = None) -> Room:
    """Seat the person in the oldest waiting public room with these variant and seats, else in a new one."""
    with transaction.atomic():
        _lock_person(user)
        room_settings = RoomSettings.objects.select_for_update().get(pk=RoomSettings.current().pk)
        room = (
            Room.objects.select_for_update()
            .filter(
                status=Room.Status.WAITING,
                is_private=False,
                variant=rules.variant,
                seats=rules.seats,
                partnership=bool(rules.partnership),  # a bool once the RuleSet is built, as in _open_room
            )
            # Quick join plays the rule book's game: a room of online Mineiro (a house rule) is
            # joined on purpose, from the lobby.
            .exclude(rules__mineiro_style="online")
            # Never into a stake the person cannot cover (issue 12).
            .filter(stake_coins__lte=money.coverage(user, currency=money.COINS).largest)
            # Never with someone either of the two blocked (issue 33).
            .exclude(
                pk__in=RoomSeat.objects.filter(
                    user_id__in=friends.blocked_by_or_blocking(user.pk), left_at__isnull=True
                ).values("room_id")
            )
            .order_by("created_at", "pk")
            .first()
        )
        if room is None:
            room = _open_room(user, RoomOptions(rules=rules), is_private=False)
        number = _free_seats(room)[0]
        _take_seat(room, user, number, ip, room_settings.entry_blue_coins)
        _start_if_full(room)
    return room


@wallet.retry_once_on_deadlock
def join_room(user: User, code: str, *, password: str = "", ip: str | None = None, number: int | None = None) -> Room:
    """Take a seat in this room (the first free one, or `number` if free). A private room needs its password."""
    with transaction.atomic():
        _lock_person(user)
        room = _locked_room(code)
        if (
            room.is_private
            and not sits_without_password(room, user)
            and not check_password(password or "", room.password_hash)
        ):
            code_ = "missing_password" if not password else "wrong_password"
            raise RoomRefused(
                code_, _("This room needs its password.") if not password else _("That is not the room's password.")
            )
        free = _free_seats(room)
        if number is not None and number not in free:
            raise RoomRefused("seat_taken", _("That seat is taken; pick a free one."))
        _take_seat(room, user, free[0] if number is None else number, ip, RoomSettings.current().entry_blue_coins)
        _start_if_full(room)
    return room


def choose_seat(user: User, code: str, number: int) -> Room:
    """Move to a free seat (rooms with teams: friends sit together) before the start."""
    with transaction.atomic():
        room = _locked_room(code, require_free_seat=False)
        seat = _seat_of(room, user)
        if not room.partnership:
            raise RoomRefused("no_seat_choice", _("Seats are chosen only in rooms with teams."))
        if number not in _free_seats(room):
            raise RoomRefused("seat_taken", _("That seat is taken; pick a free one."))
        seat.number = number
        seat.save(update_fields=["number"])
        publishing.announce(room.pk)
    return room


@wallet.retry_once_on_deadlock
def leave_room(user: User, code: str) -> Room:
    """Leave before the start, refunded. A chief who leaves hands the room to the longest-seated player;
    the last person out closes it."""
    with transaction.atomic():
        room = _locked_room(code, require_free_seat=False)
        seat = _seat_of(room, user)
        _vacate(room, seat, removed=False)
        remaining = list(room.room_seats.filter(left_at__isnull=True).order_by("joined_at", "pk"))
        if not remaining:
            room.status, room.closed_at = Room.Status.CLOSED, seat.left_at
            room.save(update_fields=["status", "closed_at"])
            _tell_invitees(room)
        elif room.chief_id == user.pk:
            room.chief_id = remaining[0].user_id
            room.save(update_fields=["chief"])
        publishing.announce(room.pk)
    return room


@wallet.retry_once_on_deadlock
def remove_player(chief: User, code: str, user_id: int) -> Room:
    """The chief takes a player out of the room before the start; the player is refunded."""
    with transaction.atomic():
        room = _locked_room(code, require_free_seat=False)
        _require_chief(room, chief)
        if user_id == chief.pk:
            raise RoomRefused("chief_cannot_remove_self", _("To go, leave the room instead."))
        seat = room.room_seats.filter(left_at__isnull=True, user_id=user_id).first()
        if seat is None:
            raise RoomRefused("not_in_room", _("That player is not in this room."))
        _vacate(room, seat, removed=True)
        publishing.announce(room.pk)
    return room


@wallet.retry_once_on_deadlock
def fill_with_bots_and_start(chief: User, code: str, level: str) -> Room:
    """A private room's chief fills the empty seats with bots of one level and starts the match."""
    if level not in (BotLevel.EASY, BotLevel.MEDIUM, BotLevel.HARD):
        raise RoomRefused("bad_bot_level", _("Pick a bot level: easy, medium or hard."))
    with transaction.atomic():
        room = _locked_room(code, require_free_seat=False)
        _require_chief(room, chief)
        if not room.is_private:
            raise RoomRefused("public_room_no_bots", _("Only a private room's chief may fill seats with bots."))
        _start(room, bot_level=level)
    return room


@wallet.retry_once_on_deadlock
def close_room(chief: User, code: str) -> Room:
    """The chief closes a room that has not started; everyone in it is refunded."""
    with transaction.atomic():
        room = _locked_room(code, require_free_seat=False)
        _require_chief(room, chief)
        seats = list(room.room_seats.filter(left_at__isnull=True).select_related("user"))
        wallet.lock_wallets(seat.user_id for seat in seats)  # every refund's wallet, in one ordered step
        # One time for the close and every seat it empties: how a person sent out by the close is told
        # from one who had left before it (selectors.departure_from).
        now = timezone.now()
        for seat in seats:
            _vacate(room, seat, removed=False, at=now)
        room.status, room.closed_at = Room.Status.CLOSED, now
        room.save(update_fields=["status", "closed_at"])
        _tell_invitees(room)
        publishing.announce(room.pk)
    return room


def password_matches(room: Room, password: str) -> bool:
    return bool(password) and check_password(password, room.password_hash)


# --- inside the locked transaction -----------------------------------------------------------


def _lock_person(user: User) -> None:
    # NO KEY UPDATE: serialises this person's joins without blocking inserts that reference the user
    # (the settlement of their last match writes rank points and statistics for them).
    get_user_model().objects.select_for_update(no_key=True).filter(pk=user.pk).first()
    seat = (
        RoomSeat.objects.filter(user=user, left_at__isnull=True, room__status=Room.Status.WAITING)
        .select_related("room")
        .first()
    )
    if seat is not None:
        raise RoomRefused("already_in_a_room", _("You are already waiting in a room; leave it first."))


def _locked_room(code: str, *, require_free_seat: bool = True) -> Room:
    room = Room.objects.select_for_update().filter(code=str(code)[:32]).first()
    if room is None:
        raise RoomRefused("no_such_room", _("There is no room at this link."))
    if room.status == Room.Status.STARTED:
        raise RoomRefused("room_started", _("This room's match has already started."))
    if room.status == Room.Status.CLOSED:
        raise RoomRefused("room_closed", _("This room is closed."))
    if require_free_seat and not _free_seats(room):
        raise RoomRefused("room_full", _("This room is full."))
    return room


def _open_room(
    user: User,
    options: RoomOptions,
    *,
    is_private: bool,
    name: str = "",
    password: str = "",
    friends_only: bool = False,
) -> Room:
    rules = options.rules
    return Room.objects.create(
        is_private=is_private,
        name=name if is_private else "",
        password_hash=make_password(password) if is_private else "",
        friends_only=is_private and friends_only,
        chief=user,
        rules=rules.to_dict(),
        variant=rules.variant,
        seats=rules.seats,
        partnership=bool(rules.partnership),
        move_seconds=options.move_seconds,
        mode=options.mode,
    )


def sits_without_password(room: Room, user: User) -> bool:
    """A private room lets in without the password a person its chief invited, and a friends-only one every
    friend of the chief (issue 33)."""
    if not room.is_private:
        return False
    if Invitation.objects.filter(room=room, recipient_id=user.pk, dismissed_at__isnull=True).exists():
        return True
    return bool(room.friends_only and room.chief_id and friends.are_friends(room.chief_id, user.pk))


def _tell_invitees(room: Room) -> None:
    """The room stopped waiting (it started or closed): its invitations leave their recipients' headers."""
    notices.notify(room.invitations.filter(dismissed_at__isnull=True).values_list("recipient_id", flat=True))


def _free_seats(room: Room) -> list[int]:
    taken = set(room.room_seats.filter(left_at__isnull=True).values_list("number", flat=True))
    return [n for n in range(room.seats) if n not in taken]


def _seat_of(room: Room, user: User) -> RoomSeat:
    seat = room.room_seats.filter(left_at__isnull=True, user=user).first()
    if seat is None:
        raise RoomRefused("not_in_room", _("You are not in this room."))
    return seat


def _require_chief(room: Room, user: User) -> None:
    if room.chief_id != user.pk:
        raise RoomRefused("not_chief", _("Only the room's chief may do that."))


def require_stake_covered(room: Room, user: User) -> None:
    """A person who cannot cover the room's stake cannot sit (issue 12)."""
    coins = money.coverage(user, currency=money.COINS)
    if not coins.covers(room.stake_coins):
        raise RoomRefused(
            "stake_not_covered",
            _("This table plays for a stake of %(stake)s coins and you have %(have)s.")
            % {"stake": room.stake_coins, "have": coins.available},
        )


def _take_seat(room: Room, user: User, number: int, ip: str | None, price: int) -> RoomSeat:
    require_stake_covered(room, user)
    wallet.lock_wallets(_wallets_to_lock(room, user, number))
    seat = RoomSeat.objects.create(room=room, user=user, number=number, ip_address=ip or None, blue_coins_paid=price)
    if price:
        try:
            wallet.change_balance(
                user,
                currency=wallet.BLUE_COINS,
                amount=-price,
                reason=money.Reason.ROOM_ENTRY,
                reference=money.room_reference(room.code),
                idempotency_key=money.room_entry_key(seat.pk),
            )
        except wallet.InsufficientFunds as exc:
            raise RoomRefused("no_blue_coins", exc.message) from None
    publishing.announce(room.pk)
    return seat


def _wallets_to_lock(room: Room, user: User, number: int) -> list[int]:
    """The newcomer's wallet, and when this seat fills a staked room, everyone's: the start that follows
    holds each person's stake, and the entry price and the stakes are locked in one ordered step."""
    if not room.stake_coins or _free_seats(room) != [number]:
        return [user.pk]
    seated = room.room_seats.filter(left_at__isnull=True).values_list("user_id", flat=True)
    return [user.pk, *seated]


def _vacate(room: Room, seat: RoomSeat, *, removed: bool, at: datetime | None = None) -> None:
    seat.left_at, seat.removed = at or timezone.now(), removed
    seat.save(update_fields=["left_at", "removed"])
    if seat.blue_coins_paid:
        wallet.change_balance(
            seat.user,
            currency=wallet.BLUE_COINS,
            amount=seat.blue_coins_paid,
            reason=money.Reason.ROOM_REFUND,
            reference=money.room_reference(room.code),
            idempotency_key=money.room_refund_key(seat.pk),
        )


def match_stake(room: Room, people: dict[int, RoomSeat]) -> int:
    """The stake the match is played for: the room's, when people sit on two sides or more.

    A person alone against bots stakes nothing (a pot would only pay the house), and a practice
    table plays for nothing (the options refuse a stake there; this is the backstop).
    """
    if room.mode == Room.Mode.PRACTICE or not room.stake_coins:
        return 0
    rules = room.ruleset
    sides = {engine.side_of(rules, number) for number in people}
    return room.stake_coins if len(sides) > 1 else 0


def _start_if_full(room: Room) -> None:
    if not _free_seats(room):
        _start(room, bot_level=BotLevel.MEDIUM)


def _start(room: Room, *, bot_level: str) -> None:
    """Create the match from the seats (people where seated, bots elsewhere) and mark the room started."""
    people = {s.number: s for s in room.room_seats.filter(left_at__isnull=True).select_related("user")}
    bots = iter(BOT_NAMES)
    plans = [
        # The address each person took their seat from goes to the match: games applies the
        # same-address rule for rank points (selectors.reward_note).
        SeatPlan(user=people[n].user, display_name=people[n].user.username, ip_address=people[n].ip_address)
        if n in people
        else SeatPlan(bot_level=bot_level, display_name=next(bots))
        for n in range(room.seats)
    ]
    match = create_match(
        rules=room.ruleset,
        seats=plans,
        bot_level=bot_level,
        move_seconds=room.move_seconds,
        kind=Match.Kind.ROOM,
        practice=room.mode == Room.Mode.PRACTICE,
        stake_coins=match_stake(room, people),
        # The chief's options the table itself applies (games never reads rooms): a copy per match.
        allow_spectators=room.allow_spectators,
        partner_signals=room.partner_signals,
    )
    try:
        hold_stakes(match, seats=list(match.seats.select_related("user")))
    except StakeNotCovered as short:
        # Someone spent their coins while waiting: the match does not start (this transaction rolls back).
        raise RoomRefused("stake_not_covered", short.message, user=short.user) from None
    room.match, room.status, room.started_at = match, Room.Status.STARTED, timezone.now()
    room.save(update_fields=["match", "status", "started_at"])
    _tell_invitees(room)
    publishing.announce(room.pk)
