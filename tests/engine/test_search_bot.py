"""The search bot (``expert``): legal in any state, blind to what its seat cannot see, replayable
from a seed, within its budget, and reading the other side's raises.  Strength is measured by the
arena (docs/engine.md), never asserted here."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import Action, RuleSet, apply, legal_actions, new_match, seat_view, seats_to_act
from games.engine.bots import choose_action
from games.engine.bots.search import Search, SearchBudget, fast_policy, search_bot, seat_chance
from games.engine.cards import CARD_INDEX
from games.engine.rules import facts_for
from games.engine.state import ACCEPT, RUN
from tests.engine.strategies import online_mineiro_rulesets, rulesets

# Small budgets keep the property tests fast; the search is the same code at any budget.
QUICK = SearchBudget(playouts=24)


@st.composite
def mid_match_states(draw, rules_strategy):
    """A state somewhere in a match: any rules, any starting score (so hands of eleven/ten and
    iron hands come up), then a random number of random legal actions."""
    rules = draw(rules_strategy)
    t = facts_for(rules)
    score = tuple(draw(st.integers(0, rules.target - 1)) for _ in range(t.sides))
    seed = draw(st.integers(0, 2**32))
    state = new_match(rules, seed, score=score)
    chooser = random.Random(seed)
    for _ in range(draw(st.integers(0, 14))):
        if state.over:
            break
        seat = seats_to_act(state)[0]
        state, _ = apply(state, seat, chooser.choice(legal_actions(state, seat)))
    return state, seed


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(drawn=mid_match_states(rulesets()))
def test_the_search_bot_returns_a_legal_action_in_any_state(drawn):
    state, seed = drawn
    if state.over:
        return
    for seat in seats_to_act(state):
        view = json.loads(json.dumps(seat_view(state, seat)))  # plain data is all it needs
        assert search_bot(view, random.Random(seed), QUICK) in view["legal_actions"]


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(drawn=mid_match_states(online_mineiro_rulesets()))
def test_the_search_bot_returns_a_legal_action_in_online_mineiro(drawn):
    state, seed = drawn
    if state.over:
        return
    for seat in seats_to_act(state):
        view = seat_view(state, seat)
        assert search_bot(view, random.Random(seed), QUICK) in view["legal_actions"]


@pytest.mark.parametrize(
    "rules",
    [
        RuleSet(),
        RuleSet(seats=4),
        RuleSet(variant="mineiro"),
        RuleSet(variant="mineiro", seats=4),
        RuleSet(variant="mineiro", mineiro_style="online"),
        RuleSet(variant="mineiro", mineiro_style="online", seats=4),
    ],
    ids=["paulista-2", "paulista-4", "mineiro-2", "mineiro-4", "online-2", "online-4"],
)
def test_hand_of_eleven_or_ten_decisions_are_legal_and_follow_the_cards(rules):
    t = facts_for(rules)
    decisions = []
    for seed in range(12):
        state = new_match(rules, seed, score=(t.threshold, t.threshold - 3))
        assert state.kind == "eleven"
        seat = seats_to_act(state)[0]
        view = seat_view(state, seat)
        action = search_bot(view, random.Random(seed), QUICK)
        assert action in ({"do": "accept"}, {"do": "run"})
        decisions.append((seat_chance(state, seat), action["do"]))
    # Over a dozen deals the strongest hand is played and the weakest is refused or both are played:
    # never a strong hand refused while a weak one is played.
    decisions.sort()
    assert decisions[-1][1] == "accept"


def _two_worlds(rules, deal_a, deal_b, steps):
    states = []
    for deal in (deal_a, deal_b):
        state = new_match(rules, 0, dealer=len(deal["hands"]) - 1, deals=[deal])
        for seat, do, *card in steps:
            state, _ = apply(state, seat, Action(do, card[0] if card else None))
        states.append(state)
    return states


@pytest.mark.parametrize(
    ("rules", "deal_a", "deal_b", "steps", "seat"),
    [
        # 2 seats: seat 1 holds different unplayed cards; the same card was played.
        (
            RuleSet(),
            {"hands": [["3C", "KD", "5S"], ["4H", "7C", "2S"]], "vira": "6S"},
            {"hands": [["3C", "KD", "5S"], ["4H", "QD", "JS"]], "vira": "6S"},
            [(0, "play", "3C"), (1, "play", "4H"), (0, "play", "KD"), (1, "raise")],
            0,
        ),
        # Seat 1 to answer round 2's lead; its own cards differ between the two, seat 0's too.
        (
            RuleSet(),
            {"hands": [["3C", "KD", "5S"], ["4H", "7C", "2S"]], "vira": "6S"},
            {"hands": [["3C", "JD", "5S"], ["4H", "7C", "2S"]], "vira": "6S"},
            [(0, "play", "3C"), (1, "play", "4H"), (0, "play", "5S")],
            1,
        ),
        # 4 seats, Mineiro: both opponents' and the partner's unseen cards differ.
        (
            RuleSet(variant="mineiro", seats=4),
            {"hands": [["3C", "KD", "5S"], ["4H", "7C", "2S"], ["QC", "JD", "6H"], ["5H", "KS", "AD"]]},
            {"hands": [["3C", "KD", "5S"], ["4H", "QS", "JH"], ["QC", "7H", "6S"], ["5H", "2C", "3D"]]},
            [(0, "play", "KD"), (1, "play", "4H"), (2, "play", "QC"), (3, "raise")],
            0,
        ),
    ],
    ids=["two-seats-raise", "two-seats", "four-seats-mineiro"],
)
def test_it_decides_from_its_own_seat_only(rules, deal_a, deal_b, steps, seat):
    state_a, state_b = _two_worlds(rules, deal_a, deal_b, steps)
    assert state_a.hands != state_b.hands  # the hidden cards differ...
    view_a, view_b = seat_view(state_a, seat), seat_view(state_b, seat)
    assert view_a == view_b  # ...and the seat sees the same table
    for seed in range(3):
        assert search_bot(view_a, random.Random(seed)) == search_bot(view_b, random.Random(seed))


def test_a_face_down_card_of_the_other_side_changes_nothing_it_decides():
    rules = RuleSet()
    deal_a = {"hands": [["4H", "KD", "5S"], ["3C", "5D", "QH"]], "vira": "6S"}
    deal_b = {"hands": [["4H", "KD", "5S"], ["3C", "JD", "QH"]], "vira": "6S"}
    # Seat 1 takes round 1 with its 3 and leads round 2 with a different card face down.
    state_a, state_b = _two_worlds(rules, deal_a, deal_b, [(0, "play", "4H"), (1, "play", "3C")])
    state_a, _ = apply(state_a, 1, Action("play", "5D", True))
    state_b, _ = apply(state_b, 1, Action("play", "JD", True))
    view_a, view_b = seat_view(state_a, 0), seat_view(state_b, 0)
    assert view_a == view_b and view_a["trick"][0]["face_down"]
    for seed in range(3):
        assert search_bot(view_a, random.Random(seed)) == search_bot(view_b, random.Random(seed))


def test_the_same_seed_gives_the_same_decision_and_the_same_match():
    rules = RuleSet(seats=4, variant="mineiro")

    def run():
        state, rng, actions = new_match(rules, 31), random.Random(31), []
        for _ in range(40):
            if state.over:
                break
            seat = seats_to_act(state)[0]
            action = choose_action("expert", seat_view(state, seat), rng)
            actions.append(action)
            state, _ = apply(state, seat, action)
        return actions

    assert run() == run()


def test_the_budget_is_a_parameter_and_the_search_keeps_to_it():
    state = new_match(RuleSet(), 5, dealer=1, deals=[{"hands": [["3C", "KD", "5S"], ["4H", "7C", "2S"]], "vira": "6S"}])
    view = seat_view(state, 0)  # round 1: three cards and a raise to compare
    for playouts in (40, 200):
        search = Search(view, random.Random(1), SearchBudget(playouts=playouts))
        search.best()
        assert search.stats["candidates"] == 4
        assert search.stats["playouts"] <= playouts
        assert search.stats["playouts"] >= playouts - search.stats["candidates"]
    # A wall-clock cap of zero stops after the first world: one playout per candidate.
    search = Search(view, random.Random(1), SearchBudget(playouts=400, max_ms=0))
    assert search.best() in view["legal_actions"]
    assert search.stats["playouts"] == 4 and search.stats["stopped_early"]


def _raised_in_round_three(raiser_hand):
    """Seat 1 raises in round 3 after seat 0 led its last card (a K): rounds 1-2 split."""
    deal = {"hands": [["4D", "3C", "KS"], raiser_hand], "vira": "6S"}
    state = new_match(RuleSet(), 0, dealer=1, deals=[deal])
    for seat, card in ((0, "4D"), (1, raiser_hand[0]), (1, raiser_hand[1]), (0, "3C"), (0, "KS")):
        state, _ = apply(state, seat, Action("play", card))
    state, _ = apply(state, 1, Action("raise"))
    return seat_view(state, 0)


def test_a_raise_after_seeing_the_table_is_read_as_a_card_that_beats_it():
    view = _raised_in_round_three(["5C", "4H", "QD"])
    assert view["pending_raise"] and view["round"] == 3 and view["trick"][0]["card"] == "KS"
    search = Search(view, random.Random(2), SearchBudget(playouts=300))
    skeleton, slots, pool = search._rebuild()
    st_ = skeleton.strength
    king = st_[CARD_INDEX["KS"]]

    def share_beating(worlds):
        return sum(1 for w in worlds if st_[w.hands[1][0]] > king) / len(worlds)

    read = search._worlds(skeleton, slots, pool, 300)
    blind = [search._deal(skeleton, slots, pool, random.Random(k)) for k in range(300)]
    # Without reading the raise about 4 cards in 10 beat a K; after it, most of the worlds do.
    assert share_beating(blind) < 0.5 < share_beating(read)


def test_it_runs_from_a_twelve_it_cannot_win_and_takes_one_it_cannot_lose():
    deal = {"hands": [["4D", "5S", "6H"], ["7C", "7H", "3S"]], "vira": "6S"}  # 7C zap, 7H copas
    state = new_match(RuleSet(), 0, dealer=1, deals=[deal])
    for seat in (0, 1, 0, 1):  # truco, six, nine, twelve
        state, _ = apply(state, seat, Action("raise"))
    assert search_bot(seat_view(state, 0), random.Random(3)) == {"do": "run"}

    state = new_match(RuleSet(), 0, dealer=1, deals=[deal])
    for seat in (0, 1, 0):  # truco, six, nine: seat 1 holds the two best cards
        state, _ = apply(state, seat, Action("raise"))
    assert search_bot(seat_view(state, 1), random.Random(3)) in ({"do": "accept"}, {"do": "raise"})


def test_the_playout_policy_takes_a_raise_whose_refusal_would_lose_the_match():
    """The fast policy plays every seat in the playouts: blind to the score, it ran from raises
    that handed the other side the match, and the search overrated its own late raises."""
    deal = {"hands": [["4D", "5S", "6H"], ["7C", "7H", "3S"]], "vira": "6S"}  # seat 0: nothing

    def six_asked(score):
        state = new_match(RuleSet(), 0, dealer=1, deals=[deal], score=score)
        state, _ = apply(state, 0, Action("raise"))  # truco
        state, _ = apply(state, 1, Action("raise"))  # six: running gives side 1 the three
        return state

    state = six_asked((0, 0))
    assert seat_chance(state, 0) < 0.2
    assert fast_policy(state, 0) == RUN
    assert fast_policy(six_asked((0, 9)), 0) == ACCEPT  # 9 + 3 is the match


def test_a_lost_hand_that_loses_the_match_anyway_is_raised():
    """When losing the hand at its stake already loses the match, a raise costs nothing and the
    other side may still run from it: the search's tie goes to the raise (docs/engine.md, "Where
    expert loses to random at 4 seats Mineiro")."""
    deal = {"hands": [["4D", "5S", "6H"], ["7C", "4C", "3S"]], "vira": "6S"}  # 7C: zap

    def round_three(score):
        state = new_match(RuleSet(), 0, dealer=1, deals=[deal], score=score)
        state, _ = apply(state, 0, Action("play", "6H"))
        state, _ = apply(state, 1, Action("play", "3S"))  # round 1: seat 1
        state, _ = apply(state, 1, Action("raise"))  # truco
        state, _ = apply(state, 0, Action("accept"))
        state, _ = apply(state, 1, Action("play", "4C"))
        state, _ = apply(state, 0, Action("play", "5S"))  # round 2: seat 0; its 4D cannot win round 3
        return seat_view(state, 0)

    # 9-9: losing the truco's 3 is their match, and a run from the six would be mine, so in the
    # playouts they always take it (a tie of 0 with the card); a real player may still run.
    view = round_three((9, 9))
    assert view["round"] == 3 and {"do": "raise"} in view["legal_actions"]
    assert search_bot(view, random.Random(5)) == {"do": "raise"}
    # At 0-0 the raise would cost points (six lost instead of three): it plays its card.
    assert search_bot(round_three((0, 0)), random.Random(5))["do"] == "play"


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(drawn=mid_match_states(rulesets()), policy_seed=st.integers(0, 2**32))
def test_a_playout_state_ends_its_hand_with_the_score_the_engine_gives(drawn, policy_seed):
    """A state whose ``rng`` is None (the search's playouts) stops at the end of the hand without
    dealing the next one, but scores it, and ends the match, exactly as the engine does."""
    state, _ = drawn
    if state.over:
        return
    playout = state.copy()
    playout.rng = None
    chooser = random.Random(policy_seed)
    hand_number = state.hand_number
    while not state.over and state.hand_number == hand_number:
        seat = seats_to_act(state)[0]
        action = chooser.choice(legal_actions(state, seat))
        state, _ = apply(state, seat, action)
        playout, _ = apply(playout, seat, action)
    assert (playout.score, playout.over, playout.winner) == (state.score, state.over, state.winner)
    assert playout.over or playout.hand_number == hand_number + 1
    assert playout.last_hand is None or playout.last_hand["hand_number"] < hand_number  # no summary made


def _round_three_with_the_partner_to_play():
    """4 seats Mineiro, rounds 1 and 2 split (seat 2's J, then seat 1's 3), so round 3 decides and
    seat 1 leads it: seat 1, seat 2, seat 3, then seat 0, seat 2's partner, with the zap."""
    deal = {"hands": [["4C", "6D", "5C"], ["QH", "5D", "3S"], ["JH", "6C", "4H"], ["KS", "6S", "5H"]]}
    state = new_match(RuleSet(variant="mineiro", seats=4), 0, dealer=0, deals=[deal])
    for seat, card in ((1, "5D"), (2, "JH"), (3, "5H"), (0, "6D"), (2, "6C"), (3, "6S"), (0, "5C"), (1, "3S")):
        state, _ = apply(state, seat, Action("play", card))
    return state


def test_a_seat_whose_partner_still_plays_the_round_is_not_written_off():
    """seat_chance counted only the seat's own card in the round under way: a seat whose card cannot
    take it had a chance of 0 even with the partner still to play (measured at 4 seats, such spots
    won a third of their hands), so the playouts ran from raises those hands take."""
    state = _round_three_with_the_partner_to_play()
    assert [r[0] for r in state.rounds] == [0, 1] and state.turn == 1
    state, _ = apply(state, 1, Action("play", "QH"))
    assert state.turn == 2 and state.hands[2] == (CARD_INDEX["4H"],)
    # The partner's one unseen card must beat the Q and the card seat 3 plays after it: a fair
    # chance, neither nothing nor sure.
    assert 0.2 < seat_chance(state, 2) < 0.6
    state, _ = apply(state, 2, Action("play", "4H"))
    state, _ = apply(state, 3, Action("play", "KS"))
    assert seat_chance(state, 0) == 1.0  # the zap takes the last round
