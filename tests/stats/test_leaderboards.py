"""Leaderboards: by period and country, ties sharing a position, hidden players, your own position,
a constant number of queries, and bad page numbers or countries answered plainly."""

import random
from datetime import UTC, date, datetime
from unittest import mock

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts.models import Profile, User
from accounts.services import delete_account, update_profile
from stats import selectors, services
from stats.models import BoardTally, PlayerStats, RankPointTotal
from stats.services import award_rank_points, fold_tallies, rebuild_rank_point_totals

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


def test_positions_match_the_points_read_right_after_matches(make_user):
    """Issue 28 item 7: a board read before the matches, then right after them, ranks by the new points."""
    ana, bia, caio, duda = (make_user(n, password=None) for n in ("Ana", "Bia", "Caio", "Duda"))
    assert board("all")["rows"] == []  # someone looked at the board before the matches ended
    for user, points in ((ana, 10), (bia, 5), (caio, 4), (duda, 2)):
        award(user, points, TODAY, f"m-{user.username}")
    seen = board("all", viewer=duda)
    assert positions(seen) == [(1, "Ana", 10), (2, "Bia", 5), (3, "Caio", 4), (4, "Duda", 2)]
    assert (seen["mine"].position, seen["mine"].points) == (4, 2)
    assert seen["total"] == 4

    # One more match: Caio ties Bia (ties share a position, the next one skips), Duda passes them.
    award(caio, 1, TODAY, "m2-Caio")
    award(duda, 8, TODAY, "m2-Duda")
    seen = board("all", viewer=duda)
    assert positions(seen) == [(1, "Ana", 10), (1, "Duda", 10), (3, "Bia", 5), (3, "Caio", 5)]
    assert seen["mine"].position == 1
    assert positions(board("week")) == positions(seen)


def test_a_player_who_hides_or_moves_leaves_the_positions_at_once(players):
    ana, bia, caio, duda = players
    assert positions(board("all", country="PT")) == [(1, "Caio", 15)]
    update_profile(caio, display_name="Caio", country="BR")
    assert positions(board("all", country="BR")) == [(1, "Ana", 15), (1, "Bia", 15), (1, "Caio", 15)]
    assert positions(board("all", country="PT")) == []
    update_profile(ana, display_name="Ana", country="BR", public_stats=False)
    assert positions(board("all")) == [(1, "Bia", 15), (1, "Caio", 15), (3, "Duda", 3)]
    assert board("all", viewer=duda)["mine"].position == 3


def counted_by_hand() -> dict[tuple, int]:
    """Every board's points distribution counted from the totals: (period, starts_on, country, points) -> players."""
    counted: dict[tuple, int] = {}
    for total in RankPointTotal.objects.filter(listed=True, points__gt=0):
        for country in ("", total.country) if total.country else ("",):
            key = (total.period, total.starts_on, country, total.points)
            counted[key] = counted.get(key, 0) + 1
    return counted


def tallied() -> dict[tuple, int]:
    sums: dict[tuple, int] = {}
    for row in BoardTally.objects.all():
        key = (row.period, row.starts_on, row.country, row.points)
        sums[key] = sums.get(key, 0) + row.players
    return {key: players for key, players in sums.items() if players}


def test_the_tallies_follow_every_change_of_the_totals(make_user):
    rng = random.Random(28)
    people = [make_user(f"t{n}", password=None) for n in range(8)]
    days = [LAST_MONTH, MONDAY, TODAY]
    for n, who in enumerate(people):
        award(who, n % 3 + 1, days[n % 3], f"first{n}")
    for step in range(80):
        who = rng.choice(people)
        change = rng.random()
        if change < 0.5:
            award(who, rng.choice([1, 2, 3, 10]), rng.choice(days), f"s{step}")
        elif change < 0.85:
            update_profile(
                who, display_name=who.username, country=rng.choice(["BR", "PT", ""]), public_stats=rng.random() < 0.7
            )
        else:
            fold_tallies("all", date(2000, 1, 1), rng.choice(["", "BR", "PT"]))
        assert tallied() == counted_by_hand(), step
    delete_account(people[0])
    assert tallied() == counted_by_hand()
    rebuild_rank_point_totals()
    assert tallied() == counted_by_hand()


def test_a_read_folds_a_board_with_many_rows_to_sum_and_changes_no_position(make_user, monkeypatch):
    people = [make_user(f"f{n}", password=None) for n in range(6)]
    for n in range(30):
        award(people[n % 6], n % 4 + 1, TODAY, f"f{n}")
    before = positions(board("all"))
    unfolded = BoardTally.objects.filter(period="all").count()
    monkeypatch.setattr(services, "FOLD_ABOVE", 5)
    monkeypatch.setattr(selectors, "FOLD_ABOVE", 5)
    assert positions(board("all")) == before  # this read folds, after reading
    whole = BoardTally.objects.filter(period="all", country="")
    assert whole.filter(folded=False).count() == 0
    assert whole.count() == whole.values("points").distinct().count()  # one row per points value
    assert BoardTally.objects.filter(period="all").count() < unfolded
    assert positions(board("all")) == before and tallied() == counted_by_hand()


def test_a_deleted_account_leaves_the_positions(players):
    ana, bia, caio, duda = players
    delete_account(bia)
    assert positions(board("all", viewer=duda)) == [(1, "Ana", 15), (1, "Caio", 15), (3, "Duda", 3)]
    assert board("all", viewer=duda)["mine"].position == 3


def test_queries_stay_constant_whatever_the_size(make_user, players):
    def queries():
        with CaptureQueriesContext(connection) as captured:
            board("all", viewer=players[0])
        return len(captured)

    small = queries()
    for n in range(30):
        award(make_user(f"extra{n}", password=None), n % 7 + 1, TODAY, f"x{n}")
    assert queries() == small == 2  # the board (tallies, the page's rows, the viewer's row), its players


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
    assert board("all", country="PT")["rows"] == []


def test_each_row_shows_its_players_level_without_another_query(players):
    ana, bia, _caio, _duda = players
    PlayerStats.objects.create(user=bia, counters={"played": 4, "won": 4, "lost": 0})  # 120: level 2
    with CaptureQueriesContext(connection) as captured:
        rows = board("all")["rows"]
    levels = {row.name: row.level for row in rows}
    assert levels == {"Ana": 1, "Bia": 2, "Caio": 1, "Duda": 1}
    assert len(captured) == 2  # the board, and its players with their statistics
