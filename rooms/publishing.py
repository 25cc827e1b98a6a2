"""The lobby's group and each room's group, and the one "room changed" message sent after a commit.

A message says only *which* room changed; every socket reads the room again and renders what its
viewer sees (the same pattern as the table). A lost message loses nothing: a reload shows the truth.
"""

from __future__ import annotations

import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

log = logging.getLogger(__name__)
LOBBY_GROUP = "rooms.lobby"


def room_group(room_pk: int) -> str:
    return f"rooms.room.{room_pk}"


def announce(room_pk: int) -> None:
    """After the current transaction commits, tell the lobby and the room's sockets that the room changed."""
    transaction.on_commit(lambda: _send(room_pk))


def _send(room_pk: int) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(LOBBY_GROUP, {"type": "lobby.update", "room": room_pk})
        async_to_sync(layer.group_send)(room_group(room_pk), {"type": "room.update", "room": room_pk})
    except Exception:  # the change is committed; a page reload shows it even if the push is lost
        log.exception("could not announce a change of room %s", room_pk)


def chat_group(room_pk: int) -> str:
    return f"rooms.chat.{room_pk}"


def announce_chat_line(room_pk: int, line: dict) -> None:
    """After the commit, send the new line itself to the room's chat sockets (they render it with no query)."""
    transaction.on_commit(lambda: _send_to(chat_group(room_pk), {"type": "chat.line", "line": line}))


def announce_chat_hidden(room_pk: int, line_ids: list[int]) -> None:
    """After the commit, tell the room's chat sockets to take these lines off the screen."""
    transaction.on_commit(lambda: _send_to(chat_group(room_pk), {"type": "chat.hidden", "lines": line_ids}))


def _send_to(group: str, message: dict) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(group, message)
    except Exception:  # the line is stored: the next (re)connect shows it
        log.exception("could not push to %s", group)
