"""Engine and bot speed on one core: ``python -m games.engine.bench [--seconds S]``.

Prints random full matches per second and engine actions per second (legal-action listing +
apply) for 2 and 4 seats in both variants, then each bot's decision-time percentiles (p50, p95,
p99): the whole decision (``seat_view`` + ``choose_action``, what the web layer pays), the bot
alone, and the bot alone in CPU time of its thread (what it costs one core, whatever else the
machine is running).  The default run takes about 45 s; ``--seconds`` sets the time per
measurement, ``--levels expert`` measures only the levels named, ``--no-engine`` skips the playouts.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Sequence

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


def decision_times(level: str, seconds: float, seed: int = 0) -> tuple[list[float], list[float], list[float]]:
    """Per-decision times in seconds (view + bot, bot alone, bot alone in thread CPU time), over
    a mix of rule sets.  Every seat is played by ``level`` itself, so the positions are the ones
    that bot meets."""
    rules_mix = [RuleSet(variant=v, seats=n) for v in VARIANTS for _, n in SEAT_COUNTS]
    whole: list[float] = []
    bot_only: list[float] = []
    bot_cpu: list[float] = []
    rng = random.Random(seed)
    clock, cpu = time.perf_counter, time.thread_time
    start = clock()
    match = 0
    while clock() - start < seconds:
        state = new_match(rules_mix[match % len(rules_mix)], seed + match)
        match += 1
        while not state.over and clock() - start < seconds:
            seat = seats_to_act(state)[0]
            t0 = clock()
            view = seat_view(state, seat)
            t1, c1 = clock(), cpu()
            action = choose_action(level, view, rng)
            t2, c2 = clock(), cpu()
            whole.append(t2 - t0)
            bot_only.append(t2 - t1)
            bot_cpu.append(c2 - c1)
            state, _ = apply(state, seat, action)
    return whole, bot_only, bot_cpu


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def _percentiles(values: list[float]) -> str:
    return " / ".join(f"{1e3 * percentile(values, q):.3f}" for q in (0.5, 0.95, 0.99))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m games.engine.bench", description=__doc__.splitlines()[0])
    parser.add_argument(
        "--seconds", type=float, default=3.0, help="time per measurement (default 3: about 45 s in all)"
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--levels", nargs="+", choices=BOT_LEVELS, default=list(BOT_LEVELS), help="bot levels to time (default all)"
    )
    parser.add_argument(
        "--engine", action=argparse.BooleanOptionalAction, default=True, help="measure random playouts too (default on)"
    )
    args = parser.parse_args(argv)
    if args.seconds <= 0:
        parser.error("--seconds must be positive")

    if args.engine:
        print(f"engine, random playouts, one core ({args.seconds:g} s each):")
        for label, seats in SEAT_COUNTS:
            for variant in VARIANTS:
                per_match, per_action = engine_speed(RuleSet(variant=variant, seats=seats), args.seconds, args.seed)
                print(f"  {label} {variant:<8} {per_match:8,.0f} matches/s {per_action:10,.0f} actions/s")
    print(f"bot decisions in ms, all seats one level, mixed rule sets ({args.seconds:g} s each): p50 / p95 / p99")
    for level in args.levels:
        whole, bot_only, bot_cpu = decision_times(level, args.seconds, args.seed)
        print(
            f"  {level:<7} view+bot {_percentiles(whole)} | bot alone {_percentiles(bot_only)}"
            f" | bot CPU {_percentiles(bot_cpu)} ({len(whole)} decisions)"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
