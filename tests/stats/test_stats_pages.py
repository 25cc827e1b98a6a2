"""The statistics page with its charts, the public profile's statistics (or a private note),
the achievements page with progress, and the table's notice of an achievement just earned."""

import pytest
from django.utils import translation

from accounts.services import update_profile
from stats.models import EarnedAchievement, PlayerStats
from tests.support.matches import pushed_fragments

pytestmark = pytest.mark.django_db


def won_a_match(user, play_match):
    for seed in range(40, 80):
        match = play_match(user, seed=seed, score=[11, 0])
        if match.won_by(0):
            return match
    raise AssertionError("no win in 40 matches at 11-0")


def test_statistics_page_shows_the_numbers_and_two_svg_charts(user, play_match, client):
    won_a_match(user, play_match)
    play_match(user, seed=5, score=[11, 0])
    stats = PlayerStats.objects.get(user=user)
    client.force_login(user)
    html = client.get("/stats/").content.decode()
    assert f'data-stat="played">{stats.count("played")}<' in html
    assert f'data-stat="won">{stats.count("won")}<' in html
    assert 'data-breakdown="mode:ai"' in html and 'data-breakdown="variant:paulista"' in html
    assert html.count('<svg class="chart"') == 2  # drawn on the server: no script, no CDN


def test_statistics_page_asks_a_visitor_to_sign_in(client):
    response = client.get("/stats/")
    assert response.status_code == 200 and "/accounts/login/" in response.content.decode()


def test_public_profile_shows_statistics_unless_private(user, make_user, play_match, client):
    play_match(user, seed=5, score=[11, 0])
    client.force_login(make_user("Visitor", password=None))
    assert 'data-statistics="Ana"' in client.get("/players/Ana/").content.decode()
    update_profile(user, display_name="Ana", country="", public_stats=False)
    html = client.get("/players/Ana/").content.decode()
    assert "data-profile-private" in html and 'data-statistics="Ana"' not in html
    client.force_login(user)  # always visible to herself
    assert 'data-statistics="Ana"' in client.get("/players/Ana/").content.decode()


def test_achievements_page_lists_earned_with_date_and_locked_with_progress(user, play_match, client):
    won_a_match(user, play_match)
    client.force_login(user)
    html = client.get("/stats/achievements/").content.decode()
    assert 'data-achievement="first_win" data-state="earned"' in html
    assert 'data-achievement="wins_10" data-state="locked"' in html
    assert 'data-progress="1/10"' in html
    assert 'data-achievement="matches_100" data-state="locked"' in html


def test_the_table_says_which_achievement_the_match_earned(user, play_match):
    match = won_a_match(user, play_match)
    earned = EarnedAchievement.objects.get(user=user, achievement__code="first_win")
    assert earned.reference == f"match:{match.public_id}"
    with translation.override("en"):
        status = pushed_fragments(match, 0)["status"]
    assert "data-achievement-notice" in status and 'data-earned-achievement="first_win"' in status
    assert "Achievement unlocked: First win" in status
    with translation.override("pt-br"):
        assert "Primeira vitória" in pushed_fragments(match, 0)["status"]


def test_the_pages_speak_portuguese_too(user, play_match, client):
    play_match(user, seed=5, score=[11, 0])
    client.force_login(user)
    pt = {"HTTP_ACCEPT_LANGUAGE": "pt-br"}
    assert "Suas estatísticas" in client.get("/stats/", **pt).content.decode()
    assert "Primeira vitória" in client.get("/stats/achievements/", **pt).content.decode()
    assert "Esta semana" in client.get("/leaderboards/", **pt).content.decode()
    assert "Histórico de partidas" in client.get("/play/history/", **pt).content.decode()
    bad = client.get("/leaderboards/?page=x", **pt).content.decode()
    assert "não é um número de página" in bad
