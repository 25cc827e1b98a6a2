"""How the table's async code reaches the database.

Writes (a move, an AI move) go through Channels' one shared database thread: one writer per
process keeps SQLite's single file lock uncontended and, measured on PostgreSQL, beat a pool of
writer threads too (p95 78 vs 350 ms at 100 players: the pool's threads fought over the GIL).
Reads (rendering a viewer's fragments, finding a seat) run in the thread pool, so a render never
waits behind someone else's move. See docs/performance.md.
"""

from channels.consumer import get_handler_name
from channels.db import database_sync_to_async


def write(func):
    return database_sync_to_async(func, thread_sensitive=True)


def read(func):
    return database_sync_to_async(func, thread_sensitive=False)


class DirectDispatch:
    """A consumer mixin: hand each message to its handler without Channels' database-thread hop.

    Channels' `AsyncConsumer.dispatch` first awaits `aclose_old_connections()`, a `sync_to_async`
    call on the one shared thread that also stores every move (`write` above). Every frame a
    socket received and every update pushed to it therefore queued behind other tables' writes,
    and cost a thread hop each (8.5 % of the server in a 50-table profile, docs/performance.md).
    Our consumers reach the database only through `read` and `write`, and Channels'
    `DatabaseSyncToAsync` already closes stale connections around each of those calls, so the
    hop protected nothing here.
    """

    async def dispatch(self, message):
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)
