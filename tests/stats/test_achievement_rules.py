"""Every achievement rule: statistics that just reach it earn it (once, with its coins), one short do not."""

import pytest
from django.db import connection

from shop import wallet
from shop.models import LedgerEntry
from stats.achievements import DEFAULTS, RULES
from stats.models import Achievement, EarnedAchievement, PlayerStats
from stats.services import award_achievements
from tests.support.threads import run_in_threads

# For each rule, the statistics of a player at `n` of it: written independently of the rules' code.
AT = {
    "first_win": lambda n: ({"won": n}, 0),
    "wins_10": lambda n: ({"won": n}, 0),
    "wins_100": lambda n: ({"won": n}, 0),
    "wins_1000": lambda n: ({"won": n}, 0),
    "matches_10": lambda n: ({"played": n}, 0),
    "matches_100": lambda n: ({"played": n}, 0),
    "tournament_win": lambda n: ({"tournaments_won": n}, 0),
    "tournaments_5": lambda n: ({"tournaments_won": n}, 0),
    "iron_hand_win": lambda n: ({"iron_hands_won": n, "iron_hands_played": 3}, 0),
    "comeback": lambda n: ({"comeback_wins": n, "won": 5}, 0),
    "twelve_won": lambda n: ({"twelves_won": n}, 0),
    "zap_round": lambda n: ({"zap_rounds_won": n}, 0),
    "flawless_win": lambda n: ({"flawless_wins": n, "won": 4}, 0),
    "both_variants": lambda n: (
        {"variant:paulista:played": 7, **({"variant:mineiro:played": 1} if n == 2 else {})},
        0,
    ),
    "multiplayer_win": lambda n: ({"mode:multiplayer:won": n, "mode:ai:won": 9}, 0),
    "streak_3": lambda n: ({"won": 30}, n),
    "streak_10": lambda n: ({"won": 30}, n),
    "eleven_won": lambda n: ({"eleven_hands_won": n, "eleven_hands_played": 20}, 0),
    "eleven_won_10": lambda n: ({"eleven_hands_won": n, "eleven_hands_played": 20}, 0),
    "truco_caller": lambda n: ({"trucos_called": n, "trucos_accepted": 99}, 0),
    "brave": lambda n: ({"trucos_accepted": n, "trucos_called": 99}, 0),
    "hands_won_100": lambda n: ({"hands_won": n, "hands_played": 300}, 0),
    "partnership_win": lambda n: ({"seats:4:won": n, "seats:2:won": 9}, 0),
    "mineiro_wins_10": lambda n: ({"variant:mineiro:won": n, "variant:paulista:won": 50}, 0),
}


def test_at_least_twenty_rules_each_with_its_data_and_a_test_case():
    assert len(RULES) >= 20
    assert set(AT) == set(RULES) == set(DEFAULTS)


def stats_for(user, code, n):
    counters, best = AT[code](n)
    return PlayerStats.objects.create(user=user, counters=counters, best_streak=best)


@pytest.mark.django_db
@pytest.mark.parametrize("code", sorted(RULES))
def test_reaching_the_target_earns_it_once_with_its_coins(user, code):
    achievement = Achievement.objects.get(code=code)
    stats = stats_for(user, code, RULES[code].target)
    coins = wallet.balance(user, currency=wallet.COINS)
    earned = award_achievements(stats, reference="match:abc")
    assert code in {e.achievement.code for e in earned}
    assert award_achievements(stats) == []  # never twice
    assert EarnedAchievement.objects.filter(user=user, achievement=achievement).count() == 1
    paid = sum(a.coin_reward for a in (e.achievement for e in earned))
    assert wallet.balance(user, currency=wallet.COINS) == coins + paid
    if achievement.coin_reward:
        assert LedgerEntry.objects.filter(reason="achievement_reward", reference=f"achievement:{code}").count() == 1


@pytest.mark.django_db
@pytest.mark.parametrize("code", sorted(RULES))
def test_one_short_of_the_target_does_not_earn_it(user, code):
    stats = stats_for(user, code, RULES[code].target - 1)
    award_achievements(stats)
    assert not EarnedAchievement.objects.filter(user=user, achievement__code=code).exists()


@pytest.mark.django_db
def test_an_inactive_achievement_is_neither_awarded_nor_listed(user, client):
    Achievement.objects.filter(code="first_win").update(active=False)
    award_achievements(stats_for(user, "first_win", 1))
    assert not EarnedAchievement.objects.filter(user=user, achievement__code="first_win").exists()
    client.force_login(user)
    assert 'data-achievement="first_win"' not in client.get("/stats/achievements/").content.decode()


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="SQLite serialises every writer: no race to show")
def test_concurrent_awards_never_award_one_twice(make_user, stocked_shop, stocked_achievements):
    user = make_user("Corrida")
    PlayerStats.objects.create(user=user, counters={"won": 1})
    coins = wallet.balance(user, currency=wallet.COINS)
    results, errors = run_in_threads(8, lambda n: award_achievements(PlayerStats.objects.get(user=user)))
    assert not errors
    assert EarnedAchievement.objects.filter(user=user, achievement__code="first_win").count() == 1
    assert sum(len(r) for r in results) == 1
    assert wallet.balance(user, currency=wallet.COINS) == coins + Achievement.objects.get(code="first_win").coin_reward
