"""Two real daphne processes on one match: their timers, their sweepers and the same person's two
sockets all race for every move, and every version of the match is still made exactly once."""

import json
import re
import threading
import time
from collections import defaultdict

import pytest
from django.test import Client
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from games import engine
from games.match.starting import create_match, seat_plans_against_ai
from games.models import Match, MatchEvent
from tests.support.live_server import LiveDaphne

pytestmark = pytest.mark.django_db(transaction=True)
PLAYABLE = re.compile(r"hx-vals='(\{\"do\": \"play\"[^']*)'")


@pytest.fixture
def racing(settings, fast_ai):
    # Set before the servers fork. No grace: each process's sweeper competes with the timers at
    # once; a socket re-reads its table every 0.1 s, so each process times every version it sees
    # (the in-memory layer does not carry one process's publishes to the other).
    settings.SWEEPER_GRACE_S = 0
    settings.GAMES_SOCKET_WATCHDOG_S = 0.1


def play_for(server, match, cookie, seconds: float, sent: list) -> None:
    """Send the first playable card whenever one is offered, until the time is up."""
    end = time.monotonic() + seconds
    with connect(
        f"{server.ws_url}/ws/match/{match.public_id}/",
        additional_headers={"Origin": server.url, "Cookie": cookie},
        open_timeout=10,
    ) as ws:
        while time.monotonic() < end:
            try:
                frame = ws.recv(timeout=0.5)
            except TimeoutError:
                continue
            except ConnectionClosed:
                return
            found = PLAYABLE.search(frame)  # type: ignore[arg-type]  # a text frame
            if found:
                ws.send(found.group(1))
                sent.append(json.loads(found.group(1))["v"])


def test_two_servers_never_make_one_move_twice(racing, transactional_db, django_db_blocker, make_user, settings):
    settings.ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
    user = make_user("Dupla")
    rules = engine.RuleSet(variant="paulista", seats=4)
    # A one-second clock: when neither socket is quick enough, the clock plays for the person too.
    match = create_match(
        rules=rules,
        seats=seat_plans_against_ai(rules, "easy", user=user),
        bot_level="easy",
        seed=11,
        move_seconds=1,
    )
    client = Client()
    client.force_login(user)
    cookie = f"sessionid={client.cookies['sessionid'].value}"
    servers = [LiveDaphne(django_db_blocker).start() for _ in range(2)]
    sent = [[], []]
    try:
        players = [
            threading.Thread(target=play_for, args=(server, match, cookie, 6.0, sent[n]))
            for n, server in enumerate(servers)
        ]
        for player in players:
            player.start()
        for player in players:
            player.join(timeout=30)
    finally:
        for server in servers:
            server.stop()

    match.refresh_from_db()
    assert match.version > 12, "both processes should have moved the match on for several seconds"
    # Both processes took moves from the person (and both ran timers and a sweeper meanwhile).
    assert sent[0] and sent[1]
    moves = defaultdict(set)
    for version, seat, actor in MatchEvent.objects.filter(match=match).values_list("version", "seat", "actor"):
        moves[version].add((seat, actor))
    # Every version from the first move on was made once, by one seat: no process acted twice.
    assert sorted(v for v in moves if v > 1) == list(range(2, match.version + 1))
    doubled = {v: who for v, who in moves.items() if len(who) > 1}
    assert not doubled
    # The engine agrees with what was stored: the state is a legal match, still going or finished.
    state = engine.from_json(match.state)
    assert engine.is_over(state) == (match.status == Match.Status.FINISHED)
