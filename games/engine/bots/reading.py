"""What a bot can read from one seat's view: card strengths, unseen cards, the round under way.

Everything here is computed from the ``seat_view`` dict alone (never the full state), so a bot
cannot see a hidden card by accident.  ``Reading`` is built once per decision.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache
from itertools import product
from typing import cast

from ..cards import CARD_NAMES, card_strengths, deck_cards
from ..match import TIE, hand_outcome
from ..state import ActionDict, PlayView
from ..view import SeatView

MANILHA_BASE = 10
MY_SIDE, THEIR_SIDE = 0, 1
# With a partner whose cards are unknown, the estimate below under-counts what the partner wins
# (measured over 15,000 Mineiro hands, 4 seats: an estimate of 0.25 won 41%, 0.45 won 59%,
# 0.85 won 90%); lifting it to LIFT + (1 - LIFT) * p matches those figures.
PARTNER_LIFT = 0.18


def base_stake(view: SeatView) -> int:
    """What a hand is worth before anyone raises it (RULES §6)."""
    return 1 if view["rules"]["variant"] == "paulista" else 2


@lru_cache(maxsize=8)
def deck_names(variant: str, deck: str) -> tuple[str, ...]:
    return tuple(CARD_NAMES[c] for c in deck_cards(variant, deck))


class Reading:
    """The facts a bot decides from, read off ``view`` once.

    ``track_played`` decides whether cards played in finished rounds of this hand count as gone when the
    bot estimates what the others may hold (a sharper picture of the hand).
    """

    __slots__ = (
        "view",
        "seat",
        "side",
        "seats",
        "side_of",
        "strength",
        "hand",
        "unseen",
        "weaker",
        "opponents_per_round",
        "partner_cards",
        "results",
        "trick",
        "trick_best",
        "trick_best_side",
        "opps_left",
        "partner_left",
        "me_played",
        "dealer_side",
        "partnership",
        "all_tied_dealer",
    )
    view: SeatView
    seat: int
    side: int
    seats: int
    side_of: list[int]
    strength: dict[str, int]
    hand: list[str]
    unseen: list[str]
    weaker: list[float]
    opponents_per_round: int
    partner_cards: list[str]
    results: list[int]
    trick: list[PlayView]
    trick_best: int
    trick_best_side: int | None
    opps_left: int
    partner_left: bool
    me_played: bool
    dealer_side: int
    partnership: bool
    all_tied_dealer: bool

    def __init__(self, view: SeatView, track_played: bool = True):
        self.view = view
        rules = view["rules"]
        # A bot reads a seat's view, never a spectator's: seat and side are set (types only, no check).
        self.seat = seat = cast(int, view["seat"])
        self.side = side = cast(int, view["side"])
        self.seats = n = view["seats"]
        side_of = [0] * n
        for s_index, members in enumerate(view["sides"]):
            for s in members:
                side_of[s] = s_index
        self.side_of = side_of
        self.partnership = len(view["sides"][side]) > 1
        self.all_tied_dealer = rules["all_tied"] == "dealer"
        self.strength = st = card_strengths(tuple(view["manilhas"]))
        self.hand = sorted(view["hand"], key=st.__getitem__)  # weakest first
        self.partner_cards = sorted(
            (c for cards in view["partner_hands"].values() for c in cards), key=st.__getitem__, reverse=True
        )

        known = set(view["hand"])
        known.update(self.partner_cards)
        if view["vira"]:
            known.add(view["vira"])
        if track_played:
            for rnd in view["rounds"]:
                known.update(p["card"] for p in rnd["plays"] if p["card"])
        known.update(p["card"] for p in view["trick"] if p["card"])  # in plain sight: always counted
        self.unseen = [c for c in deck_names(rules["variant"], rules["deck"]) if c not in known]
        # weaker[s]: share of unseen cards an unseen card of strength s beats (ties count half).
        strengths = sorted(st[c] for c in self.unseen)
        total = len(strengths) or 1
        weaker = []
        for s in range(MANILHA_BASE + 4):
            below = sum(1 for x in strengths if x < s)
            equal = sum(1 for x in strengths if x == s)
            weaker.append((below + 0.5 * equal) / total)
        self.weaker = weaker
        self.opponents_per_round = sum(1 for s in range(n) if side_of[s] != side)

        self.dealer_side = MY_SIDE if side_of[view["dealer"]] == side else THEIR_SIDE
        self.results = [
            TIE if r["winner_side"] is None else (MY_SIDE if r["winner_side"] == side else THEIR_SIDE)
            for r in view["rounds"]
        ]
        self.trick = view["trick"]
        best = -1
        best_side: int | None = None
        for play in self.trick:
            s = -1 if play["face_down"] else st[cast(str, play["card"])]  # a face-up card is named
            mine = side_of[play["seat"]] == side
            if s > best:
                best, best_side = s, (MY_SIDE if mine else THEIR_SIDE)
            elif s == best and s >= 0 and best_side != (MY_SIDE if mine else THEIR_SIDE):
                best_side = TIE
        self.trick_best = best
        self.trick_best_side = best_side
        played = {p["seat"] for p in self.trick}
        self.me_played = seat in played
        # Seats yet to play this round (the round starts at the first seat on the table).
        self.opps_left = sum(1 for s in range(n) if s not in played and s != seat and side_of[s] != side)
        self.partner_left = any(s not in played and s != seat and side_of[s] == side for s in range(n))

    # --- probabilities ---------------------------------------------------------------------

    def beats_unseen(self, card: str, opponents: int | None = None) -> float:
        """Chance ``card`` beats ``opponents`` unseen cards (one round, ignoring who plays what)."""
        k = self.opponents_per_round if opponents is None else opponents
        return self.weaker[self.strength[card]] ** k

    def _partner_round_chance(self, index: int) -> float:
        """Chance the partner alone takes a future round (known cards in a hand of eleven)."""
        if not self.partnership:
            return 0.0
        k = self.opponents_per_round
        if self.partner_cards:
            if index < len(self.partner_cards):
                return self.weaker[self.strength[self.partner_cards[index]]] ** k
            return 0.0
        return 0.22 if k == 2 else 0.3  # a random card beating two random cards, shaded down

    def beats_unseen_strength(self, strength: int, opponents: int) -> float:
        return self.weaker[strength] ** opponents if strength >= 0 else 0.0

    def current_round_chance(self, card: str | None) -> float:
        """Chance my side takes the round under way if I play ``card`` (None: already played)."""
        best, best_side = self.trick_best, self.trick_best_side
        k = self.opps_left
        if card is not None:
            s = self.strength[card]
            if s > best:
                best, best_side = s, MY_SIDE
            elif s == best and best_side == THEIR_SIDE:
                best_side = TIE
        if best_side == MY_SIDE:
            p = self.weaker[best] ** k
        elif best_side == TIE:
            p = 0.5 * self.weaker[best] ** k
        else:
            p = 0.0
        if self.partner_left and best_side != MY_SIDE:
            # The partner still plays: a fair card of theirs may still take it.
            p = max(p, 0.5 * (1.0 - self.weaker[max(best, 0)]) if best >= 0 else 0.3)
        return p

    def win_chance(self) -> float:
        """Estimated chance my side wins this hand, trying each card I could play now."""
        p = self._card_win_chance()
        if self.partnership and not self.partner_cards and 0.0 < p < 1.0:
            p = PARTNER_LIFT + (1.0 - PARTNER_LIFT) * p
        return p

    def _card_win_chance(self) -> float:
        hand = self.hand
        if self.me_played or not hand:
            return self._win_chance_after(self.current_round_chance(None), hand)
        best = 0.0
        for i, card in enumerate(hand):
            rest = hand[:i] + hand[i + 1 :]
            p = self._win_chance_after(self.current_round_chance(card), rest)
            if p > best:
                best = p
        return best

    def _win_chance_after(self, p_now: float, rest: list[str]) -> float:
        """Combine the current round's chance with future rounds played with ``rest``."""
        future_rounds = 3 - len(self.results) - 1
        cards = sorted(rest, key=self.strength.__getitem__, reverse=True)[:future_rounds]
        chances = [p_now]
        for i in range(future_rounds):
            mine = self.beats_unseen(cards[i]) if i < len(cards) else 0.0
            partner = self._partner_round_chance(i)
            chances.append(1.0 - (1.0 - mine) * (1.0 - partner))
        return _hand_chance(tuple(self.results), tuple(chances), self.all_tied_dealer, self.dealer_side)


def _hand_chance(
    results: tuple[int, ...], chances: tuple[float, ...], all_tied_dealer: bool, dealer_side: int
) -> float:
    """Sum over win/lose outcomes of the remaining rounds of the chance my side wins."""
    total = 0.0
    for outcome in product((MY_SIDE, THEIR_SIDE), repeat=len(chances)):
        weight = 1.0
        for o, p in zip(outcome, chances, strict=True):
            weight *= p if o == MY_SIDE else 1.0 - p
        if weight == 0.0:
            continue
        if hand_winner(results, outcome, all_tied_dealer, dealer_side) == MY_SIDE:
            total += weight
    return total


def hand_winner(results: Iterable[int], outcomes: Iterable[int], all_tied_dealer: bool, dealer_side: int) -> int | None:
    """The side that wins the hand after the finished ``results`` when the rounds still to play go
    ``outcomes`` (each the side winning it), stopping at the round that decides; None if none does."""
    seq = list(results)
    for o in outcomes:
        seq.append(o)
        decided = hand_outcome(seq, all_tied_dealer, dealer_side)
        if decided is not None:
            return decided[0]
    decided = hand_outcome(seq, all_tied_dealer, dealer_side)
    return decided[0] if decided else None


def double_play(reading: Reading, legal: Sequence[ActionDict]) -> ActionDict:
    """Online Mineiro's double play: the stronger card face up, the weaker one hidden beneath.

    The face-up cards decide the hand unless they tie, so the stronger card does the most good
    face up; and in a hand of ten a face-up card lower than its hidden one would lose its value.
    """
    st = reading.strength
    doubles = [a for a in legal if a["do"] == "play" and "cards" in a]
    return max(doubles, key=lambda a: (st[a["cards"][0]] - st[a["cards"][1]], a["cards"][0]))
