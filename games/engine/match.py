"""The transitions of a match: deal, play a card, raise the stake, answer, score, next hand.

``apply(state, seat, action)`` validates everything first and only then builds the new state,
so an IllegalAction always leaves the given state untouched. ``apply_with_moments`` is the same
transition, keeping the table as it stood right after each event it tells (a replay shows them).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from .cards import CARD_INDEX, CARD_NAMES, FACE_DOWN_STRENGTH, RANKS, deck_cards, manilha_rank_for_vira
from .rng import draw, next_value, seed_to_state
from .rules import RuleFacts, RuleSet, facts_for
from .state import (
    ACCEPT,
    PLAY,
    PLAY_DOWN,
    RAISE,
    RUN,
    Action,
    ActionDict,
    Event,
    IllegalAction,
    MatchState,
    Play,
    PlayView,
    RoundSummary,
    _blank,
    double_play,
    encode_deal,
    strengths_for,
)

TIE = -1
# `apply_with_moments` collects the table right after each event; `apply` passes None and keeps nothing.
Moments = list[MatchState] | None


# --- building a match -------------------------------------------------------------------------


def new_match(
    rules: RuleSet | dict[str, Any],
    seed: int | str,
    *,
    dealer: int | None = None,
    score: Sequence[int] | None = None,
    deals: Sequence[object] | None = None,
) -> MatchState:
    """A fresh match with its first hand dealt.

    ``dealer`` None draws the first dealer from the seeded RNG.  ``deals`` (fixed hands, for
    scenarios and tests) are used for the first hands in order; after them the seeded RNG deals.
    """
    if isinstance(rules, dict):
        rules = RuleSet.from_dict(rules)
    if not isinstance(rules, RuleSet):
        raise ValueError("rules must be a RuleSet")
    t = facts_for(rules)
    rng = seed_to_state(seed)
    if score is None:
        score = (0,) * t.sides
    if not isinstance(score, (list, tuple)) or len(score) != t.sides or any(type(p) is not int or p < 0 for p in score):
        raise ValueError(f"score must list {t.sides} whole non-negative numbers, one per side")
    if max(score) >= t.target:
        raise ValueError(f"a side already has {max(score)} points: the match ({t.target}) would be over")
    if dealer is None:
        rng, z = next_value(rng)
        dealer = z % t.seats
    elif type(dealer) is not int or not 0 <= dealer < t.seats:
        raise ValueError(f"dealer must be a seat number from 0 to {t.seats - 1}")
    if deals is None:
        deals = ()
    if not isinstance(deals, (list, tuple)):
        raise ValueError("deals must be a list")
    fixed = tuple(encode_deal(d, t) for d in deals)

    state = _blank()
    state.rules = rules
    state.facts = t
    state.rng = rng
    state.score = tuple(score)
    state.dealer = dealer
    state.hand_number = 0
    state.fixed_deals = fixed
    state.last_hand = None
    state.over = False
    state.winner = None
    _deal(state, [])
    return state


def _deal(state: MatchState, events: list[Event], moments: Moments = None) -> None:
    """Deal the next hand into ``state`` (a fresh copy owned by the caller)."""
    t = state.facts
    n = t.seats
    if state.fixed_deals:
        hands, vira = state.fixed_deals[0]
        state.fixed_deals = state.fixed_deals[1:]
        used = {c for h in hands for c in h}
        used.add(vira)
        stock = tuple(c for c in deck_cards(t.variant, t.deck) if c not in used)
    else:
        wanted = 3 * n + (1 if t.variant == "paulista" else 0)
        # rng is None only in a search playout's state, which never deals (_finish_hand stops it).
        state.rng, deck = draw(state.rng, deck_cards(t.variant, t.deck), wanted)  # type: ignore[arg-type]
        # Deal as at a real table: one card at a time round the seats, then turn the vira.
        hands = tuple(tuple(deck[s + n * k] for k in range(3)) for s in range(n))
        if t.variant == "paulista":
            vira = deck[3 * n]
            stock = tuple(deck[3 * n + 1 :])
        else:
            vira = -1
            stock = tuple(deck[3 * n :])
    state.hand_number += 1
    state.hands = hands
    state.stock = stock
    state.vira = vira
    state.strength = strengths_for(t, vira)
    state.trick = ()
    state.hidden = ()
    state.rounds = ()
    state.leader = state.turn = (state.dealer + 1) % n
    state.level = 0
    state.stake = t.base
    state.last_raise_side = TIE
    state.pending = None
    at_threshold = [side for side in range(t.sides) if state.score[side] >= t.threshold]
    if len(at_threshold) == t.sides:
        state.kind = "iron"
        state.deciding = ()
    elif at_threshold:
        state.kind = "eleven"
        state.stake = t.eleven_value
        # Sides decide in turn order starting after the dealer.
        order = [(state.dealer + k) % n for k in range(1, n + 1)]
        deciding = []
        for seat in order:
            side = t.side_of[seat]
            if side in at_threshold and side not in deciding:
                deciding.append(side)
        state.deciding = tuple(deciding)
    else:
        state.kind = "normal"
        state.deciding = ()
    _tell(
        events,
        moments,
        state,
        {
            "type": "hand_dealt",
            "hand_number": state.hand_number,
            "dealer": state.dealer,
            "vira": CARD_NAMES[vira] if vira >= 0 else None,
            "manilha_rank": RANKS[manilha_rank_for_vira(vira, t.deck)] if vira >= 0 else None,
            "hand_kind": state.kind,
            "deciding_sides": list(state.deciding),
            "stake": state.stake,
        },
    )


def _tell(events: list[Event], moments: Moments, new: MatchState, event: Event) -> None:
    """Say one event; for ``apply_with_moments`` also keep the table as it stands right after it.

    So every transition sets the state an event describes before it tells the event."""
    events.append(event)
    if moments is not None:
        moments.append(new.copy())


# --- small queries ----------------------------------------------------------------------------


def side_of(state_or_rules: MatchState | RuleSet, seat: int) -> int:
    """The side (team) a seat belongs to."""
    rules = state_or_rules.rules if isinstance(state_or_rules, MatchState) else state_or_rules
    return facts_for(rules).side_of[seat]


def is_over(state: MatchState) -> bool:
    return state.over


def match_winner(state: MatchState) -> int | None:
    """The winning side, or None while the match goes on."""
    return state.winner


def _ordered_after(t: RuleFacts, seat: int, seats: Iterable[int]) -> tuple[int, ...]:
    n = t.seats
    return tuple(sorted(seats, key=lambda s: (s - seat - 1) % n))


def in_double_round(state: MatchState) -> bool:
    """Online Mineiro, round 2 after a tied round 1: every seat plays two cards at once."""
    rounds = state.rounds
    return state.facts.online and len(rounds) == 1 and rounds[0][0] == TIE


def seats_to_act(state: MatchState) -> list[int]:
    """Seats that may act now, in the order the table expects them."""
    if state.over:
        return []
    t = state.facts
    if state.deciding:
        return list(_ordered_after(t, state.dealer, t.side_seats[state.deciding[0]]))
    if state.pending is not None:
        return list(state.pending[2])
    return [state.turn]


def legal_actions(state: MatchState, seat: int) -> list[Action]:
    """Every action ``seat`` may take now (empty when it is not this seat's moment)."""
    if state.over:
        return []
    t = state.facts
    if state.deciding:
        return [ACCEPT, RUN] if t.side_of[seat] == state.deciding[0] else []
    pending = state.pending
    if pending is not None:
        if seat not in pending[2]:
            return []
        return [ACCEPT, RAISE, RUN] if pending[1] < t.top_level else [ACCEPT, RUN]
    if seat != state.turn:
        return []
    hand = state.hands[seat]
    if t.online and in_double_round(state):  # the cheap test first: this is the hot path
        # Both remaining cards at once: either one face up, the other face down beneath it.
        actions = [double_play(up, down) for up in hand for down in hand if up != down]
    else:
        actions = [PLAY[c] for c in hand]
        if t.face_down and state.rounds:
            actions += [PLAY_DOWN[c] for c in hand]
    if state.kind == "normal" and state.level < t.top_level and state.last_raise_side != t.side_of[seat]:
        actions.append(RAISE)
    return actions


# --- the transition ---------------------------------------------------------------------------


def apply(state: MatchState, seat: int, action: Action | ActionDict) -> tuple[MatchState, list[Event]]:
    """The state after ``seat`` takes ``action``, with the events it produced.

    Raises IllegalAction (state untouched) when the action is not allowed now.
    """
    return _apply(state, seat, action, None)


def apply_with_moments(
    state: MatchState, seat: int, action: Action
) -> tuple[MatchState, list[Event], list[MatchState]]:
    """``apply``, with the table as it stood right after each event: (new state, events, moments).

    ``moments[i]`` is the state right after ``events[i]`` (the card on the felt before the round is
    scored, the round scored before the hand, the hand scored before the next deal...): a replay
    takes each seat's view of it. The last moment is the new state itself; only it may be acted
    on: in the moments before it the engine had not yet said who acts next.
    """
    moments: list[MatchState] = []
    new, events = _apply(state, seat, action, moments)
    moments[-1] = new
    return new, events, moments


def _apply(
    state: MatchState, seat: int, action: Action | ActionDict, moments: Moments
) -> tuple[MatchState, list[Event]]:
    if state.over:
        raise IllegalAction("the match is over; no more actions")
    t = state.facts
    if type(seat) is not int or not 0 <= seat < t.seats:
        raise IllegalAction(f"this match has no seat {seat!r}")
    if type(action) is not Action:
        if not isinstance(action, dict):
            raise IllegalAction(f"not an action: {action!r}")
        try:  # the web layer may pass the message's dict straight through
            action = Action.from_dict(action)
        except ValueError as error:
            raise IllegalAction(str(error)) from None
    kind = action.kind
    if kind == "play":
        return _play(state, t, seat, action, moments)
    if kind == "raise":
        return _raise_stake(state, t, seat, moments)
    if kind == "accept" or kind == "run":
        if state.deciding:
            return _decide_hand_of_eleven(state, t, seat, kind == "accept", moments)
        return _answer_raise(state, t, seat, kind == "accept", moments)
    raise IllegalAction(f"unknown action {kind!r}")


def _deciding_reason(state: MatchState, t: RuleFacts) -> str:
    word = "eleven" if t.variant == "paulista" else "ten"
    return f"side {state.deciding[0]} must first decide whether to play this hand of {word}"


def _play(
    state: MatchState, t: RuleFacts, seat: int, action: Action, moments: Moments
) -> tuple[MatchState, list[Event]]:
    if state.deciding:
        raise IllegalAction(_deciding_reason(state, t))
    if state.pending is not None:
        raise IllegalAction("a raise is waiting for its answer; no card may be played until it is answered")
    if seat != state.turn:
        raise IllegalAction(f"it is seat {state.turn}'s turn to play, not seat {seat}'s")
    card = CARD_INDEX.get(action.card)  # type: ignore[arg-type]  # None (no card) is not found: no check here
    hand = state.hands[seat]
    if card is None or card not in hand:
        raise IllegalAction(f"card {action.card!r} is not in seat {seat}'s hand")
    double = t.online and in_double_round(state)
    if double or action.hidden is not None:
        return _play_double(state, t, seat, action, card, hand, double, moments)
    down = action.face_down
    if down:
        if not t.face_down:
            raise IllegalAction("face-down cards are off in this match")
        if not state.rounds:
            raise IllegalAction("a card may be played face down only from round 2 on")

    new = state.copy()
    hands = list(state.hands)
    hands[seat] = tuple(c for c in hand if c != card)
    new.hands = tuple(hands)
    new.trick = trick = state.trick + ((seat, card, down),)
    round_number = len(state.rounds) + 1
    if down:  # the identity of a face-down card never leaves the state
        event = {"type": "card_played", "seat": seat, "round": round_number, "face_down": True}
    else:
        event = {"type": "card_played", "seat": seat, "round": round_number, "card": action.card, "face_down": False}
    events: list[Event] = []
    if len(trick) < t.seats:
        new.turn = (seat + 1) % t.seats
    _tell(events, moments, new, event)
    if len(trick) == t.seats:
        _finish_round(new, t, trick, round_number, events, moments)
    return new, events


def _play_double(
    state: MatchState,
    t: RuleFacts,
    seat: int,
    action: Action,
    card: int,
    hand: tuple[int, ...],
    double: bool,
    moments: Moments,
) -> tuple[MatchState, list[Event]]:
    """Online Mineiro's double play: ``card`` face up, ``action.hidden`` face down beneath it."""
    if not double:
        raise IllegalAction(
            "two cards at once are played only in online Mineiro, in the round after a tied first round"
        )
    if action.hidden is None or action.face_down:
        raise IllegalAction(
            "after a tied first round each seat plays its two cards at once: one face up, one face down beneath it"
        )
    hidden = CARD_INDEX.get(action.hidden)
    if hidden is None or hidden not in hand or hidden == card:
        raise IllegalAction(f"card {action.hidden!r} is not in seat {seat}'s hand")
    new = state.copy()
    hands = list(state.hands)
    hands[seat] = ()
    new.hands = tuple(hands)
    new.trick = trick = state.trick + ((seat, card, False),)
    new.hidden = state.hidden + ((seat, hidden),)
    # The hidden card's identity stays in the state until it is revealed.
    event = {"type": "card_played", "seat": seat, "round": 2, "card": action.card, "face_down": False, "double": True}
    events: list[Event] = []
    if len(trick) < t.seats:
        new.turn = (seat + 1) % t.seats
    _tell(events, moments, new, event)
    if len(trick) == t.seats:
        _finish_double_round(new, t, trick, events, moments)
    return new, events


def lost_value_seats(state: MatchState, trick: Iterable[Play], hidden: Iterable[tuple[int, int]]) -> tuple[int, ...]:
    """Seats whose face-up card loses its value: in a hand of ten it must not be lower than the
    card hidden beneath it (seed 002; equal cards keep their value, docs/engine.md)."""
    if state.kind != "eleven":
        return ()
    strength = state.strength
    beneath = dict(hidden)
    return tuple(seat for seat, card, _ in trick if strength[card] < strength[beneath[seat]])


def _finish_double_round(
    new: MatchState, t: RuleFacts, trick: tuple[Play, ...], events: list[Event], moments: Moments
) -> None:
    """The face-up cards are round 2; if they tie, the hidden ones are shown and are round 3."""
    lost = lost_value_seats(new, trick, new.hidden)
    beneath = dict(new.hidden)
    for seat in lost:  # shown, so that everyone sees why the face-up card counts for nothing
        card = next(c for s, c, _ in trick if s == seat)
        _tell(
            events,
            moments,
            new,
            {
                "type": "card_lost_value",
                "seat": seat,
                "card": CARD_NAMES[card],
                "hidden": CARD_NAMES[beneath[seat]],
            },
        )
    scored = tuple((seat, card, seat in lost) for seat, card, _ in trick)
    decided = _finish_round(new, t, trick, 2, events, moments, scored=scored)
    if decided:
        return
    # Turned up, the hidden cards lie on the felt as round 3's.
    new.trick = revealed = tuple((seat, beneath[seat], False) for seat, _, _ in trick)
    _tell(
        events,
        moments,
        new,
        {"type": "hidden_revealed", "plays": [{"seat": seat, "card": CARD_NAMES[c]} for seat, c, _ in revealed]},
    )
    _finish_round(new, t, revealed, 3, events, moments)


def _round_winner(t: RuleFacts, strength: tuple[int, ...], plays: Iterable[Play]) -> tuple[int, int]:
    """(winner side, winner seat), both TIE for a tied round; face-down plays count for nothing."""
    best = FACE_DOWN_STRENGTH
    for _, card, down in plays:
        s = FACE_DOWN_STRENGTH if down else strength[card]
        if s > best:
            best = s
    winner_seat = TIE
    winner_side = TIE
    if best != FACE_DOWN_STRENGTH:  # all face down: the round ties
        side_of = t.side_of
        for seat, card, down in plays:
            if not down and strength[card] == best:
                side = side_of[seat]
                if winner_seat == TIE:
                    winner_seat, winner_side = seat, side
                elif side != winner_side:  # equal top cards of different sides
                    winner_seat = winner_side = TIE
                    break
    return winner_side, winner_seat


def _finish_round(
    new: MatchState,
    t: RuleFacts,
    trick: tuple[Play, ...],
    round_number: int,
    events: list[Event],
    moments: Moments,
    scored: tuple[Play, ...] | None = None,
) -> bool:
    """Score the round (``scored``: the plays as they count, if not as they lie) and end the hand
    when §5 decides it; True when the hand is over."""
    winner_side, winner_seat = _round_winner(t, new.strength, trick if scored is None else scored)
    new.rounds = rounds = new.rounds + ((winner_side, winner_seat, trick),)
    new.trick = ()
    if winner_side == TIE:
        event = {"type": "round_tied", "round": round_number}
        leader = new.leader  # the seat that led a tied round leads again
    else:
        event = {
            "type": "round_won",
            "round": round_number,
            "side": winner_side,
            "seat": winner_seat,
            "card": CARD_NAMES[next(c for s, c, _ in trick if s == winner_seat)],
        }
        leader = winner_seat
    outcome = hand_outcome([r[0] for r in rounds], t.all_tied_dealer, t.side_of[new.dealer])
    if outcome is None:
        new.leader = new.turn = leader
    _tell(events, moments, new, event)
    if outcome is None:
        return False
    side, reason = outcome
    _finish_hand(new, t, side, _won_points(new, t, side), reason, events, moments)
    return True


def _won_points(new: MatchState, t: RuleFacts, side: int | None) -> int:
    """What winning the hand by its cards scores: the stake, or in online Mineiro after an
    accepted nine, what the winner lacks to reach the target (the nine wins the match)."""
    if side is None:
        return 0
    if t.top_wins_match and new.level == t.top_level:
        return max(t.target - new.score[side], 0)
    return new.stake


def hand_outcome(results: Sequence[int], all_tied_dealer: bool, dealer_side: int) -> tuple[int | None, str] | None:
    """(winner side or None, reason) once the hand is decided by its rounds, else None.

    ``results`` are the finished rounds' winner sides, TIE (-1) for a tied round (RULES §5).
    """
    count = len(results)
    if count < 2:
        return None
    r1, r2 = results[0], results[1]
    if count == 2:
        if r1 != TIE and r1 == r2:
            return r1, "two_rounds"
        if r1 == TIE and r2 != TIE:
            return r2, "tie_then_round2"
        if r1 != TIE and r2 == TIE:
            return r1, "round1_then_tie"
        return None
    r3 = results[2]
    if r3 != TIE and (r3 == r1 or r3 == r2):
        return r3, "two_rounds"
    if r3 == TIE:
        if r1 != TIE:
            return r1, "round3_tie_round1"
        if all_tied_dealer:
            return dealer_side, "all_tied_dealer"
        return None, "all_tied_nobody"
    if r1 == TIE:
        return r3, "ties_then_round3"
    # Only possible with 3-4 sides: three rounds won by three different sides.
    return r1, "three_winners_round1"


def _finish_hand(
    new: MatchState, t: RuleFacts, side: int | None, points: int, reason: str, events: list[Event], moments: Moments
) -> None:
    """Score the hand, record its summary, and end the match or deal the next hand.

    A state whose ``rng`` is None is a search playout's (bots/search.py), which stops at the end
    of the hand: it gets the score and the end of the match, but no summary, events or next deal
    (a third of a playout's cost was spent on them)."""
    if new.rng is None:
        if side is not None:
            _score(new, side, points)
            if _won_match(new, t, side):
                return
        new.hand_number += 1
        return
    rounds: list[RoundSummary] = [
        {
            "number": i + 1,
            "winner_side": None if ws == TIE else ws,
            "winner_seat": None if wseat == TIE else wseat,
            "plays": [{"seat": s, "card": None if down else CARD_NAMES[c], "face_down": down} for s, c, down in plays],
        }
        for i, (ws, wseat, plays) in enumerate(new.rounds)
    ]
    unfinished: list[PlayView] = [
        {"seat": s, "card": None if down else CARD_NAMES[c], "face_down": down} for s, c, down in new.trick
    ]
    if new.hidden:
        _mark_double_plays(new, rounds, unfinished)
    if side is None:
        event = {"type": "hand_void", "hand_number": new.hand_number, "reason": reason}
    else:
        _score(new, side, points)
        event = {
            "type": "hand_won",
            "hand_number": new.hand_number,
            "side": side,
            "points": points,
            "reason": reason,
            "score": list(new.score),
        }
    new.last_hand = {
        "hand_number": new.hand_number,
        "dealer": new.dealer,
        "hand_kind": new.kind,
        "vira": CARD_NAMES[new.vira] if new.vira >= 0 else None,
        "winner_side": side,
        "points": points if side is not None else 0,
        "reason": reason,
        "rounds": rounds,
        "unfinished_round": unfinished,
        "score": list(new.score),
    }
    _tell(events, moments, new, event)
    if new.hidden and len(new.rounds) == 3:  # revealed: they lie face up as round 3 now
        new.hidden = ()
    if side is not None and _won_match(new, t, side):
        _tell(events, moments, new, {"type": "match_won", "side": side, "score": list(new.score)})
        return
    new.dealer = (new.dealer + 1) % t.seats
    _deal(new, events, moments)


def _score(new: MatchState, side: int, points: int) -> None:
    score = list(new.score)
    score[side] += points
    new.score = tuple(score)


def _won_match(new: MatchState, t: RuleFacts, side: int) -> bool:
    """End the match if ``side`` has reached the target; whether it did."""
    if new.score[side] < t.target:
        return False
    new.over = True
    new.winner = side
    new.pending = None
    new.deciding = ()
    return True


def _mark_double_plays(new: MatchState, rounds: list[RoundSummary], unfinished: list[PlayView]) -> None:
    """The summary's double plays: ``double``, ``lost_value``, and ``hidden`` only once shown
    (the face-up cards tied, or this seat's face-up card lost its value); else null."""
    if len(rounds) >= 2:
        plays, trick = rounds[1]["plays"], new.rounds[1][2]
        lost = set(lost_value_seats(new, trick, new.hidden))
        shown = len(rounds) == 3
    else:  # a raise run from in the middle of the double round: nothing was shown
        plays, lost, shown = unfinished, set(), False
    beneath = dict(new.hidden)
    for play in plays:
        seat = play["seat"]
        play["double"] = True
        play["lost_value"] = seat in lost
        play["hidden"] = CARD_NAMES[beneath[seat]] if (shown or seat in lost) and seat in beneath else None


def _raise_stake(state: MatchState, t: RuleFacts, seat: int, moments: Moments) -> tuple[MatchState, list[Event]]:
    if state.deciding:
        raise IllegalAction(_deciding_reason(state, t))
    if state.kind == "eleven":
        word = "eleven" if t.variant == "paulista" else "ten"
        raise IllegalAction(f"nobody may raise in a hand of {word}")
    if state.kind == "iron":
        raise IllegalAction("nobody may raise in an iron hand")
    side = t.side_of[seat]
    pending = state.pending
    new = state.copy()
    if pending is None:
        if seat != state.turn:
            raise IllegalAction(f"only seat {state.turn}, whose turn it is to play, may raise now")
        if state.level >= t.top_level:
            raise IllegalAction("the hand is already worth twelve; there is no raise past twelve")
        if state.last_raise_side == side:
            raise IllegalAction(f"side {side} made the last raise; only another side may raise next")
        asked = state.level + 1
        answer_seats = _answerers(t, seat)
    else:
        asker, asked_before, answerers = pending
        if t.side_of[asker] == side:
            raise IllegalAction(f"side {side} already asked for {t.ladder[asked_before]}; wait for the answer")
        if seat not in answerers:
            raise IllegalAction(f"seat {seat} does not answer this raise (seats {list(answerers)} do)")
        if asked_before >= t.top_level:
            raise IllegalAction("twelve can only be accepted or run from; there is no raise past twelve")
        # Raising back accepts the value that was asked.
        new.level = asked_before
        new.stake = t.ladder[asked_before]
        asked = asked_before + 1
        answer_seats = _answerers(t, seat, back_to=asker)
    new.pending = (seat, asked, answer_seats)
    new.last_raise_side = side
    events: list[Event] = []
    _tell(
        events,
        moments,
        new,
        {
            "type": "raise_asked",
            "seat": seat,
            "side": side,
            "value": t.ladder[asked],
            "name": t.raise_names[asked],
            "stake": new.stake,
            "counter": pending is not None,
            "answer_seats": list(answer_seats),
        },
    )
    return new, events


def _answerers(t: RuleFacts, seat: int, back_to: int | None = None) -> tuple[int, ...]:
    """Who answers a raise by ``seat``: the other side (both partners), or, without partnership
    at 4 seats, one seat for everyone else: the next seat, or for a raise-back the seat that asked."""
    if t.rules.partnership or t.seats == 2:
        side = t.side_of[seat]
        return _ordered_after(t, seat, [s for s in range(t.seats) if t.side_of[s] != side])
    if back_to is not None:
        return (back_to,)
    return ((seat + 1) % t.seats,)


def _answer_raise(
    state: MatchState, t: RuleFacts, seat: int, accept: bool, moments: Moments
) -> tuple[MatchState, list[Event]]:
    verb = "accept" if accept else "run from"
    pending = state.pending
    if pending is None:
        raise IllegalAction(f"nothing was asked; there is no raise to {verb}")
    asker, asked, answerers = pending
    asker_side = t.side_of[asker]
    if t.side_of[seat] == asker_side:
        raise IllegalAction(f"side {asker_side} asked for {t.ladder[asked]}; it cannot answer its own raise")
    if seat not in answerers:
        raise IllegalAction(f"seat {seat} does not answer this raise (seats {list(answerers)} do)")
    new = state.copy()
    new.pending = None
    side = t.side_of[seat]
    events: list[Event] = []
    if accept:
        new.level = asked
        new.stake = t.ladder[asked]
        _tell(events, moments, new, {"type": "raise_accepted", "seat": seat, "side": side, "value": new.stake})
        return new, events
    _tell(
        events,
        moments,
        new,
        {
            "type": "raise_run",
            "seat": seat,
            "side": side,
            "refused": t.ladder[asked],
            "points": state.stake,
            "to_side": asker_side,
        },
    )
    _finish_hand(new, t, asker_side, state.stake, "ran_from", events, moments)
    return new, events


def _decide_hand_of_eleven(
    state: MatchState, t: RuleFacts, seat: int, accept: bool, moments: Moments
) -> tuple[MatchState, list[Event]]:
    side = t.side_of[seat]
    deciding = state.deciding[0]
    if side != deciding:
        raise IllegalAction(f"side {deciding} decides this hand, not side {side}")
    new = state.copy()
    new.deciding = state.deciding[1:]
    events: list[Event] = []
    if accept:
        _tell(events, moments, new, {"type": "eleven_accepted", "seat": seat, "side": side, "value": t.eleven_value})
        return new, events
    if t.sides == 2:
        to_side = 1 - side
    else:
        # 3-4 sides: the first seat after the refuser whose side is not at the threshold scores.
        n = t.seats
        to_side = next(
            t.side_of[(seat + k) % n] for k in range(1, n) if state.score[t.side_of[(seat + k) % n]] < t.threshold
        )
    new.deciding = ()
    _tell(events, moments, new, {"type": "eleven_refused", "seat": seat, "side": side, "points": t.base})
    _finish_hand(new, t, to_side, t.base, "eleven_refused", events, moments)
    return new, events
