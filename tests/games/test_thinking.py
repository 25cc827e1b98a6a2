"""Bots never hold up the table (issue 15): a bot decides off the row lock and off the database
thread, a slow bot at one table delays no other table, and a decision made for a version that
moved on is dropped and made again from the new version."""

import asyncio
import threading
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from django.utils import timezone

from games import engine
from games.engine.bots import _BOTS
from games.engine.bots import decide as bot_decide
from games.match.moves import apply_action, due_decision, play_due_seat
from games.models import Match, MatchEvent
from games.table import db, sweeper, thinking, timers
from tests.support.matches import human_turn_action

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]
LATER = timedelta(seconds=200)  # past every deadline: an AI seat's delay and a person's clock


@pytest.fixture
def slow_bot(monkeypatch):
    """A test-only level, "slow", that thinks until the test lets it answer."""
    release, started = threading.Event(), threading.Event()

    def slow(view, rng):
        started.set()
        assert release.wait(timeout=15), "the slow bot was never released"
        return view["legal_actions"][0]

    monkeypatch.setitem(_BOTS, "slow", slow)
    yield release, started
    release.set()


def ai_to_move(start_match, user, seed, *, seats=2, level="easy"):
    """A match against the AI where an AI seat is due (the human's opening move made if it was theirs)."""
    match = start_match(user, level=level, seed=seed, seats=seats)
    action = human_turn_action(match)
    if action is not None:
        match = apply_action(match.public_id, 0, action, match.version)
    assert match.deadline_seat != 0
    return match


def set_bots(match, level):
    Match.objects.filter(pk=match.pk).update(seat_bots=[level if bot else bot for bot in match.seat_bots])


def version_of(match) -> int:
    return Match.objects.get(pk=match.pk).version


async def wait_for(condition, timeout=10.0):
    """Poll `condition` (a sync DB read) until it holds; False if it never does."""
    for _ in range(int(timeout / 0.02)):
        if await sync_to_async(condition)():
            return True
        await asyncio.sleep(0.02)
    return False


@pytest.mark.parametrize("path", ["sweeper", "timers"])
async def test_a_slow_bot_at_one_table_delays_no_move_at_another(
    path, slow_bot, start_match, make_user, duel, settings
):
    release, started = slow_bot
    user = await sync_to_async(make_user)("Caio")
    settings.GAMES_TIMERS_ENABLED = path == "timers"
    slow = await sync_to_async(ai_to_move)(start_match, user, 3)
    fast = await sync_to_async(ai_to_move)(start_match, user, 4)
    await sync_to_async(set_bots)(slow, "slow")
    # The two people's clock is not due: their match moves only by their own hand here.
    await sync_to_async(Match.objects.filter(pk=duel[0].pk).update)(deadline=timezone.now() + 2 * LATER)
    slow_version, fast_version = slow.version, fast.version

    if path == "sweeper":
        moving = asyncio.ensure_future(sweeper.sweep_once(now=timezone.now() + LATER))
    else:
        timers.schedule(slow.pk, slow.version, slow.deadline)
        timers.schedule(fast.pk, fast.version, fast.deadline)
    assert await sync_to_async(started.wait)(10)
    # The slow bot is still thinking: the other table's AI moves, and two people play their own
    # move on the database thread.
    assert await wait_for(lambda: version_of(fast) > fast_version)
    people = await sync_to_async(Match.objects.get)(pk=duel[0].pk)
    state = engine.from_json(people.state)
    seat = engine.seats_to_act(state)[0]
    action = engine.legal_actions(state, seat)[0].to_dict()
    moved = await db.write(apply_action)(people.public_id, seat, action, people.version)
    assert moved.version == people.version + 1
    assert await sync_to_async(version_of)(slow) == slow_version  # no move while its bot thinks
    release.set()
    assert await wait_for(lambda: version_of(slow) == slow_version + 1)
    if path == "sweeper":
        assert await moving == 2
    for handle in [entry[1] for entry in timers._timers.values()]:
        handle.cancel()
    timers._timers.clear()


async def test_a_decision_for_a_version_that_moved_on_is_dropped_and_made_again(start_match, user, monkeypatch):
    # Four seats, three bots; far enough ahead that the human's clock has run out too: after one
    # due move another is due.
    match = await sync_to_async(ai_to_move)(start_match, user, 5, seats=4)
    now = timezone.now() + LATER
    first_version, first_seat = match.version, match.deadline_seat
    decided = []

    def decide(level, view, seed):
        decided.append((seed, view["seat"]))
        if len(decided) == 1:
            # Meanwhile another process (its timer, a sweeper) makes this very move.
            assert play_due_seat(match.pk, now) is not None
        return bot_decide(level, view, seed)

    monkeypatch.setattr(thinking, "decide", decide)
    stored = await thinking.play_due(match.pk, now)
    assert stored.version == first_version + 2
    # Two decisions: the one for the old version, dropped, and one for the version after it (for
    # whichever seat is due then).
    assert [seed.split(":")[1] for seed, _ in decided] == [str(first_version), str(first_version + 1)]
    moves = await sync_to_async(
        lambda: list(
            MatchEvent.objects.filter(match=match, version__gt=first_version, actor__in=["bot", "clock"])
            .exclude(data__type__in=["round_won", "round_tied", "hand_won", "hand_dealt"])
            .values_list("version", "seat")
        )
    )()
    assert sorted({version for version, _ in moves}) == [first_version + 1, first_version + 2]
    assert (first_version + 1, first_seat) in moves  # the move made meanwhile, stored once
    assert len([m for m in moves if m[0] == first_version + 1]) == 1


async def test_a_timer_decision_for_a_version_that_moved_on_is_dropped(start_match, user, monkeypatch):
    # A timer is set for one version: once the table moved on, the next move is someone else's timer.
    match = await sync_to_async(ai_to_move)(start_match, user, 5, seats=4)
    now = timezone.now() + LATER

    def decide(level, view, seed):
        assert play_due_seat(match.pk, now) is not None
        return bot_decide(level, view, seed)

    monkeypatch.setattr(thinking, "decide", decide)
    assert await thinking.play_due(match.pk, now, version=match.version) is None
    assert await sync_to_async(version_of)(match) == match.version + 1


async def test_the_search_bot_decides_in_a_process_the_move_a_thread_would(start_match, user, settings):
    match = await sync_to_async(ai_to_move)(start_match, user, 6, level="expert")
    now = timezone.now() + LATER
    decision = await sync_to_async(due_decision)(match.pk, now)
    expected, _ = engine.apply(engine.from_json(match.state), decision.seat, bot_decide(*decision_args(decision)))
    settings.GAMES_SEARCH_PROCESSES = 1
    thinking.shutdown()
    try:
        assert isinstance(thinking.bot_executor("expert"), ProcessPoolExecutor)
        stored = await thinking.play_due(match.pk, now)
    finally:
        thinking.shutdown()
    assert stored.version == match.version + 1
    assert stored.state == engine.to_json(expected)


@pytest.mark.parametrize("level", ["random", "easy", "medium", "hard"])
async def test_the_cheap_bots_think_in_threads_beside_a_search_process(level, settings):
    # Pickling a view to a process and back costs more than their 0.1 ms decision.
    settings.GAMES_SEARCH_PROCESSES = 1
    thinking.shutdown()
    try:
        assert isinstance(thinking.bot_executor(level), ThreadPoolExecutor)
    finally:
        thinking.shutdown()


async def test_without_search_processes_the_search_bot_thinks_in_the_threads(settings):
    settings.GAMES_SEARCH_PROCESSES = 0
    thinking.shutdown()
    try:
        assert isinstance(thinking.bot_executor("expert"), ThreadPoolExecutor)
    finally:
        thinking.shutdown()


def decision_args(decision):
    return decision.level, decision.view, decision.seed
