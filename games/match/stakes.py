"""Stakes in coins (issue 12 item 2): held when a room's match starts, paid out exactly once when it ends.

Every person at the table (bots put nothing in) pays `Match.stake_coins` into the pot when the match
is created (`hold_stakes`, in the transaction that creates it). The pot leaves in the transaction
that ends the match (`settle_stakes`, once: `Match.stakes_settled` on the locked match row, and an
idempotency key per ledger line):

- finished or abandoned (the abandoner's side lost, games.match.moves.abandon_match): the people of the
  winning side share the pot less the house's cut (`GAMES_HOUSE_CUT_PERCENT`). Each gets
  floor(pot × (100 − cut) / 100 / winners); the house takes the rest, so the remainders of the
  divisions go to the house and the house gets at least its cut. The share of a winner who did not
  play the match (left before the end, or let a robot or the clock make most of their moves:
  `selectors.played_it`) goes to the house: leaving, or never coming, never pays.
- annulled by everyone's agreement: each person gets their stake back, except a person who left
  before the end (penalised for abandoning, seed 002): that stake is forfeit, to the house.
- nobody of the winning side is a person (only bots won): the stakes go back to their people.

So the coins held for a match come back out exactly once, to people or to the house's account
(`shop.wallet.house_account`): stake lines for one match sum to zero once it is settled. Their reasons
and idempotency keys are `shop.money`'s (`stake-hold:`, `stake-pay:`, `stake-house:`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from django.conf import settings
from django.utils.translation import gettext_lazy as _

from games.models import Match, Seat
from games.selectors import absent_seats, left_before_the_end, played_it
from shop import money, wallet

if TYPE_CHECKING:
    from accounts.models import User


class StakeNotCovered(Exception):
    """A person cannot cover the stake; nothing was held (the caller's transaction rolls back)."""

    def __init__(self, user, stake: int, available: int):
        self.user, self.stake, self.available = user, stake, available
        self.message = _("%(name)s cannot cover the stake of %(stake)s coins (has %(have)s).") % {
            "name": user.username,
            "stake": stake,
            "have": available,
        }
        super().__init__(str(self.message))


def stakers(seats: list[Seat]) -> list[Seat]:
    """The seats that put a stake in: every person's (a room seats only people with accounts, and bots)."""
    return sorted((seat for seat in seats if seat.is_human), key=lambda seat: seat.number)


def hold_stakes(match: Match, *, seats: list[Seat]) -> None:
    """Take each person's stake into the pot (inside the transaction that created the match)."""
    if not match.stake_coins:
        return
    people = stakers(seats)
    # Every wallet at once, in user-id order, like every transaction that touches several (shop.wallet).
    wallet.lock_wallets(seat.user_id for seat in people)
    for seat in sorted(people, key=lambda s: s.user_id or 0):
        try:
            wallet.change_balance(
                cast("User", seat.user),  # a staker has an account
                currency=wallet.COINS,
                amount=-match.stake_coins,
                reason=money.Reason.STAKE_HELD,
                reference=money.match_reference(match.public_id),
                idempotency_key=money.stake_hold_key(match.public_id, seat=seat.number),
            )
        except wallet.InsufficientFunds as short:
            raise StakeNotCovered(seat.user, match.stake_coins, short.available) from None


def payouts(match: Match, *, seats: list[Seat]) -> tuple[dict[int, int], int]:
    """What the pot pays: ({seat number: coins} for people, coins for the house). Sums to the pot."""
    people = stakers(seats)
    stake = match.stake_coins
    pot = stake * len(people)
    paid: dict[int, int] = {}
    if match.status == Match.Status.ANNULLED:
        for seat in people:
            if not left_before_the_end(match, seat) and seat.user_id is not None:
                paid[seat.number] = stake
        return paid, pot - sum(paid.values())
    winners = [seat for seat in people if match.winner_side is not None and match.won_by(seat.number)]
    if not winners:
        for seat in people:
            if seat.user_id is not None:
                paid[seat.number] = stake
        return paid, pot - sum(paid.values())
    share = pot * (100 - settings.GAMES_HOUSE_CUT_PERCENT) // 100 // len(winners)
    absent = absent_seats(match)
    for seat in winners:
        if share and played_it(match, seat, absent) and seat.user_id is not None:
            paid[seat.number] = share
    return paid, pot - sum(paid.values())


def settle_stakes(match: Match, *, seats: list[Seat]) -> None:
    """Pay the pot out (match row locked by the caller, in the transaction that ended the match)."""
    # No stake, no write: every finished match passes here, and a move costs one write (issue 10).
    if match.stakes_settled or match.status == Match.Status.ACTIVE or not match.stake_coins:
        return
    paid, house = payouts(match, seats=seats)
    by_number = {seat.number: seat for seat in seats}
    house_account = wallet.house_account() if house else None
    # Every wallet the pot pays into, the house's among them, locked at once in user-id order: the
    # house's used to be locked last, after the winners', so a settlement paying a winner with a
    # higher id than a loser's waited in the opposite order to a room start locking both (issue 28).
    wallet.lock_wallets([*(by_number[number].user_id for number in paid), house_account])
    for number in sorted(paid, key=lambda n: by_number[n].user_id or 0):
        seat = by_number[number]
        # A winner's share is a win; anything else paid to a person is their own stake back.
        given_back = match.status == Match.Status.ANNULLED or not match.won_by(number)
        wallet.change_balance(
            cast("User", seat.user),  # paid: a person's seat
            currency=wallet.COINS,
            amount=paid[number],
            reason=money.Reason.STAKE_RETURNED if given_back else money.Reason.STAKE_WON,
            reference=money.match_reference(match.public_id),
            idempotency_key=money.stake_pay_key(match.public_id, seat=number),
        )
    if house:
        wallet.change_balance(
            cast("User", house_account),  # read above when there is a house cut
            currency=wallet.COINS,
            amount=house,
            reason=money.Reason.HOUSE_CUT,
            reference=money.match_reference(match.public_id),
            idempotency_key=money.house_cut_key(match.public_id),
        )
    match.stakes_settled = True
    match.save(update_fields=["stakes_settled"])
