"""Post-match analysis (issue 34 items 2 and 5): each decision's actions estimated from the seat's view alone,
the choice marked by the chance of winning the match it gave away; constructed hands whose right answer is
known; the hidden cards are sampled, never read."""

import random

import pytest

from games.engine import Action, RuleSet, apply, legal_actions, new_match, seats_to_act
from games.engine.analysis import (
    BLUNDER,
    INACCURACY,
    MISTAKE,
    accuracy,
    analyse,
    estimate,
    judge,
    mark_of,
)

WORLDS = 128  # more than the default: the constructed spots' marks must not hang on a few worlds


def act(state, seat, **action):
    assert seats_to_act(state) == [seat]
    return apply(state, seat, Action.from_dict(action))[0]


def test_the_marks_follow_the_thresholds_and_noise_is_no_mistake():
    assert mark_of(0.0, 0.0) == "good"
    assert mark_of(INACCURACY - 1e-9, 0.0) == "good"
    assert mark_of(INACCURACY, 0.0) == "inaccuracy"
    assert mark_of(MISTAKE, 0.0) == "mistake"
    assert mark_of(BLUNDER, 0.0) == "blunder"
    assert mark_of(BLUNDER, BLUNDER / 2) == "good"  # a loss within two standard errors is not told from noise


def test_running_from_a_truco_with_the_zap_and_a_three_in_round_one_is_a_blunder():
    # Paulista, vira 3D: the manilhas are the fours, the zap is 4C. Seat 1 leads and calls truco at once.
    deal = {"hands": [["4C", "3H", "5D"], ["KS", "7H", "QD"]], "vira": "3D"}
    state = act(new_match(RuleSet(), 0, dealer=0, deals=[deal]), 1, do="raise")
    decision = judge(state, 0, Action.from_dict({"do": "run"}), random.Random(7), worlds=WORLDS)
    assert decision.mark == "blunder" and decision.loss >= BLUNDER
    assert decision.best.action["do"] in ("accept", "raise")
    ran = next(e for e in decision.estimates if e.action["do"] == "run")
    assert ran.points == -1.0 and ran.win_half_width < 1e-9  # running is certain: one point to them


def test_playing_the_zap_when_the_partner_already_holds_the_round_wins_nothing_more():
    # Four seats in pairs (0 & 2 against 1 & 3); seat 1 leads. The partner holds the round with a three after
    # the last opponent played: the zap, played now, wins nothing the partner did not win already.
    deal = {"hands": [["4C", "7S", "QH"], ["5D", "KD", "6C"], ["3S", "JS", "5S"], ["6H", "KH", "7C"]], "vira": "3D"}
    state = new_match(RuleSet(seats=4), 0, dealer=0, deals=[deal])
    for seat, card in ((1, "5D"), (2, "3S"), (3, "6H")):
        state = act(state, seat, do="play", card=card)
    decision = judge(state, 0, Action.from_dict({"do": "play", "card": "4C"}), random.Random(7), worlds=WORLDS)
    assert decision.mark != "good" and decision.loss >= INACCURACY
    assert decision.best.action != {"do": "play", "card": "4C", "face_down": False}
    zap = next(e for e in decision.estimates if e.action.get("card") == "4C")
    assert zap.points < decision.best.points


def test_the_best_choice_is_good_and_loses_nothing():
    deal = {"hands": [["4C", "3H", "5D"], ["KS", "7H", "QD"]], "vira": "3D"}
    state = act(new_match(RuleSet(), 0, dealer=0, deals=[deal]), 1, do="raise")
    best = estimate(state, 0, random.Random(7), worlds=WORLDS)[0]
    decision = judge(state, 0, Action.from_dict(best.action), random.Random(7), worlds=WORLDS)
    assert (decision.loss, decision.mark) == (0.0, "good")


@pytest.mark.parametrize("seats", [2, 4])
def test_the_estimates_read_only_what_the_seat_could_see(seats):
    # The same table for seat 0, with the other seats' hidden cards swapped for others: the same estimates.
    hands = [["4C", "3H", "5D"], ["KS", "7H", "QD"], ["2S", "JD", "6S"], ["AH", "5C", "7D"]][:seats]
    swapped = [hands[0], *([["AS", "JH", "6D"], ["2C", "QC", "KC"], ["5H", "7C", "JC"]][: seats - 1])]
    rules = RuleSet(seats=seats)
    states = [new_match(rules, 0, dealer=0, deals=[{"hands": h, "vira": "3D"}]) for h in (hands, swapped)]
    first = seats_to_act(states[0])[0]
    states = [act(s, first, do="raise") if first != 0 else s for s in states]
    answers = [estimate(s, 0, random.Random(3)) for s in states]
    assert answers[0] == answers[1]


def test_a_match_is_analysed_decision_by_decision_the_same_way_twice():
    rules = RuleSet()
    start = new_match(rules, 11)
    chooser = random.Random(11)
    moves, state = [], start
    while not state.over:
        seat = seats_to_act(state)[0]
        action = chooser.choice(legal_actions(state, seat))
        moves.append((seat, action))
        state, _ = apply(state, seat, action)
    decisions = analyse(start, moves, 0, worlds=16, seed=5)
    choices = [i for i, (s, a) in enumerate(moves) if s == 0]
    assert decisions and {d.move for d in decisions} <= set(choices)
    assert all(moves[d.move][1].to_dict() == d.chosen for d in decisions)
    assert all(len(d.estimates) > 1 and d.mark in ("good", "inaccuracy", "mistake", "blunder") for d in decisions)
    assert analyse(start, moves, 0, worlds=16, seed=5) == decisions  # deterministic for a seed
    assert 0 <= accuracy(decisions) <= 100
