"""Invitations (issue 33): a room's chief invites friends; an invited person takes a seat from the header.

An invitation lets its recipient sit without the password (`services.sits_without_password`) for as long
as it is pending (`selectors.pending_invitations`): the room waits, they have not dismissed it. The
recipient's header hears of it at once wherever they are (`accounts.notices.notify`), and again when the
room starts or closes (`services`) so that it leaves their list. Only friends are invited, so a person who
blocked the chief (which ends the friendship) is never reached; the header also hides any invitation whose
sender its reader blocked later. Refusals are `RoomRefused` with a stable code; nothing changes.
"""

from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts import friends, notices

from . import selectors, services
from .models import Invitation, Room
from .services import RoomRefused

if TYPE_CHECKING:
    from accounts.models import User

# Invitations one person may send in an hour: a few rooms' worth of friends, not a flood.
INVITATIONS_PER_HOUR = 30


def invite(chief: User, code: str, *, name: str) -> Invitation:
    """The room's chief invites the friend called `name` to this waiting room."""
    with transaction.atomic():
        room = Room.objects.select_for_update().filter(code=str(code)[:32]).first()
        if room is None or room.status != Room.Status.WAITING:
            raise RoomRefused("room_not_waiting", _("This room is not waiting for players any more."))
        if room.chief_id != chief.pk:
            raise RoomRefused("not_chief", _("Only the room's chief invites people to it."))
        person = friends.find_person(name)
        if person is None or person.pk == chief.pk or not friends.are_friends(chief.pk, person.pk):
            raise RoomRefused("not_a_friend", _("You can invite only your friends."))
        if room.room_seats.filter(user=person, left_at__isnull=True).exists():
            raise RoomRefused("already_seated", _("That friend is already in this room."))
        if Invitation.objects.filter(room=room, recipient=person).exists():
            raise RoomRefused("already_invited", _("You already invited that friend to this room."))
        since = timezone.now() - timedelta(hours=1)
        if Invitation.objects.filter(sender=chief, created_at__gte=since).count() >= INVITATIONS_PER_HOUR:
            raise RoomRefused("too_many_invitations", _("You sent many invitations in the last hour: try again later."))
        try:
            with transaction.atomic():
                invitation = Invitation.objects.create(room=room, sender=chief, recipient=person)
        except IntegrityError:  # the same invitation, sent twice at once
            raise RoomRefused("already_invited", _("You already invited that friend to this room.")) from None
        notices.notify([person.pk])
    return invitation


def _own(user: User, invitation_id) -> Invitation:
    """This person's invitation by id (a forged or someone else's id is refused, and tells nothing)."""
    try:
        number = int(invitation_id)
    except (TypeError, ValueError):
        number = 0
    if not 0 < number < 2**31:  # beyond the database's integer: no such row, and no overflow error
        number = 0
    found = Invitation.objects.select_related("room").filter(pk=number, recipient=user).first()
    if found is None:
        raise RoomRefused("no_invitation", _("That invitation does not exist."))
    return found


def accept(user: User, invitation_id, *, ip: str | None = None) -> Room:
    """Take a seat in the room of this pending invitation, without its password. Returns the room."""
    invitation = _own(user, invitation_id)
    room = invitation.room
    if selectors.seat_of(room, user) is not None:
        return room  # already sat down (a second tab): nothing to do
    if invitation.dismissed_at is not None or room.status != Room.Status.WAITING:
        raise RoomRefused("invitation_ended", _("That invitation has ended: its room is not waiting any more."))
    joined = services.join_room(user, room.code, ip=ip)
    notices.notify([user.pk])  # the list loses it in every tab
    return joined


def dismiss(user: User, invitation_id) -> None:
    with transaction.atomic():
        invitation = _own(user, invitation_id)
        if invitation.dismissed_at is None:
            invitation.dismissed_at = timezone.now()
            invitation.save(update_fields=["dismissed_at"])
        notices.notify([user.pk])
