"""Tournaments: four matches in a row against ever stronger bots (round of 16 to the final).

A loss ends it; the reward is paid only for winning the final. The stages and their bots are
`Tournament.STAGES` and `Tournament.STAGE_BOTS`.
"""

from __future__ import annotations

from typing import cast

from django.db import transaction
from django.utils import timezone

from games import engine
from games.match.starting import create_match, seat_plans_against_ai
from games.models import Match, RewardSettings, Seat, Tournament
from games.selectors import played_it
from shop import money, wallet
from stats.services import award_rank_points


def start_tournament(user, rules: engine.RuleSet, move_seconds: int = 99) -> Tournament:
    with transaction.atomic():
        tournament = Tournament.objects.create(user=user, rules=rules.to_dict())
        start_stage_match(tournament, move_seconds=move_seconds)
    return tournament


def start_stage_match(tournament: Tournament, move_seconds: int = 99) -> Match:
    rules = engine.RuleSet.from_dict(tournament.rules)
    level = Tournament.STAGE_BOTS[tournament.stage]
    return create_match(
        rules=rules,
        seats=seat_plans_against_ai(rules, level, user=tournament.user),
        bot_level=level,
        move_seconds=move_seconds,
        kind=Match.Kind.TOURNAMENT,
        tournament=tournament,
        tournament_stage=tournament.stage,
    )


def advance_after(match: Match, seats: list[Seat]) -> None:
    """Inside the finishing transaction: next stage, a loss, or the title with its reward."""
    tournament = Tournament.objects.select_for_update().get(pk=cast(int, match.tournament_id))  # a stage's match
    if tournament.status != Tournament.Status.PLAYING or match.tournament_stage != tournament.stage:
        return
    human = next(s for s in seats if s.user_id == tournament.user_id)
    # A stage the clock played for the person (most of their moves) is not theirs to win.
    if not match.won_by(human.number) or not played_it(match, human):
        tournament.status = Tournament.Status.LOST
        tournament.finished_at = timezone.now()
        tournament.save(update_fields=["status", "finished_at"])
        return
    if tournament.stage < len(Tournament.STAGES) - 1:
        tournament.stage += 1
        tournament.save(update_fields=["stage"])
        start_stage_match(tournament, move_seconds=match.move_seconds)
        return
    tournament.status = Tournament.Status.WON
    tournament.finished_at = timezone.now()
    tournament.save(update_fields=["status", "finished_at"])
    settings = RewardSettings.current()
    if settings.tournament_win_coins:
        wallet.change_balance(
            tournament.user,
            currency=wallet.COINS,
            amount=settings.tournament_win_coins,
            reason=money.Reason.TOURNAMENT_REWARD,
            reference=money.tournament_reference(tournament.public_id),
            idempotency_key=money.tournament_reward_key(tournament.public_id),
        )
    award_rank_points(  # a rank-point reason (stats' own), not a ledger one
        tournament.user,
        settings.tournament_win_rank_points,
        reason="tournament_reward",
        reference=money.tournament_reference(tournament.public_id),
    )
