"""The Play page, the bracket and the home page say what matches and tournaments pay, in the page's language."""

import pytest
from django.urls import reverse
from django.utils import timezone, translation

from games import engine, selectors
from games.match.rewards import settle_finished_match
from games.match.starting import create_match, seat_plans_against_ai
from games.match.tournaments import start_tournament
from games.models import Match, RewardSettings
from games.selectors import current_match
from games.table import rendering
from shop.selectors import DEFAULT_DECK

pytestmark = pytest.mark.django_db
RULES = engine.RuleSet(variant="paulista", seats=2)


@pytest.fixture
def rewards():
    settings = RewardSettings.current()
    settings.single_win_coins, settings.single_loss_coins = 17, 3
    settings.tournament_win_coins, settings.tournament_win_rank_points = 210, 11
    settings.save()
    return settings


def finish(match: Match, *, won: bool, score=(12, 5)) -> Match:
    """Close the match as the table would (result, score) and settle it with the real service."""
    match.status, match.winner_side, match.finished_at = Match.Status.FINISHED, 0 if won else 1, timezone.now()
    match.score = list(score if won else score[::-1])
    match.save()
    settle_finished_match(match, list(match.seats.all()))
    return match


def finished_single_match(user, *, won: bool, score=(12, 7)) -> Match:
    match = create_match(rules=RULES, seats=seat_plans_against_ai(RULES, "easy", user=user), bot_level="easy")
    return finish(match, won=won, score=score)


def test_play_page_says_what_a_single_match_and_a_tournament_pay(client, rewards):
    html = client.get(reverse("games:play"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "a win pays 17 coins, a loss 3" in html
    assert "the final pays 210 coins and 11 rank points" in html
    html = client.get(reverse("games:play"), HTTP_ACCEPT_LANGUAGE="pt-br").content.decode()
    assert "a final paga 210 moedas e 11 pontos de ranking" in html


def test_bracket_names_the_prize_and_each_stage_bot_in_the_pages_language(signed_in_client, user, rewards):
    tournament = start_tournament(user, RULES)
    url = reverse("games:tournament", args=[tournament.public_id])
    html = signed_in_client.get(url, HTTP_ACCEPT_LANGUAGE="pt-br").content.decode()
    assert 'data-prize-coins="210" data-prize-rank-points="11"' in html
    assert "210 moedas e 11 pontos de ranking" in html
    assert "IA: Fácil" in html and "IA: Difícil" in html
    assert "easy" not in html and "medium" not in html
    assert "IA: Médio" in signed_in_client.get(url, HTTP_ACCEPT_LANGUAGE="pt-br").content.decode()
    english = signed_in_client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "AI: Easy" in english and "win the final for 210 coins and 11 rank points" in english
    assert current_match(tournament).public_id in html


def test_home_offers_quick_play_with_the_last_used_options(client):
    form = {
        "mode": "single",
        "variant": "mineiro",
        "deck": "clean",
        "seats": "4",
        "partnership": "no",
        "bot_level": "hard",
        "face_down": "",
        "all_tied": "dealer",
        "move_seconds": "60",
    }
    client.post(reverse("games:play"), form, HTTP_ACCEPT_LANGUAGE="en")
    html = client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    for name, value in form.items():
        assert f'<input type="hidden" name="{name}" value="{value}">' in html
    assert "Mineiro · 4 players, each for themselves · AI: Hard" in html
    # The quick-play form starts a match with exactly those options.
    before = Match.objects.count()
    response = client.post(reverse("games:play"), form)
    assert response.status_code == 302 and Match.objects.count() == before + 1
    assert Match.objects.order_by("-id").first().rules["variant"] == "mineiro"


def test_home_quick_play_starts_from_the_defaults_for_a_new_visitor(client):
    html = client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE="pt-br").content.decode()
    assert '<input type="hidden" name="variant" value="paulista">' in html
    assert '<input type="hidden" name="bot_level" value="medium">' in html
    assert "Paulista · 1 contra 1 · IA: Médio" in html
    assert 'data-home="join"' in html and 'data-home="recent-results"' not in html


def test_home_shows_a_signed_in_players_balances_and_recent_results(signed_in_client, user, rewards):
    finished_single_match(user, won=True, score=(12, 7))
    finished_single_match(user, won=False, score=(12, 4))
    html = signed_in_client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    results = html.split('data-home="recent-results"')[1].split("</section>")[0]
    assert results.index('data-result="lost"') < results.index('data-result="won"')  # newest first
    assert "<strong>12 × 7</strong>" in results and "<strong>4 × 12</strong>" in results
    assert 'data-coins="17"' in results and 'data-coins="3"' in results
    assert '<div data-balance="coins"><dt>' in html.split('data-home="wallet"')[1]


def test_home_shows_the_top_of_the_leaderboard(client):
    html = client.get(reverse("home")).content.decode()
    assert 'data-home="leaderboard-top"' in html


def result_screen(match: Match) -> str:
    match.refresh_from_db()
    # The match was closed by hand (finish), so its engine state is still mid-hand: the view says it is over.
    view = {**rendering.viewer_view(match, 0), "match_over": True, "match_winner": match.winner_side}
    with translation.override("en"):
        contexts = rendering.table_contexts(
            match, rendering.table_facts(match, selectors.seats_at(match), DEFAULT_DECK), view
        )
        return rendering.render_fragment("status", contexts["status"])


def test_each_tournament_stage_result_says_what_the_final_pays(user, rewards):
    tournament = start_tournament(user, RULES)
    first = finish(current_match(tournament), won=True)
    screen = result_screen(first)
    assert "Round of 16 won. Next: Quarter-final. Win the final for 210 coins and 11 rank points." in screen
    assert 'data-prize-coins="210" data-prize-rank-points="11"' in screen
    for _ in range(3):
        tournament.refresh_from_db()
        final = finish(current_match(tournament), won=True)
    screen = result_screen(final)
    assert 'data-reward-coins="210" data-reward-rank-points="11"' in screen and "Champion!" in screen


def test_a_knocked_out_player_is_told_what_the_final_would_pay(user, rewards):
    tournament = start_tournament(user, RULES)
    screen = result_screen(finish(current_match(tournament), won=False))
    assert "Knocked out in the Round of 16. The final pays 210 coins and 11 rank points" in screen


def test_a_single_match_result_carries_its_reward_amounts(user, rewards):
    match = finished_single_match(user, won=True)
    assert 'data-reward-coins="17" data-reward-rank-points="3"' in result_screen(match)
