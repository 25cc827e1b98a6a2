"""Post-match analysis (issue 34): the engine reviews one seat's decisions in a finished match.

For every decision the seat had (more than one legal action), the match is stood at that moment and the
search bot's estimator (`bots/search.py`) is asked, from **that seat's view only** (its cards, the table,
the bets so far: the hidden cards are sampled, never read), how each legal action fares: the chance the
seat's side wins the match afterwards and the points of the hand it brings (its side's minus the other's),
over the same sampled worlds for every action, so that two actions are compared world by world. The
choice is then marked by how much chance of winning the match it gave away against the best action:

| mark | chance of winning the match lost | and |
|---|---|---|
| `good` | under `INACCURACY` (2 points in 100) | or not told from noise (under `NOISE_Z` standard errors) |
| `inaccuracy` | from 2 | |
| `mistake` | from 5 | |
| `blunder` | from 10 | |

The numbers are docs/engine.md's ("Post-match analysis"). Deterministic for a given seed.
"""

from __future__ import annotations

import math
import os
import random
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from .bots.search import Search, SearchBudget, _play_out
from .match import apply, legal_actions
from .state import Action, ActionDict, MatchState, from_json
from .view import seat_view

WORLDS = 192  # sampled worlds per decision (every action is played out in each): a 4-seat match in ~2 s
INACCURACY, MISTAKE, BLUNDER = 0.02, 0.05, 0.10
NOISE_Z = 2.0  # a loss within this many standard errors of the paired difference is not told from noise
MARKS = ("good", "inaccuracy", "mistake", "blunder")


@dataclass(frozen=True)
class Estimate:
    """One legal action at a decision, as the seat could judge it."""

    action: ActionDict
    win: float  # the chance the seat's side wins the match after it (0..1)
    win_half_width: float  # half the 95% confidence interval of `win`
    points: float  # the hand's points it brings, the seat's side's minus the other side's


@dataclass(frozen=True)
class Decision:
    """One decision of the seat: the move's index in the match (0-based), what was chosen, every action's
    estimate (best first), and the mark."""

    move: int
    hand_number: int
    chosen: ActionDict
    estimates: tuple[Estimate, ...]
    loss: float  # chance of winning the match given away against the best action (0 when it was the best)
    loss_se: float  # the standard error of that loss (paired over the same worlds)
    mark: str
    worlds: int

    @property
    def best(self) -> Estimate:
        return self.estimates[0]


def mark_of(loss: float, loss_se: float) -> str:
    """The mark of a choice that gave away `loss` of the chance to win the match (with its standard error)."""
    if loss < INACCURACY or loss <= NOISE_Z * loss_se:
        return "good"
    if loss < MISTAKE:
        return "inaccuracy"
    if loss < BLUNDER:
        return "mistake"
    return "blunder"


def estimate(state: MatchState, seat: int, rng: random.Random, *, worlds: int = WORLDS) -> list[Estimate]:
    """Every legal action of `seat` now, estimated from its view of `state` (best first)."""
    return _estimates(state, seat, rng, worlds)[0]


def _estimates(
    state: MatchState, seat: int, rng: random.Random, worlds: int
) -> tuple[list[Estimate], list[tuple[Action, list[float]]]]:
    view = seat_view(state, seat)
    search = Search(view, rng, SearchBudget(playouts=worlds))
    skeleton, slots, pool = search._rebuild()
    sampled = search._worlds(skeleton, slots, pool, worlds)
    value_of = search._value_fn()
    side = search.side
    actions = legal_actions(state, seat)
    per_action: list[tuple[Action, list[float]]] = []
    estimates: list[Estimate] = []
    for action in actions:
        wins, points = [], []
        for world in sampled:
            after, _ = apply(world, seat, action)
            end = _play_out(after, world.hand_number)
            wins.append(value_of(end))
            mine = end.score[side] - world.score[side]
            theirs = max(end.score[s] - world.score[s] for s in range(len(end.score)) if s != side)
            points.append(float(mine - theirs))
        per_action.append((action, wins))
        mean = sum(wins) / len(wins)
        estimates.append(Estimate(action.to_dict(), mean, 1.96 * _standard_error(wins), sum(points) / len(points)))
    order = sorted(range(len(estimates)), key=lambda i: -estimates[i].win)
    return [estimates[i] for i in order], [per_action[i] for i in order]


def _standard_error(values: Sequence[float]) -> float:
    n = len(values)
    if n < 2:
        return 0.0
    mean = sum(values) / n
    return math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1) / n)


def judge(
    state: MatchState, seat: int, chosen: Action, rng: random.Random, *, worlds: int = WORLDS, move: int = 0
) -> Decision:
    """The decision `seat` made choosing `chosen` in `state`."""
    estimates, per_action = _estimates(state, seat, rng, worlds)
    best_wins = per_action[0][1]
    mine = next(w for a, w in per_action if a == chosen)
    differences = [b - m for b, m in zip(best_wins, mine, strict=True)]
    loss = max(0.0, sum(differences) / len(differences))
    loss_se = _standard_error(differences)
    return Decision(
        move=move,
        hand_number=state.hand_number,
        chosen=chosen.to_dict(),
        estimates=tuple(estimates),
        loss=loss,
        loss_se=loss_se,
        mark=mark_of(loss, loss_se),
        worlds=len(best_wins),
    )


def analyse(
    start: MatchState, moves: Sequence[tuple[int, Action]], seat: int, *, worlds: int = WORLDS, seed: int | str = 0
) -> list[Decision]:
    """Every decision `seat` had in the match played from `start` by `moves` ((seat, action) in order)."""
    decisions = []
    state = start
    for index, (actor, action) in enumerate(moves):
        if actor == seat and len(legal_actions(state, seat)) > 1:
            rng = random.Random(f"{seed}:{index}")
            decisions.append(judge(state, seat, action, rng, worlds=worlds, move=index))
        state, _ = apply(state, actor, action)
    return decisions


def accuracy(decisions: Sequence[Decision]) -> float:
    """The share of the decisions marked good, in percent (100 for a match with no decision to make)."""
    return accuracy_of_marks([d.mark for d in decisions])


def accuracy_of_marks(marks: Sequence[str]) -> float:
    if not marks:
        return 100.0
    return 100.0 * sum(1 for mark in marks if mark == "good") / len(marks)


def judge_json(
    state: dict[str, Any], seat: int, chosen: ActionDict, worlds: int, seed: str, move: int
) -> dict[str, Any]:
    """`judge` on plain data, for a worker process: the state as `to_json` gives it, the decision as a dict."""
    decision = judge(from_json(state), seat, Action.from_dict(chosen), random.Random(seed), worlds=worlds, move=move)
    return asdict(decision)


def lower_priority() -> None:
    """A worker process's initializer: analyses run at the lowest priority (nice 19: about 1.5% of a core
    that a table wants, all of an idle one), so a live table's bots and sockets come first. Not SCHED_IDLE:
    on a busy server that starves an analysis outright, and a page waits for ever."""
    os.nice(19)
