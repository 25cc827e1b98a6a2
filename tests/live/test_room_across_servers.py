"""Four people in one room, split between two real daphne processes on PostgreSQL + Redis, play their
match to the end through their sockets; one of them reconnects to the other process mid-match, sees
the table as it is and plays on from the next action."""

import json
import random
import threading
import time
from collections import defaultdict

import pytest
from django.conf import settings as django_settings
from django.db import connection, connections
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from devtools.loadtest import TableView, frame_error, frame_version
from games.models import Match, MatchEvent
from games.table.socket_limits import FRAMES_PER_SECOND
from rooms import services
from rooms.models import Room
from shop import wallet
from tests.support.rooms import options
from tests.support.sockets import session_cookie

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql" or not django_settings.REDIS_URL,
        reason="two processes share a table only through PostgreSQL and the Redis channel layer",
    ),
]
MATCH_SECONDS = 150  # a whole match of four people moving at once takes 10-40 s on an idle machine
RECONNECT_AT = 12  # the version after which seat 1 moves to the other process
# A person's pace: at most one click every THINK_S, below the socket's limit, so a click refused `too_fast`
# is an error of the server's, not of the test's pace.
THINK_S = 1.25 / FRAMES_PER_SECOND


class Seat:
    """One person's browser: a socket to one server, the table as pushed, and a person who clicks one of the
    buttons the page shows, once per version, at a person's pace.

    As in a browser (htmx swaps only the regions a frame carries), the buttons stay on the page until a
    push replaces them: a click refused `too_fast` leaves them there and the person clicks again a moment
    later; a click refused `stale` (the partner answered the same question first) is followed by the
    server's snapshot of the table as it is now; and a tab opened anew shows its first snapshot's buttons,
    which the person clicks without waiting for another push (nobody else may move while it is their turn).
    """

    def __init__(self, number: int, cookie: str, server, match, rng: random.Random, started: float):
        self.number, self.cookie, self.server, self.match = number, cookie, server, match
        self.rng, self.started = rng, started
        self.view = TableView()
        self.clicked: int | None = None  # the version whose buttons this person clicked last
        self.last_click = -THINK_S
        self.errors: list[str] = []
        self.reconnected: dict = {}
        self.trace: list[tuple] = []  # (seconds, what, version, detail): shown when the match does not end

    def note(self, what: str, version, detail=None) -> None:
        self.trace.append((round(time.monotonic() - self.started, 3), what, version, detail))

    def open(self, server):
        self.server = server
        return connect(
            f"{server.ws_url}/ws/match/{self.match.public_id}/",
            additional_headers={"Origin": server.url, "Cookie": self.cookie},
            open_timeout=10,
        )

    def play(self, until: float, move_to=None) -> None:
        try:
            with self.open(self.server) as ws:
                moving = self.take_turns(ws, until, leave_at=RECONNECT_AT if move_to is not None else None)
            if moving:
                before = Match.objects.get(pk=self.match.pk).version
                with self.open(move_to) as ws:
                    self.back_on(ws, before)
                    self.take_turns(ws, until)
        finally:
            connections.close_all()

    def take_turns(self, ws, until: float, leave_at: int | None = None) -> bool:
        """Play whatever is offered until the match ends or the time is up; True when it is time to leave
        (the table has reached version `leave_at`)."""
        while time.monotonic() < until and not self.view.finished:
            if leave_at is not None and (self.view.version or 0) >= leave_at:
                return True
            wait = self.click(ws)
            try:
                frame = ws.recv(timeout=wait)
            except TimeoutError:
                continue
            except ConnectionClosed:
                self.note("closed", self.view.version)
                return False
            self.read(frame)
        return False

    def read(self, frame: str) -> None:
        regions = self.view.apply(frame)
        error = frame_error(regions)
        self.note("frame", frame_version(regions), error)
        if error == "too_fast":
            self.clicked = None  # the click was dropped unread; the buttons are still there
        if error and error != "stale":
            self.errors.append(error)

    def click(self, ws) -> float:
        """Click one of the buttons on the page if there are new ones; how long to wait for a frame."""
        actions = self.view.legal_actions()
        if not actions or self.clicked == self.view.version:
            return 0.5
        early = self.last_click + THINK_S - time.monotonic()
        if early > 0:
            return early  # still thinking; a frame may change the buttons meanwhile
        action = self.rng.choice([a for a in actions if a["do"] in ("play", "accept")] or actions)
        ws.send(json.dumps(action))
        self.clicked, self.last_click = self.view.version, time.monotonic()
        self.note("click", action["v"], action["do"])
        return 0.5

    def back_on(self, ws, before: int) -> None:
        """A new tab on the other process: its first frame is the whole table at the version stored now."""
        self.view, self.clicked = TableView(), None
        snapshot = self.view.apply(ws.recv(timeout=10))
        self.note("snapshot", frame_version(snapshot))
        after = Match.objects.get(pk=self.match.pk).version
        self.reconnected = {"before": before, "snapshot": frame_version(snapshot), "after": after}


def last_steps(seats, count: int = 8) -> dict:
    return {seat.number: seat.trace[-count:] for seat in seats}


def test_a_room_of_four_plays_across_two_processes_and_a_player_reconnects_to_the_other(two_servers, make_user):
    people = [make_user(name) for name in ("Ana", "Bia", "Caio", "Dani")]
    for user in people:  # a seat's price, whatever the starter grant is
        wallet.change_balance(user, currency=wallet.BLUE_COINS, amount=5, reason="admin_adjustment")
    room = services.create_room(people[0], options(seats=4, partnership=True))
    for other in people[1:]:
        services.join_room(other, room.code)
    room.refresh_from_db()
    assert room.status == Room.Status.STARTED
    match = room.match
    by_user = {p.pk: p for p in people}
    second = two_servers[1]
    # Seats 0 and 1 on the first process, 2 and 3 on the second: partners (0-2, 1-3) never share one.
    started = time.monotonic()
    seats = [
        Seat(
            s.number,
            session_cookie(by_user[s.user_id]),
            two_servers[s.number // 2],
            match,
            random.Random(s.number),
            started,
        )
        for s in match.seats.order_by("number")
    ]
    until = started + MATCH_SECONDS
    threads = [
        threading.Thread(target=seat.play, args=(until,), kwargs={"move_to": second if seat.number == 1 else None})
        for seat in seats
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=MATCH_SECONDS + 30)

    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED, (match.version, last_steps(seats))
    assert all(seat.view.finished for seat in seats), "every browser saw the result"
    assert all(not seat.errors for seat in seats), [seat.errors for seat in seats]
    # Both processes took moves from their own sockets.
    movers = set(MatchEvent.objects.filter(match=match, actor="player").values_list("seat", flat=True))
    assert movers == {0, 1, 2, 3}
    # Every move was a person's: no seat was left without its buttons until its clock played for it.
    assert set(MatchEvent.objects.filter(match=match).values_list("actor", flat=True)) == {"player", "system"}
    # Seat 1 came back on the other process to the table as stored then, and acted again from there.
    back = seats[1].reconnected
    assert seats[1].server is second
    assert back and back["before"] <= back["snapshot"] <= back["after"], back
    later = MatchEvent.objects.filter(match=match, seat=1, actor="player", version__gt=back["snapshot"])
    assert later.exists()
    # Every version was made once, by one seat: the processes never applied one move twice.
    moves = defaultdict(set)
    for version, seat, actor in MatchEvent.objects.filter(match=match).values_list("version", "seat", "actor"):
        moves[version].add((seat, actor))
    assert sorted(v for v in moves if v > 1) == list(range(2, match.version + 1))
    assert not {v: who for v, who in moves.items() if len(who) > 1}
