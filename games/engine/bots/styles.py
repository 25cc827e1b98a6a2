"""The style panel: opponents with one clear betting habit each, to measure a bot against.

They are not offered at a table (the Play page lists ``BOT_LEVELS``), but for ``careful``, a named
opponent there (``NAMED_OPPONENTS``); the arena's panel
(``python -m games.engine.arena --bot hard --panel``) plays them so that a bot is not tuned
against its own kind.  All four play their cards like ``medium`` (``strategic.choose_card``) and
differ only in how they bet:

late     raises only after it has seen cards: never in round 1 (not even a raise-back); in
         round 3 as the last to play (it knows whether its card takes the round) it raises a
         winning card and bluffs a losing one now and then; in round 2, last to play, only a
         near-sure hand; never before the others have played the round.  About 30% of its raises are
         bluffs (``tests/engine/test_bot_styles.py``).
maniac   raises whenever a raise is legal (raise-backs included), accepts everything else.
rock     raises, raises back and accepts only with strong cards; never bluffs.
caller   never raises and never runs: accepts every raise and every hand of eleven/ten.
careful  the published rule-based bots' habits (issue 32): raises with a strong hand, or late in the
         hand on what it has seen (round 2 or 3, last to play, a card that likely takes it); bluffs
         rarely (round 3, last to play, 1 losing card in 20); accepts only strong cards (or when running
         hands the other side the match); raises back only when its side is ahead in the hand.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import cast

from ..state import ActionDict
from ..view import PendingRaise, SeatView
from .reading import MY_SIDE, THEIR_SIDE, Reading
from .strategic import choose_card

# late: in round 3, last to play, the round is known; a losing card is raised this often (a
# bluff).  Tuned so that about 30% of its raises are bluffs, as the rule-based bot of issue 15.
LATE_BLUFF = 0.5
LATE_LAST_RAISE_AT = 0.6  # round 3, last to play: the chance is about 0 or 1 here
LATE_ROUND2_RAISE_AT = 0.95  # round 2, last to play: only a near-sure hand
LATE_RERAISE_AT = 0.9  # raise back, from round 2 on
LATE_ACCEPT_CAUTION = 0.05  # accepts from break-even + this, like medium
LATE_ELEVEN_AT = 0.4

ROCK_RAISE_AT = 0.85
ROCK_RERAISE_AT = 0.92
ROCK_ACCEPT_AT = 0.65
ROCK_ELEVEN_AT = 0.55

CAREFUL_RAISE_AT = 0.8  # a strong hand: raise in any round
CAREFUL_LATE_RAISE_AT = 0.7  # round 2 or 3, last to play: raise on what it has seen
CAREFUL_BLUFF = 0.05  # round 3, last to play, a losing card: raised this often
CAREFUL_ACCEPT_AT = 0.6  # accepts only strong cards (and never below break-even + the margin)
CAREFUL_ACCEPT_MARGIN = 0.1
CAREFUL_RERAISE_AT = 0.85  # raises back only when ahead in the hand, and with this much
CAREFUL_ELEVEN_AT = 0.55

# What counts as a bluff when measuring a bot: a raise made with less than this chance to win
# the hand (the bot's own estimate, counting the cards played this hand).
BLUFF_BELOW = 0.5


def _only(legal: Sequence[ActionDict], kind: str) -> ActionDict:
    return next(a for a in legal if a["do"] == kind)


def _kinds(legal: Sequence[ActionDict]) -> set[str]:
    return {a["do"] for a in legal}


def _break_even(view: SeatView) -> float:
    """Least chance with which accepting a raise beats running (see strategic._answer_raise)."""
    pending = cast(PendingRaise, view["pending_raise"])  # asked only while a raise waits for its answer
    asked, stake = pending["value"], view["stake"]
    return (asked - stake) / (2 * asked)


def last_to_play(reading: Reading) -> bool:
    """Every other seat has played this round: the round's result is in my hand."""
    return len(reading.trick) == reading.seats - 1


def late_bot(view: SeatView, rng: random.Random) -> ActionDict:
    legal = view["legal_actions"]
    kinds = _kinds(legal)
    reading = Reading(view, track_played=True)
    round_number = cast(int, view["round"])  # a bot acts while the match is under way: a round is
    if "play" not in kinds:
        p = reading.win_chance()
        if view["pending_raise"] is None:  # a hand of eleven/ten
            return _only(legal, "accept" if p >= LATE_ELEVEN_AT else "run")
        if "raise" in kinds and round_number > 1 and p >= LATE_RERAISE_AT:
            return _only(legal, "raise")
        return _only(legal, "accept" if p >= _break_even(view) + LATE_ACCEPT_CAUTION else "run")
    if "raise" in kinds and round_number > 1 and last_to_play(reading):
        p = reading.win_chance()
        if round_number == 3:
            if p >= LATE_LAST_RAISE_AT or rng.random() < LATE_BLUFF:
                return _only(legal, "raise")
        elif p >= LATE_ROUND2_RAISE_AT:
            return _only(legal, "raise")
    return choose_card(reading, legal)


def maniac_bot(view: SeatView, rng: random.Random) -> ActionDict:
    legal = view["legal_actions"]
    kinds = _kinds(legal)
    if "raise" in kinds:
        return _only(legal, "raise")
    if "play" not in kinds:
        return _only(legal, "accept")
    return choose_card(Reading(view, track_played=True), legal)


def rock_bot(view: SeatView, rng: random.Random) -> ActionDict:
    legal = view["legal_actions"]
    kinds = _kinds(legal)
    reading = Reading(view, track_played=True)
    if "play" not in kinds:
        p = reading.win_chance()
        if view["pending_raise"] is None:
            return _only(legal, "accept" if p >= ROCK_ELEVEN_AT else "run")
        if "raise" in kinds and p >= ROCK_RERAISE_AT:
            return _only(legal, "raise")
        return _only(legal, "accept" if p >= ROCK_ACCEPT_AT else "run")
    if "raise" in kinds and reading.win_chance() >= ROCK_RAISE_AT:
        return _only(legal, "raise")
    return choose_card(reading, legal)


def running_loses_the_match(view: SeatView) -> bool:
    """Running from the pending raise gives the raisers the stake, and with it the match."""
    pending = cast(PendingRaise, view["pending_raise"])
    return view["score"][pending["side"]] + view["stake"] >= view["target"]


def careful_bot(view: SeatView, rng: random.Random) -> ActionDict:
    legal = view["legal_actions"]
    kinds = _kinds(legal)
    reading = Reading(view, track_played=True)
    if "play" not in kinds:
        p = reading.win_chance()
        if view["pending_raise"] is None:  # a hand of eleven/ten
            return _only(legal, "accept" if p >= CAREFUL_ELEVEN_AT else "run")
        ahead = reading.results.count(MY_SIDE) > reading.results.count(THEIR_SIDE)
        if "raise" in kinds and ahead and p >= CAREFUL_RERAISE_AT:
            return _only(legal, "raise")
        bar = max(CAREFUL_ACCEPT_AT, _break_even(view) + CAREFUL_ACCEPT_MARGIN)
        return _only(legal, "accept" if p >= bar or running_loses_the_match(view) else "run")
    if "raise" in kinds:
        p = reading.win_chance()
        round_number = cast(int, view["round"])
        late = round_number > 1 and last_to_play(reading)
        if p >= CAREFUL_RAISE_AT or (late and p >= CAREFUL_LATE_RAISE_AT):
            return _only(legal, "raise")
        if late and round_number == 3 and rng.random() < CAREFUL_BLUFF:
            return _only(legal, "raise")
    return choose_card(reading, legal)


def caller_bot(view: SeatView, rng: random.Random) -> ActionDict:
    legal = view["legal_actions"]
    if "play" not in _kinds(legal):
        return _only(legal, "accept")
    return choose_card(Reading(view, track_played=True), legal)


STYLE_BOTS: dict[str, Callable[[SeatView, random.Random], ActionDict]] = {
    "late": late_bot,
    "maniac": maniac_bot,
    "rock": rock_bot,
    "caller": caller_bot,
    "careful": careful_bot,
}
STYLE_LEVELS = tuple(STYLE_BOTS)
