"""Starting a match: who sits where (a person and AI seats, or people only), the first deal, the first deadline."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import engine
from games.engine.cards import CARD_NAMES
from games.match.bot_signs import machines_sign
from games.match.clock import schedule_next_turn
from games.models import DealtCards, Match, MatchEvent, Seat

if TYPE_CHECKING:
    from accounts.models import User

BOT_NAMES = ("Zé Bot", "Tonho Bot", "Dita Bot")


@dataclass(frozen=True)
class SeatPlan:
    """Who sits in one seat when a match starts: a user, a guest (by token) or a bot of some level."""

    user: User | None = None
    guest_token: str = ""
    bot_level: str = ""
    display_name: str = ""
    ip_address: str | None = None  # where a room's person took the seat (the same-address rule)


def seat_plans_against_ai(
    rules: engine.RuleSet, level: str, *, user=None, guest_token: str = "", guest_name: str = ""
) -> list[SeatPlan]:
    """The human takes seat 0; every other seat is an AI (with 4 seats in partnership, seat 2 is the partner)."""
    name = user.username if user is not None else (guest_name or _("Guest"))
    plans = [SeatPlan(user=user, guest_token=guest_token, display_name=name)]
    for n in range(1, rules.seats):
        plans.append(SeatPlan(bot_level=level, display_name=BOT_NAMES[n - 1]))
    return plans


def create_match(
    *,
    rules: engine.RuleSet,
    seats: list[SeatPlan],
    bot_level: str,
    move_seconds: int = 99,
    kind: str = Match.Kind.SINGLE,
    tournament=None,
    tournament_stage=None,
    seed: int | None = None,
    score: list[int] | None = None,
    practice: bool = False,
    allow_spectators: bool = False,
    partner_signals: bool = False,
    stake_coins: int = 0,
) -> Match:
    """Create the match and its seats, deal the first hand and schedule whoever acts first."""
    if len(seats) != rules.seats:
        raise ValueError("one seat plan per seat")
    seed = secrets.randbits(63) if seed is None else seed
    state = engine.new_match(rules, seed, score=score)
    with transaction.atomic():
        match = Match.objects.create(
            kind=kind,
            practice=practice,
            allow_spectators=allow_spectators,
            partner_signals=partner_signals,
            stake_coins=stake_coins,
            tournament=tournament,
            tournament_stage=tournament_stage,
            rules=rules.to_dict(),
            bot_level=bot_level,
            move_seconds=move_seconds,
            state=engine.to_json(state),
            # Where the replay starts from (games.table.replay): with each move's stored action it
            # plays the match again through the engine.
            start_state=engine.to_json(state),
            version=1,
            score=list(state.score),
            seat_bots=[plan.bot_level for plan in seats],
            own_moves={str(n): [0, 0] for n, plan in enumerate(seats) if not plan.bot_level},
        )
        Seat.objects.bulk_create(
            Seat(
                match=match,
                number=n,
                user=plan.user,
                guest_token=plan.guest_token,
                bot_level=plan.bot_level,
                display_name=plan.display_name,
                ip_address=plan.ip_address or None,
            )
            for n, plan in enumerate(seats)
        )
        if machines_sign(match, state):  # a room's bots sign their first hand to their person partners
            match.save(update_fields=["signals"])
        schedule_next_turn(match, state, timezone.now())
        match.save(update_fields=["deadline", "deadline_seat", "turn_started_at"])
        record_deal(match, state)
        view = engine.spectator_view(state)
        MatchEvent.objects.create(
            match=match,
            version=1,
            actor="system",
            data={
                "type": "match_started",
                "dealer": view["dealer"],
                "vira": view["vira"],
                "manilha_rank": view["manilha_rank"],
                "hand_kind": view["hand_kind"],
                "score": view["score"],
            },
        )
    return match


def record_deal(match: Match, state: engine.MatchState) -> None:
    """Keep every seat's dealt cards of the hand just dealt (each player's replay shows them their own)."""
    DealtCards.objects.bulk_create(
        (
            DealtCards(match=match, hand_number=state.hand_number, seat=seat, cards=[CARD_NAMES[c] for c in hand])
            for seat, hand in enumerate(state.hands)
        ),
        ignore_conflicts=True,
    )
