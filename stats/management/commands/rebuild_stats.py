"""Recompute every player's statistics from the stored match events (and, with --rank-points, the
leaderboards' totals from the rank-point awards)."""

from django.core.management.base import BaseCommand

from stats.services import rebuild_rank_point_totals, rebuild_statistics


class Command(BaseCommand):
    help = "Recompute every player's statistics from the stored matches (the same numbers the matches counted)."

    def add_arguments(self, parser):
        parser.add_argument(
            "--rank-points", action="store_true", help="also recompute the leaderboards' totals from the awards"
        )

    def handle(self, *args, rank_points=False, **options):
        players = rebuild_statistics()
        self.stdout.write(f"statistics rebuilt for {players} players")
        if rank_points:
            rows = rebuild_rank_point_totals()
            self.stdout.write(f"leaderboard totals rebuilt: {rows} rows")
