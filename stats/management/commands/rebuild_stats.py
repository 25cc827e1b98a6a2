"""Recompute every player's statistics from the stored match events (and, with --rank-points, the
leaderboards' totals from the rank-point awards)."""

from django.core.management.base import BaseCommand

from stats.services import award_reached_achievements, rebuild_rank_point_totals, rebuild_statistics


class Command(BaseCommand):
    help = "Recompute every player's statistics from the stored matches (the same numbers the matches counted)."

    def add_arguments(self, parser):
        parser.add_argument(
            "--rank-points", action="store_true", help="also recompute the leaderboards' totals from the awards"
        )
        parser.add_argument(
            "--award",
            action="store_true",
            help="then award the active achievements players already reach (e.g. one staff just switched on)",
        )

    def handle(self, *args, rank_points=False, award=False, **options):
        players = rebuild_statistics()
        self.stdout.write(f"statistics rebuilt for {players} players")
        if award:
            self.stdout.write(f"achievements awarded: {award_reached_achievements()}")
        if rank_points:
            rows = rebuild_rank_point_totals()
            self.stdout.write(f"leaderboard totals rebuilt: {rows} rows")
