"""Helpers for room tests: options and balances."""

from games import engine
from rooms.services import RoomOptions
from shop import wallet


def options(variant="paulista", seats=2, partnership=None, **more) -> RoomOptions:
    rules = engine.RuleSet.from_dict({"variant": variant, "seats": seats, "partnership": partnership})
    return RoomOptions(rules=rules, **more)


def blue(user) -> int:
    return wallet.balance(user, wallet.BLUE_COINS)
