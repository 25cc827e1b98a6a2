"""`manage.py loadtest_rooms` against a live daphne: two rooms of four people play each other and every
move is timed to the last of its table's four sockets; the run cleans up after itself."""

import json

import pytest
from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.core.management import CommandError, call_command

from games.models import Match, MatchAnalysis
from rooms.models import Room, RoomSeat
from tests.support.threads import command_output


@pytest.fixture
def bench_server(settings, request):
    settings.BENCH_ROUTES = True  # the floor and the server's CPU, in the forked server
    return request.getfixturevalue("live_daphne")


@pytest.fixture
def analysing_server(settings, request):
    settings.GAMES_ANALYSIS_PROCESSES = 0  # the server's analyses in its analysis thread: no worker to start
    return request.getfixturevalue("bench_server")


@pytest.mark.django_db(transaction=True)
def test_two_rooms_of_four_play_each_other_against_a_live_server_beside_its_analyses(analysing_server):
    output = command_output(
        "loadtest_rooms",
        "--tables",
        "2",
        "--seconds",
        "6",
        "--think-ms",
        "100",
        "--ramp-seconds",
        "0.5",
        "--floor-seconds",
        "1",
        "--seed",
        "2",
        "--url",
        analysing_server.url,
        "--analyses",
        "--json",
        timeout=120,
    )
    report = json.loads(output)
    assert report["players"] == 8 and report["actions_sent"] > 0
    # Moves were seen by all four seats of their table, and timed so.
    assert report["all_seats_latency_ms"]["count"] > 0
    assert report["frames_received"] >= 4 * report["all_seats_latency_ms"]["count"]
    assert report["error_total"] == 0, report["errors"]
    assert report["floor_ms"]["count"] > 0 and report["p95_over_floor"] > 0
    # The server analysed a finished match beside the tables (the tests' analyses never wait for them).
    assert report["analysis_decisions"] > 0 and report["analysis_note"] == ""
    # Rooms, matches, sessions and accounts are gone.
    assert not get_user_model().objects.filter(username__startswith="lr-").exists()
    assert not Room.objects.exists() and not RoomSeat.objects.exists() and not Match.objects.exists()
    assert not MatchAnalysis.objects.exists()
    assert not Session.objects.exists()


@pytest.mark.django_db
def test_the_rooms_load_test_refuses_a_bad_table_count_or_a_server_off_this_machine():
    with pytest.raises(CommandError, match="--tables"):
        call_command("loadtest_rooms", "--tables", "0")
    with pytest.raises(CommandError):
        call_command("loadtest_rooms", "--tables", "1", "--url", "http://192.0.2.1:8000")
