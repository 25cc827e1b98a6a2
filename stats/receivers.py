"""stats answers accounts' hooks: personal data (export; deletion is by cascade, after the player left
the leaderboards' tallies), the profile's copy on the leaderboards, and the statistics section of a
public profile."""

from django.db.models.signals import post_save, pre_delete
from django.dispatch import receiver
from django.template.loader import render_to_string

from accounts.models import Profile, User
from accounts.signals import personal_data_requested, profile_sections_requested

from . import levels, selectors
from .models import EarnedAchievement, PlayerStats, RankPointAward
from .services import copy_profile_to_boards, forget_on_boards


@receiver(personal_data_requested, dispatch_uid="stats_personal_data")
def export_rank_points(sender, user, **kwargs):
    stats = PlayerStats.objects.filter(user=user).first()
    # Worked out from the counters (stats.levels): nothing is stored beside them.
    standing = levels.progress(levels.experience(stats.counters if stats else {}))
    return {
        "rank_points": [
            {"points": a.points, "reason": a.reason, "reference": a.reference, "at": a.created_at.isoformat()}
            for a in RankPointAward.objects.filter(user=user).order_by("id")
        ],
        "statistics": {
            "counters": stats.counters if stats else {},
            "current_streak": stats.current_streak if stats else 0,
            "best_streak": stats.best_streak if stats else 0,
            "experience": standing.xp,
            "level": standing.level,
        },
        "achievements": [
            {"code": e.achievement.code, "earned_at": e.earned_at.isoformat()}
            for e in EarnedAchievement.objects.filter(user=user).select_related("achievement").order_by("id")
        ],
    }


@receiver(post_save, sender=Profile, dispatch_uid="stats_profile_saved")
def copy_profile(sender, instance, **kwargs):
    # Every save (the profile page, the admin, a script): the boards keep a copy of these two.
    copy_profile_to_boards(instance.user_id, listed=instance.public_stats, country=str(instance.country.code or ""))


@receiver(pre_delete, sender=User, dispatch_uid="stats_user_deleted")
def leave_boards(sender, instance, **kwargs):
    # Any deletion (the account's own, the admin's, a script's): its totals go by cascade, so the
    # boards' tallies must drop the player first, in the same transaction.
    forget_on_boards(instance.pk)


@receiver(profile_sections_requested, dispatch_uid="stats_profile_section")
def statistics_section(sender, request, player, profile, **kwargs):
    if not profile.statistics_shown_to(request.user):
        return render_to_string("stats/_private_profile.html", {"player": player}, request=request)
    context = selectors.statistics_page(player)
    context["public"] = True
    return render_to_string("stats/_statistics.html", context, request=request)
