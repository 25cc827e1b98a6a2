"""Fixtures for the live table: matches against the AI for a user or a guest (helpers in tests/support/matches.py)."""

import pytest

from games import engine
from games.match.starting import SeatPlan, create_match


@pytest.fixture(autouse=True)
def _no_background_sweeper(settings):
    # Tests drive the clock themselves (tests.support.matches.sweep) so that every step is deterministic.
    settings.SWEEPER_ENABLED = False
    settings.GAMES_TIMERS_ENABLED = False


@pytest.fixture
def duel(make_user):
    """Two humans head to head (no AI): every move is a test's own choice."""
    ana, bia = make_user("Ana"), make_user("Bia")
    match = create_match(
        rules=engine.RuleSet(variant="paulista", seats=2),
        seats=[SeatPlan(user=ana, display_name="Ana"), SeatPlan(user=bia, display_name="Bia")],
        bot_level="medium",
        seed=21,
    )
    return match, ana, bia
