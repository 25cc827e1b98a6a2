"""Leaderboards: by period and country, ties sharing a position, hidden players, your own position,
a constant number of queries, and bad page numbers or countries answered plainly."""

import random
from datetime import UTC, datetime
from unittest import mock

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts.models import Profile, User
from accounts.services import update_profile
from stats import selectors
from stats.models import RankPointTotal
from stats.services import award_rank_points

pytestmark = pytest.mark.django_db

MONDAY = datetime(2026, 11, 23, 12, tzinfo=UTC)  # the week of 23-29 November
LAST_MONTH = datetime(2026, 10, 20, 12, tzinfo=UTC)
TODAY = datetime(2026, 11, 25, 12, tzinfo=UTC)


def award(user, points, at, ref):
    with mock.patch("django.utils.timezone.now", return_value=at):
        award_rank_points(user, points, reason="test", reference=ref)


def board(period, **kwargs):
    with mock.patch("django.utils.timezone.now", return_value=TODAY):
        return selectors.leaderboard(period, **kwargs)


@pytest.fixture
def players(make_user):
    ana, bia, caio, duda = (make_user(n, password=None) for n in ("Ana", "Bia", "Caio", "Duda"))
    for user, country in ((ana, "BR"), (bia, "BR"), (caio, "PT"), (duda, "")):
        update_profile(user, display_name=user.username, country=country)
    award(ana, 10, LAST_MONTH, "a1")
    award(ana, 5, MONDAY, "a2")
    award(bia, 15, MONDAY, "b1")
    award(caio, 15, TODAY, "c1")
    award(duda, 3, LAST_MONTH, "d1")
    return ana, bia, caio, duda


def positions(result):
    return [(r.position, r.name, r.points) for r in result["rows"]]


def test_all_time_ties_share_a_position_and_the_next_skips(players):
    assert positions(board("all")) == [(1, "Ana", 15), (1, "Bia", 15), (1, "Caio", 15), (4, "Duda", 3)]


def test_this_week_and_this_month_count_only_their_awards(players):
    assert positions(board("week")) == [(1, "Bia", 15), (1, "Caio", 15), (3, "Ana", 5)]
    assert positions(board("month")) == [(1, "Bia", 15), (1, "Caio", 15), (3, "Ana", 5)]
    with mock.patch("django.utils.timezone.now", return_value=LAST_MONTH):
        assert positions(selectors.leaderboard("month")) == [(1, "Ana", 10), (2, "Duda", 3)]


def test_by_country(players):
    assert positions(board("all", country="BR")) == [(1, "Ana", 15), (1, "Bia", 15)]
    assert positions(board("all", country="PT")) == [(1, "Caio", 15)]


def test_a_hidden_player_is_on_no_board_but_sees_their_own_position(players):
    ana, bia, caio, duda = players
    update_profile(bia, display_name="Bia", country="BR", public_stats=False)
    assert positions(board("all")) == [(1, "Ana", 15), (1, "Caio", 15), (3, "Duda", 3)]
    mine = board("all", viewer=bia)["mine"]
    assert (mine.position, mine.points, mine.listed, mine.on_page) == (1, 15, False, False)
    # Switching back lists her again, with her country.
    update_profile(bia, display_name="Bia", country="BR", public_stats=True)
    assert positions(board("all", country="BR")) == [(1, "Ana", 15), (1, "Bia", 15)]


def test_your_position_is_shown_even_off_the_page(players, monkeypatch):
    ana, bia, caio, duda = players
    monkeypatch.setattr(selectors, "PAGE_SIZE", 2)
    first = board("all", viewer=duda)
    assert [r.name for r in first["rows"]] == ["Ana", "Bia"] and first["pages"] == 2
    assert (first["mine"].position, first["mine"].on_page) == (4, False)
    second = board("all", page=2, viewer=duda)
    assert positions(second) == [(1, "Caio", 15), (4, "Duda", 3)]  # a tie carried over the page break
    assert second["rows"][1].me and second["mine"].on_page


def test_queries_stay_constant_whatever_the_size(make_user, players):
    def queries(cold: bool):
        if cold:
            cache.clear()  # the points distribution is read again
        with CaptureQueriesContext(connection) as captured:
            board("all", viewer=players[0])
        return len(captured)

    small = (queries(cold=True), queries(cold=False))
    for n in range(30):
        award(make_user(f"extra{n}", password=None), n % 7 + 1, TODAY, f"x{n}")
    assert (queries(cold=True), queries(cold=False)) == small
    assert small == (4, 3)


def test_every_page_agrees_with_a_ranking_counted_by_hand(make_user, monkeypatch):
    rng = random.Random(5)
    for n in range(40):
        award(make_user(f"p{n}", password=None), rng.choice([1, 3, 3, 5, 8, 8, 8, 13]), TODAY, f"r{n}")
    monkeypatch.setattr(selectors, "PAGE_SIZE", 7)
    shown = []
    first = board("all")
    for page in range(1, first["pages"] + 1):
        shown += positions(board("all", page=page))
    points = sorted(
        ((p, name) for name, p in RankPointTotal.objects.filter(period="all").values_list("user__username", "points")),
        key=lambda pair: (-pair[0], User.objects.get(username=pair[1]).pk),
    )
    by_hand = [(1 + sum(1 for q, _n in points if q > p), name, p) for p, name in points]
    assert shown == by_hand and first["pages"] == 6


def test_the_page_highlights_you_and_shows_flags(players, client):
    client.force_login(players[3])
    with mock.patch("django.utils.timezone.now", return_value=TODAY):
        html = client.get("/leaderboards/?period=all").content.decode()
    assert 'data-player="Duda"' in html and 'class="me"' in html
    assert 'data-position="1" data-player="Ana"' in html and "flags/br.gif" in html


@pytest.mark.parametrize(
    "query, says",
    [
        ("page=abc", "is not a page number"),
        ("page=0", "is not a page number"),
        ("page=99", "There is no page 99"),
        ("country=ZZ", "is not a country we know"),
        ("country=%3Cscript%3E", "is not a country we know"),
        ("period=decade", "There is no such leaderboard"),
    ],
)
def test_bad_input_gets_a_clear_answer(players, client, query, says):
    response = client.get(f"/leaderboards/?{query}")
    assert response.status_code == 404
    html = response.content.decode()
    assert says in html and "<script>" not in html


def test_the_home_page_shows_the_top_of_the_all_time_board(players, client):
    html = client.get("/").content.decode()
    assert 'data-home="leaderboard-top"' in html and "/players/Ana/" in html


def test_profile_switch_saves_and_defaults_on(players, client):
    ana = players[0]
    assert Profile.objects.get(user=ana).public_stats is True
    client.force_login(ana)
    response = client.post("/profile/", {"display_name": "Ana", "country": "BR"})
    assert response.status_code == 302
    assert Profile.objects.get(user=ana).public_stats is False  # an unticked checkbox is off


def test_a_country_changed_in_the_admin_moves_the_player_between_boards(players):
    caio = players[2]
    profile = Profile.objects.get(user=caio)
    profile.country = "BR"
    profile.save()  # as the admin saves it: no profile form involved
    assert "Caio" in [r.name for r in board("all", country="BR")["rows"]]
    cache.clear()
    assert board("all", country="PT")["rows"] == []
