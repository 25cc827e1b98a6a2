"""Coins a match or a tournament paid, apart from the achievements it also earned (stats pays those)."""

from django.db.models import Sum

from shop import wallet
from shop.models import LedgerEntry


def coins_without_achievements(user) -> int:
    from_achievements = (
        LedgerEntry.objects.filter(wallet__user=user, currency=wallet.COINS, reason="achievement_reward").aggregate(
            total=Sum("amount")
        )["total"]
        or 0
    )
    return wallet.balance(user, currency=wallet.COINS) - from_achievements
