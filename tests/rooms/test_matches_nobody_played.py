"""A match pays only those who played it (issue 28 items 1-2; docs/decisions.md, "Issue 28").

A person played a match when they stayed to its end and made at least half of their seat's moves
themselves (not a robot while they were away, nor the clock when their time ran out). Whoever did not
play it earns nothing from it: no coins, no rank points, no achievements, no win in their statistics
(it counts as an abandonment). A room match someone did not play pays nobody, and the achievements its
people unlock with it come without their coins."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games import engine
from games.engine import RuleSet, side_of
from games.match import presence
from games.match.starting import create_match, seat_plans_against_ai
from games.models import Match, MatchEvent, Seat
from games.selectors import absent_seats, reward_note
from rooms import services
from shop.models import LedgerEntry
from stats.models import EarnedAchievement, PlayerStats
from stats.services import rank_points
from tests.support.matches import act, pushed_fragments, sweep, win_match_for
from tests.support.rooms import everyone_arrived, started_room_match


def reload(match: Match) -> Match:
    match.refresh_from_db()
    return match


def counters(user) -> dict:
    stats = PlayerStats.objects.filter(user=user).first()
    return stats.counters if stats else {}


def robots_play_to_the_end(match: Match, limit: int = 3000) -> Match:
    """People whose seat a robot does not hold take their first legal action; robots play on the clock."""
    for _ in range(limit):
        match = reload(match)
        if match.status != Match.Status.ACTIVE:
            return match
        state = engine.from_json(match.state)
        people = [s for s in engine.seats_to_act(state) if s not in match.robot_seats]
        if people:
            act(match.public_id, people[0], engine.legal_actions(state, people[0])[0].to_dict(), match.version)
        else:  # the robots' deadlines may be timed from the presence check's (later) clock
            assert sweep(now=timezone.now() + timedelta(seconds=60)) >= 1
    raise AssertionError("match did not end")


def paid_by(match: Match) -> list[tuple[str, int]]:
    """Every coin line the match itself paid (match rewards), and every achievement coin paid since it began."""
    return list(
        LedgerEntry.objects.filter(reason__in=("match_reward", "achievement_reward"), created_at__gte=match.created_at)
        .order_by("id")
        .values_list("reason", "amount")
    )


@pytest.mark.django_db
def test_two_accounts_that_never_open_the_table_earn_nothing_from_the_robots_match(person, settings):
    settings.GAMES_ROBOT_AFTER_AWAY_S = 15
    settings.GAMES_LEAVE_AFTER_AWAY_S = 10_000  # the robots finish before anyone counts as gone
    ana, bia = person("Ana"), person("Bia")
    rules = RuleSet.from_dict({"variant": "paulista", "seats": 2})
    services.quick_join(ana, rules, ip="198.51.100.7")
    room = services.quick_join(bia, rules, ip="198.51.100.7")
    match = reload(room.match)
    everyone_arrived(match)
    now = timezone.now()
    presence.settle(match.pk, now)  # nobody ever opened the table: both away
    presence.settle(match.pk, now + timedelta(seconds=16))  # and robots take both seats
    assert sorted(reload(match).robot_seats) == [0, 1]

    match = robots_play_to_the_end(match)

    assert match.status == Match.Status.FINISHED and match.rewards_credited
    assert MatchEvent.objects.filter(match=match, actor="player").count() == 0
    assert absent_seats(match) == {0, 1}
    assert paid_by(match) == []
    assert rank_points(ana) == rank_points(bia) == 0
    assert not EarnedAchievement.objects.filter(user__in=[ana, bia]).exists()
    for user in (ana, bia):
        assert counters(user).get("won", 0) == 0 and counters(user)["abandoned"] == 1
    status = pushed_fragments(match, 0)["status"]
    assert 'data-reward-note="absent"' in status and "data-rewards " not in status


@pytest.mark.django_db
def test_the_person_who_let_a_robot_make_most_of_their_moves_gets_nothing_and_nor_does_the_table(person):
    ana, bia = person("Ana"), person("Bia")
    match = started_room_match([ana, bia])
    # What the count says after a robot made Bia's first 30 moves while she was away (the counting
    # itself: test_every_move_of_a_persons_seat_counts_and_says_who_made_it).
    Match.objects.filter(pk=match.pk).update(own_moves={"0": [0, 0], "1": [0, 30]})
    ana_side = side_of(RuleSet.from_dict(match.rules), 0)
    win_match_for(match, side=ana_side)  # Bia plays her last few moves herself

    match = reload(match)
    own, moves = match.own_moves["1"]
    assert 0 < own and own * 2 < moves and match.own_moves["0"][0] == match.own_moves["0"][1]
    assert absent_seats(match) == {1}
    assert reward_note(match, seat_number=1) == "absent"
    assert reward_note(match, seat_number=0) == "player_absent"
    assert not LedgerEntry.objects.filter(reason="match_reward").exists()
    assert rank_points(ana) == rank_points(bia) == 0
    # Ana played and won: her statistics say so, her achievements unlock, without their coins.
    assert counters(ana)["won"] == 1 and counters(bia).get("won", 0) == 0 and counters(bia)["abandoned"] == 1
    earned = EarnedAchievement.objects.filter(user=ana, reference=f"match:{match.public_id}")
    assert {"first_win", "multiplayer_win"} <= set(earned.values_list("achievement__code", flat=True))
    assert set(earned.values_list("coins_paid", flat=True)) == {0}
    assert not LedgerEntry.objects.filter(reason="achievement_reward").exists()
    assert not EarnedAchievement.objects.filter(user=bia).exists()
    assert 'data-reward-note="player_absent"' in pushed_fragments(match, 0)["status"]
    assert 'data-reward-note="absent"' in pushed_fragments(match, 1)["status"]


@pytest.mark.django_db
def test_a_match_someone_left_pays_no_achievement_coins_and_unlocks_nothing_for_the_leaver(person):
    ana, bia, caio, dani = (person(name) for name in ("Ana", "Bia", "Caio", "Dani"))
    match = started_room_match([ana, bia, caio, dani])
    seat_of = {seat.user_id: seat.number for seat in Seat.objects.filter(match=match)}
    rules = RuleSet.from_dict(match.rules)
    # Caio leaves at once; his partner's side wins the match (the robot's moves are played here by the
    # test, as in the other reward tests: what counts is that he left before the end).
    Seat.objects.filter(match=match, user=caio).update(left_at=timezone.now())
    caio_side = side_of(rules, seat_of[caio.pk])
    win_match_for(match, side=caio_side)

    match = reload(match)
    assert match.status == Match.Status.FINISHED
    partner = next(u for u in (ana, bia, dani) if side_of(rules, seat_of[u.pk]) == caio_side)
    assert not LedgerEntry.objects.filter(reason__in=("match_reward", "achievement_reward")).exists()
    assert not EarnedAchievement.objects.filter(user=caio).exists()
    assert counters(caio).get("won", 0) == 0 and counters(caio)["abandoned"] == 1
    assert counters(partner)["won"] == 1
    unlocked = EarnedAchievement.objects.filter(user=partner)
    assert {"first_win", "multiplayer_win", "partnership_win"} <= set(
        unlocked.values_list("achievement__code", flat=True)
    )
    assert set(unlocked.values_list("coins_paid", flat=True)) == {0}
    status = pushed_fragments(match, seat_of[partner.pk])["status"]
    assert 'data-reward-note="player_left"' in status
    assert 'data-achievement-coins="0"' in status and 'data-achievement-coins="10"' not in status
    assert 'data-reward-note="absent"' in pushed_fragments(match, seat_of[caio.pk])["status"]


@pytest.mark.django_db
def test_a_match_everyone_played_pays_its_achievements_coins_as_before(person):
    ana, bia = person("Ana"), person("Bia")
    match = started_room_match([ana, bia])
    ana_side = side_of(RuleSet.from_dict(match.rules), 0)
    win_match_for(match, side=ana_side)
    match = reload(match)
    assert absent_seats(match) == set()
    first_win = EarnedAchievement.objects.get(user=ana, achievement__code="first_win")
    assert first_win.coins_paid == first_win.achievement.coin_reward > 0
    assert LedgerEntry.objects.filter(reason="achievement_reward", wallet__user=ana).exists()
    assert f'data-achievement-coins="{first_win.coins_paid}"' in pushed_fragments(match, 0)["status"]


@pytest.mark.django_db
def test_every_move_of_a_persons_seat_counts_and_says_who_made_it(person, settings):
    settings.GAMES_ABANDON_AFTER_MISSED_TURNS = 100
    ana, bia = person("Ana"), person("Bia")
    match = started_room_match([ana, bia])
    assert match.own_moves == {"0": [0, 0], "1": [0, 0]}
    state = engine.from_json(match.state)
    first = engine.seats_to_act(state)[0]
    act(match.public_id, first, engine.legal_actions(state, first)[0].to_dict(), match.version)
    assert reload(match).own_moves[str(first)] == [1, 1]
    # The next seat's clock runs out: the table plays for that person, which is not theirs.
    second = engine.seats_to_act(engine.from_json(reload(match).state))[0]
    assert sweep(now=timezone.now() + timedelta(seconds=match.move_seconds + 5)) == 1
    assert MatchEvent.objects.filter(match=match, actor="clock").exists()
    assert reload(match).own_moves[str(second)][1] == reload(match).own_moves[str(second)][0] + 1


@pytest.mark.django_db
def test_a_match_against_the_ai_played_mostly_by_the_clock_pays_nothing(make_user, settings):
    settings.GAMES_ABANDON_AFTER_MISSED_TURNS = 10_000

    player = make_user("Solo")
    rules = RuleSet.from_dict({"variant": "paulista", "seats": 2})
    match = create_match(rules=rules, seats=seat_plans_against_ai(rules, "easy", user=player), bot_level="easy", seed=3)
    assert match.own_moves == {"0": [0, 0]}
    for _ in range(3000):
        match = reload(match)
        if match.status != Match.Status.ACTIVE:
            break
        assert sweep(now=timezone.now() + timedelta(seconds=match.move_seconds + 5)) >= 1
    assert match.status == Match.Status.FINISHED and absent_seats(match) == {0}
    assert not LedgerEntry.objects.filter(reason__in=("match_reward", "achievement_reward")).exists()
    assert rank_points(player) == 0
    assert reward_note(match, seat_number=0) == "absent"
