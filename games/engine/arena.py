"""Bot against bot: ``python -m games.engine.arena --a medium --b random --matches 2000``.

In 4-seat games bot A holds every seat of one side and bot B the other (without partnership:
even seats against odd seats).  Matches alternate which bot sits at side 0 and the engine's
seeded first dealer varies, so neither bot keeps a seat advantage.  Prints the matches each bot
won with a 95% Wilson interval, how often each side called truco (the first raise of a hand) per
match, and the run time.
"""

from __future__ import annotations

import argparse
import math
import random
import time

from .bots import BOT_LEVELS, choose_action
from .match import apply, new_match, seats_to_act
from .rules import RuleSet
from .view import seat_view


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval for a win share (sound near 0% and 100%, unlike p ± 2se)."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def play_match(rules: RuleSet, levels: tuple[str, str], seed: int, a_at_even: bool) -> tuple[int, list[int]]:
    """Play one match: (0 if the bot of ``levels[0]`` (bot A) wins, 1 if bot B does; [trucos called
    by A's side, by B's side])."""
    state = new_match(rules, seed)
    trucos = [0, 0]
    rng = random.Random(seed)
    team = state.facts.side_of  # side per seat; bots sit by side parity (seat parity w/o partnership)
    while not state.over:
        seat = seats_to_act(state)[0]
        a_here = (team[seat] % 2 == 0) == a_at_even
        view = seat_view(state, seat)
        action = choose_action(levels[0] if a_here else levels[1], view, rng)
        if action.kind == "raise" and view["stake"] == state.facts.base:
            trucos[0 if a_here else 1] += 1
        state, _ = apply(state, seat, action)
    winner_even = state.winner % 2 == 0
    return (0 if winner_even == a_at_even else 1), trucos


def run_arena(rules: RuleSet, a: str, b: str, matches: int, seed: int) -> dict:
    wins, trucos = [0, 0], [0, 0]
    start = time.perf_counter()
    for i in range(matches):
        # Odd matches swap the sides; the seed (and so the first dealer) changes every match.
        winner, called = play_match(rules, (a, b), seed * 1_000_003 + i, a_at_even=i % 2 == 0)
        wins[winner] += 1
        trucos = [trucos[0] + called[0], trucos[1] + called[1]]
    return {"wins": wins, "trucos": trucos, "matches": matches, "seconds": time.perf_counter() - start}


def format_result(rules: RuleSet, a: str, b: str, result: dict) -> list[str]:
    n = result["matches"]
    variant = "online mineiro" if rules.mineiro_style == "online" else rules.variant
    setup = f"{rules.seats} seats, {variant}, {rules.deck} deck" + (
        ", partnership" if rules.partnership else (", no partnership" if rules.seats == 4 else "")
    )
    lines = [f"arena: {a} (A) vs {b} (B), {n} matches, {setup}"]
    for label, level, wins in (("A", a, result["wins"][0]), ("B", b, result["wins"][1])):
        low, high = wilson(wins, n)
        lines.append(
            f"{label} {level:<7} won {wins:>6} of {n} = {100 * wins / max(n, 1):5.1f}% "
            f"(95% CI {100 * low:.1f}-{100 * high:.1f}%)"
        )
    lines.append(f"trucos a match: A {result['trucos'][0] / max(n, 1):.2f}, B {result['trucos'][1] / max(n, 1):.2f}")
    secs = result["seconds"]
    lines.append(f"time: {secs:.1f} s ({n / secs if secs else 0:.0f} matches/s)")
    return lines


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m games.engine.arena", description=__doc__.splitlines()[0])
    parser.add_argument("--a", choices=BOT_LEVELS, default="medium", help="bot A (default medium)")
    parser.add_argument("--b", choices=BOT_LEVELS, default="random", help="bot B (default random)")
    parser.add_argument("--matches", type=int, default=2000)
    parser.add_argument("--seats", type=int, choices=(2, 4), default=2)
    parser.add_argument("--variant", choices=("paulista", "mineiro"), default="paulista")
    parser.add_argument("--deck", choices=("dirty", "clean"), default="dirty")
    parser.add_argument(
        "--mineiro-style", choices=("classic", "online"), default="classic", help="Mineiro only (docs/engine.md)"
    )
    parser.add_argument(
        "--partnership",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="4 seats only; default on for 4 seats",
    )
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if args.matches < 1:
        parser.error("--matches must be at least 1")
    try:
        rules = RuleSet(
            variant=args.variant,
            deck=args.deck,
            seats=args.seats,
            partnership=args.partnership,
            mineiro_style=args.mineiro_style,
        )
    except ValueError as error:
        parser.error(str(error))
    result = run_arena(rules, args.a, args.b, args.matches, args.seed)
    print("\n".join(format_result(rules, args.a, args.b, result)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
