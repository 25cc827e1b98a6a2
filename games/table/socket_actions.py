"""What a table socket sends, read as an action: pure parsing, no database and no socket.

htmx's ws extension sends the clicked button's `hx-vals` plus the form's values as one JSON
object, e.g. `{"do": "play", "card": "4C", "v": "17", "face_down": "1"}`: every form value is a
string. Whether the action is legal, and made on the current version, is the move service's check.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from django.utils.translation import gettext_lazy as _

from games.match.moves import ActionRefused

MAX_MESSAGE_BYTES = 2048
# How htmx sends a ticked checkbox (its `value`), and how a script might.
TICKED = (True, "1", "true", "on")


@dataclass(frozen=True)
class SocketAction:
    """An action as the move service takes it: the engine payload and the version it was made on."""

    payload: dict
    version: object  # an int when the message carried one; anything else is refused by the move service


def _is_text(value) -> bool:
    if value is None:
        return True
    if not isinstance(value, str) or len(value) > 16:
        return False
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate, as the JSON escape \ud800 gives
        return False
    return True


def parse_socket_action(text_data: str | None, bytes_data: bytes | None = None) -> SocketAction:
    """Read one socket message; ActionRefused("malformed" or "too_large") when it cannot be an action."""
    if bytes_data is not None or text_data is None:
        raise ActionRefused("malformed", _("Send actions as JSON text."))
    if not isinstance(text_data, str):
        raise ActionRefused("malformed", _("Send actions as JSON text."))
    # surrogatepass: a string that is not valid Unicode is measured, not a crash (it is refused below).
    if len(text_data.encode("utf-8", "surrogatepass")) > MAX_MESSAGE_BYTES:
        raise ActionRefused("too_large", _("That message is too large."))
    try:
        message = json.loads(text_data)
    except (ValueError, RecursionError):
        # RecursionError: ~1,000 nested arrays fit in the size limit and exhaust the parser's stack.
        raise ActionRefused("malformed", _("That message is not valid JSON.")) from None
    if not isinstance(message, dict):
        raise ActionRefused("malformed", _("That message is not an action."))
    if not all(_is_text(value) for value in (message.get("do"), message.get("card"), message.get("signal"))):
        # Only text travels on: a nested value (or text that is not valid Unicode) would be echoed
        # back in the engine's refusal and cannot be sent on a socket.
        raise ActionRefused("malformed", _("That message is not an action."))
    payload = {"do": message.get("do")}
    if payload["do"] == "signal":
        # A partner signal (games.match.signals), not a move: no version, no card.
        return SocketAction({"do": "signal", "signal": message.get("signal")}, message.get("v"))
    if message.get("card") is not None:
        payload["card"] = message["card"]
    # Online Mineiro's double play: the button sends its two cards as "up" and "down" (plain strings
    # survive every way htmx builds the message); a script may send "cards" as the engine takes it.
    if message.get("up") is not None or message.get("down") is not None:
        payload["cards"] = [message.get("up"), message.get("down")]
    elif message.get("cards") is not None:
        payload["cards"] = message["cards"]
    # The face-down checkbox arrives as "1" when ticked (and is absent when not).
    face_down = message.get("face_down", False)
    payload["face_down"] = face_down in TICKED if payload["do"] == "play" else bool(face_down)
    version = message.get("v")
    if isinstance(version, str) and version.isascii() and version.isdigit():
        version = int(version)
    return SocketAction(payload, version)
