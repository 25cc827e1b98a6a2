"""Replay a scenario file (docs/scenarios.md): fixed deals + actions -> outcome JSON.

    python -m games.engine.scenario PATH.json      # or "-" for standard input

Exit 0 with the outcome, 1 for an illegal action (with its index), 2 for a malformed file.
``run_scenario`` is the same code path for tests.  Extra keys (``expect``, ``rule``, ...) are ignored.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from typing import Any

from .cards import parse_card
from .match import apply, legal_actions, new_match, seats_to_act
from .rules import RuleSet
from .state import Action, IllegalAction


class Malformed(ValueError):
    """The scenario file itself is wrong (exit 2)."""


def _check_actions(actions: object, seats: int) -> list[tuple[int, Action]]:
    if actions is None:
        return []
    if not isinstance(actions, list):
        raise Malformed("actions must be a list")
    checked = []
    for index, item in enumerate(actions):
        if not isinstance(item, dict):
            raise Malformed(f"action {index} must be an object")
        seat = item.get("seat")
        if type(seat) is not int or not 0 <= seat < seats:
            raise Malformed(f"action {index}: seat must be a seat number from 0 to {seats - 1}")
        try:
            if item.get("do") == "play" and "cards" not in item:
                parse_card(item.get("card"))
            action = Action.from_dict({k: v for k, v in item.items() if k != "seat"})
        except ValueError as error:
            raise Malformed(f"action {index}: {error}") from None
        checked.append((seat, action))
    return checked


def run_scenario(data: object) -> tuple[int, dict[str, Any]]:
    """(exit code, output object) for a parsed scenario."""
    try:
        if not isinstance(data, dict):
            raise Malformed("a scenario must be a JSON object")
        rules = RuleSet.from_dict(data.get("rules"))
        deals = data.get("deals", [])
        state = new_match(rules, data.get("seed", 0), dealer=data.get("dealer"), score=data.get("score"), deals=deals)
        actions = _check_actions(data.get("actions"), rules.seats)
    except ValueError as error:  # Malformed, bad RuleSet, bad deal, bad score...
        return 2, {"ok": False, "error": str(error)}

    finished: list[dict[str, Any]] = []
    for index, (seat, action) in enumerate(actions):
        if deals and len(finished) >= len(deals):
            return 1, {
                "ok": False,
                "index": index,
                "error": "the hand of the last listed deal is over; no more actions",
            }
        try:
            state, events = apply(state, seat, action)
        except IllegalAction as error:
            return 1, {"ok": False, "index": index, "error": error.reason}
        for event in events:
            if event["type"] == "hand_won":
                finished.append({"winner": event["side"], "points": event["points"]})
            elif event["type"] == "hand_void":
                finished.append({"winner": None, "points": 0})

    nxt = None
    if not state.over and not (deals and len(finished) >= len(deals)):
        seat = seats_to_act(state)[0]
        nxt = {"seat": seat, "actions": sorted({a.kind for a in legal_actions(state, seat)})}
    return 0, {
        "ok": True,
        "score": list(state.score),
        "hands": finished,
        "match_over": state.over,
        "match_winner": state.winner,
        "next": nxt,
    }


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 1:
        print("usage: python -m games.engine.scenario FILE|-", file=sys.stderr)
        return 2
    try:
        if argv[0] == "-":
            text = sys.stdin.read()
        else:
            with open(argv[0], encoding="utf-8") as handle:
                text = handle.read()
        data = json.loads(text)
    except OSError as error:
        code, out = 2, {"ok": False, "error": f"cannot read {argv[0]}: {error.strerror}"}
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        code, out = 2, {"ok": False, "error": f"bad JSON: {error}"}
    else:
        code, out = run_scenario(data)
    print(json.dumps(out))
    return code


if __name__ == "__main__":
    sys.exit(main())
