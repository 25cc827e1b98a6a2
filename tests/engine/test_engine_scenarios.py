"""Every scenario file replays through ``run_scenario`` (the CLI's code path) to its ``expect``,
and together they pin every section of the rule book (docs/rules.md).

``expect.error`` is a substring of the engine's reason (reasons are prose, pinned loosely).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from games.engine.scenario import run_scenario

SCENARIO_DIR = Path(__file__).parent / "scenarios"
RULE_BOOK = Path(__file__).resolve().parents[2] / "docs" / "rules.md"

FILES = sorted(SCENARIO_DIR.glob("*.json"))
RULE_BOOK_SECTIONS = [int(n) for n in re.findall(r"^## (\d+)\.", RULE_BOOK.read_text(), re.M)]
# docs/rules.md by section, docs/scenarios.md (the format's own checks), docs/engine.md's rule decisions.
CITATION = re.compile(r"(rules\.md §\d+|scenarios\.md|engine\.md rule decision)")


def cited_sections(rule: str) -> set[int]:
    return {int(n) for n in re.findall(r"rules\.md §(\d+)", rule)}


def test_every_scenario_cites_the_rule_book_the_scenario_format_or_a_rule_decision_of_the_repository():
    sections = set(RULE_BOOK_SECTIONS)
    for path in FILES:
        rule = json.loads(path.read_text())["rule"]
        assert CITATION.match(rule), (path.name, rule)
        assert cited_sections(rule) <= sections, (path.name, rule)


def test_every_section_of_the_rule_book_is_pinned_by_a_scenario():
    assert RULE_BOOK_SECTIONS, "docs/rules.md numbers its sections"
    cited = set().union(*(cited_sections(json.loads(p.read_text())["rule"]) for p in FILES))
    assert set(RULE_BOOK_SECTIONS) - cited == set()


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
