"""One daphne process holds at most DATABASE_POOL_SIZE PostgreSQL connections, whatever the concurrency.

Without the pool every request thread kept its own connection open after the request: 100 parallel
requests left one process holding ~100 connections, and at PostgreSQL's limit every page answered 500.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

from accounts.models import User
from tests.support.ports import free_port

ROOT = Path(__file__).resolve().parents[2]
PARALLEL = 100


def _get(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=60) as response:
            response.read()
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


@pytest.fixture
def daphne_on_the_test_database(transactional_db, stocked_shop):
    """A real daphne in its own process (not forked: a fresh interpreter, as in production), tagged
    with an application_name so its connections can be told apart in pg_stat_activity."""
    db = connection.settings_dict
    tag = f"bound-test-{os.getpid()}"
    port = free_port()
    env = dict(
        os.environ,
        DJANGO_SETTINGS_MODULE="truco_site.settings",
        DATABASE_URL=f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
        PGAPPNAME=tag,  # libpq reads it: every connection of that process carries the tag
        DEBUG="1",
        LOG_LEVEL="WARNING",
    )
    process = subprocess.Popen(
        [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "truco_site.asgi:application"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                if _get(base + "/privacy/") == 200:
                    break
            except OSError:
                if time.monotonic() > deadline or process.poll() is not None:
                    raise RuntimeError("daphne did not start") from None
                time.sleep(0.1)
        yield base, tag
    finally:
        process.terminate()
        process.wait(timeout=10)


def _connections_tagged(tag: str) -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE application_name = %s", [tag])
        return cursor.fetchone()[0]


on_postgresql = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="PostgreSQL's connection pool; CI runs it on PostgreSQL"
)


@on_postgresql
def test_a_hundred_parallel_requests_keep_one_process_at_its_connection_bound(daphne_on_the_test_database):
    base, tag = daphne_on_the_test_database
    bound = settings.DATABASE_POOL_SIZE
    peak = 0
    done = threading.Event()

    def watch():
        nonlocal peak
        try:
            while not done.is_set():
                peak = max(peak, _connections_tagged(tag))
                time.sleep(0.01)
        finally:
            connection.close()  # this thread's own connection, back to the pool

    watcher = threading.Thread(target=watch)
    watcher.start()
    try:
        with ThreadPoolExecutor(PARALLEL) as pool:
            statuses = list(pool.map(_get, [base + "/shop/"] * PARALLEL))
    finally:
        done.set()
        watcher.join()
    after = _connections_tagged(tag)

    assert statuses == [200] * PARALLEL
    assert 1 <= peak <= bound, f"peak {peak} connections, bound {bound}"
    assert after <= bound


@on_postgresql
@pytest.mark.django_db(transaction=True)
def test_threads_that_end_holding_a_pooled_connection_give_it_back(monkeypatch):
    connection.ensure_connection()
    monkeypatch.setattr(connection.pool, "timeout", 2.0)  # fail fast if no slot comes back

    def query_and_forget():
        User.objects.exists()  # and never close: the thread just ends

    # More such threads than the pool has slots: were each slot kept, the last query would wait for a
    # free one and fail after DATABASE_POOL_TIMEOUT_S.
    for _ in range(settings.DATABASE_POOL_SIZE + 2):
        thread = threading.Thread(target=query_and_forget)
        thread.start()
        thread.join()
    answered = []
    last = threading.Thread(target=lambda: answered.append(User.objects.exists()) or connection.close())
    last.start()
    last.join()
    assert answered == [False]
