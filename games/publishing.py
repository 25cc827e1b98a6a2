"""Telling a match's live table that a new version is out: one message to the match's group.

Every socket at the table is in that group; each reads the new version and pushes its viewer's
changed fragments. Called after the move's transaction committed, from the event loop, by the
socket that made the move and by the sweeper that made a move for a seat.
"""

from __future__ import annotations

from channels.layers import get_channel_layer


def group_name(match_pk: int) -> str:
    """The channel-layer group of a match's live table."""
    return f"match.{match_pk}"


def update_message(version: int) -> dict:
    """The group message that says "version N is out" (handled by `TableConsumer.match_update`)."""
    return {"type": "match.update", "version": version}


async def publish(match_pk: int, version: int) -> None:
    """Send `update_message(version)` to the match's group. Raises what the layer raises: the caller decides.

    The move is already stored when this runs, so a failed publish loses nothing: every socket
    reads an idle table again after a few seconds (`GAMES_SOCKET_WATCHDOG_S`) or on reconnect.
    """
    layer = get_channel_layer()
    if layer is not None:
        await layer.group_send(group_name(match_pk), update_message(version))
