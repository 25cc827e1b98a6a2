"""Computer players: each is a function of one seat's view (``seat_view``), never the full state.

``choose_action(level, view, rng)`` is the one entry point the web layer and the arena use;
every decision draws its randomness from ``rng``, so a seeded match replays exactly.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from ..state import Action, ActionDict
from ..view import SeatView
from .search import search_bot
from .simple import easy_bot, random_bot
from .strategic import hard_bot, medium_bot
from .styles import STYLE_BOTS, STYLE_LEVELS

# The levels a table may seat (the Play page's choices), weakest first; expert is the search bot.
BOT_LEVELS = ("random", "easy", "medium", "hard", "expert")
_BOTS: dict[str, Callable[[SeatView, random.Random], ActionDict]] = {
    "random": random_bot,
    "easy": easy_bot,
    "medium": medium_bot,
    "hard": hard_bot,
    "expert": search_bot,
}
# The style bots (bots/styles.py) are for measurement: the arena plays them all; of them, tables seat only
# the named opponents (the Play page offers them after the ladder).
_BOTS.update(STYLE_BOTS)
NAMED_OPPONENTS = ("careful",)
TABLE_LEVELS = BOT_LEVELS + NAMED_OPPONENTS
# Every level choose_action knows; the arena's panel is all of them.
ALL_LEVELS = BOT_LEVELS + STYLE_LEVELS
PANEL_LEVELS = STYLE_LEVELS + BOT_LEVELS
# Levels whose decision is a search (tens of ms of CPU, not 0.1 ms): a table decides them in a
# process of their own (games.table.thinking).
SEARCH_LEVELS = ("expert",)


def choose_action(level: str, view: SeatView, rng: random.Random) -> Action:
    """The action the bot of ``level`` takes for the seat whose ``view`` this is.

    Always one of ``view["legal_actions"]``; ValueError if the level is unknown or the seat has
    nothing to do now.
    """
    bot = _BOTS.get(level)
    if bot is None:
        raise ValueError(f"unknown bot level {level!r}; levels: {', '.join(ALL_LEVELS)}")
    legal = view["legal_actions"]
    if not legal:
        raise ValueError(f"seat {view.get('seat')} has nothing to do now")
    chosen = bot(view, rng)
    if chosen not in legal:  # a slip in a bot must never become an illegal move at a table
        chosen = legal[0]
    return Action.from_dict(chosen)


def decide(level: str, view: SeatView, seed: str | int) -> Action:
    """``choose_action`` with a fresh ``random.Random(seed)``: a plain function of plain data, so a
    thread or another process can run it (games.table.thinking decides the tables' bot moves this way)."""
    return choose_action(level, view, random.Random(seed))


__all__ = [
    "ALL_LEVELS",
    "BOT_LEVELS",
    "NAMED_OPPONENTS",
    "PANEL_LEVELS",
    "SEARCH_LEVELS",
    "STYLE_LEVELS",
    "TABLE_LEVELS",
    "choose_action",
    "decide",
]
