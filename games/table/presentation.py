"""Turns a seat's engine view into what the table templates show: positions, names, labels, reasons.

Only the viewer's `seat_view` (or the spectator view) is read here, so nothing hidden can reach a template.
"""

from __future__ import annotations

from functools import lru_cache

from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from games.engine.rules import RAISE_NAMES, stake_ladder

# The calls are the game's own words; players shout them in Portuguese whatever their language.
# Keyed by a ladder's raise names, whose base (None) has no call: a KeyError ran_from_call expects.
RAISE_CALLS: dict[str | None, str] = {
    "truco": "Truco!",
    "six": "Seis!",
    "nine": "Nove!",
    "ten": "Dez!",
    "twelve": "Doze!",
}

HAND_REASONS = {
    "two_rounds": _("won two rounds"),
    "tie_then_round2": _("round 1 tied, round 2 decided"),
    "round1_then_tie": _("won round 1, round 2 tied"),
    "round3_tie_round1": _("round 3 tied: round 1 decided"),
    "ties_then_round3": _("rounds tied, round 3 decided"),
    "three_winners_round1": _("three different winners: round 1 decided"),
    "all_tied_dealer": _("all tied: dealer's side"),
    "all_tied_nobody": _("all tied: nobody scores"),
    "eleven_refused": _("the hand was refused"),
}
# Online Mineiro: after a tied round 1 the double play's face-up cards are round 2, its hidden ones round 3.
DOUBLE_PLAY_REASONS = {
    "tie_then_round2": _("round 1 tied: the face-up cards decided"),
    "ties_then_round3": _("the face-up cards tied: the hidden cards decided"),
    "all_tied_dealer": _("the hidden cards tied too: dealer's side"),
    "all_tied_nobody": _("the hidden cards tied too: nobody scores"),
}
SUITS = {"C": "♣", "H": "♥", "S": "♠", "D": "♦"}
SUIT_NAMES = {"C": _("clubs"), "H": _("hearts"), "S": _("spades"), "D": _("diamonds")}
# A card's name says its rank in words where the corner shows a letter ("Rei de espadas", not "K espadas").
RANK_NAMES = {"Q": _("Queen"), "J": _("Jack"), "K": _("King"), "A": _("Ace")}


def card_face(code: str | None, *, manilha: bool = False) -> dict | None:
    """What a template needs to draw a face-up card (rank, suit symbol, colour, accessible label); `manilha`
    marks a card that is a manilha of the hand in play (the key is there only then)."""
    if not code:
        return None
    # A copy: the caller owns its dict. The label's translation is what costs, once per card and language.
    face = dict(_card_face(code, get_language()))
    if manilha:
        face["manilha"] = True
    return face


def card_label(code: str | None) -> str:
    """A card's name in the active language ("Rei de espadas"); "" for no card."""
    return _card_face(code, get_language())["label"] if code else ""


@lru_cache(maxsize=1024)
def _card_face(code: str, language: str | None) -> dict:
    rank, suit = code[:-1], code[-1]
    return {
        "code": code,
        "rank": rank,
        "suit": SUITS[suit],
        "red": suit in "HD",
        # In the active language, which is `language`.
        "label": _("%(rank)s of %(suit)s") % {"rank": RANK_NAMES.get(rank, rank), "suit": SUIT_NAMES[suit]},
    }


def is_online_mineiro(rules: dict) -> bool:
    return rules.get("variant") == "mineiro" and rules.get("mineiro_style") == "online"


def raise_wins_match(rules: dict, name: str | None) -> bool:
    """Online Mineiro's nine is worth the match, not a number of points."""
    return is_online_mineiro(rules) and name == "nine"


def ran_from_call(rules: dict, points: int) -> str:
    """The call the losing side ran from, given the points the hand was worth before it."""
    online = is_online_mineiro(rules)
    ladder = stake_ladder(rules["variant"], rules.get("mineiro_style", "classic"), rules.get("target", 12))
    names = RAISE_NAMES["online" if online else rules["variant"]]
    try:
        return RAISE_CALLS[names[ladder.index(points) + 1]]
    except (ValueError, IndexError, KeyError):
        return RAISE_CALLS["truco"]


def position_of(viewer_seat: int, seat: int, seats: int) -> str:
    """Where another seat sits on the viewer's screen: you are always at the bottom."""
    offset = (seat - viewer_seat) % seats
    if seats == 2:
        return ("bottom", "top")[offset]
    return ("bottom", "right", "top", "left")[offset]
