"""The scenario CLI as a subprocess: output object and exit codes 0 / 1 / 2."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = Path(__file__).parent / "scenarios"

GOOD = {
    "rules": {"variant": "paulista", "deck": "dirty", "seats": 2},
    "score": [0, 0],
    "dealer": 1,
    "deals": [{"hands": [["QC", "3H", "4S"], ["2C", "AH", "5D"]], "vira": "7D"}],
    "actions": [
        {"seat": 0, "do": "raise"},
        {"seat": 1, "do": "accept"},
        {"seat": 0, "do": "play", "card": "QC"},
        {"seat": 1, "do": "play", "card": "5D"},
        {"seat": 0, "do": "play", "card": "3H"},
        {"seat": 1, "do": "play", "card": "2C"},
    ],
}


def run_cli(*args, stdin=None):
    done = subprocess.run(
        [sys.executable, "-m", "games.engine.scenario", *args],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
    )
    return done.returncode, done.stdout


def with_deal(**changes):
    data = json.loads(json.dumps(GOOD))
    data["deals"][0].update(changes)
    return json.dumps(data)


def test_cli_prints_the_scenarios_md_output_exactly_and_exits_0(tmp_path):
    path = tmp_path / "example.json"
    path.write_text(json.dumps(GOOD))
    code, out = run_cli(str(path))
    assert code == 0
    assert out == (
        '{"ok": true, "score": [3, 0], "hands": [{"winner": 0, "points": 3}], '
        '"match_over": false, "match_winner": null, "next": null}\n'
    )


def test_cli_reads_standard_input_with_dash():
    code, out = run_cli("-", stdin=json.dumps(GOOD))
    assert code == 0 and json.loads(out)["score"] == [3, 0]


def test_cli_ignores_expect_and_rule_keys():
    path = SCENARIOS / "p_running_from_six_gives_three.json"
    code, out = run_cli(str(path))
    assert code == 0 and json.loads(out) == json.loads(path.read_text())["expect"]


def test_cli_illegal_action_exits_1_with_index():
    data = dict(GOOD, actions=[{"seat": 1, "do": "play", "card": "2C"}])
    code, out = run_cli("-", stdin=json.dumps(data))
    result = json.loads(out)
    assert code == 1
    assert result["ok"] is False and result["index"] == 0 and "turn" in result["error"]


@pytest.mark.parametrize(
    "text, words",
    [
        (with_deal(hands=[["QC", "3H", "1X"], ["2C", "AH", "5D"]]), "bad card"),
        (with_deal(hands=[["QC", "3H", "4S"], ["QC", "AH", "5D"]]), "duplicated"),
        (with_deal(vira="QC"), "duplicated"),
        (with_deal(hands=[["QC", "3H"], ["2C", "AH", "5D"]]), "exactly 3 cards"),
        (with_deal(vira=None), "vira"),
        ('{"rules": {', "bad JSON"),
        ("[1, 2]", "object"),
    ],
    ids=[
        "bad_card",
        "duplicate_in_hands",
        "vira_duplicates_hand",
        "wrong_count",
        "missing_vira",
        "bad_json",
        "not_an_object",
    ],
)
def test_cli_malformed_input_exits_2(text, words):
    code, out = run_cli("-", stdin=text)
    result = json.loads(out)
    assert code == 2
    assert result["ok"] is False and "index" not in result and words in result["error"]


def test_cli_missing_file_exits_2(tmp_path):
    code, out = run_cli(str(tmp_path / "nope.json"))
    assert code == 2 and json.loads(out)["ok"] is False


def test_cli_without_argument_exits_2():
    code, _ = run_cli()
    assert code == 2
