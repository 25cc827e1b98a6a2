"""The RuleSet (every house-rule option of the rule book, docs/rules.md §10) and the facts derived from it once.

``RuleSet`` is what rooms store and players choose; ``facts_for`` turns it into the
precomputed numbers the hot path reads (sides, stake ladder, thresholds), cached per RuleSet.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from functools import lru_cache
from typing import Any

VARIANTS = ("paulista", "mineiro")
DECKS = ("dirty", "clean")
ALL_TIED = ("dealer", "nobody")
# Mineiro house rule (seed 002's online Mineiro, docs/engine.md "Online Mineiro"): its own ladder
# and the double play after a tied first round.  "classic" is the rule book's Mineiro.
MINEIRO_STYLES = ("classic", "online")

# Stake ladders (RULES §6): base, truco, six, nine/ten, twelve.
LADDERS = {"paulista": (1, 3, 6, 9, 12), "mineiro": (2, 4, 6, 10, 12)}
RAISE_NAMES = {
    "paulista": (None, "truco", "six", "nine", "twelve"),
    "mineiro": (None, "truco", "six", "ten", "twelve"),
    "online": (None, "truco", "six", "nine"),
}
# Online Mineiro: truco 4, six 8, and nine wins the match (its top value is the target itself).
ONLINE_LADDER = (2, 4, 8)


def stake_ladder(variant: str, mineiro_style: str = "classic", target: int = 12) -> tuple[int, ...]:
    """The values a hand can be worth, base first; online Mineiro's last one (nine) is the whole target."""
    if variant == "mineiro" and mineiro_style == "online":
        return (*ONLINE_LADDER, target)
    return LADDERS[variant]


@dataclass(frozen=True, slots=True)
class RuleSet:
    """The options of one match; ``None`` fields take the rule book's default for the variant and seats."""

    variant: str = "paulista"
    deck: str = "dirty"
    seats: int = 2
    partnership: bool | None = None
    face_down: bool | None = None
    all_tied: str = "dealer"
    target: int = 12
    mineiro_style: str = "classic"

    def __post_init__(self) -> None:
        if self.variant not in VARIANTS:
            raise ValueError(f"variant must be one of {VARIANTS}, not {self.variant!r}")
        if self.deck not in DECKS:
            raise ValueError(f"deck must be one of {DECKS}, not {self.deck!r}")
        if type(self.seats) is not int or self.seats not in (2, 4):
            raise ValueError(f"seats must be 2 or 4, not {self.seats!r}")
        if self.partnership is None:
            object.__setattr__(self, "partnership", self.seats == 4)
        elif not isinstance(self.partnership, bool):
            raise ValueError(f"partnership must be true or false, not {self.partnership!r}")
        if self.partnership and self.seats != 4:
            raise ValueError("partnership needs 4 seats")
        if self.face_down is None:
            object.__setattr__(self, "face_down", self.variant == "paulista")
        elif not isinstance(self.face_down, bool):
            raise ValueError(f"face_down must be true or false, not {self.face_down!r}")
        if self.all_tied not in ALL_TIED:
            raise ValueError(f"all_tied must be one of {ALL_TIED}, not {self.all_tied!r}")
        if self.mineiro_style not in MINEIRO_STYLES:
            raise ValueError(f"mineiro_style must be one of {MINEIRO_STYLES}, not {self.mineiro_style!r}")
        if self.mineiro_style != "classic" and self.variant != "mineiro":
            raise ValueError("mineiro_style 'online' needs the mineiro variant")
        base = LADDERS[self.variant][0]
        if type(self.target) is not int or not base < self.target <= 1000:
            raise ValueError(f"target must be a whole number above {base} (and at most 1000), not {self.target!r}")

    @classmethod
    def from_dict(cls, data: object) -> RuleSet:
        """Build from JSON-like options; unknown keys or bad values raise ValueError."""
        if data is None:
            return cls()
        if not isinstance(data, dict):
            raise ValueError(f"rules must be an object, not {type(data).__name__}")
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValueError(
                f"unknown rule option(s): {', '.join(map(str, unknown))}; known: {', '.join(sorted(known))}"
            )
        return cls(**data)

    def to_dict(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


class RuleFacts:
    """Numbers derived from a RuleSet that every action needs; built once per RuleSet."""

    __slots__ = (
        "rules",
        "seats",
        "side_of",
        "sides",
        "side_seats",
        "ladder",
        "raise_names",
        "top_level",
        "base",
        "eleven_value",
        "threshold",
        "target",
        "variant",
        "deck",
        "face_down",
        "all_tied_dealer",
        "online",
        "top_wins_match",
    )
    rules: RuleSet
    seats: int
    side_of: tuple[int, ...]
    sides: int
    side_seats: tuple[tuple[int, ...], ...]
    ladder: tuple[int, ...]
    raise_names: tuple[str | None, ...]
    top_level: int
    base: int
    eleven_value: int
    threshold: int
    target: int
    variant: str
    deck: str
    face_down: bool | None  # a bool once RuleSet.__post_init__ has run
    all_tied_dealer: bool
    online: bool
    top_wins_match: bool

    def __init__(self, rules: RuleSet):
        self.rules = rules
        self.seats = n = rules.seats
        self.side_of = tuple(s % 2 for s in range(n)) if rules.partnership else tuple(range(n))
        self.sides = max(self.side_of) + 1
        self.side_seats = tuple(tuple(s for s in range(n) if self.side_of[s] == side) for side in range(self.sides))
        # Online Mineiro (seed 002): its own ladder, the double play after a tied round 1, and the
        # hand-of-ten rule on it; its top raise (nine) wins the match instead of adding points.
        self.online = rules.mineiro_style == "online"
        self.top_wins_match = self.online
        self.ladder = stake_ladder(rules.variant, rules.mineiro_style, rules.target)
        self.raise_names = RAISE_NAMES["online" if self.online else rules.variant]
        self.top_level = len(self.ladder) - 1
        self.base = self.ladder[0]
        # A hand of eleven/ten is worth the truco value (3 / 4); refusing it gives the base.
        self.eleven_value = self.ladder[1]
        # 11 for Paulista, 10 for Mineiro at target 12: one base hand away from the target.
        self.threshold = rules.target - self.base
        self.target = rules.target
        self.variant = rules.variant
        self.deck = rules.deck
        self.face_down = rules.face_down
        self.all_tied_dealer = rules.all_tied == "dealer"


@lru_cache(maxsize=64)
def facts_for(rules: RuleSet) -> RuleFacts:
    return RuleFacts(rules)
