"""The clock: whom a match waits for next and until when (a person's move time, or an AI seat's short delay).

The deadline is stored on the match row, so any process's sweeper can act on it (docs/architecture.md).
"""

from __future__ import annotations

import random
from datetime import timedelta

from django.conf import settings

from games import engine
from games.models import Match

# AI seats wait a human-like moment before acting (about 0.5–1.5 s); tests may shorten it.
AI_DELAY_RANGE_S = (0.5, 1.5)


def ai_delay(match_pk: int, version: int) -> timedelta:
    """How long an AI seat waits before acting, seeded by match and version (replays are exact)."""
    rng = random.Random(f"{match_pk}:{version}:delay")
    return timedelta(seconds=rng.uniform(*getattr(settings, "GAMES_AI_DELAY_S", AI_DELAY_RANGE_S)))


def machine_seats(match: Match) -> set[int]:
    """The seats the AI plays now: bots, and the people a robot plays for (away too long, or left)."""
    return {s for s, bot in enumerate(match.seat_bots) if bot} | set(match.robot_seats)


def schedule_next_turn(match: Match, state: engine.MatchState, now) -> None:
    """Set whom the sweeper waits for next: a human's clock, or an AI seat's short delay (the caller saves)."""
    if engine.is_over(state):
        match.deadline = match.deadline_seat = match.turn_started_at = None
        return
    acting = engine.seats_to_act(state)
    machines = machine_seats(match)
    humans = [s for s in acting if s not in machines]
    # A robot plays at the AI's speed, not on the person's clock (seed 002).
    # A bot partner leaves answers and the hand-of-eleven decision to its human partner.
    if humans:
        match.deadline_seat = humans[0]
        match.deadline = now + timedelta(seconds=match.move_seconds)
    else:
        match.deadline_seat = acting[0]
        match.deadline = now + ai_delay(match.pk, match.version)
    match.turn_started_at = now
