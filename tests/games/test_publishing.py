"""Publishing gives up on a channel layer that does not answer, so neither a socket's handler nor the sweeper hangs."""

import asyncio
import time

import pytest
from channels.layers import get_channel_layer

from games.table import publishing

pytestmark = pytest.mark.asyncio


async def test_a_layer_that_hangs_is_given_up_after_the_timeout(monkeypatch):
    async def hang(group, message):
        await asyncio.sleep(3600)  # an unreachable Redis host: TCP would wait for minutes

    monkeypatch.setattr(get_channel_layer(), "group_send", hang)
    monkeypatch.setattr(publishing, "LAYER_TIMEOUT_S", 0.1)
    started = time.monotonic()
    with pytest.raises(asyncio.TimeoutError):
        await publishing.publish(1, 2)
    assert time.monotonic() - started < 2
