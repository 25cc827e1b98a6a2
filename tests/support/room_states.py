"""Rooms and their tables driven to each state a person meets, through the real services: rooms.services
(create, join, quick join), rooms.options (the chief's stake and spectators), rooms.chat, rooms.annulment,
rooms.again, and games' move service for every card and call (`tests.support.matches.act`: applied, then
published to the seats' groups as the socket does). No state writes a row by hand.

Each builder takes the `make_user` fixture and returns a `Viewer`: whose eyes the page is seen through (a
signed-in account; the others act through the services) and its path. The hooks each state must show are
in tests/support/hooks.py (`STATES`), under the same names as `BUILDERS` here.

A room's match has no AI: nothing moves unless the builder (or the test) moves it; its people's clocks are
99 s, and within the match's first 25 s nobody counts as away (games.match.presence), so no robot plays.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass
from unittest import mock

from games import engine
from games.models import Match
from rooms import again, annulment, chat, services
from rooms.models import Room
from tests.support.matches import act, state_of, win_match_for
from tests.support.rooms import options
from tests.support.stakes import set_coins, set_stake

# Ana is the chief and seat 0 (the viewer); Bernardo (1) and Maximiliano (3) play against her, Cacau (2) with her.
# One long name: the table must make room for it.
PEOPLE = ("Ana", "Bernardo", "Cacau", "Maximiliano")
WATCHER = "Edu"
PASSWORD = "truco123"
STAKE = 50
# The deal of every room's match here: the same table on every run (and in every screenshot).
DEAL_SEED = 3


@dataclass(frozen=True)
class Viewer:
    user: object
    path: str
    match: Match | None = None
    room: Room | None = None
    people: tuple = ()


# --- moving a room's match ----------------------------------------------------------------------------------


def play_a_card(match: Match, seat: int) -> Match:
    """The seat plays the first card it may (face up), through the move service, published."""
    view = engine.seat_view(state_of(match), seat)
    action = next(a for a in view["legal_actions"] if a["do"] == "play" and "card" in a and not a.get("face_down"))
    return act(match.public_id, seat, action, match.version)


def play_cards_until(match: Match, done: Callable[[engine.MatchState], bool], limit: int = 80) -> Match:
    """Whoever is to act plays a card until `done(state)`; the deal is the match's own (random)."""
    for _ in range(limit):
        state = state_of(match)
        if done(state):
            return match
        match = play_a_card(match, engine.seats_to_act(state)[0])
    raise AssertionError("the table never reached the state")


def in_round_two_or_later(state: engine.MatchState, seat: int) -> bool:
    """A round of this hand is over (the rounds' list is drawn) and a card of the next is on the felt, `seat`
    to act: the same parts of the table on screen whatever the deal."""
    view = engine.seat_view(state, seat)
    return engine.seats_to_act(state)[0] == seat and bool(view["rounds"]) and len(view["trick"]) >= 1


def mid_hand(match: Match) -> Match:
    """The viewer (seat 0) to play in round 2 or 3, with cards on the felt."""
    return play_cards_until(match, lambda state: engine.seats_to_act(state) == [0] and in_round_two_or_later(state, 0))


# --- rooms ---------------------------------------------------------------------------------------------------


@contextmanager
def dealt_from(seed: int):
    """The match a room starts meanwhile is dealt from `seed` (games.match.starting draws a random one)."""
    with mock.patch.object(secrets, "randbits", return_value=seed):
        yield


def room_of_four(make_user, *, stake: int = 0, spectators: bool = False) -> tuple[Room, Match, list]:
    """Ana's public room for 2 against 2, the three others join in order; the last join starts the match,
    dealt from DEAL_SEED."""
    people = [make_user(name) for name in PEOPLE]
    if stake:
        for person in people:
            set_coins(person, 4 * stake)
    room = services.create_room(people[0], options(seats=4, partnership=True))
    if stake or spectators:
        set_stake(people[0], room, stake, allow_spectators=spectators)
    for person in people[1:-1]:
        services.join_room(person, room.code)
    with dealt_from(DEAL_SEED):
        services.join_room(people[-1], room.code)
    room.refresh_from_db()
    match = room.match
    assert match is not None  # the fourth join started it
    seats = {seat.user_id: seat.number for seat in match.seats.all()}
    assert [seats[p.pk] for p in people] == [0, 1, 2, 3], seats
    return room, match, people


def table_path(match: Match) -> str:
    return f"/play/m/{match.public_id}/"


def rooms_lobby(make_user) -> Viewer:
    """Three public rooms waiting (one practice table), one match that may be watched; the viewer is in none."""
    viewer = make_user("Ana")
    bernardo, cacau, duda, maximiliano, edu, fabi = (
        make_user(n) for n in ("Bernardo", "Cacau", "Duda", "Maximiliano", "Edu", "Fabi")
    )
    services.create_room(bernardo, options(seats=2))
    mineiro = services.quick_join(cacau, engine.RuleSet.from_dict({"variant": "mineiro", "seats": 4}))
    services.join_room(duda, mineiro.code)
    services.create_room(maximiliano, options(seats=4, partnership=True, mode=Room.Mode.PRACTICE))
    watched = services.create_room(edu, options(seats=2))
    set_stake(edu, watched, 0, allow_spectators=True)
    services.join_room(fabi, watched.code)
    return Viewer(viewer, "/rooms/")


def room_waiting(make_user) -> Viewer:
    """Ana's private room for 2 against 2 with Bernardo seated: two free seats; the chief's view."""
    ana, bernardo = make_user("Ana"), make_user("Bernardo")
    room = services.create_room(
        ana, options(seats=4, partnership=True), is_private=True, name="Mesa da Ana", password=PASSWORD
    )
    services.join_room(bernardo, room.code, password=PASSWORD)
    return Viewer(ana, f"/rooms/r/{room.code}/", room=room, people=(ana, bernardo))


def room_create(make_user) -> Viewer:
    """The form that opens a room."""
    return Viewer(make_user("Ana"), "/rooms/new/")


def room_join(make_user) -> Viewer:
    """Bernardo's private room, waiting; Ana at its page without the invite link's key: the password form."""
    ana, bernardo = make_user("Ana"), make_user("Bernardo")
    room = services.create_room(bernardo, options(seats=2), is_private=True, name="Mesa do Bernardo", password=PASSWORD)
    return Viewer(ana, f"/rooms/r/{room.code}/", room=room, people=(bernardo,))


def room_mid_hand(make_user) -> Viewer:
    room, match, people = room_of_four(make_user)
    match = mid_hand(match)
    return Viewer(people[0], table_path(match), match, room, tuple(people))


def room_truco(make_user) -> Viewer:
    """An opponent to play in round 2 or 3 calls truco: the viewer's side answers."""
    room, match, people = room_of_four(make_user)

    def opponent_may_raise(state) -> bool:
        seat = engine.seats_to_act(state)[0]
        may_raise = any(a["do"] == "raise" for a in engine.seat_view(state, seat)["legal_actions"])
        return seat in (1, 3) and may_raise and in_round_two_or_later(state, seat)

    match = play_cards_until(match, opponent_may_raise)
    match = act(match.public_id, engine.seats_to_act(state_of(match))[0], {"do": "raise"}, match.version)
    assert 0 in engine.seats_to_act(state_of(match))
    return Viewer(people[0], table_path(match), match, room, tuple(people))


def room_chat(make_user) -> Viewer:
    viewer = room_mid_hand(make_user)
    ana, bernardo, cacau, maximiliano = viewer.people
    room = viewer.room
    assert room is not None
    chat.say(bernardo, room, text="Boa noite, mesa! Valendo a revanche de ontem.")
    chat.say(cacau, room, phrase="lets_go")
    chat.say(maximiliano, room, text="Segura essa, parceiro 😄")
    chat.say(ana, room, text="Vamos nessa!")
    chat.say(bernardo, room, phrase="truco")
    return viewer


def room_stake(make_user) -> Viewer:
    room, match, people = room_of_four(make_user, stake=STAKE)
    assert match.stake_coins == STAKE
    match = mid_hand(match)
    return Viewer(people[0], table_path(match), match, room, tuple(people))


def room_annul_vote(make_user) -> Viewer:
    """Bernardo proposed to annul the match (he agrees by proposing); Ana, Cacau and Maximiliano to answer."""
    viewer = room_mid_hand(make_user)
    assert viewer.match is not None
    annulment.propose(viewer.people[1], viewer.match.public_id)
    return viewer


def finished_room(make_user) -> tuple[Room, Match, list]:
    """A room's match of four played to its end through the move service; Ana and Cacau's side wins."""
    room, match, people = room_of_four(make_user)
    win_match_for(match, side=0)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.winner_side == 0
    return room, match, people


def room_play_again(make_user) -> Viewer:
    """The play-again page after the match; Bernardo already said yes."""
    room, match, people = finished_room(make_user)
    again.accept(people[1], match.public_id)
    return Viewer(people[0], f"/rooms/again/{match.public_id}/", match, room, tuple(people))


def room_result_won(make_user) -> Viewer:
    room, match, people = finished_room(make_user)
    return Viewer(people[0], table_path(match), match, room, tuple(people))


def room_result_lost(make_user) -> Viewer:
    room, match, people = finished_room(make_user)
    return Viewer(people[1], table_path(match), match, room, tuple(people))


def room_spectator(make_user) -> Viewer:
    """A room of four that allows spectators, mid-hand, seen by a signed-in stranger."""
    room, match, people = room_of_four(make_user, spectators=True)
    match = mid_hand(match)
    return Viewer(make_user(WATCHER), table_path(match), match, room, tuple(people))


def room_replay(make_user) -> Viewer:
    room, match, people = finished_room(make_user)
    return Viewer(people[0], f"/play/m/{match.public_id}/replay/", match, room, tuple(people))


BUILDERS: dict[str, Callable[..., Viewer]] = {
    "rooms-lobby": rooms_lobby,
    "room-create": room_create,
    "room-join": room_join,
    "room-waiting": room_waiting,
    "room-mid-hand": room_mid_hand,
    "room-truco": room_truco,
    "room-chat": room_chat,
    "room-stake": room_stake,
    "room-annul-vote": room_annul_vote,
    "room-play-again": room_play_again,
    "room-result-won": room_result_won,
    "room-result-lost": room_result_lost,
    "room-spectator": room_spectator,
    "room-replay": room_replay,
}
