"""People joining staked rooms while their last matches settle (issue 28 item 4): nobody gets a deadlock.

On PostgreSQL a join that filled a staked room locked the newcomer's wallet (the entry price), then
everyone's (the stakes), while the settlement of the same people's last match locked the winner's,
the house's, then everyone's: each held a wallet the other wanted, PostgreSQL aborted one, and the
person joining got a 500. SQLite serialises every writer with one file lock, so only PostgreSQL can
show it.
"""

import logging
import time

import pytest
from django.db import connection

from games.match import moves
from games.models import Match
from rooms import services
from rooms.models import Room
from shop import wallet
from tests.support.matches import last_move_to_win
from tests.support.rooms import options
from tests.support.stakes import set_coins, set_stake, stake_flow
from tests.support.threads import run_in_threads

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="SQLite serialises every writer with one file lock, so it cannot show a row-lock deadlock",
    ),
]

# Three pairs: six threads, each on a pooled connection, beside the test's own, within the pool's 8.
PAIRS = 3
STAKE = 100
PASSWORD = "senha-da-sala"


@pytest.fixture
def slow_wallets(monkeypatch):
    """Each balance change keeps its wallet locked 100 ms longer before the transaction goes on, as on a
    busy database: the windows in which two transactions each hold one wallet stop being rare."""
    change = wallet.change_balance

    def change_slowly(*args, **kwargs):
        entry = change(*args, **kwargs)
        time.sleep(0.1)
        return entry

    monkeypatch.setattr(wallet, "change_balance", change_slowly)


def staked_private_room(chief, name: str) -> Room:
    room = services.create_room(chief, options(), is_private=True, name=name, password=PASSWORD)
    return set_stake(chief, room, STAKE)


def test_people_join_staked_rooms_while_their_last_matches_settle(person, slow_wallets, caplog):
    caplog.set_level(logging.WARNING, logger="shop.wallet")
    wallet.house_account()
    pairs = []
    for n in range(PAIRS):
        # The chief signs up first (the lower user id), wins the last match and waits in the new room.
        chief, guest = person(f"Chefe{n}"), person(f"Convidado{n}")
        for user in (chief, guest):
            set_coins(user, 1000)
        last = staked_private_room(chief, f"Antes {n}")
        services.join_room(guest, last.code, password=PASSWORD)
        last.refresh_from_db()
        seat, action = last_move_to_win(last.match, side=0)
        room = staked_private_room(chief, f"Agora {n}")
        pairs.append((guest, room, last.match, seat, action))

    def act(n):
        guest, room, match, seat, action = pairs[n // 2]
        if n % 2:
            return services.join_room(guest, room.code, password=PASSWORD)
        match.refresh_from_db()
        return moves.apply_action(match.public_id, seat, action, match.version)

    _results, errors = run_in_threads(2 * PAIRS, act)

    assert errors == []
    for _guest, room, last_match, _seat, _action in pairs:
        last_match.refresh_from_db()
        assert last_match.status == Match.Status.FINISHED
        assert last_match.stakes_settled and last_match.rewards_credited
        assert stake_flow(f"match:{last_match.public_id}") == 0  # the pot paid out, exactly
        room.refresh_from_db()
        assert room.status == Room.Status.STARTED and room.match is not None
        assert stake_flow(f"match:{room.match.public_id}") == -2 * STAKE  # both stakes held
    # The locks were taken in one order: nobody was a deadlock victim, not even one retried.
    assert [r.getMessage() for r in caplog.records if "deadlock" in r.getMessage()] == []
