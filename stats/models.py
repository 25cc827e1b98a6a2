"""Rank points: an append-only list of awards, one per reason and reference (so a retry awards once)."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class RankPointAward(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rank_point_awards")
    points = models.PositiveIntegerField(_("points"))
    reason = models.CharField(_("reason"), max_length=40)
    reference = models.CharField(_("reference"), max_length=80)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("rank point award")
        verbose_name_plural = _("rank point awards")
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(fields=["user", "reason", "reference"], name="stats_rank_award_once"),
        ]

    def __str__(self) -> str:
        return f"{self.user} +{self.points} ({self.reason})"


class PlayerStats(models.Model):
    """A player's statistics: counters summed from every counted match (stats.facts), and the streaks.

    Written only by stats.services (in the transaction that settles a match) and by the rebuild.
    """

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True, related_name="player_stats"
    )
    counters = models.JSONField(_("counters"), default=dict)
    current_streak = models.PositiveIntegerField(_("current winning streak"), default=0)
    best_streak = models.PositiveIntegerField(_("best winning streak"), default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("player statistics")
        verbose_name_plural = _("player statistics")

    def __str__(self) -> str:
        return str(self.user)

    def count(self, key: str) -> int:
        return int(self.counters.get(key, 0))


class CountedMatch(models.Model):
    """One match counted in one player's statistics: the unique row that makes counting happen once,
    and the points of the win-rate chart."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="counted_matches")
    reference = models.CharField(_("reference"), max_length=80)
    finished_at = models.DateTimeField(_("finished"))
    won = models.BooleanField(_("won"))
    mode = models.CharField(_("mode"), max_length=16)
    variant = models.CharField(_("variant"), max_length=16)

    class Meta:
        verbose_name = _("counted match")
        verbose_name_plural = _("counted matches")
        constraints = [models.UniqueConstraint(fields=["user", "reference"], name="stats_match_counted_once")]
        indexes = [models.Index(fields=["user", "finished_at"], name="stats_counted_user_time")]

    def __str__(self) -> str:
        return f"{self.user} {self.reference}"


class Achievement(models.Model):
    """A trophy or medal, edited by staff; its rule (what earns it) is code, keyed by `code` (stats.achievements)."""

    class Tier(models.TextChoices):
        BRONZE = "bronze", _("Bronze")
        SILVER = "silver", _("Silver")
        GOLD = "gold", _("Gold")

    class Icon(models.TextChoices):
        TROPHY = "trophy", _("Trophy")
        MEDAL = "medal", _("Medal")
        STAR = "star", _("Star")
        FLAME = "flame", _("Flame")
        SHIELD = "shield", _("Shield")
        CARD = "card", _("Card")

    code = models.SlugField(_("rule"), max_length=40, unique=True)
    name_en = models.CharField(_("name (English)"), max_length=80)
    name_pt_br = models.CharField(_("name (Portuguese)"), max_length=80)
    description_en = models.CharField(_("description (English)"), max_length=200)
    description_pt_br = models.CharField(_("description (Portuguese)"), max_length=200)
    icon = models.CharField(_("icon"), max_length=12, choices=Icon.choices, default=Icon.MEDAL)
    tier = models.CharField(_("tier"), max_length=8, choices=Tier.choices, default=Tier.BRONZE)
    coin_reward = models.PositiveIntegerField(_("coin reward"), default=0)
    active = models.BooleanField(
        _("active"), default=True, help_text=_("Inactive achievements are neither awarded nor listed.")
    )
    position = models.PositiveSmallIntegerField(_("position"), default=0)

    class Meta:
        verbose_name = _("achievement")
        verbose_name_plural = _("achievements")
        ordering = ["position", "id"]

    def __str__(self) -> str:
        return self.name_en

    def name(self, language: str) -> str:
        return self.name_pt_br if language.lower().startswith("pt") else self.name_en

    def description(self, language: str) -> str:
        return self.description_pt_br if language.lower().startswith("pt") else self.description_en


class EarnedAchievement(models.Model):
    """An achievement a player earned: at most one per player and achievement (a unique constraint)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="achievements")
    achievement = models.ForeignKey(Achievement, on_delete=models.CASCADE, related_name="earned")
    reference = models.CharField(_("earned in"), max_length=80, blank=True)
    # What unlocking it paid: the achievement's coin reward then, or 0 when it was unlocked in a match
    # someone did not play (docs/decisions.md, "Issue 28"); the ledger line says the same.
    coins_paid = models.PositiveIntegerField(_("coins paid"), default=0)
    earned_at = models.DateTimeField(_("earned"), auto_now_add=True)

    class Meta:
        verbose_name = _("earned achievement")
        verbose_name_plural = _("earned achievements")
        ordering = ["-earned_at"]
        constraints = [models.UniqueConstraint(fields=["user", "achievement"], name="stats_achievement_once")]
        indexes = [models.Index(fields=["user", "reference"], name="stats_earned_user_ref")]

    def __str__(self) -> str:
        return f"{self.user} · {self.achievement}"


class RankPointTotal(models.Model):
    """A player's rank points summed per period (all time, a week, a month): what leaderboards read.

    Kept in step with RankPointAward by stats.services.award_rank_points (same transaction);
    `listed` and `country` copy the profile so a leaderboard page is one index range.
    """

    class Period(models.TextChoices):
        ALL = "all", _("All time")
        WEEK = "week", _("This week")
        MONTH = "month", _("This month")

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rank_point_totals")
    period = models.CharField(max_length=5, choices=Period.choices)
    starts_on = models.DateField()
    points = models.PositiveIntegerField(default=0)
    listed = models.BooleanField(default=True)
    country = models.CharField(max_length=2, blank=True)

    class Meta:
        verbose_name = _("rank point total")
        verbose_name_plural = _("rank point totals")
        constraints = [
            models.UniqueConstraint(fields=["user", "period", "starts_on"], name="stats_total_once_per_period")
        ]
        indexes = [
            models.Index(fields=["period", "starts_on", "listed", "-points", "user"], name="stats_board"),
            models.Index(
                fields=["period", "starts_on", "country", "listed", "-points", "user"], name="stats_board_country"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} {self.period} {self.starts_on}: {self.points}"


class BoardTally(models.Model):
    """How many listed players a leaderboard has at a points value, as signed changes: the positions' truth.

    A board is a period (`period`, `starts_on`) for everyone (`country` "") or for one country. Every
    change of a listed total moves its player on the boards it is on: -1 at the points it had, +1 at
    the points it has, written in the same transaction as the total. Those rows are only ever
    inserted, so settlements running at once never wait on one another here nor deadlock. Summed per
    points value, a board's rows are its points distribution exactly as the totals stand in the same
    snapshot (stats.selectors: a position is one more than the players above). Now and then
    `stats.services.fold_tallies` adds a board's inserted rows into its `folded` ones (one per points
    value) and deletes them, so a read sums few rows.
    """

    period = models.CharField(max_length=5, choices=RankPointTotal.Period.choices)
    starts_on = models.DateField()
    country = models.CharField(max_length=2, blank=True)  # "": the whole board
    points = models.PositiveIntegerField()
    players = models.IntegerField()  # a change (+1, -1), or the sum of the changes folded into it
    folded = models.BooleanField(default=False)

    class Meta:
        verbose_name = _("leaderboard tally")
        verbose_name_plural = _("leaderboard tallies")
        indexes = [models.Index(fields=["period", "starts_on", "country", "points"], name="stats_tally_board")]
        constraints = [
            models.UniqueConstraint(
                fields=["period", "starts_on", "country", "points"],
                condition=models.Q(folded=True),
                name="stats_tally_folded_once",
            )
        ]

    def __str__(self) -> str:
        return f"{self.period} {self.starts_on} {self.country or '*'}: {self.players:+} at {self.points}"
