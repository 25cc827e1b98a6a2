"""What the analysis page shows (issue 34): the progress while it runs, then the summary and each decision.

One context function for the one region the page and its socket draw (`_analysis.html`). Words only: the
numbers are the engine's (`engine.analysis`), stored in the `MatchAnalysis` row.
"""

from __future__ import annotations

from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.engine.analysis import accuracy_of_marks
from games.models import MatchAnalysis
from games.table.presentation import RAISE_CALLS, card_label

MARK_WORDS = {
    "good": gettext_lazy("good"),
    "inaccuracy": gettext_lazy("inaccuracy"),
    "mistake": gettext_lazy("mistake"),
    "blunder": gettext_lazy("blunder"),
}
COSTLIEST = 3


def action_words(action: dict, *, call: str, eleven: bool) -> str:
    """An action in words: "Play the 4 of clubs", "Truco!", "Accept", "Play the hand of eleven"…"""
    kind = action.get("do")
    if kind == "play":
        label = card_label(action.get("card"))
        if action.get("hidden"):
            return _("Play %(card)s with %(hidden)s face down beneath") % {
                "card": label,
                "hidden": card_label(action["hidden"]),
            }
        if action.get("face_down"):
            return _("Play %(card)s face down") % {"card": label}
        return _("Play %(card)s") % {"card": label}
    if kind == "raise":
        return RAISE_CALLS.get(call) or _("Raise")
    if kind == "accept":
        return _("Play the hand") if eleven else _("Accept")
    if kind == "run":
        return _("Refuse the hand") if eleven else _("Run")
    return str(kind)


def public_words(action: dict, *, call: str, eleven: bool) -> str:
    """Another seat's action as anyone at the table saw it: a card played face down stays unnamed."""
    if action.get("do") == "play" and action.get("face_down"):
        return _("Play a card face down")
    if action.get("do") == "play" and action.get("hidden"):
        return _("Play %(card)s with a card face down beneath") % {"card": card_label(action.get("card"))}
    return action_words(action, call=call, eleven=eleven)


def others_context(others: list[tuple[str, MatchAnalysis | None]]) -> list[dict]:
    """The summaries of the seats this page shows besides mine (my partner; at two seats my opponent): their
    accuracy and their costliest decisions in public words only. What they chose was played in front of
    everyone (a face-down card stays unnamed); the better action is said by its kind ("a card"), never by a
    card they did not show."""
    summaries = []
    for name, row in others:
        if row is None or row.status != MatchAnalysis.Status.DONE:
            summaries.append({"name": name, "ready": False})
            continue
        marks = [d["mark"] for d in row.decisions]
        costly = sorted((d for d in row.decisions if d["mark"] != "good"), key=lambda d: -d["loss"])[:COSTLIEST]
        summaries.append(
            {
                "name": name,
                "ready": True,
                "accuracy": round(accuracy_of_marks(marks)),
                "costliest": [
                    {
                        "hand": d["hand_number"],
                        "mark_words": MARK_WORDS[d["mark"]],
                        "mark": d["mark"],
                        "chosen": public_words(d["chosen"], call=d.get("call", ""), eleven=d.get("eleven", False)),
                        "best": _("another card")
                        if d["estimates"][0]["action"].get("do") == "play"
                        else action_words(
                            d["estimates"][0]["action"], call=d.get("call", ""), eleven=d.get("eleven", False)
                        ),
                        "loss_pct": round(100 * d["loss"], 1),
                    }
                    for d in costly
                ],
            }
        )
    return summaries


def analysis_context(
    row: MatchAnalysis | None, public_id: str, others: list[tuple[str, MatchAnalysis | None]] | None = None
) -> dict:
    """`_analysis.html`: nothing asked yet (the button), the progress, a failure, or the whole review with the
    summaries of `others` ((name, their analysis) of the seats shown with mine)."""
    if row is None:
        return {"state": "none", "public_id": public_id}
    if row.status == MatchAnalysis.Status.FAILED:
        return {"state": "failed", "public_id": public_id}
    if row.status == MatchAnalysis.Status.RUNNING:
        percent = round(100 * row.done / row.total) if row.total else 0
        return {
            "state": "running",
            "public_id": public_id,
            "done": row.done,
            "total": row.total,
            "percent": percent,
            "waiting": row.waiting,
        }
    replay = reverse("games:replay", kwargs={"public_id": public_id})
    decisions = [_decision(d, replay) for d in row.decisions]
    counts = {mark: sum(1 for d in decisions if d["mark"] == mark) for mark in MARK_WORDS}
    costly = sorted((d for d in decisions if d["mark"] != "good"), key=lambda d: -d["loss_pct"])[:COSTLIEST]
    return {
        "state": "done",
        "public_id": public_id,
        "accuracy": round(accuracy_of_marks([d["mark"] for d in decisions])),
        "counts": [(mark, MARK_WORDS[mark], counts[mark]) for mark in MARK_WORDS],
        "costliest": costly,
        "decisions": decisions,
        "worlds": row.worlds,
        "others": others_context(others or []),
    }


def _decision(stored: dict, replay: str) -> dict:
    call, eleven = stored.get("call", ""), stored.get("eleven", False)
    estimates = [
        {
            "words": action_words(e["action"], call=call, eleven=eleven),
            "win_pct": round(100 * e["win"]),
            "margin_pct": round(100 * e["win_half_width"]),
            "points": round(e["points"], 1),
            "chosen": e["action"] == stored["chosen"],
            "best": i == 0,
        }
        for i, e in enumerate(stored["estimates"])
    ]
    return {
        "hand": stored["hand_number"],
        "chosen": action_words(stored["chosen"], call=call, eleven=eleven),
        "best": estimates[0]["words"],
        "mark": stored["mark"],
        "mark_words": MARK_WORDS[stored["mark"]],
        "loss_pct": round(100 * stored["loss"], 1),
        "estimates": estimates,
        "replay_url": f"{replay}?step={stored['step']}",
        "worlds": stored["worlds"],
    }


def replay_marks(row: MatchAnalysis | None, public_id: str, at: int) -> dict:
    """What the replay board shows of a done analysis at step `at` (issue 34 item 4): the decision told at
    that step (its mark, the choice, every action's estimate), and the steps of the previous and next of my
    decisions not marked good (the up and down arrow keys)."""
    if row is None or row.status != MatchAnalysis.Status.DONE:
        return {"analysed": False, "decision": None, "prev_mistake": None, "next_mistake": None}
    replay = reverse("games:replay", kwargs={"public_id": public_id})
    by_step = {d["step"]: d for d in row.decisions}
    mistakes = sorted(d["step"] for d in row.decisions if d["mark"] != "good")
    return {
        "analysed": True,
        "decision": _decision(by_step[at], replay) if at in by_step else None,
        "prev_mistake": next((s for s in reversed(mistakes) if s < at), None),
        "next_mistake": next((s for s in mistakes if s > at), None),
    }
