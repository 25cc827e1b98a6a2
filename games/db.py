"""How the table's async code reaches the database.

Writes (a move, an AI move) go through Channels' one shared database thread: one writer per
process keeps SQLite's single file lock uncontended and, measured on PostgreSQL, beat a pool of
writer threads too (p95 78 vs 350 ms at 100 players: the pool's threads fought over the GIL).
Reads (rendering a viewer's fragments, finding a seat) run in the thread pool, so a render never
waits behind someone else's move. See docs/performance.md.
"""

from channels.db import database_sync_to_async


def write(func):
    return database_sync_to_async(func, thread_sensitive=True)


def read(func):
    return database_sync_to_async(func, thread_sensitive=False)
