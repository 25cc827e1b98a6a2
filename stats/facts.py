"""What one finished match counts for one player: pure Python, from the match's stored public events.

The same function serves the settling transaction and the rebuild command, so a rebuild gives the
same numbers by construction. `games` builds the `MatchRecord`s (stats never imports games).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

# Modes a match is counted under (a match against the AI, a tournament stage, people only).
MODES = ("ai", "tournament", "multiplayer")


@dataclass(frozen=True)
class MatchRecord:
    """One player's seat in one finished match, with the match's public events in order."""

    user_id: int
    reference: str  # "match:<public_id>": the unique key that makes counting happen once
    finished_at: datetime
    mode: str  # one of MODES
    variant: str  # paulista | mineiro
    seats: int
    seat: int
    side: int
    won: bool
    events: list[dict] = field(default_factory=list)
    tournament_won: bool = False  # this match was the final of a tournament the player won
    # The player did not play the match: left before the end, or a robot or the clock made most of
    # their moves. It counts for them as an abandonment (played, not won), and unlocks nothing.
    left: bool = False
    # Whether achievements this match unlocks pay their coins: not when someone at the table did not play it.
    achievement_coins: bool = True


def _zap(card: str | None, manilha_rank: str | None, variant: str) -> bool:
    """The strongest manilha: the clubs card of the manilha rank (Paulista), the 4 of clubs (Mineiro)."""
    if not card:
        return False
    if variant == "mineiro":
        return card == "4C"
    return manilha_rank is not None and card == f"{manilha_rank}C"


def match_counters(record: MatchRecord) -> dict[str, int]:
    """The counters this match adds to the player's statistics (only non-zero ones are kept)."""
    me, side = record.seat, record.side
    if record.left:
        # What a robot or the clock did at their seat is not theirs: only the abandonment counts.
        return {
            "played": 1,
            "lost": 1,
            "abandoned": 1,
            f"mode:{record.mode}:played": 1,
            f"variant:{record.variant}:played": 1,
            f"seats:{record.seats}:played": 1,
        }
    c: dict[str, int] = {
        "played": 1,
        "won": int(record.won),
        "lost": int(not record.won),
        f"mode:{record.mode}:played": 1,
        f"mode:{record.mode}:won": int(record.won),
        f"variant:{record.variant}:played": 1,
        f"variant:{record.variant}:won": int(record.won),
        f"seats:{record.seats}:played": 1,
        f"seats:{record.seats}:won": int(record.won),
        "tournaments_won": int(record.tournament_won),
    }

    def add(key: str, n: int = 1) -> None:
        c[key] = c.get(key, 0) + n

    score = [0] * max(2, record.seats)
    hand_kind, deciding, manilha = "normal", [], None
    my_raise_in_hand = False  # I called or accepted a raise in this hand
    twelve_accepted_by_my_side = False
    lost_a_hand = False
    came_from_behind = False
    for event in record.events:
        kind = event.get("type")
        if kind in ("match_started", "hand_dealt"):
            if kind == "match_started":
                score = list(event.get("score") or score)
                top = max(score) if score else 0
                deciding = [s for s, p in enumerate(score) if p == top] if event.get("hand_kind") == "eleven" else []
            else:
                deciding = list(event.get("deciding_sides") or [])
            hand_kind = event.get("hand_kind") or "normal"
            manilha = event.get("manilha_rank")
            my_raise_in_hand = twelve_accepted_by_my_side = False
            if hand_kind == "eleven" and side not in deciding and score[side] == 0:
                came_from_behind = True  # the other side at eleven (ten) while we had nothing
        elif kind == "raise_asked" and event.get("seat") == me:
            add("trucos_called")
            my_raise_in_hand = True
        elif kind == "raise_accepted":
            if event.get("seat") == me:
                add("trucos_accepted")
                my_raise_in_hand = True
            if event.get("side") == side and event.get("value") == 12:
                twelve_accepted_by_my_side = True
        elif kind == "raise_run" and event.get("seat") == me:
            add("trucos_run")
        elif kind == "round_won" and event.get("seat") == me and _zap(event.get("card"), manilha, record.variant):
            add("zap_rounds_won")
        elif kind == "eleven_refused" and event.get("side") == side:
            deciding = [s for s in deciding if s != side]  # refused: not a hand of eleven we played
            hand_kind = "refused"
        elif kind in ("hand_won", "hand_void"):
            add("hands_played")
            mine = kind == "hand_won" and event.get("side") == side
            if kind == "hand_won":
                score = list(event.get("score") or score)
                if mine:
                    add("hands_won")
                else:
                    lost_a_hand = True
            if mine and my_raise_in_hand:
                add("trucos_won")
            if mine and twelve_accepted_by_my_side:
                add("twelves_won")
            if hand_kind == "eleven" and side in deciding:
                add("eleven_hands_played")
                add("eleven_hands_won", int(mine))
            if hand_kind == "iron":
                add("iron_hands_played")
                add("iron_hands_won", int(mine))
    if record.won:
        add("flawless_wins", int(not lost_a_hand))
        add("comeback_wins", int(came_from_behind))
    return {k: v for k, v in c.items() if v}


def add_counters(total: dict[str, int], more: dict[str, int]) -> dict[str, int]:
    result = dict(total)
    for key, value in more.items():
        result[key] = result.get(key, 0) + value
    return result


def next_streaks(current: int, best: int, won: bool) -> tuple[int, int]:
    """(current, best) winning streak after one more match."""
    current = current + 1 if won else 0
    return current, max(best, current)
