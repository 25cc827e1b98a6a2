"""Rank points: awarded once per (reason, reference), summed for a player's total."""

from django.db import IntegrityError, transaction
from django.db.models import Sum

from .models import RankPointAward


def award_rank_points(user, points: int, *, reason: str, reference: str) -> bool:
    """Award once; a repeat with the same reason and reference changes nothing and returns False."""
    if points <= 0:
        return False
    try:
        with transaction.atomic():
            RankPointAward.objects.create(user=user, points=points, reason=reason, reference=reference)
    except IntegrityError:
        return False
    return True


def rank_points(user) -> int:
    return RankPointAward.objects.filter(user=user).aggregate(total=Sum("points"))["total"] or 0
