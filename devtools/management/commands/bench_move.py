"""`manage.py bench_move`: the server's CPU for one move of a room of people, in parts, in this process.

A move at a table of people costs the server three things (docs/architecture.md, "One move end to
end"): the move's transaction (`games.match.moves.apply_action`: lock, engine, store), the publish
(every seat's `TableUpdate`, `games.table.publishing.seat_updates`), and every seat's push (each socket's
contexts and changed fragments, shared between the sockets of one version as `TableConsumer` shares
them). This plays whole matches of random legal moves (a new match when one ends, as "play again"
does) and reports the thread's CPU time per move for each part: no server, no socket, no network, so
what it prints is the move itself, not the daphne around it (`loadtest_rooms` measures that).

CPU time (`time.thread_time`), not wall time: another process on the machine slows a run down less
(it still shares the caches). Compare trees or commits by alternating runs of both (issue 31's
figures in docs/performance.md). Writes users and matches in the configured database inside a
transaction that is rolled back: nothing stays.
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
from games.table.publishing import TableUpdate, seat_updates, update_message
from shop.selectors import equipped_deck

PARTS = ("transaction", "publish", "push")


class Command(BaseCommand):
    help = "CPU per move of a room of people, in parts: the move's transaction, the publish, every seat's push."

    def add_arguments(self, parser):
        parser.add_argument("--runs", type=int, default=5, help="independent runs (default 5)")
        parser.add_argument("--moves", type=int, default=300, help="moves per run (default 300)")
        parser.add_argument("--seats", type=int, choices=(2, 4), default=4)
        parser.add_argument("--language", default="pt-br")

    def handle(self, *args, **options):
        runs, moves = options["runs"], options["moves"]
        if not 1 <= runs <= 50 or not 10 <= moves <= 5000:
            raise CommandError("--runs 1..50, --moves 10..5000")
        results = []
        for run in range(runs):
            with rolled_back():
                results.append(self.one_run(run, moves, options["seats"], options["language"]))
        self.stdout.write(
            f"{options['seats']} seats, {moves} moves per run, {runs} runs; CPU µs per move (thread time)"
        )
        self.stdout.write("run  " + "".join(f"{part:>13}" for part in PARTS) + "        total")
        for n, r in enumerate(results, 1):
            parts = "".join(f"{r[part]:>13.0f}" for part in PARTS)
            self.stdout.write(f"{n:>3}  {parts}{sum(r.values()):>13.0f}")
        medians = {part: statistics.median(r[part] for r in results) for part in PARTS}
        totals = sorted(sum(r.values()) for r in results)
        self.stdout.write(
            "med  "
            + "".join(f"{medians[part]:>13.0f}" for part in PARTS)
            + f"{statistics.median(totals):>13.0f}  (total min {totals[0]:.0f}, max {totals[-1]:.0f})"
        )

    def one_run(self, run: int, moves: int, seats: int, language: str) -> dict[str, float]:
        User = get_user_model()
        users = [
            User.objects.create_user(username=f"bench-move-{run}-{n}", email=f"bm{run}{n}@bench.invalid")
            for n in range(seats)
        ]
        rules = engine.RuleSet(variant="paulista", seats=seats)
        rng = random.Random(run)
        spent = dict.fromkeys(PARTS, 0.0)
        match: Match | None = None
        store = rendering.SharedRenders()
        previous: dict[int, dict | None] = {}
        facts = rendering.TableFacts(seats=(), deck={})  # each match's own, from its first move
        with translation.override(language):
            for n in range(moves):
                if match is None or match.status != Match.Status.ACTIVE:
                    match = create_match(
                        rules=rules,
                        seats=[SeatPlan(user=u, display_name=u.username) for u in users],
                        bot_level="easy",
                        seed=run * 10_000 + n,
                    )
                    facts = rendering.table_facts(match, seats_at(match), equipped_deck(users[0]))
                    previous = dict.fromkeys(range(seats))
                state = engine.from_json(match.state)
                seat = engine.seats_to_act(state)[0]
                action = rng.choice(engine.legal_actions(state, seat)).to_dict()

                t0 = time.thread_time()
                match = apply_action(match.public_id, seat, action, match.version)
                t1 = time.thread_time()
                # What the layer carries: the message, not the dataclass (a socket rebuilds it).
                messages = {s: update_message(match.version, u) for s, u in seat_updates(match).items()}
                t2 = time.thread_time()
                for s, message in messages.items():
                    table = TableUpdate.from_message(message["table"])
                    if table.over:
                        continue  # a result is a snapshot from the database, not a push
                    contexts = rendering.update_contexts(table, facts)
                    shared = store.for_version(match.pk, language, table.version)
                    rendering.render_changed(contexts, previous[s], shared=shared)
                    previous[s] = contexts
                t3 = time.thread_time()
                spent["transaction"] += t1 - t0
                spent["publish"] += t2 - t1
                spent["push"] += t3 - t2
        return {part: spent[part] / moves * 1e6 for part in PARTS}
