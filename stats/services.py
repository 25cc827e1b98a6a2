"""Writes of stats: rank points (and the leaderboards' totals and tallies), counting a finished match,
achievements.

Everything here runs inside the caller's transaction (the one that settles a match), so a match is
counted with its rewards or not at all. Rows of several players are always locked in the order of
their user ids: two matches finishing at once with the same players then never deadlock.

Every change of a listed player's total (an award, the profile's switch or country, a deletion) moves
that player on the leaderboards' tallies (`BoardTally`) in the same transaction, so a board's positions
are always read in step with its points (issue 28 item 7).
"""

from __future__ import annotations

import datetime
import logging
from collections.abc import Callable, Iterable
from typing import Any

from django.db import IntegrityError, connection, transaction
from django.db.models import Case, Count, F, Sum, When
from django.utils import timezone

from accounts.models import Profile
from shop import money, wallet

from . import achievements
from .facts import MatchRecord, add_counters, match_counters, next_streaks
from .models import (
    Achievement,
    BoardTally,
    CountedMatch,
    EarnedAchievement,
    PlayerStats,
    RankPointAward,
    RankPointTotal,
)

log = logging.getLogger(__name__)
ALL_TIME_START = datetime.date(2000, 1, 1)


def period_starts(day: datetime.date) -> dict[str, datetime.date]:
    """The first day of each leaderboard period that `day` falls in (weeks start on Monday)."""
    return {
        RankPointTotal.Period.ALL: ALL_TIME_START,
        RankPointTotal.Period.WEEK: day - datetime.timedelta(days=day.weekday()),
        RankPointTotal.Period.MONTH: day.replace(day=1),
    }


def _board_copy(user_id: int) -> tuple[bool, str]:
    """What a total row copies from the profile: listed or not, and the country."""
    profile = Profile.objects.filter(user_id=user_id).only("public_stats", "country").first()
    if profile is None:
        return True, ""
    return profile.public_stats, str(profile.country.code or "") if profile.country else ""


def award_rank_points(user, points: int, *, reason: str, reference: str) -> bool:
    """Award once; a repeat with the same reason and reference changes nothing and returns False."""
    if points <= 0:
        return False
    try:
        with transaction.atomic():
            award = RankPointAward.objects.create(user=user, points=points, reason=reason, reference=reference)
    except IntegrityError:
        return False
    _add_to_totals(award.user_id, points, timezone.localdate(award.created_at))
    return True


def _add_to_totals(user_id: int, points: int, day: datetime.date) -> None:
    listed, country = _board_copy(user_id)
    moves = []
    with transaction.atomic():
        for period, starts_on in period_starts(day).items():
            # Locked, so the points it had are the ones the tallies count (another award may be adding).
            total, created = RankPointTotal.objects.select_for_update().get_or_create(
                user_id=user_id,
                period=period,
                starts_on=starts_on,
                defaults={"points": points, "listed": listed, "country": country},
            )
            before = 0 if created else total.points
            if not created:
                RankPointTotal.objects.filter(pk=total.pk).update(points=F("points") + points)
            if total.listed:
                moves += _tally_moves(period, starts_on, total.country, before, before + points)
        BoardTally.objects.bulk_create(moves)


def _tally_moves(period: str, starts_on: datetime.date, country: str, before: int, after: int) -> list[BoardTally]:
    """The tally rows of one listed player going from `before` to `after` points (0: off the board),
    on the whole board and on their country's."""
    moves = []
    for board in ("", country) if country else ("",):
        if before > 0:
            moves.append(BoardTally(period=period, starts_on=starts_on, country=board, points=before, players=-1))
        if after > 0:
            moves.append(BoardTally(period=period, starts_on=starts_on, country=board, points=after, players=1))
    return moves


def rank_points(user) -> int:
    return RankPointAward.objects.filter(user=user).aggregate(total=Sum("points"))["total"] or 0


def _locked_totals(user_id: int):
    """A player's totals, locked in the order an award locks them (all time, week, month), so a profile
    saved while the player's match is settled waits for it instead of deadlocking with it."""
    order = Case(
        When(period=RankPointTotal.Period.ALL, then=0), When(period=RankPointTotal.Period.WEEK, then=1), default=2
    )
    return RankPointTotal.objects.select_for_update().filter(user_id=user_id).order_by(order, "starts_on")


def copy_profile_to_boards(user_id: int, *, listed: bool, country: str) -> None:
    """The profile's switch and country, copied to the player's totals: they leave the boards they were
    on and join the new ones, on the tallies too."""
    with transaction.atomic():
        totals = [t for t in _locked_totals(user_id) if (t.listed, t.country) != (listed, country)]
        if not totals:
            return
        moves = []
        for total in totals:
            if total.listed:
                moves += _tally_moves(total.period, total.starts_on, total.country, total.points, 0)
            if listed:
                moves += _tally_moves(total.period, total.starts_on, country, 0, total.points)
        BoardTally.objects.bulk_create(moves)
        RankPointTotal.objects.filter(pk__in=[t.pk for t in totals]).update(listed=listed, country=country)


def forget_on_boards(user_id: int) -> None:
    """An account being deleted leaves every board (its totals go with it, by cascade)."""
    with transaction.atomic():
        BoardTally.objects.bulk_create(
            move
            for total in _locked_totals(user_id)
            if total.listed
            for move in _tally_moves(total.period, total.starts_on, total.country, total.points, 0)
        )


# A read folds a board once it finds this many changes waiting (each adds a row to every read of the
# board until folded; a fold of this many costs ~10 ms: docs/performance.md).
FOLD_ABOVE = 1000
# pg_try_advisory_xact_lock(namespace, board): one fold per board at a time, the others skip theirs.
_FOLD_LOCK_NAMESPACE = 28_007

_FOLD_SQL = """
WITH gone AS (
    DELETE FROM {table} WHERE period = %(period)s AND starts_on = %(starts_on)s AND country = %(country)s
    AND NOT folded RETURNING points, players
)
INSERT INTO {table} (period, starts_on, country, points, players, folded)
SELECT %(period)s, %(starts_on)s, %(country)s, points, SUM(players), true FROM gone GROUP BY points ORDER BY points
ON CONFLICT (period, starts_on, country, points) WHERE folded
DO UPDATE SET players = {table}.players + EXCLUDED.players
"""


def fold_tallies(period: str, starts_on: datetime.date, country: str) -> bool:
    """Add one board's waiting changes into its folded rows (one per points value) and delete them.

    Exact while awards run: PostgreSQL deletes and adds up the same rows in one statement, and a change
    inserted meanwhile is not among them; SQLite has one writer at a time. Either way every change is
    counted once, before or after the fold, in any snapshot. Returns False if another fold of the board
    was under way (it does the work).
    """
    board: dict[str, Any] = {"period": period, "starts_on": starts_on, "country": country}
    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute(
                    "SELECT pg_try_advisory_xact_lock(%s, hashtext(%s))",
                    [_FOLD_LOCK_NAMESPACE, f"{period}:{starts_on}:{country}"],
                )
                if not cursor.fetchone()[0]:
                    return False
                cursor.execute(_FOLD_SQL.format(table=BoardTally._meta.db_table), board)
            return True
        waiting = list(BoardTally.objects.filter(**board, folded=False).values_list("pk", "points", "players"))
        sums: dict[int, int] = {}
        for _pk, points, players in waiting:
            sums[points] = sums.get(points, 0) + players
        folded = {t.points: t for t in BoardTally.objects.filter(**board, folded=True, points__in=list(sums))}
        for points, players in sums.items():
            if points in folded:
                folded[points].players += players
        BoardTally.objects.bulk_update(folded.values(), ["players"], batch_size=500)
        BoardTally.objects.bulk_create(
            BoardTally(**board, points=points, players=players, folded=True)
            for points, players in sums.items()
            if points not in folded
        )
        pks = [pk for pk, _points, _players in waiting]
        for first in range(0, len(pks), 500):
            BoardTally.objects.filter(pk__in=pks[first : first + 500]).delete()
    return True


def fold_tallies_safely(period: str, starts_on: datetime.date, country: str) -> None:
    """`fold_tallies` for a reader: a failure costs nothing but a slower read, until the next fold."""
    try:
        fold_tallies(period, starts_on, country)
    except Exception:
        log.exception("could not fold the tallies of %s %s %s", period, starts_on, country or "*")


def rebuild_board_tallies() -> int:
    """Count the tallies again from the totals (after a bulk load or a rebuild, or to repair); returns the rows."""
    with transaction.atomic():
        if connection.vendor == "postgresql":
            # Awards wait meanwhile: one changing a total after the count would be counted twice or never.
            with connection.cursor() as cursor:
                cursor.execute(f"LOCK TABLE {RankPointTotal._meta.db_table} IN SHARE MODE")
        BoardTally.objects.all().delete()
        listed = RankPointTotal.objects.filter(listed=True, points__gt=0).order_by()
        rows = [
            BoardTally(period=period, starts_on=starts_on, country="", points=points, players=players, folded=True)
            for period, starts_on, points, players in listed.values_list("period", "starts_on", "points").annotate(
                Count("pk")
            )
        ]
        rows += [
            BoardTally(period=period, starts_on=starts_on, country=country, points=points, players=players, folded=True)
            for period, starts_on, country, points, players in listed.exclude(country="")
            .values_list("period", "starts_on", "country", "points")
            .annotate(Count("pk"))
        ]
        BoardTally.objects.bulk_create(rows, batch_size=5000)
    return len(rows)


def count_matches(records: Iterable[MatchRecord]) -> list[EarnedAchievement]:
    """Count finished matches in the players' statistics, once each, and award what they earned.

    Call inside the transaction that settles the match. Returns the achievements earned now.
    """
    earned: list[EarnedAchievement] = []
    for record in sorted(records, key=lambda r: (r.user_id, r.finished_at, r.reference)):
        stats = _locked_stats(record.user_id)
        try:
            with transaction.atomic():
                CountedMatch.objects.create(
                    user_id=record.user_id,
                    reference=record.reference,
                    finished_at=record.finished_at,
                    won=record.won,
                    mode=record.mode,
                    variant=record.variant,
                )
        except IntegrityError:
            continue  # counted already (a retry, or the guest's claim of a counted seat)
        _apply(stats, record)
        stats.save()
        if not record.left:  # a match the player did not play unlocks nothing for them
            earned += award_achievements(stats, reference=record.reference, pay=record.achievement_coins)
    return earned


def _locked_stats(user_id: int) -> PlayerStats:
    PlayerStats.objects.get_or_create(user_id=user_id)
    return PlayerStats.objects.select_for_update().get(user_id=user_id)


def _apply(stats: PlayerStats, record: MatchRecord) -> None:
    stats.counters = add_counters(stats.counters, match_counters(record))
    stats.current_streak, stats.best_streak = next_streaks(stats.current_streak, stats.best_streak, record.won)


def award_achievements(stats: PlayerStats, *, reference: str = "", pay: bool = True) -> list[EarnedAchievement]:
    """Award every active achievement whose rule the statistics now satisfy and the player lacks.

    The unique constraint (user, achievement) decides under concurrency; the coin reward goes
    through the wallet with an idempotency key, so it is paid once too. With `pay` False (a match
    someone did not play) the achievement is unlocked without its coins, for good: `coins_paid` says so.
    """
    codes = achievements.reached(stats.counters, stats.best_streak)
    if not codes:
        return []
    have = set(EarnedAchievement.objects.filter(user_id=stats.user_id).values_list("achievement__code", flat=True))
    new = []
    for achievement in Achievement.objects.filter(code__in=codes, active=True).exclude(code__in=have):
        try:
            with transaction.atomic():
                earned = EarnedAchievement.objects.create(
                    user_id=stats.user_id,
                    achievement=achievement,
                    reference=reference,
                    coins_paid=achievement.coin_reward if pay else 0,
                )
        except IntegrityError:
            continue
        if earned.coins_paid:
            wallet.change_balance(
                stats.user,
                currency=wallet.COINS,
                amount=earned.coins_paid,
                reason=money.Reason.ACHIEVEMENT_REWARD,
                reference=money.achievement_reference(achievement.code),
                idempotency_key=money.achievement_reward_key(achievement.code, user_id=stats.user_id),
            )
        new.append(earned)
    return new


# --- Rebuilding from the stored matches ---------------------------------------------------------

# Set by the app that stores matches (games, in its AppConfig.ready): yields every finished match's
# MatchRecords. Stats never imports games; this is how the rebuild reaches the match records.
_record_source: Callable[[], Iterable[MatchRecord]] | None = None


def register_record_source(source: Callable[[], Iterable[MatchRecord]]) -> None:
    global _record_source
    _record_source = source


def all_match_records() -> Iterable[MatchRecord]:
    if _record_source is None:
        return []
    return _record_source()


def computed_statistics(records: Iterable[MatchRecord]) -> dict[int, tuple[dict, int, int]]:
    """{user id: (counters, current streak, best streak)} from the records, in the order matches finished."""
    result: dict[int, tuple[dict, int, int]] = {}
    for record in sorted(records, key=lambda r: (r.finished_at, r.reference)):
        counters, current, best = result.get(record.user_id, ({}, 0, 0))
        current, best = next_streaks(current, best, record.won)
        result[record.user_id] = (add_counters(counters, match_counters(record)), current, best)
    return result


def rebuild_statistics(records: Iterable[MatchRecord] | None = None) -> int:
    """Recompute every player's statistics and counted matches from the stored match events.

    Earned achievements stay (they are awarded once, never taken back). Returns the players rebuilt.
    """
    records = list(all_match_records() if records is None else records)
    computed = computed_statistics(records)
    with transaction.atomic():
        CountedMatch.objects.all().delete()
        PlayerStats.objects.all().delete()
        PlayerStats.objects.bulk_create(
            PlayerStats(user_id=user_id, counters=counters, current_streak=current, best_streak=best)
            for user_id, (counters, current, best) in sorted(computed.items())
        )
        CountedMatch.objects.bulk_create(
            (
                CountedMatch(
                    user_id=r.user_id,
                    reference=r.reference,
                    finished_at=r.finished_at,
                    won=r.won,
                    mode=r.mode,
                    variant=r.variant,
                )
                for r in records
            ),
            batch_size=2000,
        )
    return len(computed)


def award_reached_achievements() -> int:
    """Award every player the active achievements their statistics already reach (after staff add or
    switch on one): one transaction per player, in user-id order. Returns how many were awarded."""
    awarded = 0
    for user_id in PlayerStats.objects.order_by("user_id").values_list("user_id", flat=True).iterator():
        with transaction.atomic():
            awarded += len(award_achievements(_locked_stats(user_id)))
    return awarded


def rebuild_rank_point_totals() -> int:
    """Recompute the leaderboards' totals from the rank-point awards (after a bulk load, or to repair)."""
    sums: dict[tuple[int, str, datetime.date], int] = {}
    for user_id, points, created_at in RankPointAward.objects.values_list("user_id", "points", "created_at").iterator(
        chunk_size=20000
    ):
        for period, starts_on in period_starts(timezone.localdate(created_at)).items():
            key = (user_id, period, starts_on)
            sums[key] = sums.get(key, 0) + points
    profiles = {p.user_id: p for p in Profile.objects.only("user_id", "public_stats", "country")}
    with transaction.atomic():
        RankPointTotal.objects.all().delete()
        RankPointTotal.objects.bulk_create(
            (
                RankPointTotal(
                    user_id=user_id,
                    period=period,
                    starts_on=starts_on,
                    points=points,
                    listed=profiles[user_id].public_stats if user_id in profiles else True,
                    country=str(profiles[user_id].country.code or "") if user_id in profiles else "",
                )
                for (user_id, period, starts_on), points in sums.items()
            ),
            batch_size=5000,
        )
        rebuild_board_tallies()
    return len(sums)
