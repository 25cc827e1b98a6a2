"""Personal data of stats: exported with the rest; deleted with the account (by cascade)."""

from django.dispatch import receiver

from accounts.signals import personal_data_requested

from .models import RankPointAward


@receiver(personal_data_requested, dispatch_uid="stats_personal_data")
def export_rank_points(sender, user, **kwargs):
    return {
        "rank_points": [
            {"points": a.points, "reason": a.reason, "reference": a.reference, "at": a.created_at.isoformat()}
            for a in RankPointAward.objects.filter(user=user).order_by("id")
        ]
    }
