"""The arena and bench command lines run end to end and print their documented lines.

No timing is asserted: these only pin the output shape with tiny runs.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from games.engine import RuleSet, arena, bench
from games.engine.bots import BOT_LEVELS, PANEL_LEVELS, STYLE_LEVELS

ROOT = Path(__file__).resolve().parents[2]


def test_arena_module_runs_from_the_command_line():
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "games.engine.arena",
            "--a",
            "medium",
            "--b",
            "random",
            "--matches",
            "4",
            "--seats",
            "2",
            "--variant",
            "paulista",
            "--seed",
            "1",
            "--workers",
            "1",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    lines = out.strip().splitlines()
    assert lines[0] == "arena: medium (A) vs random (B), 4 matches, 2 seats, paulista, dirty deck"
    wins = [int(re.search(r"won +(\d+) of 4 = .*% \(95% CI [\d.]+-[\d.]+%\)", line).group(1)) for line in lines[1:3]]
    assert lines[1].startswith("A medium") and lines[2].startswith("B random")
    assert sum(wins) == 4
    assert re.match(r"trucos a match: A \d+\.\d\d, B \d+\.\d\d$", lines[3])
    assert re.match(r"time: [\d.]+ s, 4 matches, [\d,]+ matches/s, 1 worker process\(es\)$", lines[4])


@pytest.mark.parametrize(
    "extra, table",
    [
        (["--seats", "4", "--variant", "mineiro", "--deck", "clean"], "4 seats, mineiro, clean deck, partnership"),
        (["--seats", "4", "--no-partnership"], "4 seats, paulista, dirty deck, no partnership"),
    ],
)
def test_arena_seats_teams_on_four_seat_tables(capsys, extra, table):
    assert arena.main(["--a", "hard", "--b", "easy", "--matches", "3", "--workers", "1", *extra]) == 0
    out = capsys.readouterr().out
    assert f"3 matches, {table}" in out


def test_arena_refuses_partnership_at_two_seats(capsys):
    with pytest.raises(SystemExit):
        arena.main(["--seats", "2", "--partnership", "--matches", "1"])
    assert "partnership needs 4 seats" in capsys.readouterr().err


def test_arena_alternates_sides_so_each_bot_sits_at_side_zero_half_the_time():
    # The same bot on both sides: the result is credited to the right name either way.
    result = arena.run_arena(RuleSet(), "random", "random", 6, seed=5)
    assert sum(result["wins"]) == 6


def test_arena_counts_the_trucos_each_side_calls():
    # Easy calls about two a match against random; random raises whenever it draws the raise.
    result = arena.run_arena(RuleSet(), "easy", "random", 40, seed=3)
    assert result["trucos"][0] >= 40
    assert result["trucos"][1] >= 40


def test_wilson_interval_is_sound_at_the_edges():
    low, high = arena.wilson(10, 10)
    assert high == 1.0 and 0.6 < low < 0.75
    low, high = arena.wilson(0, 10)
    assert low == 0.0 and 0.25 < high < 0.4
    low, high = arena.wilson(1700, 2000)
    assert low < 0.85 < high


def test_bench_module_runs_from_the_command_line():
    out = subprocess.run(
        [sys.executable, "-m", "games.engine.bench", "--seconds", "0.05"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    lines = out.strip().splitlines()
    assert lines[0].startswith("engine, random playouts, one core")
    for seats in ("2 seats", "4 seats"):
        for variant in ("paulista", "mineiro"):
            assert any(re.match(rf"  {seats} {variant} +[\d,]+ matches/s +[\d,]+ actions/s", line) for line in lines)
    assert any(line.startswith("bot decisions") for line in lines)
    three = r"[\d.]+ / [\d.]+ / [\d.]+"
    for level in ("random", "easy", "medium", "hard", "expert"):
        assert any(
            re.match(
                rf"  {level} +view\+bot {three} \| bot alone {three} \| bot CPU {three} \(\d+ decisions\)",
                line,
            )
            for line in lines
        ), level


def test_bench_times_only_the_levels_asked_for():
    out = subprocess.run(
        [sys.executable, "-m", "games.engine.bench", "--seconds", "0.05", "--no-engine", "--levels", "expert"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    lines = out.strip().splitlines()
    assert lines[0].startswith("bot decisions in ms") and len(lines) == 2
    assert lines[1].startswith("  expert ")


def test_bench_percentile_picks_the_median_and_the_tail():
    values = [i / 100 for i in range(100)]
    assert bench.percentile(values, 0.5) == 0.5
    assert bench.percentile(values, 0.99) == 0.99


def test_arena_plays_online_mineiro_and_refuses_it_for_paulista(capsys):
    assert (
        arena.main(
            ["--a", "hard", "--b", "easy", "--matches", "3", "--workers", "1"]
            + ["--variant", "mineiro", "--mineiro-style", "online"]
        )
        == 0
    )
    assert "3 matches, 2 seats, online mineiro, dirty deck" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        arena.main(["--mineiro-style", "online", "--matches", "1"])
    assert "needs the mineiro variant" in capsys.readouterr().err


# --- the panel and the worker processes (issue 15) -------------------------------------------------


def test_arena_gives_the_same_figures_for_a_seed_whatever_the_number_of_workers():
    lines = [
        ("2p", RuleSet(), "hard", "late", 30),
        ("4m", RuleSet(variant="mineiro", seats=4), "medium", "maniac", 13),
    ]
    one = arena.run_lines(lines, seed=7, workers=1)
    for workers in (2, 3):
        many = arena.run_lines(lines, seed=7, workers=workers)
        assert _figures(many) == _figures(one)
        assert many["workers"] == workers
    other_seed = arena.run_lines(lines, seed=8, workers=2)
    assert _figures(other_seed) != _figures(one)


def _figures(run):
    """What a run found, line by line (not the CPU it took)."""
    return {key: (line["wins"], line["trucos"], line["matches"]) for key, line in run["lines"].items()}


def test_arena_splits_a_line_into_ranges_that_cover_every_match_once():
    for matches, workers in ((1, 2), (7, 2), (4000, 2), (4000, 1), (333, 3)):
        ranges = arena._chunks(matches, workers)
        covered = [i for first, stop in ranges for i in range(first, stop)]
        assert covered == list(range(matches))
        assert len(ranges) >= min(matches, 4 * workers)  # enough ranges to keep every worker busy


def test_arena_panel_prints_one_table_of_the_bot_against_every_panel_bot(capsys):
    assert arena.main(["--panel", "hard", "--matches", "2", "--workers", "2"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert lines[0] == "panel: hard against each bot, 2 matches a line, sides swapped every match, dirty deck"
    assert lines[2] == "| opponent | 2 seats Paulista | 2 seats Mineiro | 4 seats Paulista | 4 seats Mineiro |"
    rows = lines[4:-1]
    # Every panel bot but hard itself (a bot against itself wins half by symmetry).
    opponents = [level for level in PANEL_LEVELS if level != "hard"]
    assert [row.split(" | ")[0].strip("| ") for row in rows] == opponents
    cell = r"\d+\.\d \(\d+\.\d-\d+\.\d\)"
    for row in rows:
        assert re.fullmatch(rf"\| \w+ \| {cell} \| {cell} \| {cell} \| {cell} \|", row), row
    total = 2 * 4 * len(opponents)  # 2 matches a line, four tables
    assert re.match(rf"time: [\d.]+ s, {total} matches, [\d,]+ matches/s, 2 worker process\(es\)$", lines[-1])


def test_the_panel_holds_the_styles_and_every_table_level_but_the_play_page_offers_table_levels_only():
    assert set(STYLE_LEVELS) == {"late", "maniac", "rock", "caller", "careful"}
    assert set(PANEL_LEVELS) == set(STYLE_LEVELS) | set(BOT_LEVELS)
    assert not set(STYLE_LEVELS) & set(BOT_LEVELS)


def test_arena_panel_plays_only_the_opponents_and_tables_asked_for(capsys):
    args = ["--panel", "expert", "--opponents", "random,hard", "--tables", "2m,4p", "--matches", "2", "--workers", "1"]
    assert arena.main(args) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert lines[2] == "| opponent | 2 seats Mineiro | 4 seats Paulista |"
    assert [row.split(" | ")[0].strip("| ") for row in lines[4:-1]] == ["random", "hard"]
    assert re.match(r"time: [\d.]+ s, 8 matches, ", lines[-1])


@pytest.mark.parametrize("option, value", [("--opponents", "random,nobody"), ("--tables", "2p,3p")])
def test_arena_refuses_an_unknown_opponent_or_table(capsys, option, value):
    with pytest.raises(SystemExit):
        arena.main(["--panel", "hard", option, value, "--matches", "1"])
    assert "not " + value.split(",")[1] in capsys.readouterr().err


# --- the results file: a long run that stops goes on where it stopped ------------------------------


def _panel_lines(matches):
    return [
        ("2p", RuleSet(), "hard", "late", matches),
        ("4m", RuleSet(variant="mineiro", seats=4), "medium", "random", matches),
    ]


def test_a_run_resumed_from_its_results_file_gives_the_figures_of_one_run(tmp_path):
    path = tmp_path / "results.jsonl"
    whole = arena.run_lines(_panel_lines(25), seed=3, workers=1)
    first = arena.run_lines(_panel_lines(10), seed=3, workers=2, results_path=path)
    assert first["played"] == 20
    resumed = arena.run_lines(_panel_lines(25), seed=3, workers=1, results_path=path)
    assert resumed["played"] == 30  # only the matches the file did not hold
    assert _figures(resumed) == _figures(whole)
    again = arena.run_lines(_panel_lines(25), seed=3, workers=2, results_path=path)
    assert again["played"] == 0
    assert _figures(again) == _figures(whole)


def test_a_results_file_is_not_reused_for_another_seed_or_other_engine_code(tmp_path, monkeypatch):
    path = tmp_path / "results.jsonl"
    arena.run_lines(_panel_lines(6), seed=3, workers=1, results_path=path)
    assert arena.run_lines(_panel_lines(6), seed=4, workers=1, results_path=path)["played"] == 12
    monkeypatch.setattr(arena, "engine_fingerprint", lambda: "a-changed-bot")
    assert arena.run_lines(_panel_lines(6), seed=3, workers=1, results_path=path)["played"] == 12


def test_a_torn_last_line_of_a_results_file_is_played_again(tmp_path):
    path = tmp_path / "results.jsonl"
    arena.run_lines(_panel_lines(8), seed=3, workers=1, results_path=path)
    rows = path.read_text().splitlines()
    path.write_text("\n".join(rows[:-1]) + "\n" + rows[-1][: len(rows[-1]) // 2])  # killed while writing
    again = arena.run_lines(_panel_lines(8), seed=3, workers=1, results_path=path)
    last = json.loads(rows[-1])
    assert again["played"] == last["stop"] - last["first"]
    whole = arena.run_lines(_panel_lines(8), seed=3, workers=1)
    assert again["lines"]["4m"]["wins"] == whole["lines"]["4m"]["wins"]


def test_the_engine_fingerprint_changes_with_any_source_file_of_the_engine(tmp_path):
    copy = tmp_path / "engine"
    shutil.copytree(ROOT / "games" / "engine", copy, ignore=shutil.ignore_patterns("__pycache__"))
    assert arena.source_fingerprint(copy) == arena.engine_fingerprint()
    search = copy / "bots" / "search.py"
    search.write_text(search.read_text().replace("playouts: int = 180", "playouts: int = 181"))
    assert arena.source_fingerprint(copy) != arena.engine_fingerprint()
