"""The benches' scratch writes: what they create in the configured database is undone when they are done."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from django.db import transaction


class _Rollback(Exception):
    pass


@contextmanager
def rolled_back() -> Iterator[None]:
    """Run the block in a transaction that is rolled back at its end, whatever it wrote (an exception
    raised by the block itself still propagates, after the rollback)."""
    try:
        with transaction.atomic():
            yield
            raise _Rollback
    except _Rollback:
        pass
