"""Tests against a real daphne child process with its own sweeper (the clock and AI seats run for real)."""

import pytest


@pytest.fixture
def fast_ai(settings):
    # Set before the server forks: the child copies these settings. AI seats still go through the
    # database deadline and the sweeper, only sooner.
    settings.SWEEPER_ENABLED = True
    settings.GAMES_AI_DELAY_S = (0.05, 0.1)
    settings.SWEEPER_INTERVAL_S = 0.05
