"""A real daphne serving the project in a child process, for browser, restart and load tests.

pytest-django's live_server is WSGI only (no WebSockets), so we fork daphne ourselves, the way
Channels' ChannelsLiveServerTestCase does, with the two fixes below (docs/testing.md).
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from functools import partial

import asgiref.sync
from channels.layers import channel_layers
from channels.testing.live import make_application, set_database_connection
from daphne.testing import DaphneProcess
from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler
from django.db.backends.postgresql.base import DatabaseWrapper as PostgresWrapper


def _reset_after_fork() -> None:
    # A child forked after async tests ran in the parent inherits asgiref's single-thread executor
    # and the cached channel layers in a broken state: it would hang. Give it fresh ones.
    asgiref.sync.SyncToAsync.single_thread_executor = ThreadPoolExecutor(max_workers=1)
    channel_layers.backends.clear()
    _forget_inherited_pools()


# The parent's connection pools, as the child inherited them. Kept referenced so that they are
# never garbage-collected in the child: closing one would end the parent's own sessions.
_inherited_pools: list = []


def _forget_inherited_pools() -> None:
    """A forked child must not hand out the parent's pooled PostgreSQL connections (their sockets
    are shared with the parent, and the pool's worker threads did not survive the fork): it opens
    its own pool on first use."""
    _inherited_pools.extend(PostgresWrapper._connection_pools.values())  # type: ignore[attr-defined]  # Django's own
    PostgresWrapper._connection_pools.clear()  # type: ignore[attr-defined]


os.register_at_fork(after_in_child=_reset_after_fork)


class LiveDaphne:
    """Start, stop and restart a daphne child on a fixed port (a restart keeps the URL)."""

    host = "127.0.0.1"

    def __init__(self, django_db_blocker):
        self._blocker = django_db_blocker
        self._process: DaphneProcess | None = None
        self.port: int | None = None

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://{self.host}:{self.port}"

    def start(self) -> LiveDaphne:
        get_application = partial(make_application, static_wrapper=ASGIStaticFilesHandler)
        # Fork with the database unblocked, or every ORM call in the child is refused (silently:
        # log capture swallows the error).
        with self._blocker.unblock():
            process = DaphneProcess(self.host, get_application, setup=set_database_connection, port=self.port)
            process.start()
        if not process.ready.wait(timeout=20):
            process.terminate()
            raise RuntimeError("daphne did not start")
        self._process = process
        self.port = process.port.value
        return self

    def stop(self) -> None:
        if self._process is not None:
            self._process.terminate()
            self._process.join(timeout=10)
            self._process = None

    def restart(self) -> None:
        self.stop()
        self.start()
