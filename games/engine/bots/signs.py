"""Partner signs: the classic signals between partners at four seats, as the bots send and read them.

A sign names a seat's best card of the hand: the manilha of clubs (``zap``), of hearts (``copas``), of
spades (``espadilha``), of diamonds (``ouros``), else a three (``three``), else ``nothing``. Between
partners at a table that allows signals (a room's option, or the Play page's) a bot sends the sign of
its hand as the hand is dealt, and reads its person partner's: only the two partners ever see them
(games.match.signals).

A bot's view carries its partner's sign for the hand in play as ``partner_signal`` (the site adds it;
the arena too, for a level named ``LEVEL+signs``); a view without it is read as before.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..cards import MANILHA_BASE, RANKS, card_strengths
from ..rules import RuleFacts
from ..view import SeatView

SIGNS = ("zap", "copas", "espadilha", "ouros", "three", "nothing")
THREE = RANKS.index("3")  # the strongest common card
_MANILHA_SIGNS = {MANILHA_BASE + 3 - place: sign for place, sign in enumerate(SIGNS[:4])}  # clubs to diamonds
# The strengths a sign says the signer's best card has (both ends included).
SIGNED_STRENGTHS = {
    **{sign: (strength, strength) for strength, sign in _MANILHA_SIGNS.items()},
    "three": (THREE, THREE),
    "nothing": (0, THREE - 1),
}


def partner_seat(t: RuleFacts, seat: int) -> int | None:
    """The other seat of `seat`'s side (4 seats in pairs), else None."""
    return next((s for s in t.side_seats[t.side_of[seat]] if s != seat), None)


def sign_of(best_strength: int) -> str:
    """The sign for a hand whose best card has this strength."""
    if best_strength >= MANILHA_BASE:
        return _MANILHA_SIGNS[best_strength]
    return "three" if best_strength == THREE else "nothing"


def own_sign(view: SeatView) -> str:
    """The sign of the viewer's hand as dealt: its best card among those it holds and those it played
    this hand (a robot taking over mid-hand signs what the seat was dealt)."""
    strength = card_strengths(tuple(view["manilhas"]))
    return sign_of(max((strength[c] for c in dealt_cards(view, view["seat"])), default=0))


def dealt_cards(view: SeatView, seat: int | None) -> list[str]:
    """The cards of `seat` this hand that the view names: the viewer's own hand, and every card it
    shows the seat played (face-down ones only to their owner)."""
    cards = list(view["hand"]) if seat == view["seat"] else []
    return cards + [card for card in _played_by(view, seat) if card]


def _played_by(view: SeatView, seat: int | None) -> Iterable[str | None]:
    for rnd in view["rounds"]:
        yield from (p["card"] for p in rnd["plays"] if p["seat"] == seat)
    yield from (p["card"] for p in view["trick"] if p["seat"] == seat)


def partner_sign_in_hand(view: SeatView, partner: int) -> tuple[int, int] | None:
    """The strengths the partner's best card still in hand has, by its sign: (low, high), both ends
    included. None without a sign, or once the partner played the card it signed (after a
    ``nothing`` whatever it holds is still nothing)."""
    sign = view.get("partner_signal")
    if sign is None or sign not in SIGNED_STRENGTHS:
        return None
    low, high = SIGNED_STRENGTHS[sign]
    if sign != "nothing":
        strength = card_strengths(tuple(view["manilhas"]))
        if any(low <= strength[card] <= high for card in dealt_cards(view, partner)):
            return None
    return low, high
