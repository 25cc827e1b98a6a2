"""Bot against bot: ``python -m games.engine.arena --a medium --b random --matches 2000``.

In 4-seat games bot A holds every seat of one side and bot B the other (without partnership:
even seats against odd seats).  Matches alternate which bot sits at side 0 and the engine's
seeded first dealer varies, so neither bot keeps a seat advantage.  Prints the matches each bot
won with a 95% Wilson interval, how often each side called truco (the first raise of a hand) per
match, and the run time with matches per second.

``--panel BOT`` plays BOT against every panel bot but itself (the style bots of ``bots/styles.py``
and the table levels; ``--opponents`` names fewer) at the four tables (2 and 4 seats, Paulista
and Mineiro, dirty deck by default; ``--tables`` names fewer) and prints one table of BOT's wins
with 95% intervals.  Matches are split over ``--workers`` processes (default one per core); every
match has its own seed, so the figures for a seed do not depend on the number of workers.

``--results FILE`` keeps every finished range of matches as one JSON line, so a run of hours that
stops (a reboot, Ctrl-C) goes on where it stopped when started again with the same file.  A range
is reused only for the same bots, rules, seed and engine code (``engine_fingerprint``: a hash of
every source file of the engine and its bots), so a changed bot plays its matches again.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import math
import multiprocessing
import os
import random
import time
from collections.abc import Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from functools import cache
from pathlib import Path
from typing import IO, Any, TypedDict, cast

from .bots import ALL_LEVELS, PANEL_LEVELS, choose_action
from .bots.signs import own_sign, partner_seat
from .match import apply, new_match, seats_to_act
from .rules import RuleSet
from .view import seat_view

LineKey = str | tuple[str, str]  # "line", or (opponent, table) in a panel
Line = tuple[LineKey, RuleSet, str, str, int]  # (key, rules, bot A, bot B, matches)
Job = tuple[LineKey, RuleSet, str, str, int, int, int]  # (key, rules, A, B, seed, first, stop)
Done = tuple[LineKey, int, int, list[int], list[int], float]  # (key, first, stop, wins, trucos, cpu s)
Recorded = tuple[int, int, list[int], list[int], float]  # (first, stop, wins, trucos, cpu s)


class LineResult(TypedDict):
    wins: list[int]
    trucos: list[int]
    matches: int
    cpu: float


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
    t = state.facts
    team = t.side_of  # side per seat; bots sit by side parity (seat parity w/o partnership)
    (a, a_signs), (b, b_signs) = _with_signs(levels[0]), _with_signs(levels[1])
    while not state.over:
        seat = seats_to_act(state)[0]
        a_here = (team[seat] % 2 == 0) == a_at_even
        view = seat_view(state, seat)
        partner = partner_seat(t, seat)
        if partner is not None and (a_signs if a_here else b_signs):
            # The partner signed its hand as it was dealt (bots/signs.py): what a table with signals tells.
            view["partner_signal"] = own_sign(seat_view(state, partner))
        action = choose_action(a if a_here else b, view, rng)
        if action.kind == "raise" and view["stake"] == state.facts.base:
            trucos[0 if a_here else 1] += 1
        state, _ = apply(state, seat, action)
    winner_even = cast(int, state.winner) % 2 == 0  # the match is over: it has a winner
    return (0 if winner_even == a_at_even else 1), trucos


def play_range(rules: RuleSet, a: str, b: str, seed: int, first: int, stop: int) -> tuple[list[int], list[int]]:
    """Matches ``first`` .. ``stop - 1`` of a line: (wins of A, B), (trucos of A, B).

    Each match depends only on its own index (its seed, which bot sits at side 0), never on the
    matches before it, so a line split into ranges over any number of processes adds up to the
    same result.
    """
    wins, trucos = [0, 0], [0, 0]
    for i in range(first, stop):
        # Odd matches swap the sides; the seed (and so the first dealer) changes every match.
        winner, called = play_match(rules, (a, b), seed * 1_000_003 + i, a_at_even=i % 2 == 0)
        wins[winner] += 1
        trucos[0] += called[0]
        trucos[1] += called[1]
    return wins, trucos


def _play_job(job: Job) -> Done:
    key, rules, a, b, seed, first, stop = job
    started = time.process_time()
    wins, trucos = play_range(rules, a, b, seed, first, stop)
    return key, first, stop, wins, trucos, time.process_time() - started


def _chunks(matches: int, workers: int, first: int = 0) -> list[tuple[int, int]]:
    """Matches ``first`` .. ``matches - 1`` in ranges: small enough that the processes finish
    together, large enough that the hand-over costs nothing beside a range's run time."""
    size = max(1, min(100, (matches - first) // (4 * workers)))
    return [(start, min(start + size, matches)) for start in range(first, matches, size)]


@cache
def engine_fingerprint() -> str:
    """A hash of the engine's source (this package and its bots): a recorded range of matches is
    reused only by the same code."""
    return source_fingerprint(Path(__file__).resolve().parent)


def source_fingerprint(root: Path) -> str:
    """A hash of every ``.py`` file under ``root``, names and contents."""
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        digest.update(path.relative_to(root).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def _record_key(rules: RuleSet, a: str, b: str, seed: int) -> str:
    return json.dumps([rules.to_dict(), a, b, seed, engine_fingerprint()], sort_keys=True)


def _missing(matches: int, done: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The gaps of ``0 .. matches - 1`` that the recorded ranges ``done`` do not cover."""
    gaps, at = [], 0
    for first, stop in sorted(done):
        if first > at:
            gaps.append((at, min(first, matches)))
        at = max(at, stop)
    if at < matches:
        gaps.append((at, matches))
    return [(first, stop) for first, stop in gaps if first < stop]


def read_results(path: str | None) -> dict[str, list[Recorded]]:
    """The ranges a results file holds: {record key: [(first, stop, wins, trucos, cpu s)]}; a line
    that is not a whole record (a run killed while writing) is skipped."""
    recorded: dict[str, list[Recorded]] = {}
    if not path or not os.path.exists(path):
        return recorded
    with open(path, encoding="utf-8") as file:
        for text in file:
            try:
                row = json.loads(text)
                entry = (row["first"], row["stop"], row["wins"], row["trucos"], row["cpu"])
            except (ValueError, KeyError, TypeError):
                continue
            recorded.setdefault(row["key"], []).append(entry)
    return recorded


def run_lines(lines: Sequence[Line], seed: int, workers: int, results_path: str | None = None) -> dict[str, Any]:
    """Play every line ``(key, rules, a, b, matches)`` over ``workers`` processes.

    Returns ``{"lines": {key: {"wins", "trucos", "matches", "cpu"}}, "seconds", "total", "played",
    "workers"}`` (``total``: the lines' matches; ``played``: those played now, the rest came from
    ``results_path``; ``cpu``: process CPU seconds the line's matches took).  The lines for a seed
    are the same whatever ``workers`` is, and whether they were played in one run or several.
    """
    workers = max(1, workers)
    recorded = read_results(results_path)
    results: dict[LineKey, LineResult] = {
        key: {"wins": [0, 0], "trucos": [0, 0], "matches": matches, "cpu": 0.0} for key, _, _, _, matches in lines
    }
    jobs: list[Job] = []
    record_keys: dict[LineKey, str] = {}
    for key, rules, a, b, matches in lines:
        record_keys[key] = record_key = _record_key(rules, a, b, seed)
        done: list[tuple[int, int]] = []
        for first, stop, wins, trucos, cpu in recorded.get(record_key, ()):
            # A range is taken whole or not at all, and only once (two runs may both have recorded it).
            if stop <= matches and not any(first < s and f < stop for f, s in done):
                done.append((first, stop))
                _add(results[key], wins, trucos, cpu)
        for gap_first, gap_stop in _missing(matches, done):
            jobs += [(key, rules, a, b, seed, f, s) for f, s in _chunks(gap_stop, workers, gap_first)]
    played = sum(stop - first for *_, first, stop in jobs)
    start = time.perf_counter()
    with open(results_path, "a", encoding="utf-8") if results_path else contextlib.nullcontext() as out:
        if workers == 1 or not jobs:
            _add_up(results, map(_play_job, jobs), out, record_keys)
        else:
            # fork: the workers start with the engine already imported (a spawn would re-import it).
            context = multiprocessing.get_context("fork")
            with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
                _add_up(results, pool.map(_play_job, jobs), out, record_keys)
    return {
        "lines": results,
        "seconds": time.perf_counter() - start,
        "total": sum(matches for *_, matches in lines),
        "played": played,
        "workers": workers,
    }


def _add(line: LineResult, wins: Sequence[int], trucos: Sequence[int], cpu: float) -> None:
    for k in (0, 1):
        line["wins"][k] += wins[k]
        line["trucos"][k] += trucos[k]
    line["cpu"] += cpu


def _add_up(
    results: dict[LineKey, LineResult],
    done: Iterable[Done],
    out: IO[str] | None,
    record_keys: dict[LineKey, str],
) -> None:
    for key, first, stop, wins, trucos, cpu in done:
        _add(results[key], wins, trucos, cpu)
        if out is not None:
            row = {"key": record_keys[key], "first": first, "stop": stop, "wins": wins, "trucos": trucos}
            out.write(json.dumps({**row, "cpu": round(cpu, 3)}) + "\n")
            out.flush()


def run_arena(
    rules: RuleSet, a: str, b: str, matches: int, seed: int, workers: int = 1, results_path: str | None = None
) -> dict[str, Any]:
    """One line, bot A against bot B: {"wins", "trucos", "matches", "cpu", "seconds", "played", "workers"}."""
    run = run_lines([("line", rules, a, b, matches)], seed, workers, results_path)
    return {**run["lines"]["line"], "seconds": run["seconds"], "played": run["played"], "workers": run["workers"]}


# The panel's four tables: 2 and 4 seats (partnership at 4), Paulista and classic Mineiro.
PANEL_TABLES = (("2p", 2, "paulista"), ("2m", 2, "mineiro"), ("4p", 4, "paulista"), ("4m", 4, "mineiro"))
TABLE_NAMES = {"2p": "2 seats Paulista", "2m": "2 seats Mineiro", "4p": "4 seats Paulista", "4m": "4 seats Mineiro"}


def run_panel(
    bot: str,
    opponents: Sequence[str],
    matches: int,
    seed: int,
    workers: int,
    deck: str = "dirty",
    tables: Sequence[str] | None = None,
    results_path: str | None = None,
) -> dict[str, Any]:
    """``bot`` against each of ``opponents`` at each of the four tables (or those of ``tables``),
    ``matches`` a line."""
    lines: list[Line] = [
        ((opponent, table), RuleSet(variant=variant, seats=seats, deck=deck), bot, opponent, matches)
        for opponent in opponents
        for table, seats, variant in PANEL_TABLES
        if tables is None or table in tables
    ]
    return run_lines(lines, seed, workers, results_path)


def format_panel(bot: str, opponents: Sequence[str], run: dict[str, Any], deck: str = "dirty") -> list[str]:
    n = next(iter(run["lines"].values()))["matches"]
    tables = [table for table, _, _ in PANEL_TABLES if any(key[1] == table for key in run["lines"])]
    header = [TABLE_NAMES[table] for table in tables]
    lines = [
        f"panel: {bot} against each bot, {n:,} matches a line, sides swapped every match, {deck} deck",
        f"{bot} wins, % (95% CI)",
        "| opponent | " + " | ".join(header) + " |",
        "|---|" + "---|" * len(header),
    ]
    for opponent in opponents:
        cells = []
        for table in tables:
            wins = run["lines"][(opponent, table)]["wins"][0]
            low, high = wilson(wins, n)
            cells.append(f"{100 * wins / n:.1f} ({100 * low:.1f}-{100 * high:.1f})")
        lines.append(f"| {opponent} | " + " | ".join(cells) + " |")
    lines.append(_speed(run))
    return lines


def _speed(run: dict[str, Any]) -> str:
    secs = run["seconds"]
    played = run.get("played", run["total"])
    rate = played / secs if secs else 0.0
    line = f"time: {secs:.1f} s, {played:,} matches, {rate:,.0f} matches/s, {run['workers']} worker process(es)"
    if played != run["total"]:
        line += f"; {run['total'] - played:,} more from the results file"
    return line


def format_result(rules: RuleSet, a: str, b: str, result: dict[str, Any]) -> list[str]:
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
    lines.append(_speed({**result, "total": n}))
    return lines


# A level named with this suffix (`hard+signs`) is told its partner's sign at 4 seats in pairs, as at a
# table with partner signals (bots/signs.py); without it a bot plays as at a table without them.
SIGNS_SUFFIX = "+signs"


def _with_signs(level: str) -> tuple[str, bool]:
    return (level.removesuffix(SIGNS_SUFFIX), True) if level.endswith(SIGNS_SUFFIX) else (level, False)


def _level(text: str) -> str:
    if _with_signs(text)[0] not in ALL_LEVELS:
        raise argparse.ArgumentTypeError(f"levels are {', '.join(ALL_LEVELS)} (each also with {SIGNS_SUFFIX})")
    return text


def _levels(text: str) -> list[str]:
    levels = [level for level in text.split(",") if level]
    unknown = [level for level in levels if _with_signs(level)[0] not in ALL_LEVELS]
    if unknown or not levels:
        raise argparse.ArgumentTypeError(f"levels are {', '.join(ALL_LEVELS)}; not {', '.join(unknown) or 'none'}")
    return levels


def _tables(text: str) -> list[str]:
    tables = [table for table in text.split(",") if table]
    unknown = [table for table in tables if table not in TABLE_NAMES]
    if unknown or not tables:
        raise argparse.ArgumentTypeError(f"tables are {', '.join(TABLE_NAMES)}; not {', '.join(unknown) or 'none'}")
    return tables


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m games.engine.arena", description=__doc__.splitlines()[0])
    parser.add_argument(
        "--a",
        type=_level,
        default="medium",
        help=f"bot A (default medium; LEVEL{SIGNS_SUFFIX}: told its partner's signs)",
    )
    parser.add_argument("--b", type=_level, default="random", help="bot B (default random)")
    parser.add_argument(
        "--panel",
        metavar="BOT",
        type=_level,
        help="play BOT against every panel bot at all four tables (2/4 seats, Paulista/Mineiro); "
        "--a/--b, --seats, --variant, --partnership and --mineiro-style are then ignored",
    )
    parser.add_argument(
        "--opponents",
        type=_levels,
        metavar="L1,L2",
        help="with --panel: these opponents only (default: every panel bot but BOT itself)",
    )
    parser.add_argument(
        "--tables",
        type=_tables,
        metavar="2p,2m,4p,4m",
        help="with --panel: these tables only (2p: 2 seats Paulista ... 4m: 4 seats Mineiro; default all four)",
    )
    parser.add_argument(
        "--results",
        metavar="FILE",
        help="keep every finished range of matches in FILE (JSON lines) and reuse those already there "
        "for the same bots, rules, seed and engine code: a stopped run goes on where it stopped",
    )
    parser.add_argument("--matches", type=int, default=2000, help="matches a line (default 2000)")
    parser.add_argument(
        "--workers",
        type=int,
        default=os.cpu_count() or 1,
        help="processes playing matches (default: one per core); the results do not depend on it",
    )
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
    if args.workers < 1:
        parser.error("--workers must be at least 1")
    if args.panel:
        opponents = args.opponents or [level for level in PANEL_LEVELS if level != args.panel]
        run = run_panel(
            args.panel, opponents, args.matches, args.seed, args.workers, args.deck, args.tables, args.results
        )
        print("\n".join(format_panel(args.panel, opponents, run, args.deck)))
        return 0
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
    result = run_arena(rules, args.a, args.b, args.matches, args.seed, args.workers, args.results)
    print("\n".join(format_result(rules, args.a, args.b, result)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
