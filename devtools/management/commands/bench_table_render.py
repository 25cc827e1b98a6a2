"""`manage.py bench_table_render`: what one socket spends to turn one move into its frame, before and after.

Before (until issue 10): every socket read the match from the database, rebuilt its seat's view
and rendered all seven fragments. After: it renders from the published `TableUpdate`, only the
fragments whose context changed. Both are measured in the same run, on the same moves, in this
process (no server, no socket): the figure is the ratio, spread over several runs. The
publisher's own cost (every seat's view, once per move) is printed too, since it moved there.

Writes a few users and a match in the configured database inside a transaction that is rolled
back at the end: nothing stays.
"""

from __future__ import annotations

import random
import statistics
import time

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.utils import translation

from devtools.rolled_back import rolled_back
from games import engine
from games.match.moves import apply_action
from games.match.starting import SeatPlan, create_match
from games.models import Match
from games.selectors import seats_at
from games.table import rendering
from games.table.publishing import seat_updates
from shop.selectors import equipped_deck


class Command(BaseCommand):
    help = (
        "Render cost per table update: reading the database and rendering every fragment (before) "
        "vs rendering the published move's changed fragments (after)."
    )

    def add_arguments(self, parser):
        parser.add_argument("--runs", type=int, default=5, help="independent runs (default 5)")
        parser.add_argument("--moves", type=int, default=150, help="moves per run (default 150)")
        parser.add_argument("--seats", type=int, choices=(2, 4), default=2)
        parser.add_argument("--language", default="en")

    def handle(self, *args, **options):
        runs, moves = options["runs"], options["moves"]
        if not 1 <= runs <= 50 or not 1 <= moves <= 2000:
            raise CommandError("--runs 1..50, --moves 1..2000")
        results = []
        for run in range(runs):
            with rolled_back():
                results.append(self.one_run(run, moves, options["seats"], options["language"]))
        self.stdout.write(f"{options['seats']} seats, {moves} moves per run, {runs} runs; µs per update for one socket")
        self.stdout.write(
            "run  before(db+all)  after(message+changed)  ratio  fragments/update  publish/move"
            "  all seats alone/move  shared/move"
        )
        for n, r in enumerate(results, 1):
            self.stdout.write(
                f"{n:>3}  {r['before']:>14.0f}  {r['after']:>22.0f}  {r['before'] / r['after']:>5.1f}  "
                f"{r['fragments']:>16.2f}  {r['publish']:>12.0f}  {r['alone']:>20.0f}  {r['shared']:>11.0f}"
            )
        ratios = [r["before"] / r["after"] for r in results]
        self.stdout.write(
            f"ratio before/after: median {statistics.median(ratios):.1f}, min {min(ratios):.1f}, max {max(ratios):.1f}"
        )

    def one_run(self, run: int, moves: int, seats: int, language: str) -> dict:
        User = get_user_model()
        users = [
            User.objects.create_user(username=f"bench-render-{run}-{n}", email=f"br{run}{n}@bench.invalid")
            for n in range(seats)
        ]
        rules = engine.RuleSet(variant="paulista", seats=seats)
        match = create_match(
            rules=rules,
            seats=[SeatPlan(user=u, display_name=u.username) for u in users],
            bot_level="easy",
            seed=run,
        )
        rng = random.Random(run)
        seat_rows = seats_at(match)
        facts = rendering.table_facts(match, seat_rows, equipped_deck(users[0]))
        previous = None
        before, after, publish, fragments, updates = 0.0, 0.0, 0.0, 0, 0
        every_seat = {"alone": 0.0, "shared": 0.0}
        previous_of: dict[str, dict] = {"alone": {}, "shared": {}}
        store = rendering.SharedRenders()
        with translation.override(language):
            for _ in range(moves):
                if match.status != Match.Status.ACTIVE:
                    break
                state = engine.from_json(match.state)
                seat = engine.seats_to_act(state)[0]
                match = apply_action(
                    match.public_id, seat, rng.choice(engine.legal_actions(state, seat)).to_dict(), match.version
                )

                t0 = time.perf_counter()
                updates_of_seats = seat_updates(match)
                publish += time.perf_counter() - t0
                table = updates_of_seats[0]

                # Before: what TableConsumer._render did for every update.
                t0 = time.perf_counter()
                row = Match.objects.select_related("tournament").get(pk=match.pk)
                view = rendering.viewer_view(row, 0)
                rendering.render_regions(rendering.table_contexts(row, facts, view), oob=True)
                before += time.perf_counter() - t0

                # After: TableConsumer._push_update.
                t0 = time.perf_counter()
                contexts = rendering.update_contexts(table, facts)
                rendered = rendering.render_changed(contexts, previous)
                after += time.perf_counter() - t0
                previous = contexts
                fragments += len(rendered)
                updates += 1

                # Every seat's socket: alone, then through the shared renders (order alternating); the
                # updates are the publisher's, computed once above.
                ways = ("alone", "shared") if updates % 2 else ("shared", "alone")
                for way in ways:
                    t0 = time.thread_time()
                    for seat, update in updates_of_seats.items():
                        seat_contexts = rendering.update_contexts(update, facts)
                        shared = store.for_version(match.pk, language, update.version) if way == "shared" else None
                        rendering.render_changed(seat_contexts, previous_of[way].get(seat), shared=shared)
                        previous_of[way][seat] = seat_contexts
                    every_seat[way] += time.thread_time() - t0
        return {
            "before": before / updates * 1e6,
            "after": after / updates * 1e6,
            "publish": publish / updates * 1e6,
            "fragments": fragments / updates,
            "alone": every_seat["alone"] / updates * 1e6,
            "shared": every_seat["shared"] / updates * 1e6,
        }
