"""The money property of stakes (issue 12 item 2): whatever happens to a table — a match finished for
either side, annulled by agreement, a vote refused, a person leaving, a match abandoned, the process
dying in the middle of a settlement (the transaction rolls back, the step is done again) — no coin
is created or lost and no balance goes negative.

What is checked after every step: the stake lines of the ledger sum to minus the pots of the
matches still in play (every coin held is either in a live pot or came back out exactly once, to a
person or to the house), each settled match's lines sum to zero, and every wallet is >= 0.
Match rewards and achievements mint coins on purpose; they are not stake lines.
"""

import itertools
from contextlib import contextmanager
from unittest import mock

import pytest
from django.db import transaction
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.match import moves
from games.models import Match, Seat
from rooms import annulment, services
from shop import wallet
from shop.models import Wallet
from tests.support.matches import win_match_for
from tests.support.rooms import options
from tests.support.stakes import set_coins, set_stake, stake_flow

_names = itertools.count()


class Crash(Exception):
    """The process dies here: the transaction around the step rolls back."""


@contextmanager
def crash_on_wallet_call(n: int):
    """The n-th call to the wallet from now on raises, as if the process died mid-settlement."""
    real = wallet.change_balance
    calls = itertools.count(1)

    def dying(*args, **kwargs):
        if next(calls) == n:
            raise Crash
        return real(*args, **kwargs)

    with mock.patch.object(wallet, "change_balance", dying):
        yield


steps = st.lists(
    st.one_of(
        st.tuples(st.just("start"), st.integers(0, 150), st.integers(0, 3), st.integers(0, 3)),
        st.tuples(st.just("finish"), st.integers(0, 1), st.integers(0, 3)),
        st.tuples(st.just("annul"), st.booleans(), st.integers(0, 3)),
        st.tuples(st.just("abandon"), st.integers(0, 1), st.integers(0, 3)),
        st.tuples(st.just("leave"), st.integers(0, 1)),
    ),
    min_size=1,
    max_size=6,
)


class Table:
    def __init__(self, people):
        self.people = people
        self.match: Match | None = None

    def live(self) -> Match | None:
        if self.match is None:
            return None
        self.match.refresh_from_db()
        return self.match if self.match.status == Match.Status.ACTIVE else None

    def start(self, stake, a, b):
        if self.live() is not None or a == b:
            return
        chief, other = self.people[a], self.people[b]
        room = services.create_room(chief, options())
        try:
            set_stake(chief, room, stake)
            services.join_room(other, room.code)
        except services.RoomRefused:
            services.close_room(chief, room.code)
            return
        room.refresh_from_db()
        self.match = room.match

    def end(self, how, arg, crash_at):
        match = self.live()
        if match is None:
            return
        if crash_at:
            with crash_on_wallet_call(crash_at), pytest.raises(Crash):
                self._end(match, how, arg)
                raise Crash  # nothing reached the wallet: count it as a crash after the step
            check_conservation()
            match = self.live()
            if match is None:
                return
        self._end(match, how, arg)

    def _end(self, match, how, arg):
        people = [seat.user for seat in match.seats.select_related("user").order_by("number")]
        if how == "finish":
            win_match_for(match, side=arg)
        elif how == "annul":
            try:
                annulment.propose(people[0], match.public_id)
                annulment.answer(people[1], match.public_id, agree=arg)
            except services.RoomRefused:
                pass  # one of them left (robots do not vote), or the cooldown: the match goes on
        elif how == "abandon":
            with transaction.atomic():
                locked = Match.objects.select_for_update().get(pk=match.pk)
                moves.abandon_match(locked, arg, reason="missed_turns")

    def leave(self, seat):
        match = self.live()
        if match is not None:
            Seat.objects.filter(match=match, number=seat).update(left_at=timezone.now())


def check_conservation():
    in_play = sum(
        m.stake_coins * m.seats.filter(bot_level="").count()
        for m in Match.objects.filter(stakes_settled=False, stake_coins__gt=0)
    )
    assert stake_flow() == -in_play
    for m in Match.objects.filter(stakes_settled=True, stake_coins__gt=0):
        assert m.status != Match.Status.ACTIVE
        assert stake_flow(f"match:{m.public_id}") == 0
    assert not Wallet.objects.filter(coins__lt=0).exists()


@pytest.mark.django_db
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(balances=st.lists(st.integers(0, 300), min_size=4, max_size=4), plan=steps)
def test_stakes_never_create_or_lose_a_coin(make_user, balances, plan):
    people = []
    for coins in balances:
        user = make_user(f"S{next(_names)}")
        set_coins(user, coins)
        wallet.change_balance(user, currency=wallet.BLUE_COINS, amount=10, reason="admin_adjustment")
        people.append(user)
    table = Table(people)
    for step in plan:
        if step[0] == "start":
            table.start(*step[1:])
        elif step[0] == "leave":
            table.leave(step[1])
        else:
            how, arg, crash_at = step
            table.end(how, arg, crash_at)
        check_conservation()
    # Whatever is still in play ends: every pot comes back out.
    if table.live() is not None:
        table.end("finish", 0, 0)
    check_conservation()
