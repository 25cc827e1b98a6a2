"""What a move publishes: one message per person's seat, carrying only what that seat may see, and a
socket that renders it without reading the database (and reads it when a version is missing)."""

import json
import random
import re

import msgpack
import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.utils import translation

from games import engine
from games.match.moves import apply_action
from games.match.starting import SeatPlan, create_match
from games.models import Match
from games.selectors import seats_at
from games.table import consumers, rendering
from games.table.publishing import TableUpdate, group_name, publish_move, seat_group, seat_updates, update_message
from shop.selectors import equipped_deck
from tests.support.leaks import cards_shown, hidden_from
from tests.support.matches import make_table, pushed_fragments, tied_first_round
from tests.support.sockets import connect, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)
HX_VALS = re.compile(r"hx-vals='([^']*)'")


class RecordingLayer:
    """Stands in for the channel layer's group_send only: records (group, message)."""

    def __init__(self):
        self.sent: list[tuple[str, dict]] = []

    async def group_send(self, group, message):
        self.sent.append((group, message))


def play_random(match, rng) -> Match:
    state = engine.from_json(match.state)
    seat = engine.seats_to_act(state)[0]
    action = rng.choice(engine.legal_actions(state, seat)).to_dict()
    return apply_action(match.public_id, seat, action, match.version)


def last_vira(message) -> set[str]:
    # The last hand's vira lay face up for everyone; the view names it in the hand's summary (the
    # page does not draw it). It is back in the deck now, which is why the state calls it hidden.
    last = message["table"]["view"]["last_hand"]
    return {last["vira"]} if last else set()


@pytest.mark.parametrize("seats, partnership, score", [(2, None, None), (4, True, [11, 3]), (4, False, None)])
@pytest.mark.asyncio
async def test_each_seat_group_is_sent_only_what_that_seat_may_see(make_user, monkeypatch, seats, partnership, score):
    match, _ = await sync_to_async(make_table)(make_user, seats, partnership=partnership, score=score, seed=4)
    layer = RecordingLayer()
    monkeypatch.setattr("games.table.publishing.get_channel_layer", lambda: layer)
    rng = random.Random(5)
    checked = 0
    while match.status == Match.Status.ACTIVE and checked < 400 * seats:
        match = await sync_to_async(play_random)(match, rng)
        layer.sent.clear()
        await publish_move(match)
        state = engine.from_json(match.state)
        # One message per seat, to that seat's own group: never one message to the whole table.
        assert sorted(group for group, _ in layer.sent) == sorted(seat_group(match.pk, s) for s in range(seats))
        for group, message in layer.sent:
            seat = int(group.rsplit(".", 1)[1])
            assert message["table"]["view"]["seat"] == seat
            leaked = cards_shown(json.dumps(message)) & hidden_from(state, seat) - last_vira(message)
            assert not leaked, f"seat {seat}'s group was sent hidden cards {leaked} at version {match.version}"
            checked += 1
    assert match.status == Match.Status.FINISHED
    assert checked >= 20


def test_the_leak_scan_of_a_message_would_catch_another_seats_hand(make_user):
    # The check above must be able to fail: seat 1's view, sent to seat 0, shows seat 1's cards.
    match, _ = make_table(make_user, 2, seed=4)
    state = engine.from_json(match.state)
    wrong = update_message(match.version, seat_updates(match)[1])
    assert cards_shown(json.dumps(wrong)) & hidden_from(state, 0)


def test_ai_seats_get_no_message(start_match, user):
    match = start_match(user, seats=4, partnership=True)
    assert sorted(seat_updates(match)) == [0]


def test_a_message_rendered_after_a_trip_through_msgpack_is_the_page_the_database_gives(make_user):
    """Redis carries messages as msgpack (tuples become lists): the fragments must not care."""
    match, users = make_table(make_user, 4, partnership=True, score=[11, 3], seed=8)
    rng = random.Random(2)
    for _ in range(6):
        match = play_random(match, rng)
    table = seat_updates(match)[2]
    travelled = msgpack.unpackb(msgpack.packb(update_message(match.version, table)), raw=False)
    seats = seats_at(match)
    with translation.override("en"):
        contexts = rendering.contexts_for(
            rendering.ViewerUpdate(
                view=TableUpdate.from_message(travelled["table"]).view,
                table=rendering.table_facts(match, seats, equipped_deck(seats[2].user)),
                version=match.version,
                clock=rendering.Clock(
                    match.deadline, match.deadline_seat, match.timed_out_seat, match.timed_out_version
                ),
            )
        )
        assert rendering.render_regions(contexts, oob=True) == pushed_fragments(match, 2)


def test_only_the_fragments_whose_context_changed_are_rendered(start_match, user):
    match = start_match(user)
    seats = seats_at(match)
    table = rendering.table_facts(match, seats, equipped_deck(user))
    before = rendering.table_contexts(match, table, rendering.viewer_view(match, 0))
    assert rendering.render_changed(before, before) == {}
    assert set(rendering.render_changed(before, None)) == set(rendering.REGIONS)
    after = {**before, "trick": {**before["trick"], "round_in_play": before["trick"]["round_in_play"] + 1}}
    assert list(rendering.render_changed(after, before)) == ["trick"]


async def open_socket(match, user):
    return await connect(match, await sync_to_async(session_cookie)(user), (b"accept-language", b"en"))


@pytest.mark.asyncio
async def test_a_socket_renders_the_next_version_from_the_message_and_reads_the_database_after_a_gap(
    make_user, monkeypatch
):
    match, users = await sync_to_async(make_table)(make_user, 2, seed=3)
    comm = await open_socket(match, users[0])
    assert 'data-version="1"' in await comm.receive_from()
    reads = []
    real_render = consumers.TableConsumer._render

    def counting_render(self, full):
        reads.append(full)
        return real_render(self, full)

    monkeypatch.setattr(consumers.TableConsumer, "_render", counting_render)
    rng = random.Random(1)
    match = await sync_to_async(play_random)(match, rng)
    await publish_move(match)
    frame = await comm.receive_from()
    assert 'data-version="2"' in frame
    assert reads == []  # rendered from the message alone
    # A version the socket never heard of: it reads the database once, as on connect.
    match = await sync_to_async(play_random)(match, rng)
    match = await sync_to_async(play_random)(match, rng)
    await publish_move(match)
    assert 'data-version="4"' in await comm.receive_from()
    assert reads == [False]
    await comm.disconnect()


@pytest.mark.asyncio
async def test_a_socket_joins_its_own_seats_group_and_not_another_seats(make_user):
    match, users = await sync_to_async(make_table)(make_user, 2, seed=3)
    comm = await open_socket(match, users[0])
    await comm.receive_from()
    layer = get_channel_layer()
    # Another seat's message does not reach this socket; the whole table's plain message does.
    other = seat_updates(match)[1]
    await layer.group_send(seat_group(match.pk, 1), update_message(match.version + 1, other))
    assert await comm.receive_nothing(timeout=0.3)
    await layer.group_send(group_name(match.pk), update_message(match.version))
    assert await comm.receive_nothing(timeout=0.3)  # not newer than what it shows: nothing to push
    await comm.disconnect()


@pytest.mark.parametrize("rules", [{"variant": "paulista"}, {"variant": "mineiro", "mineiro_style": "online"}])
def test_every_button_of_every_fragment_carries_the_version_it_was_rendered_at(make_user, rules):
    """Buttons send their `v`; the hand and actions contexts drop the version when the viewer has no
    legal action (so an unchanged fragment is not rendered again): no button may lose it."""
    users = [make_user(f"B{n}") for n in range(2)]
    ruleset = engine.RuleSet.from_dict({**rules, "seats": 2})
    match = create_match(
        rules=ruleset, seats=[SeatPlan(user=u, display_name=u.username) for u in users], bot_level="easy", seed=2
    )
    if rules["variant"] == "mineiro":
        match = tied_first_round(match)
    rng = random.Random(4)
    kinds = set()
    while match.status == Match.Status.ACTIVE:
        for seat in range(2):
            for html in pushed_fragments(match, seat).values():
                for raw in HX_VALS.findall(html):
                    values = json.loads(raw)
                    assert values["v"] == match.version, raw
                    kinds.add("double play" if "up" in values else values["do"])
        match = play_random(match, rng)
    assert {"play", "raise", "accept"} <= kinds
    if rules["variant"] == "mineiro":
        assert "double play" in kinds
