"""The chief's table options (issue 12 item 1, seed 002 "Opções de mesa").

Move time, competitive or practice, the stake per match in coins, private (invite only), allow
spectators and partner signals. They change only before the first match or between matches (the
match ended, "play again" has not started the next: rooms.again copies them into the new room);
never while a match is played. While the chief has the panel open (`Room.options_opened_at`,
for at most ROOMS_OPTIONS_OPEN_S), everyone else sees the options icon marked "being changed".

Each function is one transaction on the locked room row; a refusal is a `RoomRefused` and changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.contrib.auth.hashers import make_password
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.models import Match
from shop import money

from . import publishing
from .models import MOVE_SECONDS, PlayAgain, Room
from .services import RoomRefused, _require_chief

if TYPE_CHECKING:
    from accounts.models import User

# A stake no table needs more than; a typo of extra zeros is refused rather than locking a fortune.
MAX_STAKE = 100_000


@dataclass(frozen=True)
class TableOptions:
    move_seconds: int
    mode: str
    stake_coins: int
    is_private: bool
    allow_spectators: bool
    partner_signals: bool
    password: str = ""


def open_panel(chief: User, code: str) -> Room:
    """The chief opened the options panel: the others see the icon "being changed"."""
    with transaction.atomic():
        room = _changeable_room(chief, code)
        room.options_opened_at = timezone.now()
        room.save(update_fields=["options_opened_at"])
        publishing.announce(room.pk)
    return room


def close_panel(chief: User, code: str) -> Room:
    """The chief closed the panel without saving."""
    with transaction.atomic():
        room = _locked(code)
        _require_chief(room, chief)
        if room.options_opened_at is not None:
            room.options_opened_at = None
            room.save(update_fields=["options_opened_at"])
            publishing.announce(room.pk)
    return room


def change_options(chief: User, code: str, options: TableOptions) -> Room:
    """Apply the chief's options (all of them, as the panel posts them) and close the panel."""
    with transaction.atomic():
        room = _changeable_room(chief, code)
        _check(room, options)
        room.move_seconds = options.move_seconds
        room.mode = options.mode
        room.stake_coins = options.stake_coins
        room.allow_spectators = options.allow_spectators
        room.partner_signals = options.partner_signals
        if options.is_private and options.password:
            room.password_hash = make_password(options.password)
        if options.is_private and not room.name:
            room.name = str(_("%(name)s's table") % {"name": chief.username})[:40]
        if not options.is_private:
            room.password_hash = ""  # a public room is joined without one
        room.is_private = options.is_private
        room.options_opened_at = None
        room.save()
        publishing.announce(room.pk)
    return room


def _locked(code: str) -> Room:
    # "of self": the match is joined to read, never locked here (PostgreSQL refuses FOR UPDATE on an
    # outer join's nullable side).
    room = Room.objects.select_for_update(of=("self",)).select_related("match").filter(code=str(code)[:32]).first()
    if room is None:
        raise RoomRefused("no_such_room", _("There is no room at this link."))
    return room


def _changeable_room(chief: User, code: str) -> Room:
    room = _locked(code)
    _require_chief(room, chief)
    if room.status == Room.Status.CLOSED:
        raise RoomRefused("room_closed", _("This room is closed."))
    if room.status == Room.Status.STARTED:
        match = room.match
        if match is None or match.status == Match.Status.ACTIVE:
            raise RoomRefused("match_in_play", _("The table's options change only before a match or between matches."))
        started_again = PlayAgain.objects.filter(room=room, status=PlayAgain.Status.STARTED).exists()
        if started_again:
            raise RoomRefused("next_match_started", _("The next match has already started in a new room."))
    return room


def _check(room: Room, options: TableOptions) -> None:
    if options.move_seconds not in MOVE_SECONDS:
        raise RoomRefused("bad_move_seconds", _("Pick one of the move times offered."))
    if options.mode not in Room.Mode.values:
        raise RoomRefused("bad_mode", _("Pick competitive or practice."))
    if not isinstance(options.stake_coins, int) or options.stake_coins < 0:
        raise RoomRefused("negative_stake", _("A stake is a whole number of coins, zero or more."))
    if options.stake_coins > MAX_STAKE:
        raise RoomRefused("stake_too_large", _("The stake may be at most %(max)s coins.") % {"max": MAX_STAKE})
    if options.stake_coins and options.mode == Room.Mode.PRACTICE:
        raise RoomRefused("practice_no_stake", _("A practice table plays for no coins: set the stake to 0."))
    if options.partner_signals and not (room.seats == 4 and room.partnership):
        raise RoomRefused("signals_need_partners", _("Partner signals are for tables of four playing in pairs."))
    if options.is_private and not (options.password or room.password_hash):
        raise RoomRefused("private_needs_password", _("A private table needs a password: type one."))
    if options.stake_coins:
        for seat in room.room_seats.filter(left_at__isnull=True).select_related("user").order_by("number"):
            coins = money.coverage(seat.user, currency=money.COINS)
            if not coins.covers(options.stake_coins):
                raise RoomRefused(
                    "stake_not_covered",
                    _("%(name)s has %(have)s coins and cannot cover a stake of %(stake)s.")
                    % {"name": seat.user.username, "have": coins.available, "stake": options.stake_coins},
                )
