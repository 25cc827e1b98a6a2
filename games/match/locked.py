"""The match row a move locks, reads and writes back: the first read and the last write of every move.

`Match.objects.select_for_update().filter(public_id=...).first()` is what every move, signal and
departure reads first, and `match.save(update_fields=...)` what a move writes. Django compiles both to
SQL again on every call, and for a model of 35 fields the compiling was about half of each (measured:
the read 657 µs the ORM's way, 316 µs from SQL compiled once; docs/performance.md, "Issue 31"). Here
the SQL is made once per database vendor (and field list) and kept by the process:

- `locked_match`: the ORM's own query, compiled once; the row still comes back as a `Match` through
  the ORM's converters (`Manager.raw`), so nothing downstream can tell the difference.
- `save_match`: `UPDATE <table> SET <column> = %s, ... WHERE <pk> = %s`, each value stamped and prepared
  by its own field as `Model.save` does (`pre_save`: `auto_now`; `get_db_prep_save`: JSON, datetimes).
  `Match` has no save signal receivers and overrides no `save`, which is what makes this the same.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from django.db import DatabaseError, connections, router
from django.db.models import Field

from games.models import Match

# SQL by database vendor: the same text the ORM writes for the queryset below, with one parameter.
_sql_by_vendor: dict[str, str] = {}
# UPDATE statements by (database vendor, the fields it writes): the SQL and the fields, in order.
_updates: dict[tuple[str, tuple[str, ...]], tuple[str, tuple[Field, ...]]] = {}


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


def save_match(match: Match, fields: Sequence[str]) -> None:
    """`match.save(update_fields=fields)` from SQL made once: the same values written, and the same
    DatabaseError as `save` when the row is gone."""
    connection = connections[router.db_for_write(Match)]
    key = (connection.vendor, tuple(fields))
    compiled = _updates.get(key)
    if compiled is None:
        model_fields = tuple(cast(Field, Match._meta.get_field(name)) for name in fields)
        if any(hasattr(field, "get_placeholder") for field in model_fields):
            # A field that needs its own SQL around the value: the plain `%s` below would be wrong.
            raise NotImplementedError(f"save_match cannot write {fields}")
        quote = connection.ops.quote_name
        columns = ", ".join(f"{quote(field.column)} = %s" for field in model_fields)
        sql = f"UPDATE {quote(Match._meta.db_table)} SET {columns} WHERE {quote(Match._meta.pk.column)} = %s"
        compiled = _updates[key] = (sql, model_fields)
    sql, model_fields = compiled
    params = [field.get_db_prep_save(field.pre_save(match, False), connection) for field in model_fields]
    with connection.cursor() as cursor:
        cursor.execute(sql, [*params, match.pk])
        if cursor.rowcount != 1:
            raise DatabaseError("Save with update_fields did not affect any rows.")
