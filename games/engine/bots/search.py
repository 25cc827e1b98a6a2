"""The search bot (``expert``): sampled worlds, played out, scored by the chance to win the match.

At each decision it rebuilds the hand from its seat's view alone, deals the cards it cannot see
at random many times (each deal a "world"), weights each world by how likely the other side's
actions so far are with the cards that world gives them (a raise in round 3 over a visible trick
says more than a blind one in round 1), and for each legal action plays every world out to the
end of the hand with a fast policy for all seats. The action whose worlds end with the best
chance of winning the **match** at the resulting score wins (``match_chances``: a point is worth
more at 10-11 than at 0-0). Raises, counter-raises, bluffs, runs, hands of eleven/ten and
face-down cards are all just actions compared this way.

Deterministic for a given ``rng``: the worlds come from it, the fast policy draws nothing, and the
budget is a number of playouts (``max_ms`` is an optional wall-clock stop for live tables; with it
the choice may depend on machine load).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any, TypedDict, cast

from ..cards import CARD_INDEX, MANILHA_BASE, deck_cards
from ..match import TIE, apply, in_double_round, legal_actions, seats_to_act
from ..rules import RuleFacts, RuleSet, facts_for
from ..state import (
    ACCEPT,
    PLAY,
    RAISE,
    RUN,
    Action,
    ActionDict,
    Hand,
    MatchState,
    Play,
    _blank,
    double_play,
    strengths_for,
)
from ..view import SeatView
from .reading import hand_winner
from .signs import partner_seat, partner_sign_in_hand
from .strategic import match_chances


@dataclass(frozen=True)
class SearchBudget:
    """How much a decision may think: ``playouts`` in all (split over the candidate actions), and an
    optional wall-clock cap in milliseconds (stops early; None keeps the decision deterministic)."""

    playouts: int = 180
    max_ms: float | None = None
    # Candidate worlds drawn before weighting; the ``playouts // actions`` kept are drawn from them
    # in proportion to their weights.
    pool_factor: int = 3


DEFAULT_BUDGET = SearchBudget()
# Fewer than this many worlds per action is noise, whatever the budget says.
MIN_WORLDS = 8

# The fast policy's bars (chance to win the hand, from the seat's own cards and the table).
RAISE_BAR = 0.8
RERAISE_BAR = 0.85
ACCEPT_MARGIN = 0.05
ELEVEN_BAR = 0.45
RAISE_CARD = 7  # an A (common strength 7) or better
# With a partner whose cards are unknown, each future round is also won by the partner this often.
PARTNER_ROUND = 0.25

# How likely a raise is, given the raiser's chance c of winning the hand as it sees it: a floor of
# bluffs, then a steep rise around RAISE_MID (logistic, width RAISE_WIDTH).  The same curve, milder,
# for having accepted (or raised) a hand that now stands above its base value.
RAISE_FLOOR, RAISE_MID, RAISE_WIDTH = 0.12, 0.62, 0.08
SHOWED_FLOOR, SHOWED_MID, SHOWED_WIDTH = 0.3, 0.45, 0.12
# The partner's sign (bots/signs.py): a world whose partner holds another best card keeps this weight,
# and with a sign the worlds are drawn from this many times the deals needed.
SIGN_DOUBT = 0.02
SIGN_POOL_FACTOR = 8

# The shapes of a decision (types only).
Slots = list[tuple[int, int]]  # (seat, how many unseen cards it holds)
Down = tuple[str, int, int]  # (where: "round", "trick" or "beneath", round index, play index)
Curve = tuple[float, float, float]  # (floor, mid, width) of a logistic
Evidence = list[tuple[int, Curve]]  # (seat, or -1 for the side's most confident seat; its curve)


class SearchStats(TypedDict):
    worlds: int
    playouts: int
    candidates: int
    stopped_early: bool


def search_bot(view: SeatView, rng: random.Random, budget: SearchBudget | None = None) -> ActionDict:
    """The action (as in ``view["legal_actions"]``) the search prefers; ``budget`` None is
    ``DEFAULT_BUDGET`` as it stands when called."""
    return Search(view, rng, budget).best()


class Search:
    """One decision: the rebuilt hand, the worlds, and the playouts; ``stats`` says what it did."""

    _downs: list[Down]  # set by _rebuild
    _needed: int

    def __init__(self, view: SeatView, rng: random.Random, budget: SearchBudget | None = None):
        self.view = view
        self.rng = rng
        self.budget = DEFAULT_BUDGET if budget is None else budget
        self.rules = RuleSet.from_dict(view["rules"])
        self.t = facts_for(self.rules)
        self.seat = cast(int, view["seat"])  # a seat's view: the bot decides for a seat
        self.side = self.t.side_of[self.seat]
        self.stats: SearchStats = {"worlds": 0, "playouts": 0, "candidates": 0, "stopped_early": False}

    # --- the decision ---------------------------------------------------------------------

    def best(self) -> ActionDict:
        legal = self.view["legal_actions"]
        if not legal:
            raise ValueError(f"seat {self.seat} has nothing to do now")
        if len(legal) == 1:
            return legal[0]
        skeleton, slots, pool = self._rebuild()
        candidates = self._candidates(skeleton)
        self.stats["candidates"] = len(candidates)
        if len(candidates) == 1:
            return candidates[0].to_dict()
        per_action = max(MIN_WORLDS, self.budget.playouts // len(candidates))
        worlds = self._worlds(skeleton, slots, pool, per_action)
        values = self._evaluate(worlds, candidates)
        return _pick(candidates, values, self._raise_is_free()).to_dict()

    def _raise_is_free(self) -> bool:
        """Whether losing the hand at its current stake already loses the match (their score plus
        the stake reaches the target).  Then a raise costs nothing whatever happens after it: taken
        and lost, or raised back and run from, it loses the match that losing the hand loses anyway;
        and the other side may run from it.  The playouts never show that run when my side's score
        plus the stake is the match too (the fast policy always takes a raise whose refusal hands
        the other side the match), so there the raise and the card tie exactly in every world; a
        real player may still run (random runs from a twelve half the time; `hard` never does)."""
        view = self.view
        theirs = max(p for s, p in enumerate(view["score"]) if s != self.side)
        return theirs + view["stake"] >= view["target"]

    def _candidates(self, state: MatchState) -> list[Action]:
        """The legal actions worth comparing: every face-up card, the weakest card face down (the
        only card worth hiding is one thrown away), raise, accept, run."""
        actions = legal_actions(state, self.seat)
        if sorted(map(str, (a.to_dict() for a in actions))) != sorted(map(str, self.view["legal_actions"])):
            # The rebuilt hand must offer exactly the view's actions; if it ever does not, the
            # view is the authority (and the search still compares only legal actions).
            actions = [Action.from_dict(a) for a in self.view["legal_actions"]]
        st = state.strength
        if any(a.hidden is not None for a in actions):
            # Online Mineiro's double play: the stronger card face up is never worse (the face-up
            # cards decide unless they tie, and a lower face-up card can lose its value), so the
            # other order is not worth a playout.
            actions = [
                a for a in actions if a.hidden is None or st[CARD_INDEX[cast(str, a.card)]] >= st[CARD_INDEX[a.hidden]]
            ]
        downs = [a for a in actions if a.kind == "play" and a.face_down]
        if downs:
            weakest = min(downs, key=lambda a: st[CARD_INDEX[cast(str, a.card)]])  # a play names its card
            actions = [a for a in actions if not (a.kind == "play" and a.face_down) or a is weakest]
        return actions

    def _evaluate(self, worlds: list[MatchState], candidates: list[Action]) -> list[float]:
        deadline = None if self.budget.max_ms is None else time.perf_counter() + self.budget.max_ms / 1000
        totals = [0.0] * len(candidates)
        done = 0
        value_of = self._value_fn()
        for world in worlds:
            for i, action in enumerate(candidates):
                after, _ = apply(world, self.seat, action)
                totals[i] += value_of(_play_out(after, world.hand_number))
            done += 1
            self.stats["playouts"] += len(candidates)
            if deadline is not None and time.perf_counter() > deadline:
                self.stats["stopped_early"] = done < len(worlds)
                break
        return [total / max(done, 1) for total in totals]

    def _value_fn(self) -> Callable[[MatchState], float]:
        """The chance my side wins the match from a state at the end of the hand."""
        t, side = self.t, self.side
        mwp = match_chances(t.ladder, t.target)

        def value(state: MatchState) -> float:
            if state.over:
                return 1.0 if state.winner == side else 0.0
            score = state.score
            theirs = max(p for s, p in enumerate(score) if s != side)
            return mwp(score[side], theirs)

        return value

    # --- rebuilding the hand from the view ------------------------------------------------

    def _rebuild(self) -> tuple[MatchState, Slots, list[int]]:
        """A state with everything the view shows, the unseen cards left as slots to fill.

        Returns (skeleton state, slots, pool): slots are (kind, seat, count) with kind "hand"
        (unplayed cards), "down" (a face-down card on the felt or in a finished round, by index),
        "beneath" (the hidden card of a double play); pool is every card the seat cannot see.
        """
        view, t = self.view, self.t
        st = strengths_for(t, CARD_INDEX[view["vira"]] if view["vira"] else -1)
        known: set[int] = set()
        hands: list[Hand | None] = [None] * t.seats
        hands[self.seat] = own = tuple(CARD_INDEX[c] for c in view["hand"])
        known.update(own)
        for s, cards in view["partner_hands"].items():
            hands[int(s)] = partner = tuple(CARD_INDEX[c] for c in cards)
            known.update(partner)
        vira = CARD_INDEX[view["vira"]] if view["vira"] else -1
        if vira >= 0:
            known.add(vira)
        downs: list[Down] = []  # (where, index) of face-down cards whose identity is unknown
        rounds: list[list[Any]] = []  # [winner side, winner seat, plays]
        for r_index, rnd in enumerate(view["rounds"]):
            plays: list[Play] = []
            for p_index, p in enumerate(rnd["plays"]):
                card = CARD_INDEX[p["card"]] if p["card"] else -1
                if card >= 0:
                    known.add(card)
                else:
                    downs.append(("round", r_index, p_index))
                plays.append((p["seat"], card, p["face_down"]))
            ws = TIE if rnd["winner_side"] is None else rnd["winner_side"]
            wseat = TIE if rnd["winner_seat"] is None else rnd["winner_seat"]
            rounds.append([ws, wseat, plays])
        trick: list[Play] = []
        hidden: list[tuple[int, int]] = []
        for p_index, p in enumerate(view["trick"]):
            card = CARD_INDEX[p["card"]] if p["card"] else -1
            if card >= 0:
                known.add(card)
            else:
                downs.append(("trick", 0, p_index))
            trick.append((p["seat"], card, p["face_down"]))
            if p.get("double"):
                beneath = CARD_INDEX[cast(str, p["hidden"])] if p.get("hidden") else -1
                if beneath >= 0:
                    known.add(beneath)
                else:
                    downs.append(("beneath", 0, len(hidden)))
                hidden.append((p["seat"], beneath))
        pool = [c for c in deck_cards(t.variant, t.deck) if c not in known]
        slots = [(s, view["cards_left"][s]) for s in range(t.seats) if hands[s] is None]

        state = _blank()
        state.rules, state.facts = self.rules, t
        state.rng = None  # a playout's state: the engine stops it at the end of the hand (no deal)
        state.score = tuple(view["score"])
        state.dealer = view["dealer"]
        state.hand_number = view["hand_number"]
        state.fixed_deals = ()
        state.hands = cast(tuple[Hand, ...], tuple(hands))  # the unseen seats' None: filled in each world
        state.stock = ()
        state.vira = vira
        state.strength = st
        state.trick = tuple(trick)
        state.hidden = tuple(hidden)
        state.rounds = tuple((ws, wseat, tuple(plays)) for ws, wseat, plays in rounds)
        # The search decides in a match under way: there is a turn and a hand (types only, no check).
        state.turn = turn = cast(int, view["turn"])
        state.leader = trick[0][0] if trick else turn
        pending = view["pending_raise"]
        kind = cast(str, view["hand_kind"])
        state.kind = kind
        state.stake = view["stake"]
        state.level = t.ladder.index(view["stake"]) if kind == "normal" else 0
        if pending is not None:
            state.pending = (pending["seat"], t.ladder.index(pending["value"]), tuple(pending["answer_seats"]))
            state.last_raise_side = t.side_of[pending["seat"]]
        else:
            state.pending = None
            state.last_raise_side = self._last_raise_side(state)
        eleven = view["hand_of_eleven"]
        state.deciding = ()
        if eleven is not None and eleven["deciding_side"] is not None:
            order = []
            for k in range(1, t.seats + 1):
                s_side = t.side_of[(state.dealer + k) % t.seats]
                if s_side in eleven["sides"] and s_side not in order:
                    order.append(s_side)
            state.deciding = tuple(order[order.index(eleven["deciding_side"]) :])
        state.last_hand = None
        state.over = False
        state.winner = None
        self._downs = downs
        self._needed = sum(n for _, n in slots) + len(downs)
        return state, slots, pool

    def _last_raise_side(self, state: MatchState) -> int:
        """Which side made the last (accepted) raise: not in the view, but my legal actions tell."""
        if state.level == 0:
            return TIE
        t = self.t
        kinds = {a["do"] for a in self.view["legal_actions"]}
        if self.view["turn"] == self.seat and state.level < t.top_level and state.kind == "normal":
            if "raise" in kinds:
                return next(s for s in range(t.sides) if s != self.side)
            return self.side
        return TIE

    # --- worlds ---------------------------------------------------------------------------

    def _worlds(self, skeleton: MatchState, slots: Slots, pool: list[int], count: int) -> list[MatchState]:
        """``count`` full states consistent with the view, drawn in proportion to the weights."""
        evidence = self._evidence(skeleton)
        signed = self._partner_sign(slots)
        if signed:  # a sign fits about one deal in nine (the partner holding one given manilha)
            draws = count * max(self.budget.pool_factor, SIGN_POOL_FACTOR)
        else:
            draws = count * (self.budget.pool_factor if evidence else 1)
        worlds: list[MatchState] = []
        weights: list[float] = []
        rng = self.rng
        for _ in range(draws):
            world = self._deal(skeleton, slots, pool, rng)
            worlds.append(world)
            weight = _weight(world, evidence, self.side) if evidence else 1.0
            if signed is not None:
                weight *= _sign_weight(world, *signed)
            weights.append(weight)
        self.stats["worlds"] = draws
        if not evidence and not signed:
            return worlds
        total = sum(weights)
        if total <= 0:
            return worlds[:count]
        # Systematic resampling: one draw from rng, evenly spaced picks through the weights.
        step = total / count
        point = rng.random() * step
        chosen: list[MatchState] = []
        acc, i = weights[0], 0
        for _ in range(count):
            while acc < point and i < len(weights) - 1:
                i += 1
                acc += weights[i]
            chosen.append(worlds[i])
            point += step
        return chosen

    def _deal(self, skeleton: MatchState, slots: Slots, pool: list[int], rng: random.Random) -> MatchState:
        # Only the cards that fill a slot are drawn; the rest (the stock) never matters in a playout.
        cards = rng.sample(pool, self._needed)
        world = skeleton.copy()
        hands = list(skeleton.hands)
        k = 0
        for s, n in slots:
            hands[s] = tuple(cards[k : k + n])
            k += n
        world.hands = tuple(hands)
        if self._downs:
            rounds: list[list[Any]] = [list(r) for r in skeleton.rounds]
            trick = list(skeleton.trick)
            hidden = list(skeleton.hidden)
            for where, r_index, p_index in self._downs:
                card = cards[k]
                k += 1
                if where == "round":
                    plays = list(rounds[r_index][2])
                    s, _, down = plays[p_index]
                    plays[p_index] = (s, card, down)
                    rounds[r_index][2] = tuple(plays)
                elif where == "trick":
                    s, _, down = trick[p_index]
                    trick[p_index] = (s, card, down)
                else:
                    hidden[p_index] = (hidden[p_index][0], card)
            world.rounds = tuple(tuple(r) for r in rounds)
            world.trick = tuple(trick)
            world.hidden = tuple(hidden)
        world.stock = ()
        return world

    def _partner_sign(self, slots: Slots) -> tuple[int, int, int] | None:
        """(partner, low, high): the strengths the partner's sign gives its best card still in hand
        (bots/signs.py), when the partner's cards are unseen and the view carries its sign."""
        partner = partner_seat(self.t, self.seat)
        if partner is None or all(s != partner for s, _ in slots):
            return None
        signed = partner_sign_in_hand(self.view, partner)
        return None if signed is None else (partner, *signed)

    def _evidence(self, state: MatchState) -> Evidence:
        """What the other side did that its cards explain: (seat, curve) pairs, weighted per world."""
        t, side = self.t, self.side
        out: Evidence = []
        if state.pending is not None and t.side_of[state.pending[0]] != side:
            out.append((state.pending[0], (RAISE_FLOOR, RAISE_MID, RAISE_WIDTH)))
        elif state.kind == "normal" and state.level > 0:
            # The hand stands raised: they raised it or took our raise.  Their strongest seat explains it.
            out.append((-1, (SHOWED_FLOOR, SHOWED_MID, SHOWED_WIDTH)))
        eleven = self.view["hand_of_eleven"]
        if eleven is not None and eleven["decided"] and any(s != side for s in eleven["sides"]):
            out.append((-1, (SHOWED_FLOOR, SHOWED_MID, SHOWED_WIDTH)))
        return out


def _pick(candidates: Sequence[Action], values: Sequence[float], raise_is_free: bool = False) -> Action:
    """The best value; near-ties (within 1e-9: the action cannot change anything in any world) go to
    a raise when ``raise_is_free`` (losing the hand loses the match anyway, so the raise costs
    nothing and a real opponent may run from it), then to a face-down card (it tells the others
    nothing), then to the first listed."""
    top = max(values)
    close = [a for a, v in zip(candidates, values, strict=True) if v >= top - 1e-9]
    if raise_is_free:
        for action in close:
            if action.kind == "raise":
                return action
    for action in close:
        if action.kind == "play" and action.face_down:
            return action
    return close[0]


def _sign_weight(world: MatchState, partner: int, low: int, high: int) -> float:
    """1 when the partner's best card in this world is what its sign says, else SIGN_DOUBT (a person
    may sign loosely: a world against the sign stays possible, rare)."""
    best = max((world.strength[c] for c in world.hands[partner]), default=-1)
    return 1.0 if low <= best <= high else SIGN_DOUBT


def _logistic(x: float) -> float:
    if x < -30:
        return 0.0
    if x > 30:
        return 1.0
    power: float = 2.718281828459045 ** (-x)  # float ** float is typed Any (it may be complex)
    return 1.0 / (1.0 + power)


def _weight(world: MatchState, evidence: Evidence, side: int) -> float:
    """How likely the other side's actions are with the cards this world gives them."""
    w = 1.0
    t = world.facts
    for seat, (floor, mid, width) in evidence:
        if seat < 0:  # the other side's most confident seat explains it
            c = max(seat_chance(world, s) for s in range(t.seats) if t.side_of[s] != side)
        else:
            c = seat_chance(world, seat)
        w *= floor + (1.0 - floor) * _logistic((c - mid) / width)
    return w


# --- the fast policy ----------------------------------------------------------------------


def _play_out(state: MatchState, hand_number: int) -> MatchState:
    """Play ``state`` to the end of its hand with the fast policy for every seat."""
    while not state.over and state.hand_number == hand_number:
        seat = seats_to_act(state)[0]
        state, _ = apply(state, seat, fast_policy(state, seat))
    return state


def fast_policy(state: MatchState, seat: int) -> Action:
    """A cheap, deterministic player that sees only its own cards and the table."""
    t = state.facts
    if state.deciding:
        return ACCEPT if seat_chance(state, seat) >= ELEVEN_BAR else RUN
    pending = state.pending
    if pending is not None:
        c = seat_chance(state, seat)
        if pending[1] < t.top_level and c >= RERAISE_BAR:
            return RAISE
        return ACCEPT if _accepts(state, seat, c) else RUN
    if (
        state.kind == "normal"
        and state.level < t.top_level
        and state.last_raise_side != t.side_of[seat]
        and _may_be_strong(state, seat)
        and seat_chance(state, seat) >= RAISE_BAR
    ):
        return RAISE
    return _card_play(state, seat)


def _accepts(state: MatchState, seat: int, c: float) -> bool:
    """Whether a seat that wins the hand with chance ``c`` takes the raise, judged by the chance to
    win the match as the bot itself judges: the old rule (break-even on the stake + 5 points) was
    blind to the score and ran from raises whose refusal handed the other side the match, so the
    search expected its raises over a raised hand (to 6, 9, 12) to be run from far more often
    than they are (docs/engine.md, "What the playouts got wrong at 4 seats")."""
    t = state.facts
    # Called with a raise pending (fast_policy): no check in the playouts' hot path.
    pending = state.pending
    asked = t.ladder[pending[1]]  # type: ignore[index]
    stake = state.stake
    asker_side = t.side_of[pending[0]]  # type: ignore[index]
    score = state.score
    if score[asker_side] + stake >= t.target:
        return True  # running hands them the match; taking it leaves a chance
    if t.sides != 2:
        return c >= (asked - stake) / (2 * asked) + ACCEPT_MARGIN
    mwp = match_chances(t.ladder, t.target)
    mine = score[t.side_of[seat]]
    theirs = score[asker_side]
    p = c - ACCEPT_MARGIN
    return p * mwp(mine + asked, theirs) + (1.0 - p) * mwp(mine, theirs + asked) >= mwp(mine, theirs + stake)


def _may_be_strong(state: MatchState, seat: int) -> bool:
    """A cheap filter before ``seat_chance``: a raising hand holds an A or better, or has won a round."""
    st = state.strength
    if any(st[c] >= RAISE_CARD for c in state.hands[seat]):
        return True
    side = state.facts.side_of[seat]
    return any(ws == side for ws, _, _ in state.rounds)


def _card_play(state: MatchState, seat: int) -> Action:
    hand = state.hands[seat]
    st = state.strength
    if state.facts.online and in_double_round(state):
        a, b = hand
        return double_play(a, b) if st[a] >= st[b] else double_play(b, a)
    ordered = sorted(hand, key=st.__getitem__)
    trick = state.trick
    if not trick:
        return PLAY[ordered[1] if len(ordered) == 3 else ordered[-1]]
    side_of = state.facts.side_of
    side = side_of[seat]
    mine = theirs = -1
    for s, card, down in trick:
        v = -1 if down else st[card]
        if side_of[s] == side:
            mine = max(mine, v)
        else:
            theirs = max(theirs, v)
    if mine > theirs:
        return PLAY[ordered[0]]  # my side takes it: keep my cards
    for card in ordered:
        if st[card] > theirs:
            return PLAY[card]  # the cheapest card that takes it
    # A tie beats losing, unless round 1 went to them (then a tie hands them the hand).
    if theirs >= 0 and (not state.rounds or state.rounds[0][0] in (TIE, side)):
        for card in ordered:
            if st[card] == theirs:
                return PLAY[card]
    return PLAY[ordered[0]]


# --- a seat's own estimate of its chance to win the hand -----------------------------------


@cache  # unbounded on purpose: at most one entry per strength table, and its id keys _CHANCES
def _beats(strength: tuple[int, ...], variant: str, deck: str) -> tuple[float, ...]:
    """Per strength value: the share of the deck's cards a card of that strength beats (ties half)."""
    values = [strength[c] for c in deck_cards(variant, deck)]
    n = len(values)
    return tuple(
        (sum(1 for v in values if v < s) + 0.5 * sum(1 for v in values if v == s)) / n for s in range(MANILHA_BASE + 4)
    )


@cache  # as _beats: one entry per strength table
def _at_most(strength: tuple[int, ...], variant: str, deck: str) -> tuple[float, ...]:
    """Per strength value: the share of the deck's cards of that strength or lower."""
    values = [strength[c] for c in deck_cards(variant, deck)]
    return tuple(sum(1 for v in values if v <= s) / len(values) for s in range(MANILHA_BASE + 4))


@lru_cache(maxsize=512)
def _winning_masks(results: tuple[int, ...], future: int, all_tied_dealer: bool, dealer_mine: bool) -> tuple[int, ...]:
    """Bit masks over the ``future`` rounds still to decide (bit i set: my side wins round i) that
    win my side the hand, given the finished ``results`` (0 mine, 1 theirs, -1 tied)."""
    masks: list[int] = []
    dealer_side = 0 if dealer_mine else 1
    for mask in range(1 << future):
        outcomes = [0 if mask >> i & 1 else 1 for i in range(future)]
        if hand_winner(results, outcomes, all_tied_dealer, dealer_side) == 0:
            masks.append(mask)
    return tuple(masks)


_CHANCES: dict[tuple[Any, ...], float] = {}
# (id of a strength table, facts) -> (that table, its _beats, its _at_most): the table is kept, so its
# id stays its own.
_BEATS_BY_ID: dict[tuple[int, RuleFacts], tuple[tuple[int, ...], tuple[float, ...], tuple[float, ...]]] = {}


def seat_chance(state: MatchState, seat: int) -> float:
    """The chance ``seat`` gives its side of winning the hand, judged from its own cards, the cards
    on the felt and the rounds so far (every unseen card taken as a random deck card; a partner
    still to play in the round under way as one playing its best card)."""
    t = state.facts
    side_of = t.side_of
    side = side_of[seat]
    st = state.strength
    rounds = state.rounds
    if len(rounds) >= 3:
        return 0.0
    results = tuple(TIE if r[0] == TIE else (0 if r[0] == side else 1) for r in rounds)
    # The round under way: what my side and theirs show, how many of theirs are still to play, and
    # how many cards a partner who has not played it yet holds.
    mine = theirs = -1
    theirs_played = 0
    has_played = False
    partner_cards = 0
    for partner in t.side_seats[side]:
        if partner != seat:
            partner_cards = len(state.hands[partner])
    for s, card, down in state.trick:
        v = -1 if down else st[card]
        if s == seat:
            has_played = True
        elif side_of[s] == side:
            partner_cards = 0
        if side_of[s] == side:
            if v > mine:
                mine = v
        else:
            theirs_played += 1
            if v > theirs:
                theirs = v
    left = t.seats - len(t.side_seats[side]) - theirs_played
    hand = tuple(sorted([st[c] for c in state.hands[seat]], reverse=True))
    hit = _BEATS_BY_ID.get((id(st), t))
    if hit is not None and hit[0] is st:
        _, beats, at_most = hit
    else:  # hashing the 40-card strength table on every call cost more than the rest of the key
        beats, at_most = _beats(st, t.variant, t.deck), _at_most(st, t.variant, t.deck)
        _BEATS_BY_ID[(id(st), t)] = (st, beats, at_most)
    dealer_mine = side_of[state.dealer] == side
    key = (id(beats), t, results, dealer_mine, hand, mine, theirs, left, has_played, partner_cards)
    chance = _CHANCES.get(key)
    if chance is None:
        if len(_CHANCES) > 200_000:  # a bounded memo: the same spots recur across worlds and actions
            _CHANCES.clear()
        chance = _CHANCES[key] = _seat_chance(
            t, side, beats, at_most, results, dealer_mine, hand, mine, theirs, left, has_played, partner_cards
        )
    return chance


def _round_with_partner(
    beats: tuple[float, ...], at_most: tuple[float, ...], top: int, theirs: int, left: int, partner_cards: int
) -> float:
    """The chance my side takes the round under way when my side shows ``top`` so far and a partner
    still to play holds ``partner_cards`` unseen cards: the side's card is the better of ``top``
    and the partner's best, and it must beat ``theirs`` and each of the ``left`` cards still to
    come from the other side."""
    total = 0.0
    below = 0.0  # P(the partner's best card is lower than the strength s)
    for s in range(len(beats)):
        upto = at_most[s] ** partner_cards
        if s < top:
            below = upto
            continue
        # P(the side's card is s): the partner's best is s (s above top), or at most s (s == top).
        share = upto if s == top else upto - below
        below = upto
        if s > theirs:
            total += share * beats[s] ** left
        elif s == theirs and s >= 0:
            total += share * 0.5 * beats[s] ** left
    return total


def _seat_chance(
    t: RuleFacts,
    side: int,
    beats: tuple[float, ...],
    at_most: tuple[float, ...],
    results: tuple[int, ...],
    dealer_mine: bool,
    hand: tuple[int, ...],
    mine: int,
    theirs: int,
    left: int,
    has_played: bool,
    partner_cards: int,
) -> float:
    future = 3 - len(results)
    masks = _winning_masks(results, future, t.all_tied_dealer, dealer_mine)
    if not masks:
        return 0.0
    opponents = t.seats - len(t.side_seats[side])
    partner = PARTNER_ROUND if len(t.side_seats[side]) > 1 else 0.0
    trick_empty = mine < 0 and theirs < 0 and left == opponents
    options: list[tuple[int | None, tuple[int, ...]]]
    if has_played or not hand:
        options = [(None, hand)]
    else:
        options = [(hand[i], hand[:i] + hand[i + 1 :]) for i in range(len(hand))]
    best = 0.0
    for now, rest in options:
        top = mine if now is None else max(mine, now)
        if partner_cards and not trick_empty:
            # The partner plays after the cards on the felt and may still take the round; counting
            # only my card put a seat whose partner holds the round's decider at 0 (measured against
            # fast-policy play at 4 seats: estimates of 0.0-0.1 won 33% of round-3 hands when the
            # partner was still to play; docs/engine.md, "The partner still to play").
            p_now = _round_with_partner(beats, at_most, top, theirs, left, partner_cards)
        elif top > theirs:
            p_now = beats[top] ** left
        elif top == theirs and top >= 0:
            p_now = 0.5 * beats[top] ** left
        else:
            p_now = 0.0
        if partner and trick_empty and now is not None:
            p_now = 1.0 - (1.0 - p_now) * (1.0 - partner)
        chances = [p_now]
        for i in range(future - 1):
            p = beats[rest[i]] ** opponents if i < len(rest) else 0.0
            chances.append(1.0 - (1.0 - p) * (1.0 - partner) if partner else p)
        total = 0.0
        for mask in masks:
            w = 1.0
            for i, p in enumerate(chances):
                w *= p if mask >> i & 1 else 1.0 - p
            total += w
        if total > best:
            best = total
    return best
