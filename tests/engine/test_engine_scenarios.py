"""Every scenario file replays through ``run_scenario`` (the CLI's code path) to its ``expect``.

``expect.error`` is a substring of the engine's reason (reasons are prose, pinned loosely).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from games.engine.scenario import run_scenario

SCENARIO_DIR = Path(__file__).parent / "scenarios"

FILES = sorted(SCENARIO_DIR.glob("*.json"))


def test_there_are_enough_scenarios():
    assert len(FILES) >= 70


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_scenario(path):
    data = json.loads(path.read_text())
    assert data.get("rule"), "every scenario names the rule it pins"
    expect = data["expect"]
    code, out = run_scenario(data)
    if expect["ok"]:
        assert code == 0, out
        assert out == expect
    else:
        assert code == (1 if "index" in expect else 2), out
        assert set(out) == set(expect), out
        assert out.get("index") == expect.get("index"), out
        assert expect["error"] in out["error"], out
