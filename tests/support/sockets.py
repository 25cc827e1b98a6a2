"""Opening a table socket as a browser would (session cookie, Origin) with Channels' WebsocketCommunicator."""

from __future__ import annotations

import re

from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from truco_site.asgi import application


def session_cookie(user=None) -> str:
    """The Cookie header of a signed-in browser (or of a guest's, with a session of its own)."""
    client = Client()
    if user is not None:
        client.force_login(user)
        return f"sessionid={client.cookies['sessionid'].value}"
    session = client.session
    session["visited"] = True
    session.save()
    return f"sessionid={session.session_key}"


async def connect(match, cookie: str, *extra_headers) -> WebsocketCommunicator:
    comm = WebsocketCommunicator(
        application,
        f"/ws/match/{match.public_id}/",
        headers=[
            (b"origin", b"http://127.0.0.1"),
            (b"host", b"127.0.0.1"),
            (b"cookie", cookie.encode()),
            *extra_headers,
        ],
    )
    connected, _ = await comm.connect()
    assert connected
    return comm


def error_code(frame: str) -> str | None:
    """The `data-error` code of a message frame, None for a frame without one."""
    found = re.search(r'data-error="([a-z_]+)"', frame)
    return found and found.group(1)


async def drain(comm: WebsocketCommunicator, timeout: float = 0.3) -> list[dict]:
    """Every output the socket sends until it has been quiet for `timeout` seconds."""
    # receive_output's own timeout would cancel the application: wait with receive_nothing instead.
    outputs = []
    while not await comm.receive_nothing(timeout=timeout):
        outputs.append(await comm.receive_output())
    return outputs


async def send_frame(comm: WebsocketCommunicator, text: str) -> None:
    """Send any text frame, the empty one included (WebsocketCommunicator.send_to refuses "")."""
    await comm.send_input({"type": "websocket.receive", "text": text})


async def open_socket(path: str, user=None, *, language: str = "en") -> WebsocketCommunicator:
    """Any socket of the site by its path, as a signed-in (or guest) browser speaking `language`."""
    cookie = await sync_to_async(session_cookie)(user)
    comm = WebsocketCommunicator(
        application,
        path,
        headers=[
            (b"origin", b"http://127.0.0.1"),
            (b"host", b"127.0.0.1"),
            (b"cookie", cookie.encode()),
            (b"accept-language", language.encode()),
        ],
    )
    connected, _ = await comm.connect()
    assert connected
    return comm
