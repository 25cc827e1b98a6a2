"""Experience and levels (issue 33): what a player's counted matches make of them. Pure: no database.

Experience comes only from matches the statistics count (`stats.services.count_matches`): finished,
competitive matches. A practice table, an annulled or abandoned match makes no record, so it gives
nothing; a match the person did not play (they left, or a robot or the clock made most of their moves)
is counted as an abandonment and gives nothing either. Each match they played gives `XP_PER_WIN` or
`XP_PER_LOSS`: winning is worth more than losing, and playing is worth something.

So experience is a function of the counters the statistics already keep (`played`, `won`, `lost`,
`abandoned`): it needs no storage of its own, the statistics rebuild (`make rebuild-stats`) rebuilds it,
the data export already holds it, and deleting the account deletes it.

The curve (docs/economy.md, "Levels"): level 1 at 0; going from level L to L + 1 takes `STEP × L`
experience, so level L starts at `STEP × L × (L − 1) / 2`. About five matches make level 2; each
level after takes a few more matches than the one before.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

XP_PER_WIN = 30
XP_PER_LOSS = 10
STEP = 100  # experience from level 1 to 2; each level after takes STEP more than the one before


def experience(counters: Mapping[str, int]) -> int:
    """A player's experience from their statistics' counters: the matches they won and lost at the table
    (a match they did not play counts as lost and abandoned, and gives nothing)."""
    won = counters.get("won", 0)
    lost_at_the_table = counters.get("lost", 0) - counters.get("abandoned", 0)
    return XP_PER_WIN * won + XP_PER_LOSS * max(lost_at_the_table, 0)


def match_experience(*, won: bool, played: bool) -> int:
    """What one counted match gives: nothing if the person did not play it."""
    if not played:
        return 0
    return XP_PER_WIN if won else XP_PER_LOSS


def level_start(level: int) -> int:
    """The experience at which `level` (1 or more) begins."""
    return STEP * level * (level - 1) // 2


def level_of(xp: int) -> int:
    """The level `xp` experience reaches (1 at 0)."""
    level = 1
    while level_start(level + 1) <= xp:
        level += 1
    return level


@dataclass(frozen=True)
class Progress:
    """Where a player stands: their level, the experience they have and the next level's threshold."""

    xp: int
    level: int
    level_xp: int  # where this level began
    next_xp: int  # where the next one begins

    @property
    def percent(self) -> int:
        return round(100 * (self.xp - self.level_xp) / (self.next_xp - self.level_xp))


def progress(xp: int) -> Progress:
    level = level_of(xp)
    return Progress(xp=xp, level=level, level_xp=level_start(level), next_xp=level_start(level + 1))
