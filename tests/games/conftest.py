"""Fixtures for the live table: matches against the AI for a user or a guest, and helpers to drive them."""

import pytest

from games import engine
from games.matchmaking import seat_plans_against_ai
from games.models import Match
from games.tables import create_match


@pytest.fixture(autouse=True)
def _no_background_sweeper(settings):
    # Tests drive the clock themselves (tables.sweep) so that every step is deterministic.
    settings.SWEEPER_ENABLED = False


@pytest.fixture
def start_match(db):
    def start(
        user=None, *, guest_token="", seats=2, partnership=None, variant="paulista", level="medium", seed=7, **rules
    ) -> Match:
        ruleset = engine.RuleSet.from_dict({"variant": variant, "seats": seats, "partnership": partnership, **rules})
        plans = seat_plans_against_ai(ruleset, level, user=user, guest_token=guest_token)
        return create_match(rules=ruleset, seats=plans, bot_level=level, seed=seed)

    return start


def state_of(match: Match):
    match.refresh_from_db()
    return engine.from_json(match.state)


def human_turn_action(match: Match, seat: int = 0) -> dict | None:
    """The first legal action of the human seat, if it is its turn."""
    state = state_of(match)
    legal = engine.legal_actions(state, seat)
    return legal[0].to_dict() if legal else None
