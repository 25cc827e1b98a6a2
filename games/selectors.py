"""Read-only queries the site's pages need from games: reward amounts and a player's recent results."""

from __future__ import annotations

from games import engine

from .models import Match, RewardSettings, Seat
from .rewards import rewards_for


def reward_amounts() -> RewardSettings:
    """What matches and tournaments pay now (admin-editable), for the pages that promise it."""
    return RewardSettings.current()


def recent_results(user, limit: int = 5) -> list[dict]:
    """The player's last finished matches, newest first: rules, score (theirs first), result, coins earned."""
    seats = (
        Seat.objects.filter(user=user, match__status=Match.Status.FINISHED)
        .select_related("match")
        .order_by("-match__finished_at", "-match__id")[:limit]
    )
    settings = reward_amounts()
    results = []
    for seat in seats:
        match = seat.match
        rules = engine.RuleSet.from_dict(match.rules)
        side = engine.side_of(rules, seat.number)
        won = match.won_by(seat.number)
        others = [points for s, points in enumerate(match.score) if s != side]
        coins, _points = rewards_for(match, won, settings)
        results.append(
            {
                "match": match,
                "won": won,
                "variant": rules.variant,
                "seats": rules.seats,
                "mine": match.score[side] if match.score else 0,
                "theirs": max(others) if others else 0,
                "coins": coins,
                "bot_level": match.get_bot_level_display(),
                "finished_at": match.finished_at,
            }
        )
    return results
