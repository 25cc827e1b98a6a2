"""Fixtures for statistics, achievements, leaderboards and replays: matches played to their end
through the real services (the human seat takes its first legal action; the AI plays when due)."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games import engine
from games.match.starting import create_match, seat_plans_against_ai
from games.models import Match
from tests.support.matches import act, state_of, sweep


@pytest.fixture
def user(make_user):
    # No password: hashing one costs ~0.4 s, and these tests never sign in with it.
    return make_user("Ana", password=None)


@pytest.fixture(autouse=True)
def _no_background_sweeper(settings):
    settings.SWEEPER_ENABLED = False


def finish(match: Match, *, choose=None, limit: int = 2000) -> Match:
    """Play the match to its end: seat 0 takes `choose(legal)` (its first legal action by default)."""
    for _ in range(limit):
        state = state_of(match)
        if engine.is_over(state):
            match.refresh_from_db()
            return match
        if 0 in engine.seats_to_act(state):
            legal = engine.legal_actions(state, 0)
            action = (choose or (lambda actions: actions[0]))(legal)
            act(match.public_id, 0, action.to_dict(), match.version)
        else:
            assert sweep(now=timezone.now() + timedelta(seconds=5)) >= 1
    raise AssertionError("the match did not end")


@pytest.fixture
def start_plain(db):
    def start(user=None, *, guest_token="", seats=2, variant="paulista", level="easy", seed=7, score=None, **rules):
        ruleset = engine.RuleSet.from_dict({"variant": variant, "seats": seats, **rules})
        plans = seat_plans_against_ai(ruleset, level, user=user, guest_token=guest_token)
        return create_match(rules=ruleset, seats=plans, bot_level=level, seed=seed, score=score)

    return start


@pytest.fixture
def play_match(start_plain):
    def play(user=None, *, choose=None, **options):
        return finish(start_plain(user, **options), choose=choose)

    return play


@pytest.fixture
def client(client):
    # These tests read the English texts; test_the_pages_speak_portuguese_too checks the Portuguese ones.
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    return client
