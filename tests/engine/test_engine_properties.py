"""Property-based tests: random legal play over random seeds and RuleSets keeps every invariant."""

from __future__ import annotations

import json
import random
import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import (
    Action,
    IllegalAction,
    RuleSet,
    apply,
    apply_with_moments,
    from_json,
    legal_actions,
    new_match,
    seat_view,
    seats_to_act,
    spectator_view,
    to_json,
)
from games.engine.cards import CARD_NAMES, deck_cards
from games.engine.rules import facts_for
from tests.engine.strategies import online_mineiro_rulesets, rulesets

MAX_ACTIONS = 5000  # far above any real match; a void-hand loop would have to repeat ~500 times


SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
seeds = st.integers(min_value=0, max_value=2**63)


def every_action(state):
    """All actions anyone could try: each card both ways, each pair of a hand's cards as a double
    play (and one with a card from elsewhere), plus raise/accept/run."""
    doubles = [
        Action("play", CARD_NAMES[up], False, CARD_NAMES[down])
        for h in state.hands
        for up in h
        for down in h
        if up != down
    ]
    doubles += [Action("play", CARD_NAMES[h[0]], False, "4C") for h in state.hands if h and CARD_NAMES[h[0]] != "4C"]
    return (
        [Action("play", name) for name in CARD_NAMES[:40:3]]
        + [Action("play", CARD_NAMES[c], down) for h in state.hands for c in h for down in (False, True)]
        + doubles
        + [Action("raise"), Action("accept"), Action("run")]
    )


class CardsFirst(random.Random):
    """Random cards, hands of ten played and raises accepted: more hands reach round 2."""

    def choice(self, options):
        plays = [a for a in options if isinstance(a, Action) and a.kind in ("play", "accept")]
        return super().choice(plays or options)


def play_randomly(state, chooser, on_step=None):
    count = 0
    while seats_to_act(state):
        seat = chooser.choice(seats_to_act(state))
        action = chooser.choice(legal_actions(state, seat))
        before = state
        state, events = apply(state, seat, action)
        count += 1
        if on_step:
            on_step(before, seat, action, state, events)
        assert count < MAX_ACTIONS, "the match did not end"
    return state, count


@SETTINGS
@given(rules=rulesets(targets=(12, 12, 15)), seed=seeds)
def test_random_legal_play_ends_the_match_with_a_winner(rules, seed):
    state, count = play_randomly(new_match(rules, seed), random.Random(seed))
    assert state.over and state.winner is not None
    assert state.score[state.winner] >= rules.target
    assert seats_to_act(state) == []
    assert all(legal_actions(state, s) == [] for s in range(rules.seats))


@SETTINGS
@given(rules=rulesets(targets=(12, 12, 15)), seed=seeds)
def test_every_card_exists_exactly_once_and_scores_grow_by_allowed_amounts(rules, seed):
    check_cards_and_scores(rules, seed)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=online_mineiro_rulesets(targets=(12, 12, 15)), seed=seeds)
def test_online_mineiro_keeps_every_card_and_scores_only_its_ladder_or_the_match(rules, seed):
    check_cards_and_scores(rules, seed)


def check_cards_and_scores(rules, seed):
    deck = sorted(deck_cards(rules.variant, rules.deck))
    facts = facts_for(rules)
    # Hand values, run values (the ladder below), eleven value and refusal; online Mineiro's
    # accepted nine instead gives the winner what it lacks to reach the target.
    allowed = set(facts.ladder[:-1] if facts.top_wins_match else facts.ladder)

    def check(before, seat, action, state, events):
        cards = [c for h in state.hands for c in h] + [c for _, c, _ in state.trick] + [c for _, c in state.hidden]
        cards += [c for _, _, plays in state.rounds for _, c, _ in plays] + list(state.stock)
        if state.vira >= 0:
            cards.append(state.vira)
        assert sorted(cards) == deck
        grown = [b - a for a, b in zip(before.score, state.score, strict=True)]
        assert all(g >= 0 for g in grown)
        changed = [g for g in grown if g]
        assert len(changed) <= 1
        for event in events:
            if event["type"] == "hand_won":
                won_the_match_by_nine = (
                    facts.top_wins_match
                    and before.level == facts.top_level
                    and event["score"][event["side"]] == rules.target
                )
                assert event["points"] in allowed or won_the_match_by_nine

    play_randomly(new_match(rules, seed), random.Random(seed), check)


@settings(max_examples=30, deadline=None)
@given(rules=rulesets(targets=(12, 12, 15)), seed=seeds)
def test_legal_actions_are_exactly_what_apply_accepts_and_illegal_ones_change_nothing(rules, seed):
    check_legal_is_what_apply_accepts(rules, seed)


@settings(max_examples=40, deadline=None)
@given(rules=online_mineiro_rulesets(), seed=seeds)
def test_online_mineiro_legal_actions_including_double_plays_are_what_apply_accepts(rules, seed):
    check_legal_is_what_apply_accepts(rules, seed)


def test_random_online_mineiro_matches_reach_double_rounds_and_reveals():
    """The property runs above are only as good as what they reach: seeded random matches of
    online Mineiro do play double rounds, reveal hidden cards and void face-up cards in hands of ten."""
    seen = {"double": 0, "hidden_revealed": 0, "card_lost_value": 0}

    def count(before, seat, action, state, events):
        seen["double"] += action.hidden is not None
        for event in events:
            if event["type"] in seen:
                seen[event["type"]] += 1

    for seed in range(150):
        rules = RuleSet(variant="mineiro", mineiro_style="online", deck="clean", seats=2 + 2 * (seed % 2))
        play_randomly(new_match(rules, seed), CardsFirst(seed), count)
    assert seen["double"] > 100 and seen["hidden_revealed"] > 5 and seen["card_lost_value"] > 5, seen


def check_legal_is_what_apply_accepts(rules, seed):
    chooser = random.Random(seed)

    def check(before, seat, action, state, events):
        if chooser.random() > 0.3:
            return
        frozen = json.dumps(to_json(state), sort_keys=True)
        for s in range(rules.seats):
            legal = set(legal_actions(state, s))
            for candidate in every_action(state):
                if candidate in legal:
                    apply(state, s, candidate)
                else:
                    try:
                        apply(state, s, candidate)
                    except IllegalAction as error:
                        assert error.reason
                    else:
                        raise AssertionError(f"{candidate} by seat {s} was applied but is not listed as legal")
                assert json.dumps(to_json(state), sort_keys=True) == frozen
        assert set(seats_to_act(state)) == {s for s in range(rules.seats) if legal_actions(state, s)}

    play_randomly(new_match(rules, seed), chooser, check)


@SETTINGS
@given(rules=rulesets(targets=(12, 12, 15)), seed=seeds, stop=st.integers(min_value=0, max_value=60))
def test_saved_and_loaded_state_has_the_same_actions_and_the_same_future(rules, seed, stop):
    state = new_match(rules, seed)
    chooser = random.Random(seed)
    for _ in range(stop):
        if not seats_to_act(state):
            break
        seat = seats_to_act(state)[0]
        state, _ = apply(state, seat, chooser.choice(legal_actions(state, seat)))
    saved = json.loads(json.dumps(to_json(state)))
    loaded = from_json(saved)
    assert to_json(loaded) == saved
    for seat in range(rules.seats):
        assert legal_actions(loaded, seat) == legal_actions(state, seat)
    end_a, _ = play_randomly(state, random.Random(seed + 1))
    end_b, _ = play_randomly(loaded, random.Random(seed + 1))
    assert to_json(end_a) == to_json(end_b)


CARD_RE = re.compile(r'"([4567QJKA23][CHSD])"')


@settings(max_examples=40, deadline=None)
@given(rules=rulesets(targets=(12, 12, 15)), seed=seeds)
def test_views_and_events_never_show_hidden_cards(rules, seed):
    check_no_hidden_card_shows(rules, seed)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=online_mineiro_rulesets(), seed=seeds)
def test_online_mineiro_never_shows_a_double_plays_hidden_card_before_it_is_revealed(rules, seed):
    check_no_hidden_card_shows(rules, seed)


def check_no_hidden_card_shows(rules, seed):
    def check(before, seat, action, state, events):
        assert_views_hide_what_they_must(rules, state)
        for event in events:
            if event["type"] == "card_played" and event["face_down"]:
                assert "card" not in event
            if event["type"] == "card_played":
                assert "hidden" not in event
            for hand_key in ("hands", "hand", "stock"):
                assert hand_key not in event

    play_randomly(new_match(rules, seed), random.Random(seed), check)


def visible_cards(view):
    rest = {k: v for k, v in view.items() if k not in ("manilhas", "last_hand")}
    return set(CARD_RE.findall(json.dumps(rest)))


def assert_views_hide_what_they_must(rules, state):
    """Every seat's view and the spectator view of `state` show no card they may not see."""
    face_up = {CARD_NAMES[c] for _, c, down in state.trick if not down}
    face_up |= {CARD_NAMES[c] for _, _, plays in state.rounds for _, c, down in plays if not down}
    public = face_up | ({CARD_NAMES[state.vira]} if state.vira >= 0 else set())
    for viewer in range(rules.seats):
        view = seat_view(state, viewer)
        dump = json.dumps(view)
        for word in ("rng", "seed", "stock", "fixed_deals"):
            assert f'"{word}"' not in dump
        allowed = set(public) | set(view["hand"])
        allowed |= {CARD_NAMES[c] for _, c, down in state.trick if down and _ == viewer}
        allowed |= {CARD_NAMES[c] for _, _, plays in state.rounds for s, c, down in plays if down and s == viewer}
        allowed |= {CARD_NAMES[c] for s, c in state.hidden if s == viewer}
        for play in view["trick"] + [p for r in view["rounds"] for p in r["plays"]]:
            if play.get("double"):  # a double play's card beneath: its owner's only
                assert (play["hidden"] is not None) == (play["seat"] == viewer)
        if view["partner_hands"]:
            assert state.kind == "eleven" and rules.partnership
            for partner, cards in view["partner_hands"].items():
                assert int(partner) % 2 == viewer % 2
                allowed |= set(cards)
        assert view["hand"] == [CARD_NAMES[c] for c in state.hands[viewer]] or state.over
        assert visible_cards(view) <= allowed
        if view["last_hand"]:
            rounds = view["last_hand"]["rounds"]
            for rnd in rounds:
                assert all(p["card"] is None for p in rnd["plays"] if p["face_down"])
                for p in rnd["plays"]:
                    if p.get("double") and p["hidden"] is not None:  # shown only by the rules
                        assert p["lost_value"] or len(rounds) == 3
            for p in view["last_hand"]["unfinished_round"]:
                assert p.get("hidden") is None
    assert visible_cards(spectator_view(state)) <= public


@SETTINGS
@given(rules=rulesets(targets=(12, 12, 15)), seed=seeds)
def test_apply_with_moments_is_apply_with_the_table_right_after_each_event(rules, seed):
    check_moments(rules, seed, random.Random(seed))


@SETTINGS
@given(rules=online_mineiro_rulesets(), seed=seeds)
def test_online_mineiros_moments_show_the_double_round_and_the_cards_turned_up(rules, seed):
    check_moments(rules, seed, CardsFirst(seed))


def check_moments(rules, seed, chooser):
    """Each move's moments: the same move as `apply`, one moment per event, the last one the new state;
    each shows what its event says and hides what every view must hide."""

    def check(before, seat, action, state, events):
        frozen = to_json(before)
        new, told, moments = apply_with_moments(before, seat, action)
        assert to_json(before) == frozen
        assert to_json(new) == to_json(state) and told == events
        assert len(moments) == len(events) and moments[-1] is new
        previous = before
        for event, moment in zip(events, moments, strict=True):
            assert_views_hide_what_they_must(rules, moment)
            assert_moment_shows(event, spectator_view(moment), spectator_view(previous))
            previous = moment

    play_randomly(new_match(rules, seed), chooser, check)


def assert_moment_shows(event, view, before):
    """The table right after `event` (`view`, a spectator's) shows it; `before`: the moment before."""
    kind = event["type"]
    if kind not in ("hand_won", "match_won"):
        assert view["score"] == before["score"]  # only a hand's end scores
    if kind == "card_played":
        last = view["trick"][-1]
        assert (last["seat"], last["face_down"]) == (event["seat"], event["face_down"])
        assert last["card"] == event.get("card")  # None face down: a spectator never sees it
        assert bool(last.get("double")) == bool(event.get("double"))
        assert view["rounds"] == before["rounds"]
    elif kind in ("round_won", "round_tied"):
        assert view["trick"] == [] and view["rounds"][-1]["number"] == event["round"]
        assert [p["card"] for p in view["rounds"][-1]["plays"]] == [p["card"] for p in before["trick"]]
        assert view["rounds"][-1]["winner_seat"] == event.get("seat")
    elif kind == "hidden_revealed":
        assert [(p["seat"], p["card"]) for p in view["trick"]] == [(p["seat"], p["card"]) for p in event["plays"]]
        assert not any(p.get("double") for p in view["trick"])
    elif kind == "card_lost_value":
        assert view["trick"] == before["trick"]
    elif kind in ("hand_won", "match_won"):
        assert view["score"] == event["score"] and view["hand_number"] == before["hand_number"]
        assert view["match_over"] == (kind == "match_won")
    elif kind == "hand_dealt":
        assert view["hand_number"] == event["hand_number"] == before["hand_number"] + 1
        assert (view["trick"], view["rounds"], view["stake"]) == ([], [], event["stake"])
        assert view["vira"] == event["vira"] and view["dealer"] == event["dealer"]
    elif kind == "raise_asked":
        pending = view["pending_raise"]
        assert (pending["seat"], pending["value"], view["stake"]) == (event["seat"], event["value"], event["stake"])
    elif kind == "raise_accepted":
        assert view["pending_raise"] is None and view["stake"] == event["value"]
    elif kind == "raise_run":
        assert view["pending_raise"] is None and view["trick"] == before["trick"]
