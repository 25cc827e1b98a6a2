"""Bench only: a loop of post-match analyses inside a running server, beside a load test's tables
(`manage.py loadtest_rooms --analyses`, issue 34: "no table's moves get slower while analyses run").

The server's own analysis code runs it (`games.table.analysing.run`: the wait for busy tables, the niced
worker process, the row saved and its page told after each decision): one finished match's seats are
analysed in turn, in a thread of its own, afresh each time, until the load test says stop and reads how many
decisions were estimated while the tables played. Reached only through the bench socket
(`devtools.floor`, off unless `BENCH_ROUTES`).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

from django.db import connections

from games import engine
from games.models import Match, MatchAnalysis
from games.table import analysing

STOP_TIMEOUT_S = 300  # the seat being analysed ends first: at most a few seconds once the tables are quiet


@dataclass
class Loop:
    match_pk: int
    stop: threading.Event = field(default_factory=threading.Event)
    decisions: int = 0  # in the analyses finished
    analyses: int = 0
    row_pk: int | None = None  # the analysis under way
    failed: str = ""


_lock = threading.Lock()
_running: tuple[Loop, threading.Thread] | None = None


def start(match_pk: int) -> bool:
    """Start the loop on this finished match; False if one runs already or the match cannot be analysed."""
    global _running
    if not Match.objects.filter(pk=match_pk, status=Match.Status.FINISHED, start_state__isnull=False).exists():
        return False
    with _lock:
        if _running is not None:
            return False
        loop = Loop(match_pk)
        thread = threading.Thread(target=_analyse, args=(loop,), name="bench-analysis-loop", daemon=True)
        _running = (loop, thread)
    thread.start()
    return True


def stop() -> dict:
    """Stop the loop (after the analysis under way) and say how many decisions it had estimated when asked."""
    global _running
    with _lock:
        running, _running = _running, None
    if running is None:
        return {"decisions": 0, "failed": "no loop was running"}
    loop, thread = running
    under_way = 0
    if loop.row_pk is not None:
        under_way = MatchAnalysis.objects.filter(pk=loop.row_pk).values_list("done", flat=True).first() or 0
    decisions = loop.decisions + under_way
    loop.stop.set()
    thread.join(STOP_TIMEOUT_S)
    return {"decisions": decisions, "failed": loop.failed}


def _analyse(loop: Loop) -> None:
    try:
        match = Match.objects.get(pk=loop.match_pk)
        seats = engine.RuleSet.from_dict(match.rules).seats
        while not loop.stop.is_set():
            seat = loop.analyses % seats
            MatchAnalysis.objects.filter(match=match, seat=seat).delete()
            row = MatchAnalysis.objects.create(match=match, seat=seat)
            loop.row_pk = row.pk
            analysing.run(row.pk)
            loop.decisions += MatchAnalysis.objects.get(pk=row.pk).done
            loop.analyses += 1
    except Exception as exc:  # said to the load test, which prints it
        loop.failed = repr(exc)
    finally:
        connections.close_all()
