"""The move service and the clock: versions, seats, AI seats and timed-out humans, rewards credited once."""

import random
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games import engine
from games.match.moves import ActionRefused, clock_action
from games.match.rewards import claim_seats, settle_finished_match
from games.models import Match, MatchEvent
from stats.services import rank_points
from tests.support.matches import (
    act,
    human_turn_action,
    play_to_the_end,
    play_until_human_turn,
    pushed_fragments,
    state_of,
    sweep,
)
from tests.support.rewards import coins_without_achievements

pytestmark = pytest.mark.django_db


def test_a_new_match_deals_and_waits_for_whoever_acts_first(start_match, user):
    match = start_match(user)
    assert match.version == 1
    assert match.deadline is not None
    acting = engine.seats_to_act(state_of(match))
    assert match.deadline_seat in acting


def test_action_on_the_current_version_is_applied_and_bumps_the_version(start_match, user):
    match = start_match(user)
    play_until_human_turn(match)
    match.refresh_from_db()
    before = match.version
    act(match.public_id, 0, human_turn_action(match), before)
    match.refresh_from_db()
    assert match.version == before + 1
    assert MatchEvent.objects.filter(match=match, version=before + 1, seat=0).exists()


def test_stale_action_is_refused_and_changes_nothing(start_match, user):
    match = start_match(user)
    play_until_human_turn(match)
    match.refresh_from_db()
    snapshot = (match.version, match.state)
    with pytest.raises(ActionRefused) as err:
        act(match.public_id, 0, human_turn_action(match), match.version - 1)
    assert err.value.code == "stale"
    assert err.value.version == snapshot[0]  # the socket knows whether its page already shows it
    match.refresh_from_db()
    assert (match.version, match.state) == snapshot


def test_repeated_action_is_applied_once(start_match, user):
    match = start_match(user)
    play_until_human_turn(match)
    match.refresh_from_db()
    action, version = human_turn_action(match), match.version
    act(match.public_id, 0, action, version)
    with pytest.raises(ActionRefused):
        act(match.public_id, 0, action, version)
    match.refresh_from_db()
    assert match.version == version + 1


def test_ai_seat_waits_a_human_like_delay(start_match, user):
    match = start_match(user, seed=3)
    state = state_of(match)
    if 0 in engine.seats_to_act(state):
        act(match.public_id, 0, human_turn_action(match), match.version)
        match.refresh_from_db()
    delay = (match.deadline - match.turn_started_at).total_seconds()
    assert 0.5 <= delay <= 1.5
    assert sweep(now=match.turn_started_at + timedelta(seconds=0.4)) == 0


def test_human_clock_running_out_plays_for_them_and_says_so(start_match, user):
    match = start_match(user)
    play_until_human_turn(match)
    match.refresh_from_db()
    assert match.deadline_seat == 0
    assert (match.deadline - match.turn_started_at).total_seconds() == pytest.approx(99, abs=0.01)
    assert sweep(now=match.deadline - timedelta(seconds=1)) == 0
    assert sweep(now=match.deadline + timedelta(seconds=1)) == 1
    assert MatchEvent.objects.filter(match=match, actor="clock", data__type="clock_ran_out", seat=0).exists()
    match.refresh_from_db()
    status = pushed_fragments(match, 0, oob=False)["status"]
    assert "data-timed-out" in status and "Ana" in status


def test_every_move_keeps_its_action_on_its_first_event_in_the_moves_one_insert(start_match, user):
    """What the replay plays again (games.table.replay): the start, then each move's action, a person's,
    the AI's and the clock's alike, stored with the move's events in the same one INSERT."""
    match = start_match(user, face_down=True)
    assert match.start_state == match.state
    play_until_human_turn(match)
    match.refresh_from_db()
    payload = human_turn_action(match)
    with CaptureQueriesContext(connection) as captured:
        act(match.public_id, 0, payload, match.version)
    inserts = [q["sql"] for q in captured.captured_queries if q["sql"].startswith('INSERT INTO "games_matchevent"')]
    assert len(inserts) == 1
    played = list(MatchEvent.objects.filter(match=match, version=match.version + 1).order_by("id"))
    assert played[0].action == payload and all(row.action is None for row in played[1:])
    play_until_human_turn(match)
    match.refresh_from_db()
    assert sweep(now=match.deadline + timedelta(seconds=1)) == 1  # the clock plays for seat 0
    timed_out = list(MatchEvent.objects.filter(match=match, version=match.version + 1).order_by("id"))
    assert timed_out[0].data["type"] == "clock_ran_out" and timed_out[0].action is None
    assert timed_out[1].action is not None and timed_out[1].seat == 0
    assert MatchEvent.objects.filter(match=match, actor="bot").exclude(action=None).exists()


def test_clock_playing_for_an_absent_human_never_raises():
    # Mineiro, seat 0 to play holding the zap: the easy bot would call truco on some of these seeds.
    rules = engine.RuleSet(variant="mineiro")
    deal = [{"hands": [["4C", "7H", "5D"], ["4D", "5C", "QC"]], "vira": None}]
    view = engine.seat_view(engine.new_match(rules, 1, dealer=1, deals=deal), 0)
    assert any(a["do"] == "raise" for a in view["legal_actions"])
    assert {clock_action(view, random.Random(seed)).kind for seed in range(200)} == {"play"}


def test_bot_partner_leaves_the_answer_to_its_human_partner(start_match, user):
    """4 seats in teams: when the other side raises, the human (not the bot partner) gets the clock."""
    for seed in range(200):
        match = start_match(user, seats=4, seed=seed, level="hard")
        for _ in range(60):
            state = state_of(match)
            if state.pending is not None and 0 in engine.seats_to_act(state):
                assert 2 in engine.seats_to_act(state)  # the partner could answer too...
                assert match.deadline_seat == 0  # ...but the clock waits for the human
                assert (match.deadline - match.turn_started_at).total_seconds() > 50
                return
            if engine.is_over(state):
                break
            if 0 in engine.seats_to_act(state):
                legal = engine.legal_actions(state, 0)
                play = next((a for a in legal if a.kind == "play"), legal[0])
                act(match.public_id, 0, play.to_dict(), match.version)
            else:
                sweep(now=timezone.now() + timedelta(seconds=2))
            match.refresh_from_db()
    pytest.fail("no AI raise against the human side in 200 matches")


def test_finished_single_match_credits_coins_and_rank_points_once(start_match, user):
    coins_before = coins_without_achievements(user)
    match = start_match(user, level="random", seed=11)
    play_to_the_end(match)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.rewards_credited
    won = match.winner_side == 0
    expected_coins, expected_points = (15, 3) if won else (2, 1)
    assert coins_without_achievements(user) == coins_before + expected_coins
    assert rank_points(user) == expected_points

    # Processing the finish again (e.g. a retry) pays nothing more.
    match.rewards_credited = False
    settle_finished_match(match, list(match.seats.all()))
    assert coins_without_achievements(user) == coins_before + expected_coins
    assert rank_points(user) == expected_points


def test_guest_match_credits_nothing_until_the_guest_signs_up(start_match, make_user):
    match = start_match(guest_token="tok-1", level="random", seed=5)
    play_to_the_end(match)
    user = make_user("Convidado")
    coins_before = coins_without_achievements(user)
    assert claim_seats(user, ["tok-1"]) == 1
    match.refresh_from_db()
    expected = 15 if match.winner_side == 0 else 2
    assert coins_without_achievements(user) == coins_before + expected
    assert claim_seats(user, ["tok-1"]) == 0
    assert coins_without_achievements(user) == coins_before + expected
