"""Writes of stats: rank points (and the leaderboards' totals), counting a finished match, achievements.

Everything here runs inside the caller's transaction (the one that settles a match), so a match is
counted with its rewards or not at all. Rows of several players are always locked in the order of
their user ids: two matches finishing at once with the same players then never deadlock.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Iterable

from django.db import IntegrityError, transaction
from django.db.models import F, Sum
from django.utils import timezone

from accounts.models import Profile
from shop import wallet

from . import achievements
from .facts import MatchRecord, add_counters, match_counters, next_streaks
from .models import Achievement, CountedMatch, EarnedAchievement, PlayerStats, RankPointAward, RankPointTotal

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
    for period, starts_on in period_starts(day).items():
        total, created = RankPointTotal.objects.get_or_create(
            user_id=user_id,
            period=period,
            starts_on=starts_on,
            defaults={"points": points, "listed": listed, "country": country},
        )
        if not created:
            RankPointTotal.objects.filter(pk=total.pk).update(points=F("points") + points)


def rank_points(user) -> int:
    return RankPointAward.objects.filter(user=user).aggregate(total=Sum("points"))["total"] or 0


def copy_profile_to_boards(user_id: int, *, listed: bool, country: str) -> None:
    RankPointTotal.objects.filter(user_id=user_id).update(listed=listed, country=country)


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
                wallet.COINS,
                earned.coins_paid,
                reason="achievement_reward",
                reference=f"achievement:{achievement.code}",
                idempotency_key=f"achievement:{achievement.code}:user:{stats.user_id}",
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
    return len(sums)
