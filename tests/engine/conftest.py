"""Fixtures for the engine tests; nothing here needs Django (the engine imports none)."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _fresh_cache():
    # tests/conftest.py clears Django's cache before every test; the engine has no cache and
    # these tests must also run with ``-p no:django``, so this directory overrides it with a no-op.
    yield
