"""Fixtures for the developer tools' tests: the clock is the test's (as in tests/games)."""

import pytest


@pytest.fixture(autouse=True)
def _no_background_sweeper(settings):
    settings.SWEEPER_ENABLED = False
    settings.GAMES_TIMERS_ENABLED = False
