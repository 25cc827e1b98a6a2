"""A room of four people, each at their own socket: no frame to any seat ever carries a card that seat may
not see, from the deal to the end of the match (a partner's hand only at a hand of eleven/ten, as the rules
show it; online Mineiro's hidden cards only to their owner)."""

import random

import pytest
from asgiref.sync import sync_to_async

from games import engine
from games.models import Match
from rooms import services
from rooms.models import Room
from tests.support.leaks import cards_shown, hidden_from
from tests.support.matches import act
from tests.support.sockets import connect as connect_table
from tests.support.sockets import drain, session_cookie

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


def full_room(person, rules: dict, score=None, seed=7) -> Match:
    """Four people take the room's seats through the room services (the last one starts the match); `score`
    replaces the first deal by one dealt at that score (a hand of eleven/ten from the start)."""
    people = [person(name) for name in ("Ana", "Bia", "Caio", "Dani")]
    room = services.create_room(people[0], services.RoomOptions(rules=engine.RuleSet.from_dict(rules)))
    for other in people[1:]:
        services.join_room(other, room.code)
    room.refresh_from_db()
    assert room.status == Room.Status.STARTED
    match = room.match
    assert match is not None  # the full room started it
    if score is not None:
        state = engine.new_match(engine.RuleSet.from_dict(match.rules), seed, score=score)
        match.state, match.score = engine.to_json(state), list(state.score)
        match.save(update_fields=["state", "score"])
    return match


def load(match):
    match.refresh_from_db()
    return match.version, engine.from_json(match.state), match.status


def cookies_by_seat(match) -> dict[int, str]:
    return {seat.number: session_cookie(seat.user) for seat in match.seats.select_related("user")}


def partner_cards(state, seat: int) -> set[str]:
    return {c for cards in engine.seat_view(state, seat)["partner_hands"].values() for c in cards}


def scan(frame: str, state, seat: int, tally: dict) -> None:
    leaked = cards_shown(frame) & hidden_from(state, seat)
    assert not leaked, f"seat {seat} was sent hidden cards {leaked}"
    tally["frames"] += 1
    partners = partner_cards(state, seat)
    if partners and partners <= cards_shown(frame):
        tally["partner_hand_shown"] += 1


@pytest.mark.parametrize(
    "rules, score",
    [
        # Teams, from a hand of eleven: the deciding team's partners see each other's cards, nobody else does.
        ({"seats": 4, "partnership": True}, [11, 3]),
        ({"seats": 4, "partnership": False}, None),  # each for themselves
        # Online Mineiro in teams from a hand of ten: double plays hide a card under another.
        ({"variant": "mineiro", "seats": 4, "partnership": True, "mineiro_style": "online"}, [10, 4]),
    ],
    ids=["teams-hand-of-eleven", "each-for-themselves", "online-mineiro-hand-of-ten"],
)
async def test_no_frame_to_any_seat_of_a_four_person_room_shows_a_card_it_may_not_see(person, rules, score):
    match = await sync_to_async(full_room)(person, rules, score)
    cookies = await sync_to_async(cookies_by_seat)(match)
    sockets = {seat: await connect_table(match, cookie) for seat, cookie in cookies.items()}
    rng = random.Random(3)
    tally = {"frames": 0, "partner_hand_shown": 0, "moves": 0}
    _, state, _ = await sync_to_async(load)(match)
    for seat, comm in sockets.items():
        scan(await comm.receive_from(), state, seat, tally)
    for _ in range(1500):
        version, state, status = await sync_to_async(load)(match)
        if status != Match.Status.ACTIVE:
            break
        seat = engine.seats_to_act(state)[0]
        legal = engine.legal_actions(state, seat)
        # Cards first: more hands reach their later rounds (and online Mineiro its double plays).
        action = rng.choice([a for a in legal if a.kind in ("play", "accept")] or legal)
        await sync_to_async(act)(match.public_id, seat, action.to_dict(), version)
        tally["moves"] += 1
        _, state, _ = await sync_to_async(load)(match)
        for n, comm in sockets.items():
            scan(await comm.receive_from(), state, n, tally)
    _, state, status = await sync_to_async(load)(match)
    assert status == Match.Status.FINISHED, "the scan must cover a whole match"
    for n, comm in sockets.items():  # and whatever else each socket was sent, to the last frame
        for output in await drain(comm):
            if output.get("type") == "websocket.send" and output.get("text"):
                scan(output["text"], state, n, tally)
        await comm.disconnect()
    assert tally["frames"] >= 4 * tally["moves"] > 40
    if score is not None:
        # The scan saw the partners' hands where the rules show them (the scanner would see a leak).
        assert tally["partner_hand_shown"] > 0, tally


async def test_the_leak_scan_of_a_room_frame_would_catch_a_partners_hand_outside_a_hand_of_eleven(person):
    match = await sync_to_async(full_room)(person, {"seats": 4, "partnership": True})
    _, state, _ = await sync_to_async(load)(match)
    assert engine.seat_view(state, 0)["partner_hands"] == {}
    partner = 2  # seats 0 and 2 are one team
    frame = "".join(f'<button data-card="{card}"></button>' for card in engine.seat_view(state, partner)["hand"])
    with pytest.raises(AssertionError, match="hidden cards"):
        scan(frame, state, 0, {"frames": 0, "partner_hand_shown": 0})
