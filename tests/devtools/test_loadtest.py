"""The load command: how a simulated player reads the table's frames, the latency statistics, and one short
real run against a live daphne (3 players, a few seconds; no timing assertions, the machine is shared)."""

import asyncio
import io
import json
import re
import time

import pytest
from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.core.management import CommandError, call_command

from devtools.loadtest import (
    Report,
    Stage,
    TableView,
    assign_urls,
    format_ramp,
    format_report,
    frame_error,
    frame_version,
    loopback_endpoint,
    parse_frame,
    percentile,
    ramp_loads,
    saturation_rate,
    summarise_ms,
)
from devtools.management.commands import loadtest_rooms
from devtools.management.commands.loadtest_rooms import RoomRun, Table
from devtools.management.commands.loadtest_table import Player
from games.models import Match
from tests.support.matches import play_to_the_end, pushed_fragments
from tests.support.threads import command_output

HAND = (
    '<section id="hand" class="my-hand" hx-swap-oob="true" aria-label="Your cards">'
    '<form class="hand-form" onsubmit="return false"><div class="cards">'
    '<button type="button" class="card-button" ws-send hx-vals=\'{"do": "play", "card": "4C", "v": 17}\' '
    'data-card="4C" aria-label="Play 4C"><span class="card">4C</span></button>'
    '<span class="card-button disabled"><span class="card">7H</span></span>'
    '<button type="button" class="card-button" ws-send hx-vals=\'{"do": "play", "card": "AS", "v": 17}\' '
    'data-card="AS" aria-label="Play AS"><img src="/static/a.svg" alt=""></button>'
    '</div><label class="face-down-toggle"><input type="checkbox" name="face_down" value="1" data-action="face-down">'
    " Play face down</label></form></section>"
)
ACTIONS = (
    '<section id="actions" class="actions-bar" hx-swap-oob="true">'
    '<button type="button" class="raise" ws-send hx-vals=\'{"do": "raise", "v": 17}\' data-action="raise">Truco '
    "<small>(3)</small></button></section>"
)
STATUS = (
    '<section id="status" class="status" hx-swap-oob="true" data-version="17" aria-live="polite">'
    '<p class="turn mine" data-turn="me">Your turn</p></section>'
)
CLEAR = '<div id="table-message" class="table-message" hx-swap-oob="true" role="alert"></div>'


def test_a_frame_splits_into_its_top_level_regions():
    regions = parse_frame(HAND + ACTIONS + STATUS + CLEAR)
    assert [r.id for r in regions] == ["hand", "actions", "status", "table-message"]


def test_playable_cards_and_actions_are_read_from_their_hx_vals():
    view = TableView()
    view.apply(HAND + ACTIONS + STATUS)
    assert view.legal_actions() == [
        {"do": "play", "card": "4C", "v": 17},
        {"do": "play", "card": "AS", "v": 17},
        {"do": "raise", "v": 17},
    ]


def test_disabled_cards_and_the_face_down_checkbox_are_not_moves():
    regions = parse_frame(HAND)
    assert all(b.get("card") != "7H" for b in regions[0].buttons)
    assert all(b["do"] != "face-down" for b in regions[0].buttons)


def test_the_version_comes_from_the_status_region():
    assert frame_version(parse_frame(HAND + STATUS)) == 17
    assert frame_version(parse_frame(HAND + ACTIONS)) is None


def test_an_update_keeps_the_regions_it_does_not_carry():
    view = TableView()
    view.apply(HAND + ACTIONS + STATUS)
    view.apply(STATUS.replace('data-version="17"', 'data-version="18"'))
    assert view.version == 18
    assert len(view.legal_actions()) == 3  # hand and actions were not resent, so they still stand


def test_it_is_not_my_turn_when_hand_and_actions_have_no_buttons():
    view = TableView()
    view.apply(
        '<section id="hand" hx-swap-oob="true"><span class="card-button disabled">x</span></section>'
        '<section id="actions" hx-swap-oob="true"></section>' + STATUS
    )
    assert view.legal_actions() == []


def test_error_frames_give_their_code_and_a_cleared_message_none():
    refused = '<div id="table-message" class="table-message" hx-swap-oob="true" role="alert" data-error="stale">x</div>'
    assert frame_error(parse_frame(refused)) == "stale"
    assert frame_error(parse_frame(CLEAR + STATUS)) is None


def test_a_result_in_the_status_ends_the_match_but_won_rounds_in_the_trick_do_not():
    view = TableView()
    view.apply('<section id="trick"><li data-result="won">1</li></section>' + HAND + STATUS)
    assert not view.finished
    view.apply(
        '<section id="status" data-version="40"><div class="result won" data-match-result="won"></div></section>'
    )
    assert view.finished
    assert view.legal_actions() == []


def test_percentiles_interpolate_between_closest_ranks():
    values = list(range(1, 101))  # 1..100
    assert percentile(values, 50) == pytest.approx(50.5)
    assert percentile(values, 95) == pytest.approx(95.05)
    assert percentile(values, 99) == pytest.approx(99.01)
    assert percentile(values, 100) == 100
    assert percentile([7], 95) == 7
    assert percentile([], 50) is None
    with pytest.raises(ValueError):
        percentile(values, 101)


def test_percentiles_do_not_depend_on_input_order():
    assert percentile([30, 10, 20], 50) == 20


def test_latencies_are_summarised_in_milliseconds():
    summary = summarise_ms([0.010, 0.020, 0.030, 0.040])
    assert summary["count"] == 4
    assert summary["p50"] == pytest.approx(25.0)
    assert summary["max"] == pytest.approx(40.0)


def test_only_loopback_servers_are_accepted():
    assert loopback_endpoint("http://127.0.0.1:8000") == ("ws://127.0.0.1:8000", "http://127.0.0.1:8000")
    assert loopback_endpoint("http://localhost:8011/")[0] == "ws://localhost:8011"
    assert loopback_endpoint("http://[::1]:8000")[0] == "ws://[::1]:8000"
    for url in ("http://10.0.0.5:8000", "http://example.com", "ftp://127.0.0.1", "127.0.0.1:8000"):
        with pytest.raises(ValueError):
            loopback_endpoint(url)


def test_players_are_split_round_robin_between_servers():
    assert assign_urls(5, ["a", "b"]) == ["a", "b", "a", "b", "a"]


def test_the_report_lists_every_figure():
    report = Report(
        players=2,
        seconds=1,
        elapsed=2.0,
        urls=["http://127.0.0.1:8000"],
        actions_sent=10,
        latencies=[0.01, 0.02],
        matches_finished=1,
    )
    report.errors["timeout"] += 1
    report.floor_latencies = [0.004, 0.005]
    report.server_cpu_s = 0.05
    report.load_average = (1.5, 2.0)
    text = format_report(report)
    for words in ("players", "actions/s          5.0", "p95", "p99", "max", "matches finished   1", "timeout=1"):
        assert words in text
    assert "table p95 / floor  3.9×" in text  # 19.5 ms against 4.95 ms
    assert "server CPU         5.00 ms per action" in text
    assert "load average       1.50 at the start, 2.00 at the end" in text


def test_people_playing_each_other_are_reported_to_every_seat_beside_the_floor():
    report = Report(players=8, seconds=1, elapsed=2.0, urls=["http://127.0.0.1:8000"], latencies=[0.01])
    report.people_only = True
    report.all_seats_latencies = [0.02, 0.04]
    report.frames_received, report.raced = 50, 3
    report.floor_latencies = [0.01, 0.01]
    text = format_report(report)
    assert "all seats ms       p50 30.0  p95 39.0" in text and "(action → every seat of the table updated, n=2)" in text
    assert "frames/s           25.0" in text and "answers raced      3" in text
    assert "turn wait" not in text  # no AI to wait for
    assert "table p95 / floor  3.9×" in text  # the every-seat p95 against the floor's


def test_without_a_floor_the_report_says_why():
    report = Report(players=1, seconds=1, elapsed=1.0, urls=["http://127.0.0.1:8000"], latencies=[0.01])
    report.floor_note = "the server's bench route is off: start it with BENCH_ROUTES=1"
    text = format_report(report)
    assert "floor              none (the server's bench route is off" in text
    assert "table p95 / floor  –" in text


def stage(load, rate, p95_ms, cpu=None):
    return Stage(
        load=load, actions_per_second=rate, p95_s=None if p95_ms is None else p95_ms / 1000, cpu_ms_per_action=cpu
    )


def test_the_saturation_point_is_interpolated_between_the_stages_either_side_of_the_bound():
    stages = [stage(10, 10.0, 50), stage(20, 20.0, 80), stage(30, 30.0, 180), stage(40, 31.0, 900)]
    # 100 ms is a fifth of the way from 80 to 180 ms: a fifth of the way from 20 to 30 actions/s.
    assert saturation_rate(stages, 0.100) == pytest.approx(22.0)


def test_a_ramp_over_the_bound_from_its_first_stage_gives_that_stages_rate_and_one_never_over_gives_none():
    assert saturation_rate([stage(50, 40.0, 600), stage(60, 41.0, 900)], 0.100) == 40.0
    assert saturation_rate([stage(1, 1.0, 20), stage(2, 2.0, 30)], 0.100) is None
    # A stage where nothing was measured says nothing either way.
    assert saturation_rate([stage(1, 1.0, 20), stage(2, 2.0, None), stage(3, 3.0, 120)], 0.100) == pytest.approx(
        1.0 + (80 / 100) * 2.0
    )


def test_the_ramp_summary_gives_players_per_server_process_at_a_human_pace():
    text = format_ramp([stage(10, 10.0, 50, 4.0), stage(20, 30.0, 150, 5.5)], bound_s=0.100, processes=2)
    assert "  10        10.0      50.0       4.00" in text
    # Crossing at 20 actions/s; one action every 3 s makes 60 players, 30 on each of the two processes.
    assert "p95 crosses 100 ms at 20.0 actions/s: 60 players at one action every 3 s, 30 per server process" in text
    assert "beyond this ramp" in format_ramp([stage(1, 1.0, 20), stage(2, 2.0, 30)], bound_s=0.1, processes=1)
    # A ramp that measured nothing (no server answered) does not claim the latency stayed low.
    nothing = format_ramp([stage(1, 0.0, None), stage(2, 0.0, None)], bound_s=0.1, processes=1)
    assert "no stage measured a latency" in nothing and "beyond" not in nothing


def test_ramp_loads_are_two_or_more_whole_numbers_increasing():
    assert ramp_loads("10,25,50") == [10, 25, 50]
    assert ramp_loads(" 5, 10 ") == [5, 10]
    for bad in ("50", "50,10", "10,10", "0,5", "ten,20", ""):
        with pytest.raises(ValueError, match="--ramp"):
            ramp_loads(bad)


@pytest.mark.django_db
@pytest.mark.parametrize(
    "command, args, message",
    [
        ("loadtest_table", ["--ramp", "20,10"], "increasing"),
        ("loadtest_table", ["--ramp", "1,2", "--ramp-bound-ms", "0"], "--ramp-bound-ms"),
        ("loadtest_rooms", ["--ramp", "10,300"], "last stage"),  # 300 tables of four: 1,200 sockets
    ],
)
def test_a_bad_ramp_is_refused_before_anything_runs(command, args, message):
    with pytest.raises(CommandError, match=message):
        call_command(command, *args, "--seconds", "1", "--url", "http://127.0.0.1:9")
    assert not get_user_model().objects.exists()


@pytest.mark.django_db
def test_the_command_refuses_servers_off_this_machine():
    with pytest.raises(CommandError):
        call_command("loadtest_table", "--players", "1", "--seconds", "1", "--url", "http://192.0.2.1:8000")


@pytest.fixture
def live_daphne_with_sweeper(settings, request):
    # The child inherits settings when forked: the AI seats only move if the sweeper is on by then
    # (tests/games/conftest.py switches it off for this process).
    settings.SWEEPER_ENABLED = True
    settings.GAMES_TIMERS_ENABLED = True
    settings.BENCH_ROUTES = True  # the floor and the server's CPU
    return request.getfixturevalue("live_daphne")


@pytest.mark.django_db(transaction=True)
def test_three_players_play_against_a_live_server_without_errors(live_daphne_with_sweeper):
    output = command_output(
        "loadtest_table",
        *("--players", "3", "--seconds", "4", "--seed", "3", "--floor-seconds", "1"),
        *("--url", live_daphne_with_sweeper.url, "--json"),
    )
    report = json.loads(output)
    assert report["players"] == 3
    assert report["actions_sent"] > 0
    assert report["latency_ms"]["count"] > 0
    assert report["error_total"] == 0, report["errors"]
    # The floor ran on the same server, and the server said what the table phase cost it.
    assert report["floor_ms"]["count"] > 0
    assert report["p95_over_floor"] > 0
    assert report["cpu_ms_per_action"] > 0
    assert len(report["load_average"]) == 2
    # It cleans up after itself.
    assert not get_user_model().objects.filter(username__startswith="lt-").exists()
    assert not Match.objects.exists()
    assert not Session.objects.exists()


@pytest.mark.django_db
def test_the_real_result_screen_is_read_as_a_finished_match(start_match, user):
    """Guards the parser against template changes (the result attribute was once renamed under it)."""
    match = start_match(user, level="random", seed=11)
    play_to_the_end(match)
    match = Match.objects.get(pk=match.pk)
    view = TableView()
    view.apply("".join(pushed_fragments(match, 0).values()))
    assert view.finished
    assert view.legal_actions() == []


@pytest.mark.django_db(transaction=True)
def test_a_ramp_runs_each_stage_against_a_live_server_and_says_where_p95_crosses_the_bound(live_daphne_with_sweeper):
    text = command_output(
        "loadtest_table",
        *("--ramp", "1,2", "--seconds", "2", "--seed", "3", "--floor-seconds", "0"),
        *("--ramp-bound-ms", "100000", "--url", live_daphne_with_sweeper.url),
    )
    assert text.count("-- stage:") == 2 and "players            1 " in text and "players            2 " in text
    rows = [line.split() for line in text.splitlines() if re.fullmatch(r"\s*[12]\s+[\d.]+\s+[\d.]+\s+[\d.–]+", line)]
    assert [row[0] for row in rows] == ["1", "2"] and all(float(row[1]) > 0 for row in rows)
    # Nothing waits 100 s at two players: the point is beyond this ramp.
    assert text.rstrip().endswith("the saturation point is beyond this ramp")
    assert not get_user_model().objects.filter(username__startswith="lt-").exists()


class FleetAskedAgain:
    """The rooms run's fleet without a server: every yes is posted, and no new match ever starts."""

    def __init__(self, tables):
        self.tables, self.new_rooms = tables, 0

    def say_yes(self, player, finished):
        return True

    def started_after(self, finished):
        return None

    def new_room(self, table):
        self.new_rooms += 1


def ask_one_table_again(seconds_left: float) -> tuple[Report, FleetAskedAgain]:
    """One seat of a finished table says yes and waits for the next match, `seconds_left` before the run ends."""
    players = [Player(n, None, "", "", "", None, match_public_id="finished") for n in range(4)]  # type: ignore[arg-type]
    fleet = FleetAskedAgain([Table(players=players, public_id="finished")])
    report = Report(players=4, seconds=seconds_left, elapsed=0, urls=[])
    run = RoomRun(players, fleet, ramp_s=0, seconds=seconds_left, think_ms=0, report=report)  # type: ignore[arg-type]

    async def finish_and_ask_again():
        run.end_at = time.perf_counter() + seconds_left
        await run.next_match(players[0])

    asyncio.run(finish_and_ask_again())
    return report, fleet


def test_a_table_asked_again_as_the_run_ends_is_not_a_failed_play_again():
    """The last seat of a table whose match ends after the run's end says no yes (its player stops): the
    seats that did must not count the new match that never came as the server's failure."""
    report, fleet = ask_one_table_again(seconds_left=0.3)
    assert report.errors.get("play_again_failed", 0) == 0
    assert fleet.new_rooms == 0


def test_a_table_that_does_not_start_again_while_the_run_lasts_is_a_failed_play_again(monkeypatch):
    monkeypatch.setattr(loadtest_rooms, "PLAY_AGAIN_WAIT_S", 0.2)
    report, fleet = ask_one_table_again(seconds_left=30)
    assert report.errors["play_again_failed"] == 1
    assert fleet.new_rooms == 1  # and the table goes on in a new room


@pytest.mark.django_db
def test_the_move_benchmark_prints_each_part_of_a_move_and_leaves_nothing_behind():
    out = io.StringIO()
    call_command("bench_move", runs=2, moves=40, seats=4, stdout=out)
    lines = out.getvalue().splitlines()
    assert lines[1].split() == ["run", "transaction", "publish", "push", "total"]
    first, second, median = lines[2].split(), lines[3].split(), lines[4].split()
    assert first[0] == "1" and second[0] == "2" and median[0] == "med"
    parts = [float(x) for x in first[1:4]]
    assert all(part > 0 for part in parts)
    assert float(first[4]) == pytest.approx(sum(parts), abs=2)  # the total is the parts' sum (rounded)
    assert not get_user_model().objects.filter(username__startswith="bench-move-").exists()
    assert not Match.objects.exists()


def test_the_move_benchmark_refuses_runs_out_of_range():
    with pytest.raises(CommandError):
        call_command("bench_move", runs=0)
