"""An account deleted on one process closes its table sockets on another (through the player's group)."""

import pytest
from django.test import Client
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from accounts.services import delete_account
from games import engine
from games.match.starting import create_match, seat_plans_against_ai
from games.models import Match
from games.table.consumers import CLOSE_ACCOUNT_DELETED

pytestmark = pytest.mark.django_db(transaction=True)


def test_deleting_an_account_here_closes_its_socket_on_a_daphne_process(private_channel_layer, live_daphne, make_user):
    ana = make_user("Ana")
    rules = engine.RuleSet(variant="paulista", seats=2)
    match = create_match(rules=rules, seats=seat_plans_against_ai(rules, "easy", user=ana), bot_level="easy", seed=5)
    client = Client()
    client.force_login(ana)
    cookie = f"sessionid={client.cookies['sessionid'].value}"

    with connect(
        f"{live_daphne.ws_url}/ws/match/{match.public_id}/",
        additional_headers={"Origin": live_daphne.url, "Cookie": cookie},
        open_timeout=10,
    ) as ws:
        assert 'id="hand"' in ws.recv(timeout=10)
        delete_account(ana)  # in this process: the socket lives in the daphne child
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                ws.recv(timeout=10)
        assert closed.value.rcvd.code == CLOSE_ACCOUNT_DELETED
    match.refresh_from_db()
    assert match.status == Match.Status.ABANDONED
