"""What one seat (or a spectator) may see of a match: the only thing templates and bots get.

Built from the full state by copying out the visible parts; nothing here returns deck order,
the RNG, another seat's unplayed cards (except partners' in a hand of eleven/ten) or the
identity of any face-down card not your own.
"""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict

from .cards import CARD_NAMES, MINEIRO_MANILHAS, RANKS, manilha_rank_for_vira
from .match import TIE, in_double_round, legal_actions, seats_to_act
from .rules import RuleFacts
from .state import ActionDict, LastHand, MatchState, Play, PlayView, RoundSummary


class RaiseOffer(TypedDict):
    """The raise the hand could get next: its value and its name (``truco``, ``six``...)."""

    value: int
    name: str | None


class PendingRaise(TypedDict):
    seat: int
    side: int
    value: int
    name: str | None
    answer_seats: list[int]


class HandOfEleven(TypedDict):
    sides: list[int]
    deciding_side: int | None
    deciding_seats: list[int]
    decided: bool
    value: int
    run_value: int


class SeatView(TypedDict):
    """What ``seat_view`` and ``spectator_view`` return (each key in docs/engine.md): JSON-able, a plain
    dict at run time. ``seat`` and ``side`` are None in a spectator's view."""

    seat: int | None
    side: int | None
    rules: dict[str, Any]
    seats: int
    sides: list[list[int]]
    hand_number: int
    dealer: int
    mao: int
    vira: str | None
    manilha_rank: str | None
    manilhas: list[str]
    hand: list[str]
    partner_hands: dict[str, list[str]]
    cards_left: list[int]
    round: int | None
    trick: list[PlayView]
    double_round: bool
    rounds: list[RoundSummary]
    score: list[int]
    target: int
    stake: int
    next_raise: RaiseOffer | None
    pending_raise: PendingRaise | None
    hand_kind: str | None
    hand_of_eleven: HandOfEleven | None
    iron_hand: bool
    turn: int | None
    seats_to_act: list[int]
    legal_actions: list[ActionDict]
    last_hand: LastHand | None
    match_over: bool
    match_winner: int | None
    # Never set by the engine: the site (or the arena) adds the partner's sign for a bot's decision
    # (bots/signs.py), which only the two partners ever see.
    partner_signal: NotRequired[str | None]


def seat_view(state: MatchState, seat: int) -> SeatView:
    """JSON-able view for ``seat``; every key is documented in docs/engine.md."""
    t = state.facts
    if type(seat) is not int or not 0 <= seat < t.seats:
        raise ValueError(f"this match has no seat {seat!r}")
    return _view(state, seat)


def spectator_view(state: MatchState) -> SeatView:
    """Like a seat view, for someone with no seat: no hand, no legal actions."""
    return _view(state, None)


def _play_dict(play: Play, viewer: int | None) -> PlayView:
    seat, card, down = play
    shown = not down or seat == viewer  # a face-down card is known to its owner only
    return {"seat": seat, "card": CARD_NAMES[card] if shown else None, "face_down": down}


def _trick_play_dict(play: Play, viewer: int | None, beneath: dict[int, int]) -> PlayView:
    out = _play_dict(play, viewer)
    seat = play[0]
    if seat in beneath:  # a double play: the card beneath is its owner's secret until revealed
        out["double"] = True
        out["hidden"] = CARD_NAMES[beneath[seat]] if seat == viewer else None
    return out


def _manilhas(state: MatchState, t: RuleFacts) -> tuple[str | None, list[str]]:
    if t.variant == "mineiro":
        return None, [CARD_NAMES[c] for c in MINEIRO_MANILHAS]
    rank = manilha_rank_for_vira(state.vira, t.deck)
    return RANKS[rank], [RANKS[rank] + suit for suit in "CHSD"]


def _view(state: MatchState, viewer: int | None) -> SeatView:
    t = state.facts
    over = state.over
    side = t.side_of[viewer] if viewer is not None else None
    manilha_rank, manilhas = _manilhas(state, t)

    partner_hands: dict[str, list[str]] = {}
    if (
        side is not None  # a seat's view (side is None exactly when viewer is)
        and not over
        and state.kind == "eleven"
        and t.rules.partnership
        and state.score[side] >= t.threshold
    ):
        # Hand of eleven/ten: the side at the threshold sees all its members' cards.
        partner_hands = {str(s): [CARD_NAMES[c] for c in state.hands[s]] for s in t.side_seats[side] if s != viewer}

    # Online Mineiro: the cards beneath round 2's double plays, by seat. A table at rest has them only
    # while round 2 is on the felt (its end ends the hand); the moments of `apply_with_moments` also
    # show round 2 finished, with round 3 (the cards turned up) on the felt or the hand scored.
    beneath = dict(state.hidden)
    round_two = len(state.rounds) == 1

    pending = state.pending
    next_raise: RaiseOffer | None
    if over or state.kind != "normal":
        next_raise = None
    else:
        level = pending[1] if pending is not None else state.level
        next_raise = None if level >= t.top_level else {"value": t.ladder[level + 1], "name": t.raise_names[level + 1]}

    eleven: HandOfEleven | None = None
    if state.kind == "eleven" and not over:
        deciding = state.deciding[0] if state.deciding else None
        eleven = {
            "sides": [s for s in range(t.sides) if state.score[s] >= t.threshold],
            "deciding_side": deciding,
            "deciding_seats": seats_to_act(state) if deciding is not None else [],
            "decided": deciding is None,
            "value": t.eleven_value,
            "run_value": t.base,
        }

    return {
        "seat": viewer,
        "side": side,
        "rules": t.rules.to_dict(),
        "seats": t.seats,
        "sides": [list(seats) for seats in t.side_seats],
        "hand_number": state.hand_number,
        "dealer": state.dealer,
        "mao": (state.dealer + 1) % t.seats,
        "vira": CARD_NAMES[state.vira] if state.vira >= 0 else None,
        "manilha_rank": manilha_rank,
        "manilhas": manilhas,
        "hand": [CARD_NAMES[c] for c in state.hands[viewer]] if viewer is not None and not over else [],
        "partner_hands": partner_hands,
        "cards_left": [len(h) for h in state.hands] if not over else [0] * t.seats,
        "round": len(state.rounds) + 1 if not over else None,
        "trick": [_trick_play_dict(p, viewer, beneath if round_two else {}) for p in state.trick],
        "double_round": not over and in_double_round(state),
        "rounds": [
            {
                "number": i + 1,
                "winner_side": None if ws == TIE else ws,
                "winner_seat": None if wseat == TIE else wseat,
                "plays": [_trick_play_dict(p, viewer, beneath) if i == 1 else _play_dict(p, viewer) for p in plays],
            }
            for i, (ws, wseat, plays) in enumerate(state.rounds)
        ]
        if not over
        else [],
        "score": list(state.score),
        "target": t.target,
        "stake": state.stake,
        "next_raise": next_raise,
        "pending_raise": None
        if pending is None
        else {
            "seat": pending[0],
            "side": t.side_of[pending[0]],
            "value": t.ladder[pending[1]],
            "name": t.raise_names[pending[1]],
            "answer_seats": list(pending[2]),
        },
        "hand_kind": state.kind if not over else None,
        "hand_of_eleven": eleven,
        "iron_hand": state.kind == "iron" and not over,
        "turn": None if over else state.turn,
        "seats_to_act": seats_to_act(state),
        "legal_actions": [a.to_dict() for a in legal_actions(state, viewer)] if viewer is not None else [],
        "last_hand": _summary_copy(state.last_hand),  # the state's own dict must stay untouched
        "match_over": over,
        "match_winner": state.winner,
    }


def _summary_copy(last: LastHand | None) -> LastHand | None:
    """The last hand's summary, sharing nothing mutable with the state's: its lists (the rounds, their
    plays, the unfinished round, the score) copied by hand, as `copy.deepcopy` was half of a view's
    time (a replay takes hundreds of views)."""
    if last is None:
        return None
    return {  # type: ignore[return-value]  # the same keys as `last`, its lists copied
        **last,
        "rounds": [{**r, "plays": [dict(p) for p in r["plays"]]} for r in last["rounds"]],
        "unfinished_round": [dict(p) for p in last["unfinished_round"]],
        "score": list(last["score"]),
    }
