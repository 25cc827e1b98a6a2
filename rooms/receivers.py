"""Rooms' part of privacy: the export lists the rooms a person sat in (with the address recorded), what they
wrote in and reported from the table chat, and the invitations they sent and received;
deleting an account first leaves any waiting room, so the room is not left with a ghost seat."""

from django.dispatch import receiver
from django.urls import reverse
from django.utils.translation import gettext as _

from accounts.friends import Whereabouts
from accounts.signals import account_deleting, personal_data_requested, whereabouts_requested

from . import selectors, services
from .models import ChatLine, ChatReport, Invitation, Room, RoomSeat


@receiver(personal_data_requested, dispatch_uid="rooms_personal_data")
def export_room_seats(sender, user, **kwargs):
    seats = RoomSeat.objects.filter(user=user).select_related("room").order_by("joined_at", "pk")
    return {
        "room_seats": [
            {
                "room": s.room.code,
                "room_name": s.room.name,
                "chief": s.room.chief_id == user.pk,
                "seat": s.number,
                "ip_address": s.ip_address,
                "blue_coins_paid": s.blue_coins_paid,
                "joined_at": s.joined_at.isoformat(),
                "left_at": s.left_at.isoformat() if s.left_at else None,
                "removed": s.removed,
            }
            for s in seats
        ],
        "chat_lines": [
            {
                "room": line.room.code,
                "text": line.text,
                "phrase": line.phrase,
                "said_at": line.created_at.isoformat(),
                "hidden_by_staff": line.hidden,
            }
            for line in ChatLine.objects.filter(author=user).select_related("room").order_by("created_at", "pk")
        ],
        "chat_reports": [
            {"line": report.line_id, "reported_at": report.created_at.isoformat()}
            for report in ChatReport.objects.filter(reporter=user).order_by("created_at", "pk")
        ],
        "invitations_sent": [
            _invitation(i, to=i.recipient.username)
            for i in Invitation.objects.filter(sender=user).select_related("room", "recipient").order_by("pk")
        ],
        "invitations_received": [
            _invitation(i, **{"from": i.sender.username})
            for i in Invitation.objects.filter(recipient=user).select_related("room", "sender").order_by("pk")
        ],
    }


def _invitation(invitation: Invitation, **person: str) -> dict:
    return {
        **person,
        "room": invitation.room.code,
        "sent_at": invitation.created_at.isoformat(),
        "dismissed": invitation.dismissed_at is not None,
    }


@receiver(account_deleting, dispatch_uid="rooms_leave_before_deletion")
def leave_waiting_room(sender, user, **kwargs):
    # The seat rows go with the account (CASCADE); leaving first hands the chief's role on, or
    # closes a room nobody is left in, and tells the lobby.
    room = selectors.waiting_room_of(user)
    if room is not None:
        services.leave_room(user, room.code)


@receiver(whereabouts_requested, dispatch_uid="rooms_whereabouts")
def in_a_waiting_room(sender, user_ids, **kwargs):
    """Friends waiting in a room (issue 33): a public one can be joined from the friends page; a private
    one needs its password (its link is the chief's to give), so it is only named, unless the friend is its
    chief and lets friends in without the password ("friends only")."""
    seats = RoomSeat.objects.filter(
        user_id__in=user_ids, left_at__isnull=True, room__status=Room.Status.WAITING
    ).select_related("room")
    for seat in seats:
        if seat.room.is_private and not (seat.room.friends_only and seat.room.chief_id == seat.user_id):
            yield seat.user_id, Whereabouts(_("In a private waiting room"), rank=1)
        else:
            url = reverse("rooms:room", args=[seat.room.code])
            yield seat.user_id, Whereabouts(_("In a waiting room"), url=url, action=_("Join"), rank=3)
