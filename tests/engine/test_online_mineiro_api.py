"""Online Mineiro through the engine's API: the double play's action form, its events in order,
and what each seat's view and the last hand's summary show of the hidden cards."""

from __future__ import annotations

import pytest

from games.engine import Action, IllegalAction, RuleSet, apply, legal_actions, new_match, seat_view, spectator_view

ONLINE = RuleSet(variant="mineiro", mineiro_style="online")


def tied_round_one(hands, *, score=None, rules=ONLINE):
    """Seat 0 leads (dealer 1), K against K: round 1 ties, seat 0 leads the double round."""
    state = new_match(rules, 0, dealer=1, score=score, deals=[{"hands": hands}])
    if state.deciding:
        state, _ = apply(state, 0, Action("accept"))
    state, _ = apply(state, 0, Action("play", hands[0][0]))
    state, _ = apply(state, 1, Action("play", hands[1][0]))
    return state


def test_a_double_play_reads_and_writes_as_cards_up_then_down():
    action = Action.from_dict({"do": "play", "cards": ["3C", "4D"]})
    assert action == Action("play", "3C", False, "4D")
    assert action.to_dict() == {"do": "play", "cards": ["3C", "4D"]}
    assert Action("play", "3C").to_dict() == {"do": "play", "card": "3C", "face_down": False}


@pytest.mark.parametrize(
    "bad",
    [
        {"do": "play", "cards": ["3C"]},
        {"do": "play", "cards": ["3C", "3C"]},
        {"do": "play", "cards": "3C 4D"},
        {"do": "play", "cards": ["3C", "XX"]},
        {"do": "play", "card": "3C", "cards": ["3C", "4D"]},
        {"do": "raise", "cards": ["3C", "4D"]},
    ],
)
def test_a_malformed_double_play_is_a_clear_value_error(bad):
    with pytest.raises(ValueError):
        Action.from_dict(bad)


def test_legal_actions_in_the_double_round_are_both_orders_and_the_raise():
    state = tied_round_one([["KC", "3C", "4D"], ["KH", "2H", "5S"]])
    assert legal_actions(state, 0) == [
        Action("play", "3C", hidden="4D"),
        Action("play", "4D", hidden="3C"),
        Action("raise"),
    ]
    with pytest.raises(IllegalAction, match="two cards at once"):
        apply(state, 0, Action("play", "3C"))


def test_only_the_owner_sees_the_card_beneath_and_the_events_never_name_it():
    state = tied_round_one([["KC", "3C", "4D"], ["KH", "2H", "5S"]])
    state, events = apply(state, 0, Action("play", "3C", hidden="4D"))
    assert events == [{"type": "card_played", "seat": 0, "round": 2, "card": "3C", "face_down": False, "double": True}]
    mine, theirs, nobody = seat_view(state, 0), seat_view(state, 1), spectator_view(state)
    assert mine["trick"] == [{"seat": 0, "card": "3C", "face_down": False, "double": True, "hidden": "4D"}]
    assert theirs["trick"] == [{"seat": 0, "card": "3C", "face_down": False, "double": True, "hidden": None}]
    assert nobody["trick"] == theirs["trick"]
    assert mine["hand"] == [] and theirs["cards_left"] == [0, 2]
    assert theirs["double_round"] and "4D" not in str(theirs) and "4D" not in str(nobody)


def test_face_up_tie_reveals_the_hidden_cards_as_round_three():
    state = tied_round_one([["KC", "3C", "4D"], ["KH", "3H", "5S"]])
    state, _ = apply(state, 0, Action("play", "3C", hidden="4D"))
    state, events = apply(state, 1, Action("play", "3H", hidden="5S"))
    kinds = [e["type"] for e in events]
    assert kinds[:4] == ["card_played", "round_tied", "hidden_revealed", "round_won"]
    assert events[2]["plays"] == [{"seat": 0, "card": "4D"}, {"seat": 1, "card": "5S"}]
    last = seat_view(state, 0)["last_hand"]
    assert last["reason"] == "ties_then_round3" and last["winner_side"] == 1
    assert [p["hidden"] for p in last["rounds"][1]["plays"]] == ["4D", "5S"]  # shown: round 3
    assert [p["card"] for p in last["rounds"][2]["plays"]] == ["4D", "5S"]


def test_a_decided_face_up_round_keeps_the_hidden_cards_hidden_from_everyone_after_the_hand():
    state = tied_round_one([["KC", "3C", "4D"], ["KH", "2H", "5S"]])
    state, _ = apply(state, 0, Action("play", "3C", hidden="4D"))
    state, events = apply(state, 1, Action("play", "2H", hidden="5S"))
    assert "hidden_revealed" not in [e["type"] for e in events]
    for view in (seat_view(state, 0), seat_view(state, 1)):
        plays = view["last_hand"]["rounds"][1]["plays"]
        assert [(p["double"], p["hidden"], p["lost_value"]) for p in plays] == [(True, None, False)] * 2
        assert len(view["last_hand"]["rounds"]) == 2


def test_in_a_hand_of_ten_a_lower_face_up_card_loses_its_value_and_its_hidden_card_is_shown():
    state = tied_round_one([["KC", "4D", "3C"], ["KH", "5S", "4S"]], score=[10, 2])
    state, _ = apply(state, 0, Action("play", "4D", hidden="3C"))
    state, events = apply(state, 1, Action("play", "5S", hidden="4S"))
    assert events[1] == {"type": "card_lost_value", "seat": 0, "card": "4D", "hidden": "3C"}
    assert events[2]["type"] == "round_won" and events[2]["seat"] == 1
    plays = seat_view(state, 1)["last_hand"]["rounds"][1]["plays"]
    assert [(p["lost_value"], p["hidden"]) for p in plays] == [(True, "3C"), (False, None)]


def test_the_view_of_a_nine_names_it_and_its_value_is_the_target():
    state = new_match(ONLINE, 0, dealer=1, deals=[{"hands": [["3C", "2C", "KD"], ["4D", "5D", "6D"]]}])
    assert seat_view(state, 0)["next_raise"] == {"value": 4, "name": "truco"}
    state, _ = apply(state, 0, Action("raise"))
    state, _ = apply(state, 1, Action("raise"))
    assert seat_view(state, 0)["next_raise"] == {"value": 12, "name": "nine"}
    assert seat_view(state, 0)["pending_raise"]["value"] == 8
