"""A server restart mid-hand loses nothing: the player reconnects to the same state and the AI goes on."""

import json
import re
import time

import pytest
from django.test import Client
from websockets.sync.client import connect

from games import engine
from games.match.starting import create_match, seat_plans_against_ai
from games.models import Match

pytestmark = pytest.mark.django_db(transaction=True)
VERSION = re.compile(r'data-version="(\d+)"')
# A move of ours: a card, or accepting a raise or a hand of eleven (the easy AI calls truco too).
OUR_MOVE = re.compile(r"hx-vals='(\{\"do\": \"(?:play|accept)\"[^']*)'")


def open_socket(server, match, cookie):
    return connect(
        f"{server.ws_url}/ws/match/{match.public_id}/",
        additional_headers={"Origin": server.url, "Cookie": cookie},
        open_timeout=10,
    )


def wait_for(ws, predicate, timeout=15.0):
    """Read frames until one satisfies the predicate; returns it."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        frame = ws.recv(timeout=max(0.1, deadline - time.monotonic()))
        if predicate(frame):
            return frame
    raise AssertionError("no such frame in time")


def test_server_restart_mid_hand_resumes_the_match_and_the_ai_goes_on(fast_ai, live_daphne, make_user):
    user = make_user("Resiliente")
    rules = engine.RuleSet(variant="paulista", seats=4)
    match = create_match(rules=rules, seats=seat_plans_against_ai(rules, "easy", user=user), bot_level="easy", seed=4)
    client = Client()
    client.force_login(user)
    cookie = f"sessionid={client.cookies['sessionid'].value}"

    with open_socket(live_daphne, match, cookie) as ws:
        frame = wait_for(ws, lambda f: OUR_MOVE.search(f) is not None)  # the AI played up to our turn
        action = json.loads(OUR_MOVE.search(frame).group(1))
        ws.send(json.dumps(action))
        wait_for(ws, lambda f: int(VERSION.search(f).group(1)) > action["v"] if VERSION.search(f) else False)

    live_daphne.stop()
    match.refresh_from_db()
    version_at_stop, state_at_stop = match.version, match.state
    assert match.status == Match.Status.ACTIVE
    time.sleep(0.5)  # deadlines pass while the server is down
    match.refresh_from_db()
    assert match.version == version_at_stop and match.state == state_at_stop

    live_daphne.start()
    with open_socket(live_daphne, match, cookie) as ws:
        snapshot = ws.recv(timeout=10)
        assert int(VERSION.search(snapshot).group(1)) >= version_at_stop
        if OUR_MOVE.search(snapshot):
            # The AI seats all played before the stop took effect: our move wakes them again.
            action = json.loads(OUR_MOVE.search(snapshot).group(1))
            ws.send(json.dumps(action))
            version_at_stop = action["v"] + 1
        # The restarted process plays the due AI seats: the table moves past our last move.
        wait_for(ws, lambda f: OUR_MOVE.search(f) is not None or "data-match-result" in f)
    match.refresh_from_db()
    assert match.version > version_at_stop
