"""How the table's async code reaches the database.

Channels runs `database_sync_to_async` calls of a process in one shared thread by default. On
SQLite that is right for writes (one writer at a time anyway). On PostgreSQL every call waits on
the network in turn, so moves queue behind each other; row locks (`select_for_update`) already
keep two moves on one match apart, so there writes may run in the thread pool too.
Reads (rendering a viewer's fragments) always run in the pool.
"""

from channels.db import database_sync_to_async
from django.db import connections


def concurrent_writes() -> bool:
    return connections["default"].vendor != "sqlite"


def write(func):
    return database_sync_to_async(func, thread_sensitive=not concurrent_writes())


def read(func):
    return database_sync_to_async(func, thread_sensitive=False)
