"""One context function per pushed fragment (lobby list, room seats, table options, play again, where to go, chat,
the annulment vote, the header's notices) and their renders.

The page places the same fragments the sockets push, so a page plus its pushes equals a fresh page.
"""

from __future__ import annotations

from datetime import timedelta
from typing import cast
from urllib.parse import urlencode

from django.conf import settings
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.models import BotLevel, Match
from stats.selectors import level_of_user

from . import annulment
from .models import MOVE_SECONDS, ChatLine, PlayAgain, Room, RoomSeat
from .selectors import AgainFacts, Departure, Invitable, Notices

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
    if room.stake_coins:
        words.append(_("stake %(coins)s coins") % {"coins": room.stake_coins})
    if not room.allow_spectators:
        words.append(_("no spectators"))
    if room.partner_signals:
        words.append(_("partner signals"))
    return [str(w) for w in words]


def _profile_url(person) -> str:
    """A person's public profile ("" for a deleted account, which has none)."""
    return reverse("accounts:public_profile", args=[person.username]) if person is not None else ""


def options_context(room: Room, viewer, *, changeable: bool, now=None) -> dict:
    """`_room_options.html`: the options in words, the icon ("being changed" while the chief has the
    panel open), and for the chief the panel itself (open) or its button (closed)."""
    now = now or timezone.now()
    opened = room.options_opened_at
    panel_open = opened is not None and now - opened < timedelta(seconds=settings.ROOMS_OPTIONS_OPEN_S)
    am_chief = viewer is not None and room.chief_id == getattr(viewer, "pk", None)
    return {
        "code": room.code,
        "summary": options_summary(room),
        "changing": panel_open and not am_chief,
        "am_chief": am_chief,
        "can_change": am_chief and changeable,
        "panel_open": am_chief and changeable and panel_open,
        "move_choices": MOVE_SECONDS,
        "modes": Room.Mode.choices,
        "room": room,
        "signals_possible": room.seats == 4 and room.partnership,
    }


def render_room_options(context: dict, *, oob: bool = False) -> str:
    return render_to_string("rooms/_room_options.html", {**context, "oob": oob})


def seats_label(seats: int, partnership: bool) -> str:
    if seats == 2:
        return _("1 against 1")
    return _("2 against 2") if partnership else _("4 players, each for themselves")


def lobby_rooms_context(
    rooms: list[Room], *, my_room: Room | None, signed_in: bool, watchable: list[Room] | None = None
) -> dict:
    return {
        # Matches being played that anyone signed in may watch (`selectors.watchable_rooms`).
        "watchable": [
            {
                "code": room.code,
                "summary": options_summary(room),
                "chief_name": room.chief.username if room.chief else _("deleted player"),
                "chief_url": _profile_url(room.chief),
                "watching": room.watching,  # type: ignore[attr-defined]  # annotated by selectors.watchable_rooms
                "url": reverse("games:table", kwargs={"public_id": cast(Match, room.match).public_id}),
            }
            for room in watchable or []
        ],
        "signed_in": signed_in,
        "rooms": [
            {
                "code": room.code,
                "summary": options_summary(room),
                "chief_name": room.chief.username if room.chief else _("deleted player"),
                "chief_url": _profile_url(room.chief),
                "chief_avatar": room.chief.profile.avatar_url if room.chief else "",
                "taken": room.taken,  # type: ignore[attr-defined]  # annotated by the lobby's query
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
                options_summary(room) + [_("%(taken)s/%(seats)s seated") % {"taken": room.taken, "seats": room.seats}]  # type: ignore[attr-defined]
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
                "level": level_of_user(seat.user) if seat else None,
                "user_id": seat.user_id if seat else None,
                "is_chief": bool(seat) and seat.user_id == room.chief_id,  # type: ignore[union-attr]
                "is_me": bool(seat) and seat.user_id == viewer.pk,  # type: ignore[union-attr]
                "can_take": waiting and me is not None and seat is None and room.partnership,
                "can_remove": waiting and bool(seat) and room.chief_id == viewer.pk and seat.user_id != viewer.pk,  # type: ignore[union-attr]
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
    they are no longer in a waiting room (which says why, if the chief removed them or closed it);
    nowhere while they wait."""
    href, text = "", ""
    if room.status == Room.Status.STARTED and room.match_id and seated:
        href = reverse("games:table", kwargs={"public_id": cast(Match, room.match).public_id})
        text = _("The match has started: to the table")
    elif not seated:
        href, text = lobby_after(room.code), _("You are no longer in this room: back to the rooms")
    return {"go_href": href, "go_text": text}


def lobby_after(code: str) -> str:
    """The lobby for someone just out of the room at `code`: it reads their seat to say why (`departure_from`);
    the address itself proves nothing, so a made-up one shows nothing."""
    return reverse("rooms:lobby") + "?" + urlencode({"out_of": code})


def departure_context(departure: Departure) -> dict:
    """The notice of `_departure_notice.html`: the chief removed you / closed the room, and the blue coins back."""
    room = departure.room
    if room.is_private:
        words = {
            "removed": _("The chief removed you from the room “%(name)s”."),
            "closed": _("The chief closed the room “%(name)s”."),
            "closed_by_me": _("You closed the room “%(name)s”."),
        }
        place = {"name": room.name}
    else:
        words = {
            "removed": _("The chief removed you from the public room (%(table)s)."),
            "closed": _("The chief closed the public room (%(table)s)."),
            "closed_by_me": _("You closed the public room (%(table)s)."),
        }
        place = {"table": " · ".join(options_summary(room)[:2])}
    how = "closed_by_me" if departure.how == "closed" and departure.by_me else departure.how
    refund = ""
    if departure.refunded:
        refund = ngettext(
            "You got your %(coins)s blue coin back.", "You got your %(coins)s blue coins back.", departure.refunded
        ) % {"coins": departure.refunded}
    return {"how": departure.how, "text": words[how] % place, "refund": refund, "refunded": departure.refunded}


def render_lobby_rooms(context: dict, *, oob: bool = False) -> str:
    return render_to_string("rooms/_lobby_rooms.html", {**context, "oob": oob})


def render_room_regions(seats_context: dict, go_context: dict, *, oob: bool = False) -> str:
    return render_to_string("rooms/_room_seats.html", {**seats_context, "oob": oob}) + render_room_go(
        go_context, oob=oob
    )


def render_room_go(go_context: dict, *, oob: bool = False) -> str:
    return render_to_string("rooms/_room_go.html", {**go_context, "oob": oob})


def chat_panel_context(
    room: Room, *, on: bool, lines: list[dict], viewer_id: int, watching: bool = False, muted=None
) -> dict:
    """`_chat_panel.html`: the chat of a room's table for one person (or the switch to turn it back on).

    ``muted``: for the chief, the spectators they muted (`muted_context`); None for everyone else."""
    chief_id = room.chief_id
    return {
        "code": room.code,
        "on": on,
        "watching": watching,
        "muted": muted,
        "lines": [chat_line_context(line, viewer_id, room.code, chief_id=chief_id) for line in lines] if on else [],
        "phrases": [(phrase.value, phrase.label) for phrase in ChatLine.Phrase],
        "max_length": ChatLine.MAX_LENGTH,
    }


def chat_line_context(line: dict, viewer_id: int, code: str, *, chief_id: int | None = None) -> dict:
    """`_chat_line.html`: one line as this viewer reads it (a quick phrase in the viewer's language); the
    chief gets a "mute" button on a spectator's line."""
    phrase = line["phrase"]
    mine = line["author_id"] == viewer_id
    by_spectator = line.get("by_spectator", False)
    can_mute = by_spectator and not mine and viewer_id is not None and viewer_id == chief_id
    return {
        "by_spectator": by_spectator,
        "mute_url": reverse("rooms:chat_mute", kwargs={"code": code, "user_id": line["author_id"]}) if can_mute else "",
        "id": line["id"],
        "author": line["author"],
        "profile_url": reverse("accounts:public_profile", args=[line["author"]]),
        "text": str(ChatLine.Phrase(phrase).label) if phrase else line["text"],
        "phrase": bool(phrase),
        "at": line["at"],
        "mine": line["author_id"] == viewer_id,
        "report_url": reverse("rooms:chat_report", kwargs={"code": code, "line_id": line["id"]}),
    }


def muted_context(room: Room, muted: list[tuple[int, str]]) -> dict:
    """`_chat_muted.html`: the chief's list of the spectators they muted, each with a button to let them
    write again (a muted spectator's lines no longer show, so their own lines carry no button)."""
    return {
        "people": [
            {"name": name, "unmute_url": reverse("rooms:chat_mute", kwargs={"code": room.code, "user_id": user_id})}
            for user_id, name in muted
        ]
    }


def render_muted(context: dict, *, oob: bool = False) -> str:
    return render_to_string("rooms/_chat_muted.html", {"muted": context, "oob": oob})


def render_chat_panel(context: dict, request) -> str:
    # With the request: the panel carries the CSRF token its buttons post with.
    return render_to_string("rooms/_chat_panel.html", {"chat": context}, request=request)


def render_chat_lines(lines: list[dict], *, append: bool) -> str:
    """The chat's list for a socket: the whole list (on connect, so a reconnect starts clean) or lines to add."""
    return render_to_string("rooms/_chat_lines.html", {"lines": lines, "append": append})


def render_chat_removals(line_ids: list[int]) -> str:
    return "".join(f'<li id="chat-line-{int(pk)}" hx-swap-oob="delete"></li>' for pk in line_ids)


def again_context(room: Room, facts: AgainFacts, people: list[RoomSeat], viewer, price: int) -> dict:
    """`_room_again.html`: who said yes to playing again, the countdown, the viewer's buttons."""
    open_ = facts.status == PlayAgain.Status.OPEN
    return {
        "public_id": cast(Match, room.match).public_id,
        "status": facts.status,
        "open": open_,
        "expires_ms": int(facts.expires_at.timestamp() * 1000),
        "people": [
            {
                "name": seat.user.username,
                "avatar": seat.user.profile.avatar_url,
                "accepted": seat.user_id in facts.accepted,
                "is_me": seat.user_id == viewer.pk,
            }
            for seat in people
        ],
        "accepted": len(facts.accepted),
        "total": len(people),
        "can_accept": open_ and viewer.pk not in facts.accepted,
        "price": price,
        "ended": again_ended_text(facts),
    }


def again_go_context(facts: AgainFacts | None, public_id: str) -> dict:
    """Where the browsers go: the new table once everyone said yes, the lobby (with the reason) once
    the offer ended; nowhere while it is open."""
    href, text = "", ""
    if facts is not None and facts.status == PlayAgain.Status.STARTED and facts.new_match_public_id:
        href = reverse("games:table", kwargs={"public_id": facts.new_match_public_id})
        text = _("Everyone said yes: to the new match")
    elif facts is not None and facts.status != PlayAgain.Status.OPEN:
        href = reverse("rooms:lobby") + "?" + urlencode({"again": public_id})
        text = _("Back to the rooms")
    return {"go_href": href, "go_text": text}


def again_ended_text(facts: AgainFacts | None) -> str:
    """Why playing again did not happen, for the page and the lobby's message ("" if it did or may)."""
    if facts is None:
        return str(_("This match cannot be played again."))
    name = facts.ended_by or _("a player")
    if facts.status == PlayAgain.Status.DECLINED:
        return str(_("%(name)s chose not to play again.") % {"name": name})
    if facts.status == PlayAgain.Status.NO_BLUE_COINS:
        return str(_("%(name)s did not have the blue coins to play again: nobody was charged.") % {"name": name})
    if facts.status == PlayAgain.Status.NO_COINS:
        return str(_("%(name)s could not cover the stake to play again: nobody was charged.") % {"name": name})
    if facts.status == PlayAgain.Status.EXPIRED:
        return str(_("Not everyone said yes in time: the time to play again has run out."))
    return ""


def render_again_regions(again: dict, go_context: dict, *, oob: bool = False) -> str:
    return render_to_string("rooms/_room_again.html", {**again, "oob": oob}) + render_to_string(
        "rooms/_room_go.html", {**go_context, "oob": oob}
    )


def annul_context(match, facts, viewer, *, voter_ids: set[int | None], propose_at, now=None) -> dict:
    """`_annul_vote.html`: the friendly-annulment vote at a room's table, as this viewer sees it.

    `facts` is the latest vote (rooms.annulment.VoteFacts) or None; `propose_at` when the viewer
    may propose again (None: now).
    """
    now = now or timezone.now()
    me = getattr(viewer, "pk", None)
    active = match.status == match.Status.ACTIVE
    status = facts.status if facts is not None else ""
    is_voter = me in voter_ids
    open_vote = active and status == "open"
    cooldown = int((propose_at - now).total_seconds()) + 1 if propose_at is not None else 0
    return {
        "public_id": match.public_id,
        "active": active,
        "status": status,
        "facts": facts,
        "open": open_vote,
        "expires_ms": int(facts.expires_at.timestamp() * 1000) if open_vote else None,
        "can_answer": open_vote and is_voter and viewer.username in facts.waiting,
        "can_propose": active and is_voter and not open_vote and not cooldown,
        "cooldown": cooldown if active and is_voter and not open_vote else 0,
        "annulled": match.status == match.Status.ANNULLED,
    }


def annul_vote_context(room: Room, viewer) -> dict:
    """`annul_context` read off the database for a room match's table (the page and its socket)."""
    match = cast(Match, room.match)  # a room match's table
    return annul_context(
        match,
        annulment.vote_facts(match),
        viewer,
        voter_ids={seat.user_id for seat in annulment.voters(match)},
        propose_at=annulment.may_propose_at(viewer, match),
    )


def render_annul_vote(context: dict, *, oob: bool = False) -> str:
    return render_to_string("rooms/_annul_vote.html", {**context, "oob": oob})


# --- invitations (issue 33): the chief's list of friends to invite, and the header's notices -------


def invite_friends_context(room: Room, invitable: list[Invitable]) -> dict:
    """The waiting room's "Invite friends" list, for its chief."""
    return {"code": room.code, "friends": invitable}


def render_invite_friends(context: dict) -> str:
    return render_to_string("rooms/_invite_friends.html", context)


def notices_context(notices: Notices) -> dict:
    """The header's bell: how many new, and the list (invitations to join, friend requests to answer)."""
    return {
        "unread": notices.unread,
        "friend_requests": notices.friend_requests,
        "price": notices.price,
        "invitations": [
            {
                "pk": invitation.pk,
                "sender": invitation.sender.username,
                "room_name": invitation.room.name,
                "summary": " · ".join(options_summary(invitation.room)[:2]),
                "stake_coins": invitation.room.stake_coins,
                "private": invitation.room.is_private,
            }
            for invitation in notices.invitations
        ],
    }


def render_notices(context: dict, *, oob: bool = False) -> str:
    return render_to_string("rooms/_notices.html", {**context, "oob": oob})
