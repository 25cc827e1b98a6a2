"""The public profile's latest finished matches (issue 33 item 4): the player's, newest first, with a
replay link only for someone who sat at the match, and hidden like the statistics when the player hides them."""

import re

import pytest
from django.urls import reverse

from games.models import Match
from games.selectors import PROFILE_MATCHES, recent_matches
from tests.support.matches import make_table, win_match_for

pytestmark = pytest.mark.django_db


def profile_html(client, player, viewer=None, language="en") -> str:
    if viewer is not None:
        client.force_login(viewer)
    response = client.get(reverse("accounts:public_profile", args=[player.username]), HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    return response.content.decode()


def finished_duel(make_user, seed):
    """A match between two people that seat 0 wins: (the match, its two people)."""
    match, people = make_table(make_user, 2, seed=seed)
    win_match_for(match, side=0)
    return Match.objects.get(pk=match.pk), people


def test_the_profile_lists_the_latest_finished_matches_newest_first(client, make_user):
    first, (ana, bia) = finished_duel(make_user, seed=1)
    rows = recent_matches(ana, bia)
    assert [row["match"].pk for row in rows] == [first.pk]
    assert rows[0]["won"] and rows[0]["opponents"] == [bia.username]
    html = profile_html(client, ana)
    section = html.split("data-profile-matches=")[1]
    assert f'data-profile-match="{first.public_id}" data-result="won"' in section
    assert f"against {bia.username}" in section


def test_only_someone_who_sat_at_the_match_gets_its_replay_link(client, make_user):
    match, (ana, bia) = finished_duel(make_user, seed=2)
    stranger = make_user("Zeca")
    replay = reverse("games:replay", args=[match.public_id])
    assert replay in profile_html(client, ana, viewer=bia)
    client.logout()
    assert replay not in profile_html(client, ana, viewer=stranger)
    client.logout()
    assert replay not in profile_html(client, ana)  # signed out


def test_at_most_the_last_few_and_an_unfinished_match_is_not_one(make_user):
    match, (ana, _bia) = make_table(make_user, 2, seed=3)
    assert recent_matches(ana, None) == []  # in progress: not listed
    Match.objects.filter(pk=match.pk).update(status=Match.Status.FINISHED)
    assert len(recent_matches(ana, None, limit=PROFILE_MATCHES)) == 1


def test_a_player_who_hides_their_statistics_hides_their_matches_from_others(client, make_user):
    match, (ana, bia) = finished_duel(make_user, seed=4)
    ana.profile.public_stats = False
    ana.profile.save()
    assert "data-profile-matches" not in profile_html(client, ana, viewer=bia)
    client.logout()
    assert "data-profile-matches" in profile_html(client, ana, viewer=ana)  # their own page still shows them


def test_the_section_speaks_portuguese(client, make_user):
    _match, (ana, _bia) = finished_duel(make_user, seed=5)
    html = profile_html(client, ana, language="pt-br")
    assert "Partidas recentes" in html
    section = html.split("data-profile-matches=")[1]
    assert re.search(r"Vitória 12–\d+", section) and f"contra {_bia.username}" in section
