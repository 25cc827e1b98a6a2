"""Who sits where in a match against the AI."""

from __future__ import annotations

from django.utils.translation import gettext as _

from games import engine

from .tables import SeatPlan

BOT_NAMES = ("Zé Bot", "Tonho Bot", "Dita Bot")


def seat_plans_against_ai(
    rules: engine.RuleSet, level: str, *, user=None, guest_token: str = "", guest_name: str = ""
) -> list[SeatPlan]:
    """The human takes seat 0; every other seat is an AI (with 4 seats in partnership, seat 2 is the partner)."""
    name = user.username if user is not None else (guest_name or _("Guest"))
    plans = [SeatPlan(user=user, guest_token=guest_token, display_name=name)]
    for n in range(1, rules.seats):
        plans.append(SeatPlan(bot_level=level, display_name=BOT_NAMES[n - 1]))
    return plans
