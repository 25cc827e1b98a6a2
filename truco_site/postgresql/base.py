"""Django's PostgreSQL backend with psycopg's pool, plus one safety net for the pool's bound.

A pooled connection goes back to the pool when Django closes it (end of a request, after each
database call of a socket). A thread that ends while still holding one would keep its slot taken
for good: psycopg's pool never learns that the connection is gone, and after DATABASE_POOL_SIZE
such slots every request of the process waits and fails. So each checkout leaves a lease in the
thread's local storage; a thread's locals are dropped the moment it ends, and a lease still
holding its connection then gives it back (and says so in the log).
"""

from __future__ import annotations

import logging
import sys
import threading
import weakref

from django.db.backends.postgresql import base

log = logging.getLogger(__name__)
_leases = threading.local()


class _Lease:
    __slots__ = ("pool", "connection", "__weakref__")

    def __init__(self, pool, connection):
        self.pool, self.connection = pool, connection

    def __del__(self):
        connection, self.connection = self.connection, None
        if connection is None or sys.is_finalizing():
            # At interpreter exit the pool and the log's streams are going away: there is nothing
            # to give back to, and logging then prints "--- Logging error ---" after the test run.
            return
        try:
            log.warning("a thread ended holding a pooled database connection; it goes back to the pool")
            self.pool.putconn(connection)
        except Exception:  # pragma: no cover - interpreter shutdown, a closed pool
            pass


class DatabaseWrapper(base.DatabaseWrapper):
    _lease: weakref.ref | None = None

    def get_new_connection(self, conn_params):
        connection = super().get_new_connection(conn_params)
        pool = self.pool
        if pool is not None:
            lease = _Lease(pool, connection)
            if not hasattr(_leases, "by_alias"):
                _leases.by_alias = {}
            _leases.by_alias[self.alias] = lease  # the thread's strong reference: dropped when it ends
            self._lease = weakref.ref(lease)
        return connection

    def _close(self):
        lease = self._lease() if self._lease is not None else None
        if lease is not None:
            lease.connection = None  # given back below, by Django
        self._lease = None
        return super()._close()
