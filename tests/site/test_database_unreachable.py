"""A process that cannot reach PostgreSQL answers at once (issue 28 item 5): /healthz 503 within 1 s, pages
the site's 503 page within 3 s, not after the pool's DATABASE_POOL_TIMEOUT_S (10 s).

A real daphne in its own process, pointed at an address where nothing listens (refused at once) or at a
tiny server that accepts and never answers (the nastier case: only a timeout ends the attempt). The
database is never reached, so these run whatever the suite's own database is.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from django.db import connection

from tests.support.ports import free_port

ROOT = Path(__file__).resolve().parents[2]
# Production settings but the plain static storage: the page renders its stylesheet links without
# `collectstatic` having run in the worktree.
START = (
    "import sys, truco_site.settings as s; "
    "s.STORAGES['staticfiles']['BACKEND'] = 'django.contrib.staticfiles.storage.StaticFilesStorage'; "
    "from daphne.cli import CommandLineInterface; "
    "sys.argv = ['daphne', '-b', '127.0.0.1', '-p', sys.argv[1], 'truco_site.asgi:application']; "
    "CommandLineInterface.entrypoint()"
)


class Silent:
    """Accepts TCP connections and never answers, like a database host behind a dropped route."""

    def __init__(self):
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.accepted: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while True:
            try:
                peer, _ = self.listener.accept()
            except OSError:
                return
            self.accepted.append(peer)

    def close(self):
        self.listener.close()
        for peer in self.accepted:
            peer.close()


def _get(url: str, timeout: float = 15.0) -> tuple[int, str, float]:
    started = time.monotonic()
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            status, body = response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        status, body = error.code, error.read().decode()
    return status, body, time.monotonic() - started


@pytest.fixture(params=["refused", "silent"])
def daphne_without_its_database(request):
    silent = Silent() if request.param == "silent" else None
    db_port = silent.port if silent else free_port()  # nothing listens on a free port
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "TEST_DB_NAME", "DATABASE_POOL_SIZE")}
    env.update(
        DJANGO_SETTINGS_MODULE="truco_site.settings",
        DATABASE_URL=f"postgres://nobody@127.0.0.1:{db_port}/truco",
        DEBUG="0",
        SECRET_KEY="a-secret-key-for-this-test-only-0123456789-abcdefghijklmnop",
        ALLOWED_HOSTS="127.0.0.1",
        SECURE_SSL_REDIRECT="0",
        LOG_LEVEL="CRITICAL",
    )
    process = subprocess.Popen(
        [sys.executable, "-c", START, str(port)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:  # started once it answers anything at all (/favicon.ico needs no database)
            try:
                _get(base + "/favicon.ico", timeout=2)
                break
            except OSError:
                if time.monotonic() > deadline or process.poll() is not None:
                    raise RuntimeError("daphne did not start") from None
                time.sleep(0.1)
        yield base
    finally:
        process.terminate()
        process.wait(timeout=10)
        if silent:
            silent.close()


def test_health_and_pages_answer_at_once_when_the_database_cannot_be_reached(daphne_without_its_database):
    base = daphne_without_its_database
    timings = {"healthz": [], "pages": []}
    for _round in range(2):
        status, body, took = _get(base + "/healthz")
        assert status == 503 and '"database": "unavailable"' in body
        timings["healthz"].append(took)
        for path in ("/", "/rooms/", "/shop/"):
            status, body, took = _get(base + path)
            assert status == 503, body[:300]
            assert 'data-error="503"' in body
            assert "try again in a few seconds" in body or "tente de novo em alguns segundos" in body
            timings["pages"].append(took)
    assert max(timings["healthz"]) < 1.0, timings
    assert max(timings["pages"]) < 3.0, timings


@pytest.mark.skipif(connection.vendor != "postgresql", reason="the suite's own PostgreSQL, for a pool that works")
@pytest.mark.django_db(transaction=True)
def test_a_busy_pool_still_waits_for_a_connection_to_come_back():
    """All connections lent, none free: a request waits (up to the pool's timeout) and gets the first one
    given back, even past the connect timeout (2 s) that ends the wait for an unreachable database."""
    connection.ensure_connection()
    pool = connection.pool
    held = []
    try:
        while len(held) < pool.max_size:
            stats = pool.get_stats()
            if stats["pool_size"] >= pool.max_size and not stats["pool_available"]:
                break  # every connection the pool may open is lent
            held.append(pool.getconn(timeout=5))
        threading.Timer(2.5, lambda: pool.putconn(held.pop())).start()
        started = time.monotonic()
        extra = pool.getconn(timeout=8)
        waited = time.monotonic() - started
        pool.putconn(extra)
        assert 2.3 < waited < 8, waited
    finally:
        time.sleep(0.1)
        for conn in held:
            pool.putconn(conn)
