"""What a finished match pays, credited exactly once (flag on the locked match row + idempotency keys)."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from django.db import transaction

from games.match.stakes import settle_stakes
from games.match.tournaments import advance_after
from games.models import Match, MatchEvent, Seat, Tournament
from games.records import match_records
from games.selectors import reward_amounts
from shop import money, wallet
from stats.services import award_rank_points, count_matches

if TYPE_CHECKING:
    from accounts.models import User


def credit_seat(match: Match, seat: Seat, won: bool, seats: list[Seat] | None = None) -> tuple[int, int]:
    """Pay one person their result (what `reward_amounts` says, room rules read off `seats`)."""
    coins, points = reward_amounts(match, won, seats=seats, seat_number=seat.number)
    if coins:
        wallet.change_balance(
            cast("User", seat.user),  # coins go to people with accounts only (reward_amounts)
            currency=wallet.COINS,
            amount=coins,
            reason=money.Reason.MATCH_REWARD,
            reference=money.match_reference(match.public_id),
            idempotency_key=money.match_reward_key(match.public_id, seat=seat.number),
        )
    if points:
        # A rank-point reason (stats' own, unique with the reference), not a ledger one.
        award_rank_points(seat.user, points, reason="match_reward", reference=money.match_reference(match.public_id))
    return coins, points


def settle_finished_match(match: Match, seats: list[Seat]) -> None:
    """Called inside the transaction that finished the match (row locked), so it runs once."""
    # Every wallet this settlement may pay (the people's: pot, rewards, achievements; the house's cut)
    # locked at once, in user-id order, before the first payment: the pot pays the winners and the
    # house before the rewards pay everyone, so locking as it pays took them out of order (issue 28).
    people = [seat.user_id for seat in seats if seat.is_human and seat.user_id is not None]
    pot_to_settle = match.stake_coins and not match.stakes_settled
    wallet.lock_wallets([*people, wallet.house_account() if pot_to_settle else None])
    settle_stakes(match, seats=seats)  # the pot first: its own flag, so a settled pot is never paid twice
    if match.rewards_credited:
        return
    # In the order of the players' ids, like every multi-player write (stats.services): two matches
    # settling at once with the same people write their rank points and statistics in the same order.
    for seat in sorted(seats, key=lambda s: s.user_id or 0):
        if seat.is_human and seat.user_id is not None:
            credit_seat(match, seat, won=match.won_by(seat.number), seats=seats)
    match.rewards_credited = True
    match.save(update_fields=["rewards_credited"])
    if match.tournament_id is not None:
        advance_after(match, seats)
    count_in_statistics(match, seats)


def count_in_statistics(match: Match, seats: list[Seat], *, only_seat: int | None = None) -> None:
    """Count the match in its players' statistics (once: stats keeps a unique row per player and match)."""
    title = (
        match.tournament_id is not None
        and match.tournament_stage == len(Tournament.STAGES) - 1
        and Tournament.objects.filter(pk=match.tournament_id, status=Tournament.Status.WON).exists()
    )
    events = list(MatchEvent.objects.filter(match=match).order_by("id").values_list("data", flat=True))
    count_matches(match_records(match, seats, events, tournament_won=title, only_seat=only_seat))


def claim_seats(user, tokens: list[str]) -> int:
    """Give a guest's seats to the account; finished single matches are credited (idempotently)."""
    claimed = 0
    with transaction.atomic():
        for seat in Seat.objects.select_for_update().select_related("match").filter(guest_token__in=tokens, user=None):
            seat.user = user
            seat.display_name = user.username
            seat.guest_token = ""
            seat.save(update_fields=["user", "display_name", "guest_token"])
            match = seat.match
            if match.status == Match.Status.FINISHED:
                credit_seat(match, seat, won=match.won_by(seat.number))
                count_in_statistics(match, list(match.seats.all()), only_seat=seat.number)
            claimed += 1
    return claimed
