"""Tests against a real daphne child process with its own sweeper (the clock and AI seats run for real).

`fast_ai` (tests/conftest.py) makes the AI seats quick; request it before `live_daphne`.
"""

import pytest

from tests.support.live_server import LiveDaphne


@pytest.fixture
def two_servers(settings, django_db_blocker):
    """Two real daphne processes on this test's database. Set before they fork: no socket re-reads on its
    own while a test lasts (the table's watchdog, the header's notices), so whatever a socket on one process
    receives about something done on the other came through Redis."""
    settings.ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
    settings.GAMES_SOCKET_WATCHDOG_S = 600
    settings.ROOMS_NOTICES_REREAD_S = 600
    servers = [LiveDaphne(django_db_blocker).start() for _ in range(2)]
    yield servers
    for server in servers:
        server.stop()
