"""`manage.py bench_replay`: what the replay page of a long 4-seat match costs, through the engine and
through the events.

A match of four people, every move through the move service, nobody raising (so it lasts: 12 hands
and more, several hundred events), is stored in the configured database inside a transaction that
is rolled back at the end: nothing stays. Then, per run: the steps through the engine
(`games.table.replay.replay_steps`: the stored actions played again with `engine.apply_with_moments`
and a seat's view of every moment), the steps from the events (`replay_legacy.legacy_boards`, the
replay before issue 29), and the whole page (the view, its queries and the template) for seat 0.
"""

from __future__ import annotations

import os
import statistics
import time

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.test import RequestFactory
from django.utils import translation

from devtools.matches import long_match
from devtools.rolled_back import rolled_back
from games import engine, views
from games.models import Match, MatchEvent
from games.selectors import seats_at
from games.table.replay import replay_steps
from games.table.replay_legacy import legacy_boards


class Command(BaseCommand):
    help = "The replay page of a long 4-seat match: steps through the engine, steps from the events, the whole page."

    def add_arguments(self, parser):
        parser.add_argument("--runs", type=int, default=20, help="timed runs of each (default 20)")
        parser.add_argument("--seed", type=int, default=3)
        parser.add_argument("--language", default="en")

    def handle(self, *args, **options):
        runs = options["runs"]
        if not 1 <= runs <= 500:
            raise CommandError("--runs 1..500")
        with rolled_back(), translation.override(options["language"]):
            self.measure(runs, options["seed"])

    def measure(self, runs: int, seed: int) -> None:
        match, people = long_match_of_new_people(seed)
        seats = seats_at(match)
        names = {s.number: s.display_name for s in seats}
        rules = engine.RuleSet.from_dict(match.rules)
        side_names = {side: " & ".join(names[s] for s in names if engine.side_of(rules, s) == side) for side in (0, 1)}
        request = RequestFactory().get(f"/play/m/{match.public_id}/replay/")
        request.user, request.session = people[0], {}  # type: ignore[assignment]  # seat 0's person, signed in
        events = MatchEvent.objects.filter(match=match).count()
        self.stdout.write(f"match: {len(match.state['score'])} sides, score {match.score}, {events} events")
        timings = {
            "steps through the engine": lambda: replay_steps(match, seats, 0),
            "steps from the events (before)": lambda: legacy_boards(match, names, side_names, 0),
            "whole page, seat 0 (view + template)": lambda: views.replay(request, match.public_id),
        }
        assert views.replay(request, match.public_id).status_code == 200
        assert all(step.view is not None for step in replay_steps(match, seats, 0))
        self.stdout.write(f"load average {os.getloadavg()[0]:.1f}; per run, wall clock and this process's CPU time:")
        for name, run in timings.items():
            run()  # warm: templates compiled, translations loaded
            wall, cpu = [], []
            for _ in range(runs):
                start, start_cpu = time.perf_counter(), time.process_time()
                run()
                wall.append((time.perf_counter() - start) * 1000)
                cpu.append((time.process_time() - start_cpu) * 1000)
            self.stdout.write(
                f"{name:38} wall p50 {statistics.median(wall):6.1f} ms, min {min(wall):6.1f}   "
                f"CPU p50 {statistics.median(cpu):6.1f} ms, min {min(cpu):6.1f}"
            )


def long_match_of_new_people(seed: int) -> tuple[Match, list]:
    users = get_user_model()
    people = [
        users.objects.create_user(
            username=f"bench_replay_{seed}_{n}", email=f"bench_replay_{seed}_{n}@example.com", password=None
        )
        for n in range(4)
    ]
    return long_match(seed, people), people
