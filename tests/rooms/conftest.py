"""Fixtures for rooms: people with blue coins, room options."""

import pytest

from shop import money, wallet


@pytest.fixture(autouse=True)
def _no_background_sweeper(settings):
    settings.SWEEPER_ENABLED = False


@pytest.fixture
def person(make_user):
    """A signed-up player with exactly `blue` blue coins (the starter grant adjusted)."""

    def make(name: str, blue: int = 5):
        user = make_user(name)
        have = wallet.balance(user, currency=wallet.BLUE_COINS)
        if have != blue:
            wallet.change_balance(
                user, currency=wallet.BLUE_COINS, amount=blue - have, reason=money.Reason.ADMIN_ADJUSTMENT
            )
        return user

    return make
