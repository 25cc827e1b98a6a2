"""The API contract the web layer and bots are written against: RuleSet, Action, apply, events, views."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import games.engine as engine
from games.engine import (
    Action,
    IllegalAction,
    RuleSet,
    apply,
    from_json,
    is_over,
    legal_actions,
    match_winner,
    new_match,
    seat_view,
    seats_to_act,
    side_of,
    spectator_view,
    to_json,
)
from games.engine.playout import random_playout

STRONG = {"hands": [["3C", "2C", "AC"], ["4D", "5D", "6D"]], "vira": "7D"}
FOUR = {"hands": [["3C", "2H", "4C"], ["2C", "KC", "4H"], ["3H", "5C", "4S"], ["AC", "KD", "5D"]], "vira": "7D"}


def act(state, *steps):
    """Apply steps like (0, "play", "3C"), (1, "raise"); return the final state and all events."""
    events = []
    for seat, kind, *rest in steps:
        card = rest[0] if rest else None
        down = bool(rest[1]) if len(rest) > 1 else False
        state, new = apply(state, seat, Action(kind, card, down))
        events += new
    return state, events


# --- RuleSet --------------------------------------------------------------------------------


def test_ruleset_defaults_follow_the_rule_book():
    assert RuleSet().to_dict() == {
        "variant": "paulista",
        "deck": "dirty",
        "seats": 2,
        "partnership": False,
        "face_down": True,
        "all_tied": "dealer",
        "target": 12,
        "mineiro_style": "classic",
    }
    assert RuleSet(seats=4).partnership is True
    assert RuleSet(variant="mineiro").face_down is False


def test_ruleset_round_trips_through_dict():
    rules = RuleSet(
        variant="mineiro", deck="clean", seats=4, partnership=False, face_down=True, all_tied="nobody", target=15
    )
    assert RuleSet.from_dict(rules.to_dict()) == rules
    assert RuleSet.from_dict({}) == RuleSet()


@pytest.mark.parametrize(
    "bad, words",
    [
        ({"variant": "gaucho"}, "variant"),
        ({"deck": "sticky"}, "deck"),
        ({"seats": 3}, "seats"),
        ({"partnership": True}, "4 seats"),
        ({"all_tied": "maybe"}, "all_tied"),
        ({"target": 0}, "target"),
        ({"face_down": "yes"}, "face_down"),
        ({"colour": "red"}, "unknown rule option"),
    ],
)
def test_ruleset_from_dict_refuses_bad_options_with_a_clear_value_error(bad, words):
    with pytest.raises(ValueError, match=words):
        RuleSet.from_dict(bad)


# --- Action ---------------------------------------------------------------------------------


def test_action_round_trips_through_dict():
    assert Action.from_dict({"do": "play", "card": "4C", "face_down": True}) == Action("play", "4C", True)
    assert Action.from_dict({"do": "raise"}).to_dict() == {"do": "raise"}
    assert Action("play", "4C").to_dict() == {"do": "play", "card": "4C", "face_down": False}


@pytest.mark.parametrize(
    "bad", [{"do": "fly"}, {"do": "play"}, {"do": "play", "card": "9Z"}, "raise", {"do": "run", "card": "4C"}]
)
def test_action_from_dict_refuses_malformed_input(bad):
    with pytest.raises(ValueError):
        Action.from_dict(bad)


def test_illegal_action_is_a_value_error_with_a_reason():
    state = new_match(RuleSet(), 1, dealer=1, deals=[STRONG])
    with pytest.raises(IllegalAction) as info:
        apply(state, 1, Action("play", "4D"))
    assert isinstance(info.value, ValueError)
    assert "turn" in info.value.reason


# --- new_match, seeds, helpers --------------------------------------------------------------


def test_same_seed_same_match_and_dealer_drawn_from_seed():
    a, b = new_match(RuleSet(), 42), new_match(RuleSet(), 42)
    assert to_json(a) == to_json(b)
    dealers = {new_match(RuleSet(seats=4), seed).dealer for seed in range(40)}
    assert dealers == {0, 1, 2, 3}


def test_fixed_deals_come_first_then_the_seeded_rng_deals():
    state = new_match(RuleSet(), 3, dealer=1, deals=[STRONG])
    assert seat_view(state, 0)["hand"] == ["3C", "2C", "AC"]
    state, events = act(state, (0, "raise"), (1, "run"))
    assert [e["type"] for e in events][-1] == "hand_dealt"
    assert state.dealer == 0 and seats_to_act(state) == [1]
    assert len(seat_view(state, 1)["hand"]) == 3


def test_new_match_refuses_a_finished_score_and_bad_dealer():
    with pytest.raises(ValueError):
        new_match(RuleSet(), 1, score=[12, 0])
    with pytest.raises(ValueError):
        new_match(RuleSet(), 1, dealer=2)


def test_side_of_works_on_rules_and_state():
    rules = RuleSet(seats=4)
    assert [side_of(rules, s) for s in range(4)] == [0, 1, 0, 1]
    assert [side_of(RuleSet(seats=4, partnership=False), s) for s in range(4)] == [0, 1, 2, 3]
    assert side_of(new_match(rules, 1), 3) == 1


def test_seats_to_act_lists_both_partners_for_a_raise_and_for_a_hand_of_eleven():
    state = new_match(RuleSet(seats=4), 1, dealer=3, deals=[FOUR])
    assert seats_to_act(state) == [0]
    raised, _ = act(state, (0, "raise"))
    assert seats_to_act(raised) == [1, 3]
    eleven = new_match(RuleSet(seats=4), 1, dealer=1, score=[0, 11], deals=[FOUR])
    assert seats_to_act(eleven) == [3, 1]


def test_match_over_helpers_and_no_actions_after_the_end():
    state = new_match(RuleSet(), 1, dealer=1, score=[11, 11], deals=[STRONG])
    state, events = act(state, (0, "play", "3C"), (1, "play", "4D"), (0, "play", "2C"), (1, "play", "5D"))
    assert is_over(state) and match_winner(state) == 0
    assert events[-1] == {"type": "match_won", "side": 0, "score": [12, 11]}
    assert seats_to_act(state) == [] and legal_actions(state, 0) == []
    with pytest.raises(IllegalAction, match="over"):
        apply(state, 1, Action("raise"))


def test_to_json_and_from_json_round_trip_exactly():
    state = new_match(RuleSet(variant="mineiro", seats=4), "room-7")
    state, _ = act(state, (seats_to_act(state)[0], "raise"))
    data = json.loads(json.dumps(to_json(state)))
    assert to_json(from_json(data)) == data
    assert from_json(data) == state


# --- events ---------------------------------------------------------------------------------


def test_events_of_a_hand_in_the_games_words():
    state = new_match(RuleSet(), 1, dealer=1, deals=[STRONG])
    state, events = act(
        state, (0, "raise"), (1, "accept"), (0, "play", "3C"), (1, "play", "4D"), (0, "play", "2C"), (1, "play", "5D")
    )
    kinds = [e["type"] for e in events]
    assert kinds == [
        "raise_asked",
        "raise_accepted",
        "card_played",
        "card_played",
        "round_won",
        "card_played",
        "card_played",
        "round_won",
        "hand_won",
        "hand_dealt",
    ]
    assert events[0] | {} == {
        "type": "raise_asked",
        "seat": 0,
        "side": 0,
        "value": 3,
        "name": "truco",
        "stake": 1,
        "counter": False,
        "answer_seats": [1],
    }
    assert events[8] == {
        "type": "hand_won",
        "hand_number": 1,
        "side": 0,
        "points": 3,
        "reason": "two_rounds",
        "score": [3, 0],
    }


def test_face_down_card_event_has_no_card():
    state = new_match(RuleSet(), 1, dealer=1, deals=[STRONG])
    state, events = act(state, (0, "play", "3C"), (1, "play", "4D"), (0, "play", "2C", True))
    assert events[-1] == {"type": "card_played", "seat": 0, "round": 2, "face_down": True}


def test_running_event_and_reason():
    state = new_match(RuleSet(), 1, dealer=1, deals=[STRONG])
    _, events = act(state, (0, "raise"), (1, "raise"), (0, "run"))
    assert events[2]["type"] == "raise_run" and events[2]["points"] == 3 and events[2]["refused"] == 6
    assert events[3]["reason"] == "ran_from" and events[3]["side"] == 1


@pytest.mark.parametrize(
    "steps, reason",
    [
        ([(0, "play", "3C"), (1, "play", "3H"), (0, "play", "2C"), (1, "play", "AH")], "tie_then_round2"),
        ([(0, "play", "3C"), (1, "play", "AH"), (0, "play", "2C"), (1, "play", "2H")], "round1_then_tie"),
        (
            [
                (0, "play", "3C"),
                (1, "play", "3H"),
                (0, "play", "2C"),
                (1, "play", "2H"),
                (0, "play", "AC"),
                (1, "play", "KH"),
            ],
            "ties_then_round3",
        ),
    ],
)
def test_hand_won_reasons_name_the_tie_case(steps, reason):
    deal = {"hands": [["3C", "2C", "AC"], ["3H", "2H", "AH"]], "vira": "7D"}
    if reason in ("round1_then_tie", "ties_then_round3"):
        deal = {
            "hands": [["3C", "2C", "AC"], ["3H", "2H", "KH"]]
            if reason == "ties_then_round3"
            else [["3C", "2C", "AC"], ["AH", "2H", "KH"]],
            "vira": "7D",
        }
    if reason == "tie_then_round2":
        deal = {"hands": [["3C", "2C", "AC"], ["3H", "AH", "KH"]], "vira": "7D"}
    state = new_match(RuleSet(), 1, dealer=1, deals=[deal])
    _, events = act(state, *steps)
    won = [e for e in events if e["type"] == "hand_won"]
    assert won and won[0]["reason"] == reason


def test_all_tied_events_dealer_and_void():
    deal = {"hands": [["3C", "2C", "AC"], ["3H", "2H", "AH"]], "vira": "7D"}
    steps = [
        (0, "play", "3C"),
        (1, "play", "3H"),
        (0, "play", "2C"),
        (1, "play", "2H"),
        (0, "play", "AC"),
        (1, "play", "AH"),
    ]
    _, events = act(new_match(RuleSet(), 1, dealer=1, deals=[deal]), *steps)
    assert [e for e in events if e["type"] == "hand_won"][0]["reason"] == "all_tied_dealer"
    _, events = act(new_match(RuleSet(all_tied="nobody"), 1, dealer=1, deals=[deal]), *steps)
    assert [e for e in events if e["type"] == "hand_void"] == [
        {"type": "hand_void", "hand_number": 1, "reason": "all_tied_nobody"}
    ]


def test_eleven_events():
    state = new_match(RuleSet(), 1, dealer=1, score=[11, 0], deals=[STRONG])
    _, events = act(state, (0, "accept"))
    assert events == [{"type": "eleven_accepted", "seat": 0, "side": 0, "value": 3}]
    _, events = act(state, (0, "run"))
    assert events[0] == {"type": "eleven_refused", "seat": 0, "side": 0, "points": 1}
    assert events[1]["reason"] == "eleven_refused" and events[1]["side"] == 1


# --- views ----------------------------------------------------------------------------------


def test_seat_view_shows_own_hand_and_counts_of_the_others():
    state = new_match(RuleSet(), 1, dealer=1, deals=[STRONG])
    view = seat_view(state, 0)
    assert view["hand"] == ["3C", "2C", "AC"]
    assert view["cards_left"] == [3, 3]
    assert "4D" not in json.dumps(view)
    assert view["vira"] == "7D" and view["manilha_rank"] == "Q"
    assert view["manilhas"] == ["QC", "QH", "QS", "QD"]
    assert view["stake"] == 1 and view["next_raise"] == {"value": 3, "name": "truco"}
    assert view["turn"] == 0 and view["seats_to_act"] == [0] and view["dealer"] == 1 and view["mao"] == 0
    assert {"do": "raise"} in view["legal_actions"]
    assert {"do": "play", "card": "3C", "face_down": False} in view["legal_actions"]
    assert seat_view(state, 1)["legal_actions"] == []


def test_view_hides_face_down_card_from_others_but_not_its_owner():
    state = new_match(RuleSet(), 1, dealer=1, deals=[STRONG])
    state, _ = act(state, (0, "play", "3C"), (1, "play", "4D"), (0, "play", "2C", True))
    assert seat_view(state, 1)["trick"] == [{"seat": 0, "card": None, "face_down": True}]
    assert "2C" not in json.dumps(seat_view(state, 1))
    assert "2C" not in json.dumps(spectator_view(state))
    assert seat_view(state, 0)["trick"] == [{"seat": 0, "card": "2C", "face_down": True}]
    assert seat_view(state, 1)["rounds"][0] == {
        "number": 1,
        "winner_side": 0,
        "winner_seat": 0,
        "plays": [{"seat": 0, "card": "3C", "face_down": False}, {"seat": 1, "card": "4D", "face_down": False}],
    }


def test_last_hand_summary_hides_face_down_cards():
    state = new_match(RuleSet(), 1, dealer=1, deals=[STRONG])
    state, _ = act(state, (0, "play", "3C"), (1, "play", "4D"), (0, "play", "2C", True), (1, "play", "5D", True))
    last = seat_view(state, 1)["last_hand"]
    assert last["winner_side"] == 0 and last["points"] == 1 and last["reason"] == "round1_then_tie"
    assert last["rounds"][1]["plays"] == [
        {"seat": 0, "card": None, "face_down": True},
        {"seat": 1, "card": None, "face_down": True},
    ]


def test_view_mutation_does_not_touch_the_state():
    state = new_match(RuleSet(), 1, dealer=1, deals=[STRONG])
    state, _ = act(state, (0, "raise"), (1, "run"))
    before = to_json(state)
    seat_view(state, 0)["last_hand"]["points"] = 99
    assert to_json(state) == before
    # Nor deep inside the last hand's summary (its rounds, their plays, the score).
    state = new_match(RuleSet(), 1, dealer=1, deals=[STRONG])
    state, _ = act(state, (0, "play", "3C"), (1, "play", "4D"), (0, "play", "2C"), (1, "play", "5D"))
    before = to_json(state)
    last = seat_view(state, 0)["last_hand"]
    last["rounds"][0]["plays"][0]["card"] = "4C"
    last["rounds"][1]["plays"].clear()
    last["score"][0] = 99
    assert to_json(state) == before and seat_view(state, 0)["last_hand"] != last


def test_partner_cards_shown_only_to_the_side_at_eleven():
    state = new_match(RuleSet(seats=4), 1, dealer=3, score=[11, 4], deals=[FOUR])
    assert seat_view(state, 0)["partner_hands"] == {"2": ["3H", "5C", "4S"]}
    assert seat_view(state, 2)["partner_hands"] == {"0": ["3C", "2H", "4C"]}
    assert seat_view(state, 1)["partner_hands"] == {} and "3H" not in json.dumps(seat_view(state, 1))
    assert seat_view(state, 0)["hand_of_eleven"] == {
        "sides": [0],
        "deciding_side": 0,
        "deciding_seats": [0, 2],
        "decided": False,
        "value": 3,
        "run_value": 1,
    }
    assert seat_view(state, 0)["next_raise"] is None


def test_iron_hand_shows_no_partner_cards():
    state = new_match(RuleSet(seats=4), 1, dealer=3, score=[11, 11], deals=[FOUR])
    view = seat_view(state, 0)
    assert view["iron_hand"] is True and view["partner_hands"] == {} and view["hand_of_eleven"] is None
    assert view["legal_actions"] == [{"do": "play", "card": c, "face_down": False} for c in ["3C", "2H", "4C"]]


def test_view_names_the_ladder_of_each_variant():
    state = new_match(RuleSet(), 1, dealer=1, deals=[STRONG])
    state, _ = act(state, (0, "raise"), (1, "raise"))
    assert seat_view(state, 0)["pending_raise"] == {
        "seat": 1,
        "side": 1,
        "value": 6,
        "name": "six",
        "answer_seats": [0],
    }
    assert seat_view(state, 0)["next_raise"] == {"value": 9, "name": "nine"}
    mineiro = new_match(
        RuleSet(variant="mineiro"), 1, dealer=1, deals=[{"hands": [["3C", "2C", "AC"], ["4D", "5D", "6D"]]}]
    )
    mineiro, _ = act(mineiro, (0, "raise"), (1, "raise"))
    assert seat_view(mineiro, 0)["next_raise"] == {"value": 10, "name": "ten"}
    assert seat_view(mineiro, 0)["manilhas"] == ["4C", "7H", "AS", "7D"] and seat_view(mineiro, 0)["vira"] is None


def test_spectator_view_has_no_hand_and_no_actions():
    state = new_match(RuleSet(seats=4), 9)
    view = spectator_view(state)
    assert view["seat"] is None and view["hand"] == [] and view["legal_actions"] == []
    assert view["cards_left"] == [3, 3, 3, 3]
    for seat in range(4):
        for card in seat_view(state, seat)["hand"]:
            assert card not in json.dumps({k: v for k, v in view.items() if k != "manilhas"})


def test_view_keys_are_the_documented_ones():
    view = seat_view(new_match(RuleSet(), 1), 0)
    assert set(view) == {
        "seat",
        "side",
        "rules",
        "seats",
        "sides",
        "hand_number",
        "dealer",
        "mao",
        "vira",
        "manilha_rank",
        "manilhas",
        "hand",
        "partner_hands",
        "cards_left",
        "round",
        "trick",
        "double_round",
        "rounds",
        "score",
        "target",
        "stake",
        "next_raise",
        "pending_raise",
        "hand_kind",
        "hand_of_eleven",
        "iron_hand",
        "turn",
        "seats_to_act",
        "legal_actions",
        "last_hand",
        "match_over",
        "match_winner",
    }
    json.dumps(view)


def test_engine_imports_no_django():
    for path in Path(engine.__file__).parent.glob("*.py"):
        assert not re.search(r"^\s*(import|from)\s+django", path.read_text(), re.M), path


def test_random_playout_helper_finishes_matches():
    state, count = random_playout(RuleSet(seats=4, partnership=False), 5)
    assert state.over and count > 0


def test_apply_accepts_an_action_dict_and_refuses_garbage_as_illegal():
    state = new_match(RuleSet(), 1, dealer=1, deals=[STRONG])
    new, _ = apply(state, 0, {"do": "play", "card": "3C"})
    assert seat_view(new, 0)["hand"] == ["2C", "AC"]
    for junk in ({"do": "dance"}, "raise", None):
        with pytest.raises(IllegalAction):
            apply(state, 0, junk)
