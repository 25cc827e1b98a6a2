"""After a test that commits, empty the tables with DELETE rather than TRUNCATE (PostgreSQL).

Each test that commits (`transactional_db`: the browser tests, a live daphne's, the socket tests) ends
with Django's `flush`, which on PostgreSQL is one `TRUNCATE` of every table. A TRUNCATE gives each of
the ~50 tables new files: 130-160 ms on a quiet machine and 300-700 ms beside a running suite, to throw
away a few dozen rows, after some 200 tests a run. A DELETE of the same rows takes 1-20 ms. Django makes
every foreign key DEFERRABLE INITIALLY DEFERRED on PostgreSQL and `flush` runs its statements in one
transaction, so the order of the tables does not matter; it first takes the lock a TRUNCATE takes, so a
live server's write waits for it as before. The tables end as the TRUNCATE left them:
empty, their sequences where they were (the flush between tests never resets them), and `flush` still
sends `post_migrate` afterwards (content types and permissions come back). Test runs only: the
`flush` command of the site itself is Django's.
"""

from __future__ import annotations

from django.db.backends.postgresql.operations import DatabaseOperations

_truncate = DatabaseOperations.sql_flush


def _delete(self, style, tables, *, reset_sequences=False, allow_cascade=False):
    if reset_sequences or allow_cascade:  # what only TRUNCATE does: left to Django
        return _truncate(self, style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade)
    if not tables:
        return []
    names = [style.SQL_FIELD(self.quote_name(table)) for table in tables]
    # First the lock TRUNCATE takes: a live daphne of the test session may still be writing (an AI's
    # move); it now waits for the flush, as it did for TRUNCATE, instead of inserting an event between
    # two DELETEs whose match is gone at commit.
    lock = f"{style.SQL_KEYWORD('LOCK TABLE')} {', '.join(names)} {style.SQL_KEYWORD('IN ACCESS EXCLUSIVE MODE')};"
    return [lock] + [f"{style.SQL_KEYWORD('DELETE FROM')} {name};" for name in names]


def use_delete() -> None:
    DatabaseOperations.sql_flush = _delete  # type: ignore[method-assign]
