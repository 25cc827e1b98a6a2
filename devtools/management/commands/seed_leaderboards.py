"""A big leaderboard data set for benchmarks: 100,000 players and 5,000,000 rank-point awards by
default, written by PostgreSQL itself (generate_series), then the leaderboards' totals and tallies.

PostgreSQL only, on a database of its own (never production): `--clear` removes what it made.
"""

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import connection, transaction

from stats.services import rebuild_board_tallies

PREFIX = "lb"  # every seeded player is called lb<number>
COUNTRIES = ["BR", "BR", "BR", "PT", "AR", "UY", "US", "PY", "AO", ""]


class Command(BaseCommand):
    help = "Create 100,000 players and 5,000,000 rank-point awards (PostgreSQL) to benchmark the leaderboards."

    def add_arguments(self, parser):
        parser.add_argument("--players", type=int, default=100_000)
        parser.add_argument("--awards", type=int, default=5_000_000)
        parser.add_argument("--days", type=int, default=120, help="awards spread over this many past days")
        parser.add_argument("--clear", action="store_true", help="only remove the seeded players (and their rows)")

    def handle(self, *args, players, awards, days, clear, **options):
        if connection.vendor != "postgresql":
            raise CommandError("This data set is for PostgreSQL (set DATABASE_URL to a database of its own).")
        if not 1 <= players <= 10_000_000 or not 0 <= awards <= 100_000_000 or not 1 <= days <= 3650:
            raise CommandError("--players 1..10,000,000, --awards 0..100,000,000, --days 1..3650")
        with connection.cursor() as cursor:
            self.stdout.write("removing earlier seeded players...")
            seeded = "SELECT id FROM accounts_user WHERE username ~ %s"
            # Only the rows this command writes (Django's foreign keys do not cascade in the database).
            for table in ("stats_rankpointaward", "stats_rankpointtotal", "stats_playerstats", "accounts_profile"):
                cursor.execute(f"DELETE FROM {table} WHERE user_id IN ({seeded})", [f"^{PREFIX}[0-9]+$"])
            cursor.execute(f"DELETE FROM accounts_user WHERE id IN ({seeded})", [f"^{PREFIX}[0-9]+$"])
        if clear:
            # The raw deletes above bypassed the services: count the boards' tallies again.
            rebuild_board_tallies()
            return
        tz = settings.TIME_ZONE
        with transaction.atomic(), connection.cursor() as cursor:
            self.stdout.write(f"{players} players...")
            cursor.execute(
                """
                INSERT INTO accounts_user (username, email, password, is_superuser, is_staff, is_active,
                                           first_name, last_name, date_joined, name_key)
                SELECT %s || g, %s || g || '@bench.invalid', '!', false, false, true, '', '', now(), NULL
                FROM generate_series(1, %s) g
                """,
                [PREFIX, PREFIX, players],
            )
            cursor.execute(
                """
                INSERT INTO accounts_profile (user_id, country, avatar, public_stats, table_chat,
                                              created_at, updated_at)
                SELECT id, (%s::text[])[1 + id %% %s], 'avatars/default.svg', id %% 50 <> 0, true, now(), now()
                FROM accounts_user WHERE username ~ %s
                """,
                [COUNTRIES, len(COUNTRIES), f"^{PREFIX}[0-9]+$"],
            )
            cursor.execute("SELECT min(id) FROM accounts_user WHERE username ~ %s", [f"^{PREFIX}[0-9]+$"])
            first = cursor.fetchone()[0]
            self.stdout.write(f"{awards} rank-point awards...")
            # Skewed: some players play far more than others (a square of a uniform draw).
            cursor.execute(
                """
                INSERT INTO stats_rankpointaward (user_id, points, reason, reference, created_at)
                SELECT %s + floor(power(random(), 2) * %s)::int,
                       (ARRAY[1, 1, 2, 3, 3, 10])[1 + floor(random() * 6)::int],
                       'bench', 'bench:' || g, now() - random() * make_interval(days => %s)
                FROM generate_series(1, %s) g
                """,
                [first, players, days, awards],
            )
            self.stdout.write("leaderboard totals...")
            for period, start in (
                ("all", "DATE '2000-01-01'"),
                ("week", "date_trunc('week', a.created_at AT TIME ZONE %(tz)s)::date"),
                ("month", "date_trunc('month', a.created_at AT TIME ZONE %(tz)s)::date"),
            ):
                cursor.execute(
                    f"""
                    INSERT INTO stats_rankpointtotal (user_id, period, starts_on, points, listed, country)
                    SELECT a.user_id, %(period)s, {start}, sum(a.points), p.public_stats, p.country
                    FROM stats_rankpointaward a JOIN accounts_profile p ON p.user_id = a.user_id
                    WHERE a.reason = 'bench'
                    GROUP BY a.user_id, {start}, p.public_stats, p.country
                    """,
                    {"period": period, "tz": tz},
                )
        self.stdout.write("leaderboard tallies...")
        rebuild_board_tallies()
        with connection.cursor() as cursor:
            # VACUUM too: index-only scans need the visibility map a bulk load leaves empty
            # (autovacuum would get there later).
            for table in (
                "accounts_user",
                "accounts_profile",
                "stats_rankpointaward",
                "stats_rankpointtotal",
                "stats_boardtally",
            ):
                cursor.execute(f"VACUUM ANALYZE {table}")
            cursor.execute("SELECT count(*) FROM stats_rankpointtotal")
            self.stdout.write(f"done: {cursor.fetchone()[0]} leaderboard rows")
