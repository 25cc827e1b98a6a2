"""A finished match, step by step, as one seat's player (or a spectator) saw it: played again through the engine.

The match is played again from the engine state it started from (`Match.start_state`) with the action
of each move (`MatchEvent.action`, on the move's first engine event), by `engine.apply_with_moments`;
every stored event is one step, shown with the engine's view of the table right after it, for this
audience: the seat's `seat_view` (never another seat's hidden card), or the `spectator_view`. Nothing
here reads what an event means: the engine says what the table looked like, and
`replay_page.event_sentence` says the event in words. The site's own events (the match started, the
clock ran out) show the table as it stands.

The replay checks itself: every move must tell exactly the events stored with it and the last state
must be the stored one. A match stored before the start was kept, or one whose actions no longer
replay exactly, falls back to the frozen legacy replay (games.table.replay_legacy).
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, cast

from django.utils.translation import get_language
from django.utils.translation import gettext as _

from games import engine
from games.models import Match, MatchEvent, Seat
from games.table.presentation import card_face
from games.table.replay_legacy import legacy_boards
from games.table.replay_page import Board, Play, event_sentence

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Step:
    """One told event of the match, and the table right after it as the viewer saw it."""

    number: int  # from 1
    text: str  # the event in words, in the active language
    # The engine's view of the table right after the event, for this audience (`engine.seat_view` of
    # the seat, or `engine.spectator_view`): what the table's context functions draw. None only for a
    # match replayed by the legacy path.
    view: Mapping[str, Any] | None
    board: Board  # what the replay page draws (from `view`)


class ReplayMismatch(Exception):
    """The stored actions do not play the match again as it was stored."""


# The steps of the finished matches replayed lately in this process, by match (its public id: a rolled-back
# test may reuse a primary key), version, audience, language and names: each step button fetches one
# board, and playing a long match again for every click made stepping through it cost O(steps²). A
# finished match never changes; a name that does (a deleted account) is part of the key.
KEPT_REPLAYS = 16
_kept: dict[tuple, list[Step]] = {}
_kept_lock = threading.Lock()  # pages run in several threads of a process


def finished_match_steps(match: Match, seats: list[Seat], seat: int | None) -> list[Step]:
    """`replay_steps` of a finished match, kept for the next step's request (the oldest dropped past KEPT_REPLAYS)."""
    key = (match.public_id, match.version, seat, get_language(), tuple((s.number, s.display_name) for s in seats))
    with _kept_lock:
        steps = _kept.pop(key, None)
    if steps is None:
        steps = replay_steps(match, seats, seat)
    with _kept_lock:
        _kept[key] = steps  # the newest last
        while len(_kept) > KEPT_REPLAYS:
            del _kept[next(iter(_kept))]
    return steps


def replay_steps(match: Match, seats: list[Seat], seat: int | None) -> list[Step]:
    """Every told event of a match with the table right after it, as `seat` saw it (None: a spectator).

    The caller decides who may see it (the page: only the people who sat at the match).
    """
    names = {s.number: s.display_name or _("Deleted player") for s in seats}
    rules = engine.RuleSet.from_dict(match.rules)
    side_names = {
        side: " & ".join(names[s] for s in sorted(names) if engine.side_of(rules, s) == side)
        for side in {engine.side_of(rules, s) for s in names}
    }
    told = None
    if match.start_state is not None:
        try:
            told = _through_the_engine(match, names, side_names, seat)
        except (ReplayMismatch, ValueError, KeyError) as error:  # IllegalAction is a ValueError
            log.warning(
                "match %s does not replay through the engine (%s): its events are read instead", match.pk, error
            )
    if told is None:
        told = [(text, None, board) for text, board in legacy_boards(match, names, side_names, seat)]  # no views
    return [Step(number, text, view, board) for number, (text, view, board) in enumerate(told, start=1)]


def _through_the_engine(
    match: Match, names: dict[int, str], side_names: dict[int, str], seat: int | None
) -> list[tuple[str, Mapping[str, Any] | None, Board]]:
    def look(state: engine.MatchState) -> Mapping[str, Any]:
        return engine.seat_view(state, seat) if seat is not None else engine.spectator_view(state)

    state = engine.from_json(cast(dict, match.start_state))  # the caller checked it is stored
    rows = MatchEvent.objects.filter(match=match).order_by("id").values_list("seat", "data", "action")
    moments: deque = deque()  # (event, state right after it) of the move being told
    faces: dict = {}  # each card's face, once per page (the board only reads them)
    told: list[tuple[str, Mapping[str, Any] | None, Board]] = []
    board_view = None  # the last view of a match not yet over: the board the page keeps drawing at its end
    for actor, event, action in rows:
        if action is not None:
            if moments:
                raise ReplayMismatch(f"a move told {len(moments)} events that were not stored")
            # A move's first event carries its action and its seat (a person's, a bot's: never None).
            state, events, states = engine.apply_with_moments(state, cast(int, actor), engine.Action.from_dict(action))
            moments.extend(zip(events, states, strict=True))
        at = state
        if moments:
            said, at = moments.popleft()
            if said != event:
                raise ReplayMismatch(f"the engine told {said}, the match stored {event}")
        text = event_sentence(event, names, side_names)
        if text is None:
            continue
        view = look(at)
        if not view["match_over"]:
            board_view = view
        told.append((text, view, _board(board_view or view, names, faces)))
    if moments:
        raise ReplayMismatch("the last move told events that were not stored")
    if engine.to_json(state) != match.state:
        raise ReplayMismatch("the actions do not end in the stored state")
    return told


def _board(view: Mapping[str, Any], names: dict[int, str], faces: dict) -> Board:
    """The page's board from a view. A finished match's view has no hand and no rounds (its `last_hand`
    sums them up): the page keeps drawing the board of the hand that ended it, passed in here instead."""
    me = view["seat"]

    def face(code: str | None) -> dict | None:
        if code not in faces:
            faces[code] = card_face(code)
        return faces[code]

    def plays(entries: list[dict]) -> list[Play]:
        out = []
        for play in entries:
            who, mine = names.get(play["seat"], ""), play["seat"] == me
            out.append(Play(play["seat"], who, face(play["card"]), play["face_down"], mine))
            if play.get("double"):
                # Everyone sees that a card lies beneath; only its owner knows which.
                out.append(Play(play["seat"], who, face(play["hidden"]), True, mine))
        return out

    return Board(
        hand_number=view["hand_number"],
        score=list(view["score"]),
        stake=view["stake"],
        vira=face(view["vira"]),
        trick=plays(view["trick"]),
        rounds=[plays(r["plays"]) for r in view["rounds"]],
        hand=[face(code) for code in view["hand"]],
    )


def replay_step_number(asked: str | None, steps: int) -> int:
    """The step a replay page shows (from 1): what `?step=` asks, or the first; clamped to the match's steps,
    whatever the URL holds."""
    if not asked or not asked.isascii() or not asked.isdigit() or len(asked) > 6:
        return 1
    return max(1, min(int(asked), max(steps, 1)))


def replay_moves(hands: list[int], at: int) -> dict[str, int]:
    """Where each of the replay's buttons leads from step `at` (from 1), given each step's hand number: the
    first and last step, one step back and on, and the start of the next hand, or of this hand (of the one
    before when already at its start)."""
    last = max(len(hands), 1)
    if not hands:
        return {"first": 1, "prev": 1, "next": 1, "last": 1, "prev_hand": 1, "next_hand": 1}
    i = at - 1
    next_hand = next((n for n in range(i + 1, len(hands)) if hands[n] != hands[i]), len(hands) - 1)
    start = i
    while start > 0 and hands[start - 1] == hands[i]:
        start -= 1
    if start == i and start > 0:
        start -= 1
        while start > 0 and hands[start - 1] == hands[i - 1]:
            start -= 1
    return {
        "first": 1,
        "prev": max(1, at - 1),
        "next": min(last, at + 1),
        "last": last,
        "prev_hand": start + 1,
        "next_hand": next_hand + 1,
    }
