"""A test run prints nothing about connections it leaked (issue 28 item 9).

Three messages used to end a run on PostgreSQL: "database test_… is being accessed by other users" (a
connection still lent when the test database was dropped), a "--- Logging error ---" traceback (a
lease's finaliser logging while the interpreter exited, after pytest had closed the stream the log
wrote to) and "'NoneType' object has no attribute 'putconn'" (two connections of one thread sharing
one lease slot: one's lease gave back the other's connection while it was still in use).
"""

from __future__ import annotations

import gc
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import connection, connections

ROOT = Path(__file__).resolve().parents[2]
NOISE = ("Logging error", "is being accessed by other users", "object has no attribute 'putconn'")

on_postgresql = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="the pool and its leases exist on PostgreSQL only"
)


@on_postgresql
def test_a_socket_test_run_ends_without_noise():
    """A small pytest session of its own (sockets: connections in Channels' threads), on a test
    database of its own; its whole output is read."""
    env = dict(os.environ, TEST_DB_NAME=f"{connection.settings_dict['NAME']}_quiet")
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "no:cacheprovider",
            "-q",
            # Its last ORM call goes through asgiref's plain sync_to_async: that thread kept the connection.
            "tests/games/test_consumer.py::test_someone_elses_match_is_refused_with_an_error_frame_and_closed",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    output = run.stdout + run.stderr
    assert run.returncode == 0, output
    assert [line for line in output.splitlines() if any(noise in line for noise in NOISE)] == [], output


@on_postgresql
@pytest.mark.django_db(transaction=True)
def test_two_connections_of_one_thread_each_keep_their_own():
    """Django keeps one connection per async context inside a thread with a running event loop (the
    browser tests' Playwright, async tests): two wrappers, one thread. Each must give back only its own."""
    first, second = connections.create_connection("default"), connections.create_connection("default")
    try:
        first.ensure_connection()
        second.ensure_connection()
        gc.collect()
        with first.cursor() as cursor:
            cursor.execute("SELECT 1")  # still first's own connection
            assert cursor.fetchone() == (1,)
    finally:
        first.close()  # raised "'NoneType' object has no attribute 'putconn'"
        second.close()
