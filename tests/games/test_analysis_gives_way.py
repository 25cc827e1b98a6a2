"""An analysis gives way to the tables (issue 34: "no table's moves get slower while analyses run"): every
stored move is counted (games.match.pace); while this process stores GAMES_ANALYSIS_BUSY_MOVES_PER_S moves
a second or more, the analysis waits before its next decision and its page says why; after
GAMES_ANALYSIS_MAX_WAIT_S it estimates one decision all the same, so it ends on a server that is never quiet."""

import time

import pytest
from django.urls import reverse

from games import engine
from games.match import pace
from games.match.moves import apply_action
from games.models import MatchAnalysis
from games.table import analysing
from tests.support.matches import finished_match


@pytest.fixture(autouse=True)
def _counting_afresh():
    pace.forget()
    yield
    pace.forget()


def test_the_pace_counts_the_moves_of_the_last_two_seconds():
    for at in (100.0, 100.5, 101.0, 101.9):
        pace.note_move(now=at)
    assert pace.moves_per_second(now=102.0) == 2.0  # four moves in the window of two seconds
    assert pace.moves_per_second(now=102.8) == 1.0  # the first two have left it
    assert pace.moves_per_second(now=104.0) == 0.0


@pytest.mark.django_db
def test_every_stored_move_is_counted(start_match, user):
    match = start_match(user)
    state = engine.from_json(match.state)
    action = next(a for a in engine.legal_actions(state, 0) if a.kind == "play")
    before = pace.moves_per_second()
    apply_action(match.public_id, 0, action.to_dict(), match.version)
    assert pace.moves_per_second() == before + 1 / pace.WINDOW_S


def busy_tables(moves_per_second: float) -> None:
    now = time.monotonic()
    for n in range(int(moves_per_second * pace.WINDOW_S)):
        pace.note_move(now=now - n * 0.01)


@pytest.mark.django_db
def test_quiet_tables_let_the_analysis_go_on_at_once(user, settings):
    settings.GAMES_ANALYSIS_BUSY_MOVES_PER_S = 2
    row = MatchAnalysis.objects.create(match=finished_match(user), seat=0)
    pace.forget()  # the moves that finished the match
    busy_tables(1.5)
    assert analysing.give_way(row.pk, waiting=False) == (False, 0.0)
    row.refresh_from_db()
    assert not row.waiting


@pytest.mark.django_db
def test_busy_tables_hold_the_analysis_and_its_page_says_so(client, user, settings):
    settings.GAMES_ANALYSIS_BUSY_MOVES_PER_S = 2
    settings.GAMES_ANALYSIS_MAX_WAIT_S = 0.6
    match = finished_match(user)
    row = MatchAnalysis.objects.create(match=match, seat=0, total=10)
    busy_tables(20)  # the moves stay in the window for the whole wait
    waiting, waited = analysing.give_way(row.pk, waiting=False)
    assert waiting and 0.6 <= waited < 2.0  # held for the longest wait, then one decision all the same
    row.refresh_from_db()
    assert row.waiting
    client.force_login(user)
    html = client.get(reverse("games:analysis", args=[match.public_id]), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Analysing your decisions: 0 of 10." in html, html
    assert "Matches in play come first" in html


@pytest.mark.django_db
def test_the_analysis_goes_on_once_the_tables_quieten(user, settings):
    settings.GAMES_ANALYSIS_BUSY_MOVES_PER_S = 2
    settings.GAMES_ANALYSIS_MAX_WAIT_S = 30
    row = MatchAnalysis.objects.create(match=finished_match(user), seat=0, waiting=True)
    now = time.monotonic()
    for n in range(4):  # busy for about another half second: the oldest of these leave the window first
        pace.note_move(now=now - pace.WINDOW_S + 0.5 + n * 0.01)
    waiting, waited = analysing.give_way(row.pk, waiting=True)
    assert not waiting and 0.25 <= waited < 3
    row.refresh_from_db()
    assert not row.waiting


@pytest.mark.django_db
def test_an_analysis_on_a_server_that_is_never_quiet_still_ends(user, settings):
    settings.GAMES_ANALYSIS_PROCESSES = 0
    settings.GAMES_ANALYSIS_BUSY_MOVES_PER_S = 2
    settings.GAMES_ANALYSIS_MAX_WAIT_S = 0.05
    row = MatchAnalysis.objects.create(match=finished_match(user), seat=0)
    busy_tables(1000)
    waited = analysing.run(row.pk)
    row.refresh_from_db()
    assert row.status == MatchAnalysis.Status.DONE and row.done == row.total > 0 and not row.waiting
    assert waited >= 0.05 * row.total  # it waited before every decision
