"""Time each leaderboard page as a request renders it (view + queries + template), several runs,
and print p50/p95 per page with the queries it made, beside a floor (`SELECT 1`) measured in the
same run and the machine's load (the numbers mean little without it); then what the one read pays
that folds a period's tallies (stats.services.fold_tallies)."""

import os
import statistics
import time

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser
from django.core.management.base import BaseCommand, CommandError
from django.db import connection, reset_queries
from django.test import RequestFactory
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from stats import selectors, services
from stats.models import BoardTally, RankPointTotal
from stats.views import leaderboards


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


class Command(BaseCommand):
    help = "Print p50/p95 (ms) of every leaderboard page; run after seed_leaderboards on PostgreSQL."

    def add_arguments(self, parser):
        parser.add_argument("--runs", type=int, default=100)

    def handle(self, *args, runs, **options):
        if runs < 5:
            raise CommandError("--runs must be at least 5")
        players = RankPointTotal.objects.filter(period="all").count()
        # A viewer far down the board: their own position is computed off the page.
        low = RankPointTotal.objects.filter(period="all", listed=True).order_by("points", "user_id").first()
        viewer = get_user_model().objects.get(pk=low.user_id) if low else AnonymousUser()
        deep = max(1, players // selectors.PAGE_SIZE // 2)
        pages = {
            "all time, page 1": "period=all",
            f"all time, page {deep}": f"period=all&page={deep}",
            "this week, page 1": "period=week",
            "this month, page 1": "period=month",
            "country BR, page 1": "period=all&country=BR",
            "country PT, page 3": "period=all&country=PT&page=3",
        }
        factory = RequestFactory()
        load = os.getloadavg()
        self.stdout.write(
            f"{connection.vendor}, {players} players on the all-time board, {runs} runs per page, "
            f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} cores"
        )
        floor = []
        for _ in range(runs):
            start = time.perf_counter()
            with connection.cursor() as cursor:
                cursor.execute("SELECT 1")
                cursor.fetchone()
            floor.append((time.perf_counter() - start) * 1000)
        self.stdout.write(
            f"{'floor: SELECT 1':32} p50 {percentile(floor, 50):7.2f} ms  p95 {percentile(floor, 95):7.2f} ms"
        )
        for label, query in pages.items():
            timings, counts = [], set()
            for n in range(runs + 3):
                request = factory.get(f"/leaderboards/?{query}")
                request.user = viewer
                request.session = {}
                reset_queries()
                with CaptureQueriesContext(connection) as captured:
                    start = time.perf_counter()
                    response = leaderboards(request)
                    elapsed = (time.perf_counter() - start) * 1000
                if response.status_code != 200:
                    raise CommandError(f"{label}: status {response.status_code}")
                if n >= 3:  # the first runs warm the caches
                    timings.append(elapsed)
                    counts.add(len(captured))
            self.stdout.write(
                f"{label:32} p50 {percentile(timings, 50):7.2f} ms  p95 {percentile(timings, 95):7.2f} ms  "
                f"(mean {statistics.mean(timings):.2f}, queries {sorted(counts)})"
            )
        # What the read pays that finds a period's tallies with more than FOLD_ABOVE rows to sum: the
        # all-time period folded with that many changes waiting (net zero: -1 and +1 at the same value).
        starts_on = services.period_starts(timezone.localdate())["all"]
        values = list(
            BoardTally.objects.filter(period="all", starts_on=starts_on, country="").values_list("points", flat=True)
        )[: services.FOLD_ABOVE // 2]
        folds = []
        for _ in range(max(5, runs // 10)):
            BoardTally.objects.bulk_create(
                BoardTally(period="all", starts_on=starts_on, country="", points=points, players=change)
                for points in values
                for change in (-1, 1)
            )
            start = time.perf_counter()
            services.fold_tallies("all", starts_on, "")
            folds.append((time.perf_counter() - start) * 1000)
        self.stdout.write(
            f"{'all time, tallies folded':32} p50 {percentile(folds, 50):7.2f} ms  "
            f"p95 {percentile(folds, 95):7.2f} ms  (once per {services.FOLD_ABOVE} changes, by the read finding them)"
        )
        self.stdout.write(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
