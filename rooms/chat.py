"""The table chat of a room (waiting room and match): say a line, report one, staff hide lines, the switch.

Who may write: the people seated in the room, and its spectators (signed-in people watching a match that
allows them); the chief may mute a spectator (`mute`), never a player. A line is at most 200 characters
once cleaned (control characters out, runs of spaces squeezed), and a person writes at most 5 lines in
10 seconds over the whole site: counted in the database under a lock on the person's row, so two tabs or
two processes cannot slip a sixth line in. Lines are stored as typed and escaped when rendered (Django's
templates), never trusted as HTML.
"""

from __future__ import annotations

import re
import unicodedata
from datetime import timedelta
from typing import TYPE_CHECKING

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.models import Profile

from . import publishing, selectors
from .models import ChatLine, ChatMute, ChatReport, Room

if TYPE_CHECKING:
    from django.db.models import QuerySet
    from django.utils.functional import _StrPromise

    from accounts.models import User

RATE_LINES = 5
RATE_WINDOW = timedelta(seconds=10)
_SPACES = re.compile(r"\s+")


class ChatRefused(Exception):
    def __init__(self, code: str, message: str | _StrPromise):
        self.code, self.message = code, message
        super().__init__(f"{code}: {message}")


def clean_text(text: str) -> str:
    """The line as it will be stored: no control or format characters (no bidi tricks), spaces squeezed."""
    kept = "".join(ch for ch in str(text) if unicodedata.category(ch) not in ("Cc", "Cf", "Cs", "Co"))
    return _SPACES.sub(" ", kept).strip()


def say(user: User, room: Room, *, text: str = "", phrase: str = "") -> ChatLine:
    """Store a line (free text or a quick phrase) and push it to the room's chat sockets after the commit."""
    text = clean_text(text)
    if phrase and phrase not in ChatLine.Phrase.values:
        raise ChatRefused("unknown_phrase", _("That quick phrase does not exist."))
    if phrase:
        text = ""
    elif not text:
        raise ChatRefused("empty", _("Write something first."))
    elif len(text) > ChatLine.MAX_LENGTH:
        raise ChatRefused(
            "too_long",
            _("A line has at most %(max)d characters (this one has %(count)d).")
            % {"max": ChatLine.MAX_LENGTH, "count": len(text)},
        )
    with transaction.atomic():
        get_user_model().objects.select_for_update().filter(pk=user.pk).first()
        _require_at_the_table(room, user)
        spectator = selectors.seat_of(room, user) is None
        if spectator and selectors.muted(room, user):
            raise ChatRefused("muted", _("The table's chief muted you: your lines are not sent to this table."))
        if not selectors.table_chat_on(user):
            raise ChatRefused("chat_off", _("Your chat is turned off; turn it on to write."))
        recent = ChatLine.objects.filter(author=user, created_at__gt=timezone.now() - RATE_WINDOW).count()
        if recent >= RATE_LINES:
            raise ChatRefused(
                "too_fast",
                _("Slow down: at most %(lines)d lines every %(seconds)d seconds.")
                % {"lines": RATE_LINES, "seconds": RATE_WINDOW.seconds},
            )
        line = ChatLine.objects.create(room=room, author=user, text=text, phrase=phrase, by_spectator=spectator)
        publishing.announce_chat_line(room.pk, selectors.chat_line_payload(line))
    return line


def report_line(user: User, room: Room, line_id: object) -> ChatReport:
    """Report a line of this room to staff; once per person and line, never one's own."""
    with transaction.atomic():
        _require_at_the_table(room, user)
        line = ChatLine.objects.filter(room=room, pk=_as_id(line_id), hidden=False).first()
        if line is None:
            raise ChatRefused("no_line", _("That line is not in this chat."))
        if line.author_id == user.pk:
            raise ChatRefused("own_line", _("You cannot report your own line."))
        try:
            with transaction.atomic():
                return ChatReport.objects.create(line=line, reporter=user)
        except IntegrityError as exc:
            raise ChatRefused("already_reported", _("You already reported this line.")) from exc


def hide_lines(lines: QuerySet[ChatLine]) -> int:
    """Staff hide lines (the admin's action): off every open chat now, and out of every later history."""
    with transaction.atomic():
        chosen = list(lines.filter(hidden=False).values_list("pk", "room_id"))
        ChatLine.objects.filter(pk__in=[pk for pk, _room in chosen]).update(hidden=True)
        by_room: dict[int, list[int]] = {}
        for pk, room_pk in chosen:
            by_room.setdefault(room_pk, []).append(pk)
        for room_pk, ids in by_room.items():
            publishing.announce_chat_hidden(room_pk, ids)
    return len(chosen)


def show_lines(lines: QuerySet[ChatLine]) -> int:
    """Undo a hide (they come back on the next (re)connect; open chats are not rewritten)."""
    return lines.filter(hidden=True).update(hidden=False)


def set_table_chat(user: User, on: bool) -> None:
    Profile.objects.update_or_create(user=user, defaults={"table_chat": on})


def mute(chief: User, room: Room, user_id: object, *, on: bool = True) -> None:
    """The chief mutes (or lets speak again) a spectator of this room's table; players cannot be muted."""
    with transaction.atomic():
        room = Room.objects.select_for_update().get(pk=room.pk)
        if room.chief_id is None or room.chief_id != chief.pk:
            raise ChatRefused("not_chief", _("Only the room's chief may do that."))
        target = get_user_model().objects.filter(pk=_as_id(user_id)).first()
        if target is None:
            raise ChatRefused("no_person", _("That person is not at this table."))
        if selectors.seat_of(room, target) is not None:
            raise ChatRefused("player", _("Players cannot be muted: only spectators can."))
        if on:
            ChatMute.objects.get_or_create(room=room, user=target, defaults={"muted_by": chief})
        else:
            ChatMute.objects.filter(room=room, user=target).delete()


def _require_at_the_table(room: Room, user: User) -> None:
    if not selectors.at_the_table(room, user):
        raise ChatRefused("not_at_the_table", _("Only the people at this table can use its chat."))


def _as_id(value: object) -> int:
    try:
        return int(str(value)[:12])
    except ValueError:
        return 0
