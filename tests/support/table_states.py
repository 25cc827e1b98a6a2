"""Matches driven to a given table state through the real service, for tests and screenshots.

The viewer is seat 0. Two-person matches need no AI (nothing moves unless the test moves it); the
four-seat hand of eleven has AI seats that wait for the person's decision.
"""

from __future__ import annotations

from games import engine
from games.match.moves import apply_action
from games.match.starting import SeatPlan, create_match, seat_plans_against_ai
from games.models import Match

STATES = ("turn", "raise", "eleven", "eleven-4", "result")


def _state(match: Match):
    match.refresh_from_db()
    return engine.from_json(match.state)


def _play_first_card(match: Match, seat: int) -> Match:
    card = engine.seat_view(_state(match), seat)["hand"][0]
    return apply_action(match.public_id, seat, {"do": "play", "card": card}, match.version)


def _duel(viewer, rival, *, variant: str, score=None, seed: int = 3) -> Match:
    rules = engine.RuleSet(variant=variant, seats=2)
    seats = [SeatPlan(user=u, display_name=u.username) for u in (viewer, rival)]
    return create_match(rules=rules, seats=seats, bot_level="medium", seed=seed, score=score)


def table_in_state(state: str, viewer, rival, *, variant: str = "paulista") -> Match:
    """A match at `state`: "turn" (seat 0 to play), "raise" (seat 1 raised, seat 0 answers), "eleven"
    (seat 0 decides a hand of eleven/ten), "eleven-4" (the same with a partner's cards shown), "result"."""
    eleven = [11, 5] if variant == "paulista" else [10, 4]
    if state == "turn":
        match = _duel(viewer, rival, variant=variant)
        if engine.seats_to_act(_state(match)) != [0]:
            match = _play_first_card(match, 1)
        return match
    if state == "raise":
        match = _duel(viewer, rival, variant=variant)
        if engine.seats_to_act(_state(match)) == [0]:
            match = _play_first_card(match, 0)
        return apply_action(match.public_id, 1, {"do": "raise"}, match.version)
    if state == "eleven":
        return _duel(viewer, rival, variant=variant, score=eleven)
    if state == "eleven-4":
        rules = engine.RuleSet(variant=variant, seats=4, partnership=True)
        plans = seat_plans_against_ai(rules, "medium", user=viewer)
        return create_match(rules=rules, seats=plans, bot_level="medium", seed=3, score=eleven)
    if state == "result":
        # An iron hand (both at eleven/ten): whoever wins it wins the match.
        iron = [eleven[0], eleven[0]]
        match = _duel(viewer, rival, variant=variant, score=iron)
        while match.status == Match.Status.ACTIVE:
            match = _play_first_card(match, engine.seats_to_act(_state(match))[0])
        return match
    raise ValueError(f"unknown table state {state!r}")
