"""The style panel (bots/styles.py): each style bets as its name says, always legally."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import Action, RuleSet, apply, new_match, seat_view
from games.engine.bots import _BOTS, STYLE_LEVELS, choose_action
from games.engine.bots.reading import MY_SIDE, THEIR_SIDE, Reading
from games.engine.bots.styles import (
    BLUFF_BELOW,
    CAREFUL_ACCEPT_AT,
    CAREFUL_ACCEPT_MARGIN,
    CAREFUL_LATE_RAISE_AT,
    CAREFUL_RAISE_AT,
    CAREFUL_RERAISE_AT,
    ROCK_ACCEPT_AT,
    ROCK_ELEVEN_AT,
    ROCK_RAISE_AT,
    last_to_play,
    running_loses_the_match,
)
from tests.engine.strategies import rulesets
from tests.engine.test_bots import play_bots

TABLES = [RuleSet(variant=v, seats=n) for v in ("paulista", "mineiro") for n in (2, 4)]
OPPONENTS = ("hard", "maniac", "random")


def decisions_of(level, rules, matches, opponent="hard"):
    """Every (view, action) the bot of ``level`` met over ``matches`` matches against ``opponent``
    (each style's own choice, without choose_action's fall-back)."""
    seen = []

    def check(view, action):
        if levels[view["seat"]] == level:
            assert _BOTS[level](view, random.Random(0)) in view["legal_actions"]
            seen.append((view, action))

    for seed in range(matches):
        levels = [level, opponent] * 2 if seed % 2 == 0 else [opponent, level] * 2
        play_bots(rules, seed, levels, check)
    return seen


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rules=rulesets(), seed=st.integers(0, 2**32), levels=st.lists(st.sampled_from(STYLE_LEVELS), min_size=4, max_size=4)
)
def test_every_style_returns_one_of_the_legal_actions_in_every_rule_set(rules, seed, levels):
    def check(view, action):
        assert _BOTS[levels[view["seat"]]](view, random.Random(seed)) in view["legal_actions"]

    assert play_bots(rules, seed, levels, check).over


def test_the_maniac_raises_whenever_a_raise_is_legal_and_never_runs():
    for rules in TABLES:
        for opponent in OPPONENTS:
            for view, action in decisions_of("maniac", rules, 6, opponent):
                if {"do": "raise"} in view["legal_actions"]:
                    assert action == Action("raise")
                assert action.kind != "run"


def test_the_caller_accepts_every_raise_and_hand_of_eleven_and_never_raises():
    answered = 0
    for rules in TABLES:
        for view, action in decisions_of("caller", rules, 10, "maniac"):
            assert action.kind != "raise"
            assert action.kind != "run"
            if view["pending_raise"] or (
                view["hand_of_eleven"] and not any(a["do"] == "play" for a in view["legal_actions"])
            ):
                assert action == Action("accept")
                answered += 1
    assert answered >= 50  # the maniac raises every hand: plenty of raises to answer


def test_the_late_raiser_never_raises_in_round_one_nor_before_the_others_have_played():
    raises = 0
    for rules in TABLES:
        for opponent in OPPONENTS:
            for view, action in decisions_of("late", rules, 8, opponent):
                if action.kind != "raise":
                    continue
                raises += 1
                assert view["round"] > 1
                if not view["pending_raise"]:
                    assert last_to_play(Reading(view))
    assert raises >= 30


def test_the_late_raiser_raises_mostly_in_round_three_as_last_to_play_and_bluffs_about_a_third_of_them():
    # Two seats, both variants, against hard: the habits of the rule-based bot of issue 15
    # (nine raises in ten in round 3 as the last to play, about 30% bluffs).
    late_last = bluffs = raises = 0
    for variant in ("paulista", "mineiro"):
        for view, action in decisions_of("late", RuleSet(variant=variant), 150):
            if action.kind != "raise" or view["pending_raise"]:
                continue
            raises += 1
            reading = Reading(view)
            late_last += view["round"] == 3 and last_to_play(reading)
            bluffs += reading.win_chance() < BLUFF_BELOW
    assert raises >= 150
    assert late_last / raises >= 0.8
    assert 0.2 <= bluffs / raises <= 0.4


def test_the_rock_raises_and_accepts_only_with_strong_cards_and_never_bluffs():
    raises = accepts = runs = 0
    for rules in TABLES:
        for view, action in decisions_of("rock", rules, 8, "maniac"):
            chance = Reading(view, track_played=True).win_chance()
            if action.kind == "raise":
                raises += 1
                assert chance >= ROCK_RAISE_AT
            elif action.kind == "accept":
                accepts += 1
                assert chance >= (ROCK_ACCEPT_AT if view["pending_raise"] else ROCK_ELEVEN_AT)
            elif action.kind == "run":
                runs += 1
    assert raises and accepts and runs


def test_the_careful_player_raises_with_strong_cards_or_late_bluffs_rarely_and_accepts_only_strong_cards():
    raises = bluffs = raise_backs = accepts = runs = 0
    for rules in TABLES:
        for opponent in ("maniac", "hard"):
            for view, action in decisions_of("careful", rules, 8, opponent):
                reading = Reading(view, track_played=True)
                chance = reading.win_chance()
                pending = view["pending_raise"]
                if action.kind == "raise" and pending:
                    raise_backs += 1
                    assert reading.results.count(MY_SIDE) > reading.results.count(THEIR_SIDE)
                    assert chance >= CAREFUL_RERAISE_AT
                elif action.kind == "raise":
                    raises += 1
                    late = view["round"] > 1 and last_to_play(reading)
                    if chance < CAREFUL_RAISE_AT:
                        assert late  # never a raise in round 1 or before the others played without strong cards
                        bluffs += chance < CAREFUL_LATE_RAISE_AT
                elif action.kind == "accept" and pending:
                    accepts += 1
                    asked, stake = pending["value"], view["stake"]
                    bar = max(CAREFUL_ACCEPT_AT, (asked - stake) / (2 * asked) + CAREFUL_ACCEPT_MARGIN)
                    assert chance >= bar or running_loses_the_match(view)
                elif action.kind == "run":
                    runs += 1
    assert raises and accepts and runs  # raise-backs are rare: the constructed hands below pin them
    assert bluffs <= 0.15 * raises  # 1 losing card in 20 at the last play of round 3


def careful_answer(mine, theirs, first_round):
    """Seat 0 (careful, holding `mine`) answers seat 1's truco at the start of round 2, after round 1 was
    played as `first_round` (seat 1's card, then seat 0's)."""
    state = new_match(RuleSet(), 0, dealer=0, deals=[{"hands": [mine, theirs], "vira": "7D"}])
    state, _ = apply(state, 1, Action("play", card=first_round[0]))
    state, _ = apply(state, 0, Action("play", card=first_round[1]))
    leader = seat_view(state, 0)["turn"]
    if leader == 0:  # seat 0 took the round and leads round 2: it plays, then seat 1 raises
        state, _ = apply(state, 0, Action("play", card=mine[1]))
    state, _ = apply(state, 1, Action("raise"))
    return choose_action("careful", seat_view(state, 0), random.Random(0))


def test_the_careful_player_raises_back_only_when_ahead_in_the_hand():
    # The manilhas are the queens (vira 7): seat 0 holds the zap (QC) and copas (QH).
    assert careful_answer(["3S", "QH", "QC"], ["4C", "5D", "6H"], ("4C", "3S")) == Action("raise")  # took round 1
    assert careful_answer(["4C", "QH", "QC"], ["3S", "5D", "6H"], ("3S", "4C")) == Action("accept")  # lost it


def test_a_hopeless_rock_runs_where_the_caller_accepts():
    state = new_match(RuleSet(), 0, dealer=0, deals=[{"hands": [["4C", "5D", "6H"], ["3S", "2H", "AC"]], "vira": "7D"}])
    state, _ = apply(state, 1, Action("raise"))
    view = seat_view(state, 0)
    assert choose_action("rock", view, random.Random(0)) == Action("run")
    assert choose_action("caller", view, random.Random(0)) == Action("accept")
    assert choose_action("maniac", view, random.Random(0)) == Action("raise")
    assert choose_action("late", view, random.Random(0)) in (Action("accept"), Action("run"))
