"""The two light bots: ``random`` (any legal action) and ``easy`` (plays plain and honest)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..state import ActionDict
from ..view import SeatView
from .reading import MY_SIDE, Reading, base_stake, double_play

# The easy bot raises so that a beginner gets trucos to answer: on a turn where it may raise the
# hand for the first time, it calls truco with a plausible hand (a manilha, two cards of A and
# above, or round 1 won and an A or better left) this often, and bluffs with anything else this
# often. Measured over 1,200 matches against medium (docs/engine.md): about 1.5-2.5 trucos a match,
# was 0.1-0.5; only the first raise of a hand, so it never escalates a hand on its own.
EASY_RAISE = 0.2
EASY_BLUFF = 0.04


def random_bot(view: SeatView, rng: random.Random) -> ActionDict:
    """A uniformly random legal action (the arena's baseline)."""
    return rng.choice(view["legal_actions"])


def easy_bot(view: SeatView, rng: random.Random) -> ActionDict:
    """Highest card when it wins the round, else lowest; calls truco now and then (EASY_RAISE);
    takes raises with decent cards only."""
    legal = view["legal_actions"]
    kinds = {a["do"] for a in legal}
    reading = Reading(view, track_played=False)
    st = reading.strength
    top = max((st[c] for c in reading.hand), default=-1)
    decent = top >= 10 or sum(1 for c in reading.hand if st[c] >= 7) >= 2  # a manilha, or two A/2/3

    if "play" not in kinds:  # a raise to answer, or a hand of eleven to decide
        accept = decent or (view["hand_of_eleven"] is None and rng.random() < 0.15)
        return _pick(legal, "accept" if accept and "accept" in kinds else "run")
    if "raise" in kinds and view["stake"] == base_stake(view):
        won_first = reading.results[:1] == [MY_SIDE]
        plausible = decent or (won_first and any(st[c] >= 7 for c in reading.hand))
        if rng.random() < (EASY_RAISE if plausible else EASY_BLUFF):
            return _pick(legal, "raise")
    if view.get("double_round"):
        return double_play(reading, legal)
    plays = [a for a in legal if a["do"] == "play" and not a["face_down"]]
    winners = [a for a in plays if st[a["card"]] > reading.trick_best]
    if reading.trick_best_side != MY_SIDE and winners:
        return max(winners, key=lambda a: st[a["card"]])
    return min(plays, key=lambda a: st[a["card"]])


def _pick(legal: Sequence[ActionDict], kind: str) -> ActionDict:
    return next(a for a in legal if a["do"] == kind)
