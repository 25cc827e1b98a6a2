"""Helpers for room tests: options, balances, the cards hidden at the deal (frames are read with
tests/support/leaks.py's `cards_shown`)."""

from datetime import timedelta

from django.utils import timezone

from games import engine
from games.engine.cards import CARD_NAMES
from games.models import Match
from rooms import services
from rooms.services import RoomOptions
from shop import wallet


def options(variant="paulista", seats=2, partnership=None, **more) -> RoomOptions:
    rules = engine.RuleSet.from_dict({"variant": variant, "seats": seats, "partnership": partnership})
    return RoomOptions(rules=rules, **more)


def started_room_match(people: list, *, arrived: bool = True, **more) -> Match:
    """The match of a room the first person creates and the others fill (seats = len(people)).

    `arrived`: dated back a few minutes, so that nobody counts as still arriving from the room page
    (games.match.presence); a test whose browsers still have to open the table calls `everyone_arrived`
    once they have."""
    room = services.create_room(people[0], options(seats=len(people), **more))
    for other in people[1:]:
        services.join_room(other, room.code)
    room.refresh_from_db()
    if arrived:
        everyone_arrived(room.match)  # type: ignore[arg-type]  # the full room started it
    return Match.objects.get(pk=room.match.pk)  # type: ignore[union-attr]


def everyone_arrived(match: Match) -> None:
    """From now on a seat without a live socket counts as away (the match's arrival grace is over)."""
    Match.objects.filter(pk=match.pk).update(created_at=timezone.now() - timedelta(minutes=5))


def blue(user) -> int:
    return wallet.balance(user, currency=wallet.BLUE_COINS)


def hidden_at_the_deal(state, seat: int) -> set[str]:
    """Before anyone plays: every other seat's cards and the stock, but for what the seat's view shows
    (its hand, the vira, the manilhas' legend)."""
    view = engine.seat_view(state, seat)
    hidden = {CARD_NAMES[c] for s, hand in enumerate(state.hands) if s != seat for c in hand}
    hidden |= {CARD_NAMES[c] for c in state.stock}
    return hidden - set(view["hand"]) - set(view["manilhas"]) - {view["vira"]}
