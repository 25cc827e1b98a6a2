"""Running a post-match analysis (issue 34) off the table's event loop, once per match and seat.

`request` finds or starts the seat's `MatchAnalysis`. The work runs in this process's analysis thread
(one: analyses queue, so they never take more than one core from the tables), which plays the match
again from its stored actions, then has each of the seat's decisions estimated (`engine.analysis`) in the
analysis worker process (`GAMES_ANALYSIS_PROCESSES`, 1; niced, so a live table's bots and sockets come
first), one decision at a time: after each the row is saved and the page's socket is told
(`analysis_group`), which draws the progress bar. Before each decision the analysis gives way to this
process's tables (`games.match.pace`): while they are busy it waits, and says so on the page, so a move
rarely shares the machine with an analysis; after `GAMES_ANALYSIS_MAX_WAIT_S` it estimates one decision all
the same, so an analysis asked for on a server that is never quiet still ends. A row left "running" by a
process that died (not touched for `STALE_S`) starts again when asked for; a failed one too.
"""

from __future__ import annotations

import logging
import multiprocessing
import time
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from datetime import timedelta
from typing import Any, cast

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import connections, transaction
from django.utils import timezone

from games import engine
from games.engine.analysis import WORLDS, judge_json, lower_priority
from games.match import pace
from games.models import Match, MatchAnalysis, MatchEvent
from games.table.replay_page import event_sentence

log = logging.getLogger(__name__)

STALE_S = 120  # a running analysis saves after every decision, and waits for the tables at most a while
PACE_TICK_S = 0.25  # how often a waiting analysis looks at the tables again
_runner: ThreadPoolExecutor | None = None
_workers: ProcessPoolExecutor | None = None


def analysis_group(match_pk: int, seat: int) -> str:
    return f"analysis.{match_pk}.{seat}"


def seats_shown_with(match: Match, seat: int) -> list[int]:
    """The other seats whose summary this seat's page shows (issue 34 item 3): its partners, and at two seats
    the opponent (the match is over when it is analysed)."""
    rules = engine.RuleSet.from_dict(match.rules)
    side = engine.side_of(rules, seat)
    others = [s for s in range(rules.seats) if s != seat]
    return others if rules.seats == 2 else [s for s in others if engine.side_of(rules, s) == side]


def analyses_for(match: Match, seat: int) -> tuple[MatchAnalysis | None, list[tuple[str, MatchAnalysis | None]]]:
    """What this seat's page draws: its own analysis, and (name, analysis) of each seat it summarises."""
    rows = {row.seat: row for row in MatchAnalysis.objects.filter(match=match)}
    names = dict(match.seats.values_list("number", "display_name"))
    return rows.get(seat), [(names.get(s) or "", rows.get(s)) for s in seats_shown_with(match, seat)]


def request(match: Match, seat: int) -> MatchAnalysis:
    """This seat's analysis of this finished match (the one kept, or a new one started after the commit), and
    the analyses of the seats its page summarises (after it, in the same queue)."""
    row = _request_one(match, seat)
    for other in seats_shown_with(match, seat):
        _request_one(match, other)
    return row


def _request_one(match: Match, seat: int) -> MatchAnalysis:
    now = timezone.now()
    with transaction.atomic():
        row, created = MatchAnalysis.objects.select_for_update().get_or_create(match=match, seat=seat)
        stale = row.status == MatchAnalysis.Status.RUNNING and row.updated_at < now - timedelta(seconds=STALE_S)
        again = not created and (row.status == MatchAnalysis.Status.FAILED or stale)
        if again:
            row.status, row.done, row.total, row.decisions = MatchAnalysis.Status.RUNNING, 0, 0, []
            row.waiting = False
            row.save(update_fields=["status", "done", "total", "decisions", "waiting", "updated_at"])
        if created or again:
            transaction.on_commit(lambda: start(row.pk))
    return row


def start(row_pk: int) -> None:
    global _runner
    if _runner is None:
        _runner = ThreadPoolExecutor(max_workers=1, thread_name_prefix="analysis")
    _runner.submit(_run_logged, row_pk)


def _run_logged(row_pk: int) -> None:
    try:
        run(row_pk)
    except Exception:
        log.exception("analysis %s failed", row_pk)
        MatchAnalysis.objects.filter(pk=row_pk).update(status=MatchAnalysis.Status.FAILED, updated_at=timezone.now())
        _tell(row_pk)
    finally:
        connections.close_all()  # this thread lives on: give its connection back between analyses


def run(row_pk: int) -> float:
    """Estimate every decision of the row's seat, saving and telling the page after each; the seconds it
    waited for the tables."""
    row = MatchAnalysis.objects.select_related("match").get(pk=row_pk)
    match = row.match
    # Playing the match again is this process's own work (a long match: a few tenths of a second of the
    # GIL), so it too waits for quiet tables.
    waiting, waited = give_way(row_pk, waiting=False)
    spots = _decisions_of(match, row.seat)
    row.total, row.worlds = len(spots), WORLDS
    row.save(update_fields=["total", "worlds", "updated_at"])
    _tell(row_pk)
    pool = _worker_pool()
    decisions: list[dict] = []
    for spot in spots:
        waiting, seconds = give_way(row_pk, waiting=waiting)
        waited += seconds
        args = (spot["state"], row.seat, spot["chosen"], WORLDS, f"{match.public_id}:{spot['move']}", spot["move"])
        found = pool.submit(judge_json, *args).result() if pool is not None else judge_json(*args)
        decisions.append({**found, "step": spot["step"], "call": spot["call"], "eleven": spot["eleven"]})
        MatchAnalysis.objects.filter(pk=row_pk).update(
            done=len(decisions), decisions=decisions, updated_at=timezone.now()
        )
        _tell(row_pk)
    MatchAnalysis.objects.filter(pk=row_pk).update(
        status=MatchAnalysis.Status.DONE, waiting=False, finished_at=timezone.now(), updated_at=timezone.now()
    )
    _tell(row_pk)
    if waited:
        log.info("analysis %s waited %.1f s for the tables", row_pk, waited)
    return waited


def give_way(row_pk: int, *, waiting: bool) -> tuple[bool, float]:
    """Wait while this process's tables store `GAMES_ANALYSIS_BUSY_MOVES_PER_S` moves a second or more, at
    most `GAMES_ANALYSIS_MAX_WAIT_S`; the row's `waiting` (the page's "tables come first") is set while the
    tables are busy and cleared once they are quiet. `waiting` is what the row says now; returns what it
    says after, and the seconds waited."""
    busy = settings.GAMES_ANALYSIS_BUSY_MOVES_PER_S
    started, waited = time.monotonic(), 0.0
    while pace.moves_per_second() >= busy:
        if not waiting:
            waiting = True
            MatchAnalysis.objects.filter(pk=row_pk).update(waiting=True, updated_at=timezone.now())
            _tell(row_pk)
        if waited >= settings.GAMES_ANALYSIS_MAX_WAIT_S:
            return waiting, waited  # one decision all the same; still waiting after it
        time.sleep(PACE_TICK_S)
        waited = time.monotonic() - started
    if waiting:
        MatchAnalysis.objects.filter(pk=row_pk).update(waiting=False, updated_at=timezone.now())
    return False, waited


def _decisions_of(match: Match, seat: int) -> list[dict[str, Any]]:
    """The seat's decisions (more than one legal action) in the match played again from its stored actions:
    the state before each (as JSON, for the worker), the action chosen, the replay step that tells the move,
    and what the page needs to say the actions (the raise's call, a hand of eleven or ten being decided)."""
    state = engine.from_json(cast(dict, match.start_state))
    rows = MatchEvent.objects.filter(match=match).order_by("id").values_list("seat", "data", "action")
    spots, step, move = [], 0, -1
    for actor, event, action in rows:
        if action is not None:
            move += 1
            actor = cast(int, actor)
            chosen = engine.Action.from_dict(action)
            if actor == seat and len(engine.legal_actions(state, actor)) > 1:
                view = engine.seat_view(state, seat)
                eleven = view["hand_of_eleven"]
                spots.append(
                    {
                        "move": move,
                        "state": engine.to_json(state),
                        "chosen": chosen.to_dict(),
                        "step": step + 1,  # the move's first told event is the next step
                        "call": view["next_raise"]["name"] if view["next_raise"] else "",
                        "eleven": bool(eleven and eleven["deciding_side"] is not None),
                    }
                )
            state, _ = engine.apply(state, actor, chosen)
        if event_sentence(event, {}, {}) is not None:
            step += 1
    return spots


def _worker_pool() -> Executor | None:
    """The analysis worker process (None: estimate in the analysis thread itself, GAMES_ANALYSIS_PROCESSES=0)."""
    global _workers
    if getattr(settings, "GAMES_ANALYSIS_PROCESSES", 1) <= 0:
        return None
    if _workers is None:
        # forkserver: the child inherits no event loop, socket or thread of the server's.
        context = multiprocessing.get_context("forkserver")
        # The initializer is the engine's: the child imports no Django (an analysis may wait, a move may not).
        _workers = ProcessPoolExecutor(max_workers=1, mp_context=context, initializer=lower_priority)
    return _workers


def _tell(row_pk: int) -> None:
    """Tell the pages of every seat of the match: each shows its own analysis and summarises some others'."""
    row = MatchAnalysis.objects.filter(pk=row_pk).values("match_id", "match__rules").first()
    layer = get_channel_layer()
    if row is None or layer is None:
        return
    try:
        for seat in range(engine.RuleSet.from_dict(row["match__rules"]).seats):
            async_to_sync(layer.group_send)(analysis_group(row["match_id"], seat), {"type": "analysis.progress"})
    except Exception:  # the page reads the rows again when it loads
        log.exception("could not tell analysis %s's pages", row_pk)


def shutdown() -> None:
    """Drop the pools (tests)."""
    global _runner, _workers
    for pool in (_runner, _workers):
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)
    _runner = _workers = None
