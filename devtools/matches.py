"""Finished matches for benches and load tests, played through the move service as people would."""

from __future__ import annotations

import random

from games import engine
from games.match.moves import apply_action
from games.match.starting import SeatPlan, create_match
from games.models import Match


def long_match(seed: int, people: list) -> Match:
    """The four `people`, Paulista, nobody raising: every hand is worth one point (the hands of eleven too),
    so the match lasts (12 hands and more, several hundred events)."""
    match = create_match(
        rules=engine.RuleSet(variant="paulista", seats=4),
        seats=[SeatPlan(user=u, display_name=f"Player {n}") for n, u in enumerate(people)],
        bot_level="medium",
        seed=seed,
    )
    chooser = random.Random(seed)
    while match.status == Match.Status.ACTIVE:
        state = engine.from_json(match.state)
        seat = engine.seats_to_act(state)[0]
        legal = [a for a in engine.legal_actions(state, seat) if a.kind != "raise"]
        action = next((a for a in legal if a.kind == "accept"), None) or chooser.choice(legal)
        match = apply_action(match.public_id, seat, action.to_dict(), match.version)
    return match
