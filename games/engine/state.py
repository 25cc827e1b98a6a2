"""The match state, the Action a seat takes, IllegalAction, and exact JSON (de)serialisation.

The state is plain data in ``__slots__``: tuples shared between versions (copy-on-write), so
``apply`` copies a few references and never touches the state it was given.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, NotRequired, TypedDict

from .cards import (
    CARD_INDEX,
    CARD_NAMES,
    deck_cards,
    manilha_rank_for_vira,
    mineiro_strengths,
    parse_card,
    paulista_strengths,
)
from .rules import RuleFacts, RuleSet, facts_for

ACTION_KINDS = ("play", "raise", "accept", "run")
HAND_KINDS = ("normal", "eleven", "iron")
STATE_VERSION = 1

# The state's shapes (types only: plain tuples at run time).
Play = tuple[int, int, bool]  # (seat, card, face_down) of a card on the felt
Round = tuple[int, int, tuple[Play, ...]]  # (winner side or TIE, winner seat or TIE, plays)
Pending = tuple[int, int, tuple[int, ...]]  # a raise waiting: (asking seat, asked level, answer seats)
Hand = tuple[int, ...]
Deal = tuple[tuple[Hand, ...], int]  # a fixed deal: (hands, vira or -1)
# An action or an event as data (JSON from a socket, a scenario, the event log): loosely shaped on
# purpose, since it is checked (Action.from_dict) or only written out.
ActionDict = dict[str, Any]
Event = dict[str, Any]


class PlayView(TypedDict):
    """One card played, as a view or the last hand's summary shows it (``card`` None: face down and
    not the viewer's); a double play (online Mineiro) adds the other keys."""

    seat: int
    card: str | None
    face_down: bool
    double: NotRequired[bool]
    hidden: NotRequired[str | None]
    lost_value: NotRequired[bool]


class RoundSummary(TypedDict):
    number: int
    winner_side: int | None
    winner_seat: int | None
    plays: list[PlayView]


class LastHand(TypedDict):
    """The summary of the hand just finished (the state's ``last_hand``, docs/engine.md)."""

    hand_number: int
    dealer: int
    hand_kind: str
    vira: str | None
    winner_side: int | None
    points: int
    reason: str
    rounds: list[RoundSummary]
    unfinished_round: list[PlayView]
    score: list[int]


class IllegalAction(ValueError):
    """The action is not allowed now; ``reason`` says why in plain English."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True, slots=True)
class Action:
    """What a seat does: ``play`` (a card, maybe face down), ``raise``, ``accept`` or ``run``.

    A double play (online Mineiro, the round after a tied first round) is a ``play`` of ``card``
    face up with ``hidden`` face down beneath it; ``hidden`` is None for every other play.
    """

    kind: str
    card: str | None = None
    face_down: bool = False
    hidden: str | None = None

    @classmethod
    def from_dict(cls, data: object) -> Action:
        """From ``{"do": ..., "card": ..., "face_down": ...}`` or ``{"do": "play", "cards": [up, down]}``;
        ValueError if malformed."""
        if not isinstance(data, dict):
            raise ValueError('an action must be an object like {"do": "play", "card": "4C"}')
        kind = data.get("do")
        if kind not in ACTION_KINDS:
            raise ValueError(f'"do" must be one of {", ".join(ACTION_KINDS)}, not {kind!r}')
        face_down = data.get("face_down", False)
        if not isinstance(face_down, bool):
            raise ValueError(f"face_down must be true or false, not {face_down!r}")
        cards = data.get("cards")
        if cards is not None:
            if kind != "play":
                raise ValueError(f"a {kind} action takes no card")
            if not isinstance(cards, list) or len(cards) != 2:
                raise ValueError('"cards" must list two cards: [face up, face down beneath it]')
            if data.get("card") is not None or face_down:
                raise ValueError('a double play gives its two cards in "cards" only (no "card", no "face_down")')
            up, down = parse_card(cards[0]), parse_card(cards[1])
            if up == down:
                raise ValueError("a double play needs two different cards")
            return cls("play", cards[0], False, cards[1])
        if kind == "play":
            parse_card(data.get("card"))
            return cls("play", data["card"], face_down)
        if data.get("card") is not None or face_down:
            raise ValueError(f"a {kind} action takes no card")
        return _SIMPLE[kind]

    def to_dict(self) -> ActionDict:
        if self.kind == "play":
            if self.hidden is not None:
                return {"do": "play", "cards": [self.card, self.hidden]}
            return {"do": "play", "card": self.card, "face_down": self.face_down}
        return {"do": self.kind}


_SIMPLE = {k: Action(k) for k in ("raise", "accept", "run")}
RAISE, ACCEPT, RUN = _SIMPLE["raise"], _SIMPLE["accept"], _SIMPLE["run"]
# One Action object per card, so listing legal actions allocates nothing but the list.
PLAY = tuple(Action("play", name, False) for name in CARD_NAMES)
PLAY_DOWN = tuple(Action("play", name, True) for name in CARD_NAMES)
# Double plays, built on first use: (up, down) -> Action.
_DOUBLES: dict[tuple[int, int], Action] = {}


def double_play(up: int, down: int) -> Action:
    action = _DOUBLES.get((up, down))
    if action is None:
        action = _DOUBLES[(up, down)] = Action("play", CARD_NAMES[up], False, CARD_NAMES[down])
    return action


def strengths_for(facts: RuleFacts, vira: int) -> tuple[int, ...]:
    if facts.variant == "mineiro":
        return mineiro_strengths()
    return paulista_strengths(manilha_rank_for_vira(vira, facts.deck))


class MatchState:
    """Everything about one match.  Treat as immutable: ``apply`` returns a new one.

    Cards are ints (see cards.py).  ``rounds`` holds finished rounds of this hand as
    ``(winner_side or -1, winner_seat or -1, plays)``; ``trick`` the plays (the cards) of the round under
    way as ``(seat, card, face_down)``; ``hidden`` the face-down cards of a double play under way
    (online Mineiro) as ``(seat, card)``, beneath that seat's face-up card in ``trick``;
    ``pending`` a raise waiting for its answer as
    ``(asking_seat, asked_level, answer_seats)``; ``deciding`` the sides still to decide a
    hand of eleven/ten, first one deciding now.
    """

    __slots__ = (
        "rules",
        "facts",
        "rng",
        "score",
        "dealer",
        "hand_number",
        "fixed_deals",
        "hands",
        "stock",
        "vira",
        "strength",
        "trick",
        "hidden",
        "rounds",
        "leader",
        "turn",
        "stake",
        "level",
        "last_raise_side",
        "pending",
        "kind",
        "deciding",
        "last_hand",
        "over",
        "winner",
    )
    rules: RuleSet
    facts: RuleFacts
    rng: int | None  # None: a search playout's state, which stops at the end of the hand (bots/search.py)
    score: tuple[int, ...]
    dealer: int
    hand_number: int
    fixed_deals: tuple[Deal, ...]
    hands: tuple[Hand, ...]
    stock: tuple[int, ...]
    vira: int
    strength: tuple[int, ...]
    trick: tuple[Play, ...]
    hidden: tuple[tuple[int, int], ...]
    rounds: tuple[Round, ...]
    leader: int
    turn: int
    stake: int
    level: int
    last_raise_side: int
    pending: Pending | None
    kind: str
    deciding: tuple[int, ...]
    last_hand: LastHand | None
    over: bool
    winner: int | None

    def copy(self) -> MatchState:
        new = _blank()
        new.rules = self.rules
        new.facts = self.facts
        new.rng = self.rng
        new.score = self.score
        new.dealer = self.dealer
        new.hand_number = self.hand_number
        new.fixed_deals = self.fixed_deals
        new.hands = self.hands
        new.stock = self.stock
        new.vira = self.vira
        new.strength = self.strength
        new.trick = self.trick
        new.hidden = self.hidden
        new.rounds = self.rounds
        new.leader = self.leader
        new.turn = self.turn
        new.stake = self.stake
        new.level = self.level
        new.last_raise_side = self.last_raise_side
        new.pending = self.pending
        new.kind = self.kind
        new.deciding = self.deciding
        new.last_hand = self.last_hand
        new.over = self.over
        new.winner = self.winner
        return new

    def __repr__(self) -> str:
        return (
            f"<MatchState hand {self.hand_number} score {list(self.score)} dealer {self.dealer} "
            f"turn {self.turn} stake {self.stake}{' over' if self.over else ''}>"
        )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, MatchState) and to_json(self) == to_json(other)

    __hash__ = None  # type: ignore[assignment]  # equal by value and mutable: not hashable


def _blank() -> MatchState:
    return object.__new__(MatchState)


def _names(cards: Iterable[int]) -> list[str]:
    return [CARD_NAMES[c] for c in cards]


def _plays_to_json(plays: Iterable[Play]) -> list[list[Any]]:
    return [[seat, CARD_NAMES[card], down] for seat, card, down in plays]


def _plays_from_json(plays: Iterable[list[Any]]) -> tuple[Play, ...]:
    return tuple((seat, CARD_INDEX[card], down) for seat, card, down in plays)


def encode_deal(deal: object, facts: RuleFacts) -> Deal:
    """Check one fixed deal (``{"hands": [[...]], "vira": ...}``) and return its int form."""
    if not isinstance(deal, dict):
        raise ValueError('a deal must be an object with "hands" (and "vira" in Paulista)')
    hands = deal.get("hands")
    if not isinstance(hands, list) or len(hands) != facts.seats:
        raise ValueError(f"a deal needs {facts.seats} hands, one per seat")
    in_deck = set(deck_cards(facts.variant, facts.deck))
    seen: set[int] = set()

    def take(text: object) -> int:
        card = parse_card(text)
        if card not in in_deck:
            raise ValueError(f"bad card {text!r}: not in the {facts.deck} {facts.variant} deck")
        if card in seen:
            raise ValueError(f"duplicated card {text!r} in a deal")
        seen.add(card)
        return card

    encoded = []
    for seat, hand in enumerate(hands):
        if not isinstance(hand, list) or len(hand) != 3:
            raise ValueError(f"seat {seat} must get exactly 3 cards, got {hand!r}")
        encoded.append(tuple(take(c) for c in hand))
    vira = deal.get("vira")
    if facts.variant == "paulista":
        if vira is None:
            raise ValueError("a Paulista deal needs a vira")
        vira = take(vira)
    elif vira is not None:
        raise ValueError("Mineiro has no vira (its manilhas are fixed)")
    else:
        vira = -1
    unknown = set(deal) - {"hands", "vira"}
    if unknown:
        raise ValueError(f"unknown key(s) in a deal: {', '.join(sorted(map(str, unknown)))}")
    return tuple(encoded), vira


def _deal_to_json(deal: Deal) -> dict[str, Any]:
    hands, vira = deal
    out: dict[str, Any] = {"hands": [_names(h) for h in hands]}
    if vira >= 0:
        out["vira"] = CARD_NAMES[vira]
    return out


def to_json(state: MatchState) -> dict[str, Any]:
    """The whole state as JSON-able data (includes hidden cards and the RNG: server-side only)."""
    pending = state.pending
    return {
        "version": STATE_VERSION,
        "rules": state.rules.to_dict(),
        "rng": format(state.rng, "016x"),
        "score": list(state.score),
        "dealer": state.dealer,
        "hand_number": state.hand_number,
        "fixed_deals": [_deal_to_json(d) for d in state.fixed_deals],
        "hands": [_names(h) for h in state.hands],
        "stock": _names(state.stock),
        "vira": CARD_NAMES[state.vira] if state.vira >= 0 else None,
        "trick": _plays_to_json(state.trick),
        "hidden": [[seat, CARD_NAMES[card]] for seat, card in state.hidden],
        "rounds": [
            {"winner_side": side, "winner_seat": seat, "plays": _plays_to_json(plays)}
            for side, seat, plays in state.rounds
        ],
        "leader": state.leader,
        "turn": state.turn,
        "stake": state.stake,
        "level": state.level,
        "last_raise_side": state.last_raise_side,
        "pending": None
        if pending is None
        else {"seat": pending[0], "level": pending[1], "answer_seats": list(pending[2])},
        "kind": state.kind,
        "deciding": list(state.deciding),
        "last_hand": state.last_hand,
        "over": state.over,
        "winner": state.winner,
    }


def from_json(data: dict[str, Any]) -> MatchState:
    """Inverse of ``to_json``: ``to_json(from_json(d)) == d``."""
    if not isinstance(data, dict) or data.get("version") != STATE_VERSION:
        raise ValueError(f"not a match state of version {STATE_VERSION}")
    state = _blank()
    state.rules = RuleSet.from_dict(data["rules"])
    state.facts = facts = facts_for(state.rules)
    state.rng = int(data["rng"], 16)
    state.score = tuple(data["score"])
    state.dealer = data["dealer"]
    state.hand_number = data["hand_number"]
    state.fixed_deals = tuple(encode_deal(d, facts) for d in data["fixed_deals"])
    state.hands = tuple(tuple(CARD_INDEX[c] for c in h) for h in data["hands"])
    state.stock = tuple(CARD_INDEX[c] for c in data["stock"])
    state.vira = CARD_INDEX[data["vira"]] if data["vira"] is not None else -1
    state.strength = strengths_for(facts, state.vira)
    state.trick = _plays_from_json(data["trick"])
    # States saved before online Mineiro have no "hidden" (migration 0005 adds it to stored ones).
    state.hidden = tuple((seat, CARD_INDEX[card]) for seat, card in data.get("hidden", ()))
    state.rounds = tuple((r["winner_side"], r["winner_seat"], _plays_from_json(r["plays"])) for r in data["rounds"])
    state.leader = data["leader"]
    state.turn = data["turn"]
    state.stake = data["stake"]
    state.level = data["level"]
    state.last_raise_side = data["last_raise_side"]
    p = data["pending"]
    state.pending = None if p is None else (p["seat"], p["level"], tuple(p["answer_seats"]))
    state.kind = data["kind"]
    state.deciding = tuple(data["deciding"])
    state.last_hand = data["last_hand"]
    state.over = data["over"]
    state.winner = data["winner"]
    return state
