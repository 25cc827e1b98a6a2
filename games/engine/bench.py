"""Engine and bot speed on one core: ``python -m games.engine.bench [--seconds S]``.

Prints random full matches per second and engine actions per second (legal-action listing +
apply) for 2 and 4 seats in both variants, then each bot's median and p99 decision time: the
whole decision (``seat_view`` + ``choose_action``, what the web layer pays) and the bot alone.
The default run takes about 40 s; ``--seconds`` sets the time per measurement.
"""

from __future__ import annotations

import argparse
import random
import time

from .bots import BOT_LEVELS, choose_action
from .match import apply, legal_actions, new_match, seats_to_act
from .rules import RuleSet
from .view import seat_view

SEAT_COUNTS = (("2 seats", 2), ("4 seats", 4))
VARIANTS = ("paulista", "mineiro")


def engine_speed(rules: RuleSet, seconds: float, seed: int = 0) -> tuple[float, float]:
    """(matches per second, actions per second) of random playouts with ``rules``."""
    chooser = random.Random(seed)
    matches = actions = 0
    start = time.perf_counter()
    while True:
        state = new_match(rules, seed + matches)
        while not state.over:
            seat = seats_to_act(state)[0]
            state, _ = apply(state, seat, chooser.choice(legal_actions(state, seat)))
            actions += 1
        matches += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return matches / elapsed, actions / elapsed


def decision_times(level: str, seconds: float, seed: int = 0) -> tuple[list[float], list[float]]:
    """Per-decision times (view + bot, bot alone) in seconds, over a mix of rule sets.

    Every seat is played by ``level`` itself, so the positions are the ones that bot meets.
    """
    rules_mix = [RuleSet(variant=v, seats=n) for v in VARIANTS for _, n in SEAT_COUNTS]
    whole, bot_only = [], []
    rng = random.Random(seed)
    clock = time.perf_counter
    start = clock()
    match = 0
    while clock() - start < seconds:
        state = new_match(rules_mix[match % len(rules_mix)], seed + match)
        match += 1
        while not state.over:
            seat = seats_to_act(state)[0]
            t0 = clock()
            view = seat_view(state, seat)
            t1 = clock()
            action = choose_action(level, view, rng)
            t2 = clock()
            whole.append(t2 - t0)
            bot_only.append(t2 - t1)
            state, _ = apply(state, seat, action)
    return whole, bot_only


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m games.engine.bench", description=__doc__.splitlines()[0])
    parser.add_argument(
        "--seconds", type=float, default=3.0, help="time per measurement (default 3: about 40 s in all)"
    )
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    if args.seconds <= 0:
        parser.error("--seconds must be positive")

    print(f"engine, random playouts, one core ({args.seconds:g} s each):")
    for label, seats in SEAT_COUNTS:
        for variant in VARIANTS:
            per_match, per_action = engine_speed(RuleSet(variant=variant, seats=seats), args.seconds, args.seed)
            print(f"  {label} {variant:<8} {per_match:8,.0f} matches/s {per_action:10,.0f} actions/s")
    print(f"bot decisions, all seats one level, mixed rule sets ({args.seconds:g} s each):")
    for level in BOT_LEVELS:
        whole, bot_only = decision_times(level, args.seconds, args.seed)
        print(
            f"  {level:<7} view+bot median {1e3 * percentile(whole, 0.5):.3f} ms"
            f" p99 {1e3 * percentile(whole, 0.99):.3f} ms"
            f" | bot alone median {1e3 * percentile(bot_only, 0.5):.3f} ms"
            f" p99 {1e3 * percentile(bot_only, 0.99):.3f} ms"
            f" ({len(whole)} decisions)"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
