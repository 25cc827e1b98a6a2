"""Experience and levels (issue 33 item 3): the curve, what counts, and where a level is shown."""

import re

import pytest
from django.urls import reverse
from django.utils import translation

from games.match.rewards import count_in_statistics
from games.models import Match
from stats import levels
from stats.models import PlayerStats
from stats.selectors import level_reached_in, statistics_page
from tests.stats.conftest import finish
from tests.support.matches import pushed_fragments, win_match_for

# --- the curve and the experience (pure) ------------------------------------------------------


def test_each_level_takes_a_step_more_than_the_one_before():
    assert [levels.level_start(level) for level in range(1, 6)] == [0, 100, 300, 600, 1000]
    assert [levels.level_of(xp) for xp in (0, 99, 100, 299, 300, 999, 1000)] == [1, 1, 2, 2, 3, 4, 5]


def test_experience_counts_matches_played_and_more_for_a_win():
    assert levels.experience({}) == 0
    assert levels.experience({"played": 3, "won": 2, "lost": 1}) == 2 * levels.XP_PER_WIN + levels.XP_PER_LOSS
    assert levels.XP_PER_WIN > levels.XP_PER_LOSS > 0


def test_a_match_the_person_did_not_play_gives_nothing():
    # The statistics count it as played, lost and abandoned.
    assert levels.experience({"played": 2, "won": 1, "lost": 1, "abandoned": 1}) == levels.XP_PER_WIN
    assert levels.match_experience(won=False, played=False) == 0
    assert levels.match_experience(won=True, played=True) == levels.XP_PER_WIN


def test_progress_says_how_far_into_the_level():
    progress = levels.progress(150)
    assert (progress.level, progress.level_xp, progress.next_xp, progress.percent) == (2, 100, 300, 25)


# --- counted matches ---------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_finished_match_gives_experience_and_a_practice_match_none(user, play_match, start_plain):
    match = play_match(user, seed=11)
    xp = levels.experience(PlayerStats.objects.get(user=user).counters)
    assert xp == (levels.XP_PER_WIN if match.won_by(0) else levels.XP_PER_LOSS)
    practice = start_plain(user, seed=12)
    Match.objects.filter(pk=practice.pk).update(practice=True)
    practice.refresh_from_db()
    finish(practice)
    assert levels.experience(PlayerStats.objects.get(user=user).counters) == xp


@pytest.mark.django_db
def test_an_annulled_match_gives_nothing(user, start_plain):
    match = start_plain(user)
    Match.objects.filter(pk=match.pk).update(status=Match.Status.ANNULLED)
    match.refresh_from_db()
    count_in_statistics(match, list(match.seats.all()))
    assert not PlayerStats.objects.filter(user=user).exists()


def just_below_level_two(user) -> None:
    PlayerStats.objects.update_or_create(user=user, defaults={"counters": {"played": 9, "won": 0, "lost": 9}})


@pytest.mark.django_db
def test_the_result_of_the_match_that_took_a_player_up_says_so(user, start_plain):
    just_below_level_two(user)  # 90 experience: a win or a loss makes level 2
    match = start_plain(user, seed=5)
    win_match_for(match, side=0)
    match.refresh_from_db()
    with translation.override("en"):
        status = pushed_fragments(match, 0)["status"]
    assert 'data-level-up="2"' in status
    assert "Level up! You reached level 2." in status
    with translation.override("pt-br"):
        assert "Você chegou ao nível 2." in pushed_fragments(match, 0)["status"]


@pytest.mark.django_db
def test_no_level_up_when_the_match_did_not_cross_a_level_nor_on_an_older_result(user, start_plain):
    match = start_plain(user, seed=5)
    win_match_for(match, side=0)  # 30 experience: still level 1
    match.refresh_from_db()
    assert "data-level-up" not in pushed_fragments(match, 0)["status"]
    reference = f"match:{match.public_id}"
    assert level_reached_in(user, reference, played=True) is None
    just_below_level_two(user)
    crossing = start_plain(user, seed=6)
    win_match_for(crossing, side=0)
    assert level_reached_in(user, f"match:{crossing.public_id}", played=True) == 2
    # The older result is not the latest counted match any more: no level-up, rather than a wrong one.
    assert level_reached_in(user, reference, played=True) is None


# --- where a level is shown --------------------------------------------------------------------


@pytest.mark.django_db
def test_the_table_shows_each_persons_level_on_their_avatar_and_none_for_the_ai(user, start_plain):
    just_below_level_two(user)
    PlayerStats.objects.filter(user=user).update(counters={"played": 10, "won": 10, "lost": 0})  # 300: level 3
    match = start_plain(user, seed=5)
    with translation.override("en"):
        seats = pushed_fragments(match, 0)["seats"]
    chips = re.findall(r'<small class="level-chip" data-level="(\d+)" title="([^"]+)">', seats)
    assert chips == [("3", "Level 3")]  # the AI's seat has none


@pytest.mark.django_db
def test_the_statistics_page_shows_the_level_and_the_way_to_the_next(user, client):
    PlayerStats.objects.create(user=user, counters={"played": 5, "won": 5, "lost": 0})  # 150
    page = statistics_page(user)
    assert (page["level"].level, page["level"].percent) == (2, 25)
    client.force_login(user)
    html = client.get(reverse("stats:statistics"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'data-level="2" data-experience="150"' in html
    assert "150 / 300 experience" in html
    public = client.get(reverse("accounts:public_profile", args=[user.username]), HTTP_ACCEPT_LANGUAGE="pt-br")
    assert "Nível 2" in public.content.decode()
