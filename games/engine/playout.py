"""Fast random playouts and a quick actions-per-second measurement.

``python -m games.engine.playout [SECONDS]`` prints how many engine actions (legal_actions
listing + apply) per second one core does in random playouts over a mix of RuleSets.
"""

from __future__ import annotations

import random
import sys
import time

from .match import apply, legal_actions, new_match, seats_to_act
from .rules import RuleSet
from .state import MatchState

RULESETS = (
    RuleSet(),
    RuleSet(variant="mineiro"),
    RuleSet(seats=4),
    RuleSet(seats=4, partnership=False),
    RuleSet(deck="clean", all_tied="nobody"),
    RuleSet(variant="mineiro", deck="clean", seats=4),
)


def random_playout(
    rules: RuleSet, seed: int | str, chooser: random.Random | None = None, max_actions: int = 100_000
) -> tuple[MatchState, int]:
    """Play one match with uniformly random legal actions; returns (final state, action count).

    This is the recommended loop for bots and benchmarks: list the actions of the first seat
    that may act, pick one, apply it.
    """
    chooser = chooser or random.Random(seed)
    state = new_match(rules, seed)
    count = 0
    while not state.over:
        seat = seats_to_act(state)[0]
        actions = legal_actions(state, seat)
        state, _ = apply(state, seat, chooser.choice(actions))
        count += 1
        if count >= max_actions:
            raise RuntimeError("playout did not end")
    return state, count


def measure(seconds: float = 3.0) -> float:
    """Engine actions per second in random playouts on this core."""
    chooser = random.Random(1)
    total = 0
    seed = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for rules in RULESETS:
            _, count = random_playout(rules, seed, chooser)
            total += count
            seed += 1
    return total / (time.perf_counter() - start)


if __name__ == "__main__":
    secs = float(sys.argv[1]) if len(sys.argv) > 1 else 3.0
    print(f"{measure(secs):,.0f} actions/second")
