"""The match row, locked for the transaction that changes it: the first read of every move.

`Match.objects.select_for_update().filter(public_id=...).first()` is what every move, signal and
departure reads first. Django compiles that query to SQL again on every call, and for a model of 35
fields the compiling was half of the read (measured: 657 µs the ORM's way, 316 µs from SQL compiled
once, docs/performance.md "Issue 31"). Here the ORM compiles it once per database vendor and the
process keeps the SQL; the row still comes back as a `Match` through the ORM's own converters
(`Manager.raw`), so nothing downstream can tell the difference.
"""

from __future__ import annotations

from django.db import connections, router

from games.models import Match

# SQL by database vendor: the same text the ORM writes for the queryset below, with one parameter.
_sql_by_vendor: dict[str, str] = {}


def locked_match(public_id: str) -> Match | None:
    """The match with this public id, its row locked until the transaction ends (None: no such match).

    Call inside `transaction.atomic()`, as `select_for_update` demands (on SQLite the whole database is
    locked by the transaction's first write instead, and the lock clause is left out, as the ORM does).
    """
    connection = connections[router.db_for_write(Match)]
    if not connection.in_atomic_block:
        raise RuntimeError("locked_match needs a transaction: the lock would end with the statement")
    sql = _sql_by_vendor.get(connection.vendor)
    if sql is None:
        # The ORM's own query for the lock, compiled once; only the public id changes between calls.
        query = Match.objects.select_for_update().filter(public_id="").order_by().query
        sql, _params = query.get_compiler(connection=connection).as_sql()
        _sql_by_vendor[connection.vendor] = sql
    # public_id is unique: at most one row, so the ORM's ordering and limit change nothing.
    return next(iter(Match.objects.using(connection.alias).raw(sql, [str(public_id)])), None)
