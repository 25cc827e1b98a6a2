"""Tournaments: four matches in a row, stronger bots each round, a loss ends it, the final pays.

Stage matches are played to their end through the real move service (tests/support/matches.py).
"""

import pytest
from django.urls import reverse

from games import engine
from games.engine.bots import BOT_LEVELS
from games.match.rewards import settle_finished_match
from games.match.tournaments import start_tournament
from games.models import Match, RewardSettings, Tournament
from games.selectors import current_match, tournament_bracket
from stats.services import rank_points
from tests.support.matches import play_to_the_end, win_match_for
from tests.support.rewards import coins_without_achievements

pytestmark = pytest.mark.django_db
RULES = engine.RuleSet(variant="paulista", seats=2)
STAGE_BOTS = Tournament.STAGE_BOTS


def finish(match: Match, human_wins: bool) -> None:
    """Play the stage match to its end so that the human's side (seat 0) wins or loses."""
    win_match_for(match, side=0 if human_wins else 1)


def test_tournament_starts_with_the_round_of_16_against_the_weakest_bot(user):
    tournament = start_tournament(user, RULES)
    match = current_match(tournament)
    assert tournament.stage == 0 and tournament.status == Tournament.Status.PLAYING
    assert match.kind == Match.Kind.TOURNAMENT and match.tournament_stage == 0
    assert {s.bot_level for s in match.seats.all() if s.is_bot} == {STAGE_BOTS[0]}


def test_each_stage_seats_bots_at_least_as_strong_as_the_last_and_the_final_hard(user):
    tournament = start_tournament(user, RULES)
    seated = []
    for _ in range(len(Tournament.STAGES)):
        match = current_match(tournament)
        (level,) = {s.bot_level for s in match.seats.all() if s.is_bot}
        seated.append(BOT_LEVELS.index(level))
        finish(match, human_wins=True)
        tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.WON
    assert seated == sorted(seated)
    # The final plays `hard`; `expert` (the search bot) is a Play-page level only (docs/decisions.md).
    assert seated[0] < seated[-1] == BOT_LEVELS.index("hard")


def test_winning_a_stage_opens_the_next_with_a_stronger_bot(user):
    tournament = start_tournament(user, RULES)
    finish(current_match(tournament), human_wins=True)
    tournament.refresh_from_db()
    assert tournament.stage == 1
    nxt = current_match(tournament)
    assert nxt.status == Match.Status.ACTIVE and nxt.bot_level == STAGE_BOTS[1]


def test_a_loss_ends_the_tournament_without_reward(user):
    coins = coins_without_achievements(user)
    tournament = start_tournament(user, RULES)
    finish(current_match(tournament), human_wins=True)
    tournament.refresh_from_db()
    finish(current_match(tournament), human_wins=False)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.LOST
    assert tournament.matches.count() == 2
    assert coins_without_achievements(user) == coins
    assert rank_points(user) == 0


def test_winning_the_final_pays_the_admin_configured_reward_once(user):
    settings = RewardSettings.current()
    settings.tournament_win_coins, settings.tournament_win_rank_points = 200, 12
    settings.save()
    coins = coins_without_achievements(user)
    tournament = start_tournament(user, RULES)
    for _ in range(4):
        tournament.refresh_from_db()
        assert coins_without_achievements(user) == coins  # nothing before the final is won
        finish(current_match(tournament), human_wins=True)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.WON
    assert coins_without_achievements(user) == coins + 200
    assert rank_points(user) == 12
    final = tournament.matches.get(tournament_stage=3)
    final.rewards_credited = False
    settle_finished_match(final, list(final.seats.all()))
    assert coins_without_achievements(user) == coins + 200


def test_a_real_stage_match_played_out_advances_or_ends_the_tournament(user):
    tournament = start_tournament(user, RULES)
    play_to_the_end(current_match(tournament))
    tournament.refresh_from_db()
    first = tournament.matches.get(tournament_stage=0)
    if first.winner_side == 0:
        assert tournament.stage == 1 and tournament.status == Tournament.Status.PLAYING
    else:
        assert tournament.status == Tournament.Status.LOST


def test_tournament_page_shows_the_bracket(signed_in_client, user):
    tournament = start_tournament(user, RULES)
    finish(current_match(tournament), human_wins=True)
    html = signed_in_client.get(
        reverse("games:tournament", args=[tournament.public_id]), HTTP_ACCEPT_LANGUAGE="en"
    ).content.decode()
    assert 'data-stage="0" data-state="won"' in html
    assert 'data-stage="1" data-state="playing"' in html
    assert 'data-stage="3" data-state="upcoming"' in html


def test_the_bracket_shows_where_a_tournament_was_lost(user):
    tournament = start_tournament(user, RULES)
    finish(current_match(tournament), human_wins=True)
    tournament.refresh_from_db()
    finish(current_match(tournament), human_wins=False)
    tournament.refresh_from_db()
    assert [stage.state for stage in tournament_bracket(tournament)] == ["won", "lost", "upcoming", "upcoming"]


def test_someone_elses_tournament_is_404(client, user, make_user):
    tournament = start_tournament(user, RULES)
    client.force_login(make_user("Outro"))
    assert client.get(reverse("games:tournament", args=[tournament.public_id])).status_code == 404


def test_a_stage_table_names_its_stage_and_links_the_bracket(signed_in_client, user):
    tournament = start_tournament(user, RULES)
    match = current_match(tournament)
    html = signed_in_client.get(
        reverse("games:table", args=[match.public_id]), HTTP_ACCEPT_LANGUAGE="en"
    ).content.decode()
    assert "Tournament: Round of 16" in html
    assert reverse("games:tournament", args=[tournament.public_id]) in html
