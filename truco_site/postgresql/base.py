"""Django's PostgreSQL backend with psycopg's pool, plus two things the pool does not do by itself.

1. A database that cannot be reached fails fast (issue 28 item 5). psycopg's pool keeps every
   request waiting up to its `timeout` (DATABASE_POOL_TIMEOUT_S) for a connection, also when every
   attempt to make one fails: a process that could not reach PostgreSQL answered nothing for 10 s,
   health checks included. `FailFastPool` notes each failed attempt; when no connection is lent
   (none can come back), the attempt's failure fails every request waiting, and a request arriving
   then waits at most one connection attempt (`connect_timeout`). With connections lent the pool
   waits as before: under load they come back.

2. A connection lent to a thread that ends goes back. A pooled connection goes back to the pool when
   Django closes it (end of a request, after each database call of a socket). A thread that ends
   while still holding one would keep its slot taken for good: psycopg's pool never learns that the
   connection is gone, and after DATABASE_POOL_SIZE such slots every request of the process waits
   and fails. So each checkout leaves a lease in the thread's local storage, one per Django
   connection object (a thread running an event loop has one per async context); a thread's locals
   are dropped the moment it ends, and a lease still holding its connection then gives it back (and
   says so in the log).
"""

from __future__ import annotations

import logging
import sys
import threading
import weakref

from django.core.exceptions import ImproperlyConfigured
from django.db.backends.base.base import NO_DB_ALIAS
from django.db.backends.postgresql import base
from psycopg_pool import ConnectionPool, PoolTimeout

from .errors import DatabaseUnreachable

log = logging.getLogger(__name__)
_leases = threading.local()


class FailFastPool(ConnectionPool):
    """psycopg's pool, told apart a database that cannot be reached from one that is busy.

    `unreachable` is the last failed attempt's error until an attempt succeeds. Relies on two of the
    pool's internals (`_connect`, the waiting queue under `_lock`), pinned with psycopg 3.3 and
    covered by tests/site/test_database_unreachable.py.
    """

    def __init__(self, *args, fail_fast_s: float, **kwargs):
        self.unreachable: BaseException | None = None
        self._lent = 0
        self._fail_fast_s = fail_fast_s
        super().__init__(*args, **kwargs)

    def getconn(self, timeout: float | None = None):
        timeout = self.timeout if timeout is None else timeout
        with self._lock:
            hopeless = self.unreachable is not None and not self._lent and not self._pool
        if hopeless:
            # The last attempt to connect failed, and no connection is out to come back: only a new
            # one can serve this request, and an attempt takes at most the connect timeout.
            timeout = min(timeout, self._fail_fast_s)
        try:
            connection = super().getconn(timeout)
        except PoolTimeout as error:
            if self.unreachable is not None:
                raise DatabaseUnreachable(f"the database cannot be reached: {self.unreachable}") from error
            raise
        with self._lock:
            self._lent += 1
        return connection

    def putconn(self, conn) -> None:
        with self._lock:
            self._lent = max(0, self._lent - 1)
        super().putconn(conn)

    def _connect(self, timeout: float | None = None):
        try:
            connection = super()._connect(timeout)
        except Exception as error:
            self._cannot_connect(error)
            raise
        self.unreachable = None
        return connection

    def _cannot_connect(self, error: BaseException) -> None:
        with self._lock:
            self.unreachable = error
            if self._lent:
                return  # connections are out: the requests waiting get them when they come back
            waiting = list(self._waiting)
            self._waiting.clear()
        failure = DatabaseUnreachable(f"the database cannot be reached: {error}")
        for client in waiting:
            client.fail(failure)


class _Lease:
    __slots__ = ("pool", "connection", "__weakref__")

    def __init__(self, pool, connection):
        self.pool, self.connection = pool, connection

    def __del__(self):
        connection, self.connection = self.connection, None
        if connection is None or _exiting():
            # At interpreter exit the pool goes away with the process and closes nothing worth
            # returning; the log's streams may be closed already (pytest's are: the suite ended with a
            # "--- Logging error ---" traceback from here).
            return
        try:
            log.warning("a thread ended holding a pooled database connection; it goes back to the pool")
            self.pool.putconn(connection)
        except Exception:  # pragma: no cover - a closed pool
            pass


def _exiting() -> bool:
    # At exit, threading's shutdown first lets the executors stop their threads (which drops their
    # leases), then stops the main thread; sys.is_finalizing() turns true only after all that.
    # `_SHUTTING_DOWN` is set before the executors stop (CPython 3.11 to 3.13; absent, the other
    # two checks still hold).
    return sys.is_finalizing() or getattr(threading, "_SHUTTING_DOWN", False) or not threading.main_thread().is_alive()


class DatabaseWrapper(base.DatabaseWrapper):
    _lease: weakref.ref | None = None

    @property
    def pool(self):
        """Django's pool property (django/db/backends/postgresql/base.py, 5.2), building a FailFastPool."""
        pool_options = self.settings_dict["OPTIONS"].get("pool")
        if self.alias == NO_DB_ALIAS or not pool_options:
            return None
        if self.alias not in self._connection_pools:
            if self.settings_dict.get("CONN_MAX_AGE", 0) != 0:
                raise ImproperlyConfigured("Pooling doesn't support persistent connections.")
            pool_options = {} if pool_options is True else pool_options
            connect_kwargs = self.get_connection_params()
            connect_kwargs["autocommit"] = True  # Django sets it properly later on
            pool = FailFastPool(
                kwargs=connect_kwargs,
                open=False,  # opened on the first connection, not at startup
                configure=self._configure_connection,
                check=ConnectionPool.check_connection if self.settings_dict["CONN_HEALTH_CHECKS"] else None,
                # A request waits at most one connection attempt (and a little) for a database that
                # cannot be reached; without a connect timeout, as long as for a busy one.
                fail_fast_s=(
                    max(2.0, float(connect_kwargs["connect_timeout"])) + 0.5
                    if connect_kwargs.get("connect_timeout")
                    else float(pool_options.get("timeout", 30.0))
                ),
                **pool_options,
            )
            self._connection_pools.setdefault(self.alias, pool)
        return self._connection_pools[self.alias]

    def get_new_connection(self, conn_params):
        connection = super().get_new_connection(conn_params)
        pool = self.pool
        if pool is not None:
            lease = _Lease(pool, connection)
            if not hasattr(_leases, "held"):
                _leases.held = {}
            # Keyed by this connection object, not by alias: in a thread running an event loop Django
            # keeps one per async context, and a lease slot per alias let one connection's lease give
            # back another's while it was in use ("'NoneType' object has no attribute 'putconn'").
            _leases.held[id(self)] = lease  # the thread's strong reference: dropped when it ends
            self._lease = weakref.ref(lease)
        return connection

    def _close(self):
        lease = self._lease() if self._lease is not None else None
        if lease is not None:
            lease.connection = None  # given back below, by Django
            held = getattr(_leases, "held", {})
            if held.get(id(self)) is lease:
                del held[id(self)]
        self._lease = None
        return super()._close()
