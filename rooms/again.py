"""Playing again with the same people after a room's match (issue 11 item 10).

Every person of the finished room answers within ROOMS_PLAY_AGAIN_S of the match's end. When the
last one says yes, a new room with the same options, seats and chief opens and starts at once; each
person is charged the entry price again through the wallet (a new seat: `shop.money.room_entry_key`),
all in one transaction. Anyone declining, the time running out, or someone lacking the blue coins
(`shop.money.coverage`) ends the offer for everyone (`PlayAgain.status`), and nothing is charged to
anyone.

Each answer is one transaction that locks the old room's row first (then the offer's), so two
answers arriving at once are applied one after the other and the new room starts exactly once.
A refusal is a `RoomRefused` with a stable `code`; it changes nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from games.models import Match
from shop import money, wallet

from . import publishing, selectors
from .models import PlayAgain, PlayAgainAnswer, Room, RoomSeat, RoomSettings
from .services import RoomRefused, _lock_person, _start, _take_seat, require_stake_covered

if TYPE_CHECKING:
    from django.utils.functional import _StrPromise

    from accounts.models import User


@wallet.retry_once_on_deadlock
def accept(user: User, public_id: str, *, ip: str | None = None) -> PlayAgain:
    """Say yes; the last yes starts the new match (everyone charged again) or ends the offer for all."""
    with transaction.atomic():
        room, offer, people = _locked_offer(user, public_id)
        if offer.answers.filter(user=user).exists():
            raise RoomRefused("already_accepted", _("You already said yes; waiting for the others."))
        price = RoomSettings.current().entry_blue_coins
        blue_coins = money.coverage(user, currency=money.BLUE_COINS)
        if not blue_coins.covers(price):
            raise RoomRefused(
                "no_blue_coins",
                _("Playing again costs %(price)s blue coins and you have %(have)s.")
                % {"price": price, "have": blue_coins.available},
            )
        require_stake_covered(room, user)
        _lock_person(user)  # waiting in another room meanwhile: leave it first
        PlayAgainAnswer.objects.create(play_again=offer, user=user, ip_address=ip or None)
        if offer.answers.count() == len(people):
            _start_again(room, offer, people, price)
        publishing.announce(room.pk)
    return offer


def decline(user: User, public_id: str) -> PlayAgain:
    """Say no (or go back to the rooms): the offer ends for everyone, nobody is charged."""
    with transaction.atomic():
        room, offer, _people = _locked_offer(user, public_id)
        offer.status, offer.ended_by = PlayAgain.Status.DECLINED, user
        offer.save(update_fields=["status", "ended_by"])
        publishing.announce(room.pk)
    return offer


# --- inside the locked transaction -----------------------------------------------------------


def _locked_offer(user: User, public_id: str) -> tuple[Room, PlayAgain, list[RoomSeat]]:
    # Only the room row is locked (`of`): the match row belongs to the move service and the sweeper,
    # and answering "play again" must not wait on them.
    room = (
        Room.objects.select_for_update(of=("self",))
        .select_related("match")
        .filter(match__public_id=str(public_id))
        .first()
    )
    if room is None:
        raise RoomRefused("no_such_room", _("There is no room at this link."))
    people = list(room.room_seats.filter(left_at__isnull=True).select_related("user").order_by("number"))
    if user.pk not in {seat.user_id for seat in people}:
        raise RoomRefused("not_in_room", _("You are not in this room."))
    match = cast(Match, room.match)  # found by its match: the room has one
    if match.status not in (Match.Status.FINISHED, Match.Status.ANNULLED):
        raise RoomRefused("match_not_over", _("Play again is offered when the match has ended."))
    if match.seats.filter(left_at__isnull=False).exists():
        raise RoomRefused("a_player_left", _("A player left this match, so it cannot be played again."))
    offer, _created = PlayAgain.objects.select_for_update().get_or_create(
        room=room, defaults={"expires_at": selectors.again_expiry(match)}
    )
    # Expiry is read off the clock, never stored by a refusal (which rolls back anyway).
    status = selectors.again_status(offer.status, offer.expires_at)
    if status != PlayAgain.Status.OPEN:
        raise RoomRefused(status, _refusal_for(offer, status))
    return room, offer, people


def _refusal_for(offer: PlayAgain, status: str) -> _StrPromise | str:
    name = offer.ended_by.username if offer.ended_by else _("a player")
    if status == PlayAgain.Status.STARTED:
        return _("The new match has already started.")
    if status == PlayAgain.Status.DECLINED:
        return _("%(name)s chose not to play again.") % {"name": name}
    if status == PlayAgain.Status.NO_BLUE_COINS:
        return _("%(name)s did not have the blue coins to play again.") % {"name": name}
    if status == PlayAgain.Status.NO_COINS:
        return _("%(name)s could not cover the stake to play again.") % {"name": name}
    return _("Too late: the time to play again has run out.")


def _start_again(room: Room, offer: PlayAgain, people: list[RoomSeat], price: int) -> None:
    """Open the new room with the same seats and start it; everyone pays or nobody does."""
    ips = dict(offer.answers.values_list("user_id", "ip_address"))
    short = None
    try:
        with transaction.atomic():  # a savepoint: one person short of blue coins undoes every charge
            # Everyone's wallet (entry prices, then stakes) in one ordered step (shop.wallet).
            wallet.lock_wallets(seat.user_id for seat in people)
            new_room = Room.objects.create(
                is_private=room.is_private,
                name=room.name,
                password_hash=room.password_hash,
                chief_id=room.chief_id if room.chief_id in ips else people[0].user_id,
                rules=room.rules,
                variant=room.variant,
                seats=room.seats,
                partnership=room.partnership,
                move_seconds=room.move_seconds,
                mode=room.mode,
                stake_coins=room.stake_coins,
                allow_spectators=room.allow_spectators,
                partner_signals=room.partner_signals,
            )
            for seat in people:
                short = seat.user
                _take_seat(new_room, seat.user, seat.number, ips.get(seat.user_id), price)
            short = None
            _start(new_room, bot_level=cast(Match, room.match).bot_level)  # the old room played a match
    except RoomRefused as refusal:
        if refusal.code == "no_blue_coins" and short is not None:
            offer.status, offer.ended_by = PlayAgain.Status.NO_BLUE_COINS, short
        elif refusal.code == "stake_not_covered" and (refusal.user or short) is not None:
            offer.status, offer.ended_by = PlayAgain.Status.NO_COINS, refusal.user or short
        else:
            raise
        offer.save(update_fields=["status", "ended_by"])
        return
    offer.status, offer.new_room = PlayAgain.Status.STARTED, new_room
    offer.save(update_fields=["status", "new_room"])
