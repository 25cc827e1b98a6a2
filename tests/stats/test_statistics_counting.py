"""Statistics are counted when a match is settled, once, from its events; the rebuild gives the same numbers."""

import pytest
from django.core.management import call_command

from games.match.rewards import claim_seats, count_in_statistics
from games.models import Match, MatchEvent
from stats.models import Achievement, CountedMatch, EarnedAchievement, PlayerStats
from tests.stats.conftest import finish

pytestmark = pytest.mark.django_db


def events_of(match):
    return list(MatchEvent.objects.filter(match=match).order_by("id").values_list("data", flat=True))


def test_a_finished_match_is_counted_with_the_numbers_its_events_show(user, play_match):
    match = play_match(user, seed=11)
    stats = PlayerStats.objects.get(user=user)
    events = events_of(match)
    won = match.won_by(0)
    # Counted by hand from the stored events, independently of stats.facts.
    hands = [e for e in events if e["type"] in ("hand_won", "hand_void")]
    hands_won = [e for e in events if e["type"] == "hand_won" and e["side"] == 0]
    calls = [e for e in events if e["type"] == "raise_asked" and e["seat"] == 0]
    assert stats.count("played") == 1
    assert stats.count("won") == int(won) and stats.count("lost") == int(not won)
    assert stats.count("mode:ai:played") == 1 and stats.count("variant:paulista:played") == 1
    assert stats.count("seats:2:played") == 1
    assert stats.count("hands_played") == len(hands) > 0
    assert stats.count("hands_won") == len(hands_won)
    assert stats.count("trucos_called") == len(calls)
    assert (stats.current_streak, stats.best_streak) == ((1, 1) if won else (0, 0))
    assert CountedMatch.objects.filter(user=user, reference=f"match:{match.public_id}", won=won).count() == 1


def test_settling_again_counts_nothing_twice(user, play_match):
    match = play_match(user, seed=11)
    before = PlayerStats.objects.get(user=user).counters
    count_in_statistics(match, list(match.seats.all()))
    count_in_statistics(match, list(match.seats.all()))
    assert PlayerStats.objects.get(user=user).counters == before
    assert CountedMatch.objects.filter(user=user).count() == 1


def test_an_abandoned_match_does_not_count(user, play_match, start_plain):
    match = start_plain(user)
    Match.objects.filter(pk=match.pk).update(status=Match.Status.ABANDONED)
    match.refresh_from_db()
    count_in_statistics(match, list(match.seats.all()))
    assert not PlayerStats.objects.filter(user=user).exists()


def test_a_practice_match_counts_for_nothing_when_settled_or_rebuilt(user, start_plain):
    match = start_plain(user)
    Match.objects.filter(pk=match.pk).update(practice=True)
    match.refresh_from_db()
    finish(match)
    assert not PlayerStats.objects.filter(user=user).exists()
    assert not CountedMatch.objects.filter(user=user).exists()
    call_command("rebuild_stats", verbosity=0)
    assert not CountedMatch.objects.filter(user=user).exists()


def test_streaks_follow_the_results_in_order(user, play_match):
    results = [play_match(user, seed=seed, score=[11, 0]).won_by(0) for seed in (1, 2, 3)]
    stats = PlayerStats.objects.get(user=user)
    best = current = 0
    for won in results:
        current = current + 1 if won else 0
        best = max(best, current)
    assert (stats.current_streak, stats.best_streak) == (current, best)
    assert stats.count("played") == 3


def test_the_rebuild_command_gives_the_same_numbers(make_user, play_match):
    ana, bia = make_user("Ana"), make_user("Bia")
    play_match(ana, seed=3)
    play_match(bia, seed=4, variant="mineiro")
    play_match(ana, seed=5, score=[11, 11])  # an iron hand first
    play_match(ana, seed=6, seats=4, partnership=True, score=[10, 10])
    counted = {s.user_id: (s.counters, s.current_streak, s.best_streak) for s in PlayerStats.objects.all()}
    rows = set(CountedMatch.objects.values_list("user_id", "reference", "won", "mode", "variant"))
    PlayerStats.objects.all().update(counters={"played": 99}, best_streak=42)
    call_command("rebuild_stats")
    assert {s.user_id: (s.counters, s.current_streak, s.best_streak) for s in PlayerStats.objects.all()} == counted
    assert set(CountedMatch.objects.values_list("user_id", "reference", "won", "mode", "variant")) == rows
    assert counted[ana.pk][0]["played"] == 3 and counted[ana.pk][0]["iron_hands_played"] >= 1


def test_a_guest_who_signs_up_gets_the_match_counted_once(user, play_match):
    match = play_match(guest_token="guest-token-1", seed=8, score=[11, 0])
    assert not PlayerStats.objects.exists()
    assert claim_seats(user, ["guest-token-1"]) == 1
    assert claim_seats(user, ["guest-token-1"]) == 0
    stats = PlayerStats.objects.get(user=user)
    assert stats.count("played") == 1 and stats.count("won") == int(match.won_by(0))


def test_rebuild_with_award_gives_an_achievement_switched_on_later(user, play_match):
    Achievement.objects.filter(code="matches_10").update(active=False)
    for seed in range(10):
        play_match(user, seed=seed, score=[11, 11])
    assert not EarnedAchievement.objects.filter(user=user, achievement__code="matches_10").exists()
    Achievement.objects.filter(code="matches_10").update(active=True)
    call_command("rebuild_stats")
    assert not EarnedAchievement.objects.filter(user=user, achievement__code="matches_10").exists()
    call_command("rebuild_stats", "--award")
    call_command("rebuild_stats", "--award")
    assert EarnedAchievement.objects.filter(user=user, achievement__code="matches_10").count() == 1
