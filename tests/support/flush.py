"""After a test that commits, empty the tables with DELETE rather than TRUNCATE (PostgreSQL).

Each test that commits (`transactional_db`: the browser tests, a live daphne's, the socket tests) ends
with Django's `flush`, which on PostgreSQL is one `TRUNCATE` of every table. A TRUNCATE gives each of
the ~50 tables new files: 130-160 ms on a quiet machine and 300-700 ms beside a running suite, to throw
away a few dozen rows, after some 200 tests a run. A DELETE of the same rows takes 1-20 ms. Django makes
every foreign key DEFERRABLE INITIALLY DEFERRED on PostgreSQL and `flush` runs its statements in one
transaction, so the order of the tables does not matter. The tables end as the TRUNCATE left them:
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
    return [f"{style.SQL_KEYWORD('DELETE FROM')} {style.SQL_FIELD(self.quote_name(table))};" for table in tables]


def use_delete() -> None:
    DatabaseOperations.sql_flush = _delete  # type: ignore[method-assign]
