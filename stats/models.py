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
