"""Telling live tables what happened: one message to a match's group, or to a player's sockets.

Every socket at a table is in its match's group; each reads the new version and pushes its
viewer's changed fragments. Every signed-in player's sockets are also in the player's group, so
the deletion of an account reaches its sockets on every process. Called after the transaction
committed, from the event loop, by the socket that made the move and by the sweeper.

The channel layer (Redis) may be down: every call here gives up after `LAYER_TIMEOUT_S` and raises,
and the callers decide (a move is already stored; sockets re-read a quiet table by themselves).
"""

from __future__ import annotations

import asyncio

from channels.layers import get_channel_layer

# Long enough for a Redis round trip under load, short enough that a dead Redis does not hold a
# socket's handler or the sweeper (an unreachable host would otherwise wait for TCP's timeout).
LAYER_TIMEOUT_S = 1.0


def group_name(match_pk: int) -> str:
    """The channel-layer group of a match's live table."""
    return f"match.{match_pk}"


def player_group(user_pk: int) -> str:
    """The channel-layer group of every table socket a signed-in player has open, on any process."""
    return f"player.{user_pk}"


def update_message(version: int) -> dict:
    """The group message that says "version N is out" (handled by `TableConsumer.match_update`)."""
    return {"type": "match.update", "version": version}


def account_closed_message() -> dict:
    """The player-group message that closes the sockets of a deleted account (`TableConsumer.account_closed`)."""
    return {"type": "account.closed"}


async def publish(match_pk: int, version: int) -> None:
    """Send `update_message(version)` to the match's group. Raises what the layer raises: the caller decides.

    The move is already stored when this runs, so a failed publish loses nothing: every socket
    reads an idle table again after a few seconds (`GAMES_SOCKET_WATCHDOG_S`) or on reconnect.
    """
    await send_to_group(group_name(match_pk), update_message(version))


async def send_to_group(group: str, message: dict) -> None:
    layer = get_channel_layer()
    if layer is not None:
        await asyncio.wait_for(layer.group_send(group, message), LAYER_TIMEOUT_S)
