"""How long a match's analysis takes: ``python -m games.engine.analysis_bench [--matches N] [--worlds W]``.

Plays N matches between `hard` bots (seeded) for each table (2 and 4 seats, Paulista and Mineiro), then
analyses seat 0's decisions in each (`analysis.analyse`) and prints p50 / p95 / max of the wall time and of
the CPU time per match, with the decisions per match. A benchmark prints figures; it asserts nothing.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from .analysis import WORLDS, analyse
from .bots import choose_action
from .match import apply, new_match, seats_to_act
from .rules import RuleSet
from .state import Action, MatchState
from .view import seat_view

TABLES = (
    ("2 seats Paulista", RuleSet()),
    ("2 seats Mineiro", RuleSet(variant="mineiro")),
    ("4 seats Paulista", RuleSet(seats=4)),
    ("4 seats Mineiro", RuleSet(variant="mineiro", seats=4)),
)


def played_match(rules: RuleSet, seed: int) -> tuple[MatchState, list[tuple[int, Action]]]:
    """A whole match of `hard` bots: its first state and every (seat, action)."""
    start = state = new_match(rules, seed)
    rng = random.Random(seed)
    moves = []
    while not state.over:
        seat = seats_to_act(state)[0]
        action = choose_action("hard", seat_view(state, seat), rng)
        moves.append((seat, action))
        state, _ = apply(state, seat, action)
    return start, moves


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--matches", type=int, default=10)
    parser.add_argument("--worlds", type=int, default=WORLDS)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    print(f"analysis of seat 0 in {args.matches} matches a table, {args.worlds} worlds a decision")
    print("table              | decisions/match | wall p50 / p95 / max (s) | CPU p50 / p95 (s)")
    for name, rules in TABLES:
        walls, cpus, counts = [], [], []
        for i in range(args.matches):
            start, moves = played_match(rules, args.seed + i)
            wall, cpu = time.perf_counter(), time.thread_time()
            decisions = analyse(start, moves, 0, worlds=args.worlds, seed=i)
            walls.append(time.perf_counter() - wall)
            cpus.append(time.thread_time() - cpu)
            counts.append(len(decisions))
        print(
            f"{name:<18} | {statistics.mean(counts):15.1f} | "
            f"{_percentile(walls, 0.5):6.2f} / {_percentile(walls, 0.95):6.2f} / {max(walls):6.2f}    | "
            f"{_percentile(cpus, 0.5):6.2f} / {_percentile(cpus, 0.95):6.2f}"
        )


if __name__ == "__main__":
    main()
