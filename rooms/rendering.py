"""One context function per pushed fragment (lobby list, room seats, where to go) and their renders.

The page places the same fragments the sockets push, so a page plus its pushes equals a fresh page.
"""

from __future__ import annotations

from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _

from games.models import BotLevel

from .models import Room, RoomSeat

SEAT_FILTERS = (("2", "2"), ("4t", "4t"), ("4s", "4s"))


def options_summary(room: Room) -> list[str]:
    """A room's options in a few words, e.g. ["Paulista", "2 against 2", "Dirty deck", "99 s a move", "Competitive"]."""
    rules = room.rules
    if room.seats == 2:
        players = _("1 against 1")
    elif room.partnership:
        players = _("2 against 2")
    else:
        players = _("4 players, each for themselves")
    if room.variant == "paulista":
        variant = "Paulista"
    else:
        variant = _("Online Mineiro") if rules.get("mineiro_style") == "online" else "Mineiro"
    words = [
        variant,
        players,
        _("Dirty deck") if rules.get("deck") == "dirty" else _("Clean deck"),
    ]
    if rules.get("face_down"):
        words.append(_("face-down cards"))
    if rules.get("all_tied") == "nobody":
        words.append(_("all tied: nobody scores"))
    words.append(_("%(seconds)s s a move") % {"seconds": room.move_seconds})
    words.append(str(room.get_mode_display()))
    return [str(w) for w in words]


def seats_label(seats: int, partnership: bool) -> str:
    if seats == 2:
        return _("1 against 1")
    return _("2 against 2") if partnership else _("4 players, each for themselves")


def lobby_rooms_context(rooms: list[Room], *, my_room: Room | None, signed_in: bool) -> dict:
    return {
        "rooms": [
            {
                "code": room.code,
                "summary": options_summary(room),
                "chief_name": room.chief.username if room.chief else _("deleted player"),
                "chief_avatar": room.chief.profile.avatar_url if room.chief else "",
                "taken": room.taken,
                "seats": room.seats,
                "mine": my_room is not None and my_room.pk == room.pk,
            }
            for room in rooms
        ],
        # One click joins a room: for a signed-in person who is not already waiting in one.
        "can_join": signed_in and my_room is None,
        "my_room_code": my_room.code if my_room else "",
    }


def home_rooms_waiting(rooms: list[Room]) -> list[dict]:
    """The home page's short list: the chief's room, its options and seats taken, linking to the room."""
    return [
        {
            "name": _("%(chief)s's room") % {"chief": room.chief.username if room.chief else _("deleted player")},
            "url": reverse("rooms:room", kwargs={"code": room.code}),
            "detail": " · ".join(
                options_summary(room) + [_("%(taken)s/%(seats)s seated") % {"taken": room.taken, "seats": room.seats}]
            ),
        }
        for room in rooms
    ]


def room_seats_context(room: Room, people: list[RoomSeat], viewer) -> dict:
    by_number = {seat.number: seat for seat in people}
    me = next((seat for seat in people if seat.user_id == viewer.pk), None)
    waiting = room.status == Room.Status.WAITING
    seats = []
    for n in range(room.seats):
        seat = by_number.get(n)
        seats.append(
            {
                "number": n,
                "label": _("Seat %(n)s") % {"n": n + 1},
                "team": (_("Team A") if n % 2 == 0 else _("Team B")) if room.partnership else "",
                "name": seat.user.username if seat else "",
                "avatar": seat.user.profile.avatar_url if seat else "",
                "user_id": seat.user_id if seat else None,
                "is_chief": bool(seat) and seat.user_id == room.chief_id,
                "is_me": bool(seat) and seat.user_id == viewer.pk,
                "can_take": waiting and me is not None and seat is None and room.partnership,
                "can_remove": waiting and bool(seat) and room.chief_id == viewer.pk and seat.user_id != viewer.pk,
            }
        )
    return {
        "room": room,
        "seats": seats,
        "taken": len(people),
        "waiting": waiting,
        "am_chief": room.chief_id == viewer.pk,
        "can_fill_with_bots": waiting and room.is_private and room.chief_id == viewer.pk,
        "bot_levels": [
            (BotLevel.EASY, BotLevel.EASY.label),
            (BotLevel.MEDIUM, BotLevel.MEDIUM.label),
            (BotLevel.HARD, BotLevel.HARD.label),
        ],
        "seated": me is not None,
    }


def room_go_context(room: Room, *, seated: bool) -> dict:
    """Where this viewer's browser must go now: the table once the match started, the lobby once
    they are no longer in a waiting room; nowhere while they wait."""
    href, text = "", ""
    if room.status == Room.Status.STARTED and room.match_id and seated:
        href = reverse("games:table", kwargs={"public_id": room.match.public_id})
        text = _("The match has started: to the table")
    elif not seated:
        href, text = reverse("rooms:lobby"), _("You are no longer in this room: back to the rooms")
    return {"go_href": href, "go_text": text}


def render_lobby_rooms(context: dict, *, oob: bool = False) -> str:
    return render_to_string("rooms/_lobby_rooms.html", {**context, "oob": oob})


def render_room_regions(seats_context: dict, go_context: dict, *, oob: bool = False) -> str:
    return render_to_string("rooms/_room_seats.html", {**seats_context, "oob": oob}) + render_room_go(
        go_context, oob=oob
    )


def render_room_go(go_context: dict, *, oob: bool = False) -> str:
    return render_to_string("rooms/_room_go.html", {**go_context, "oob": oob})
