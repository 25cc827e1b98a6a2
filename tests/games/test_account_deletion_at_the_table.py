"""Deleting an account closes its table sockets (every tab) and ends its matches in progress as abandoned:
no move can be made for the anonymised seat, and nobody is paid for it."""

from __future__ import annotations

import json

import pytest
from asgiref.sync import sync_to_async

from accounts.services import delete_account
from games import engine
from games.match.starting import SeatPlan, create_match, seat_plans_against_ai
from games.models import Match, MatchEvent
from games.table.consumers import CLOSE_ACCOUNT_DELETED
from shop.models import LedgerEntry
from tests.support.sockets import connect, drain, error_code, session_cookie

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


def start_against_ai(user):
    rules = engine.RuleSet(variant="paulista", seats=2)
    return create_match(rules=rules, seats=seat_plans_against_ai(rules, "easy", user=user), bot_level="easy", seed=3)


def start_duel(ana, bia):
    return create_match(
        rules=engine.RuleSet(variant="paulista", seats=2),
        seats=[SeatPlan(user=ana, display_name="Ana"), SeatPlan(user=bia, display_name="Bia")],
        bot_level="easy",
        seed=21,
    )


async def test_every_tab_of_a_deleted_account_is_closed_and_its_matches_end(make_user):
    ana, bia = await sync_to_async(make_user)("Ana"), await sync_to_async(make_user)("Bia")
    against_ai = await sync_to_async(start_against_ai)(ana)
    duel = await sync_to_async(start_duel)(ana, bia)
    ana_cookie = await sync_to_async(session_cookie)(ana)
    tabs = [
        await connect(against_ai, ana_cookie),
        await connect(against_ai, ana_cookie),
        await connect(duel, ana_cookie),
    ]
    bia_socket = await connect(duel, await sync_to_async(session_cookie)(bia))
    for s in (*tabs, bia_socket):
        await s.receive_from()

    await sync_to_async(delete_account)(ana)

    for tab in tabs:
        outputs = await drain(tab, timeout=0.5)
        assert outputs[-1] == {"type": "websocket.close", "code": CLOSE_ACCOUNT_DELETED}
        assert any(error_code(o.get("text", "")) == "account_deleted" for o in outputs)
    for match in (against_ai, duel):
        await sync_to_async(match.refresh_from_db)()
        assert match.status == Match.Status.ABANDONED
        assert match.winner_side == 1  # the deleted player's side (seat 0) lost
        assert match.deadline is None  # its clock stopped
        assert await MatchEvent.objects.filter(match=match, data__type="match_abandoned").aexists()
    # Bia, at the duel, sees it is over (and keeps her socket); nobody is paid for an abandoned match.
    frames = "".join(o["text"] for o in await drain(bia_socket, timeout=0.5) if o["type"] == "websocket.send")
    assert "data-abandoned-match" in frames
    assert not await LedgerEntry.objects.filter(reference__startswith="match:").aexists()
    version = duel.version
    await bia_socket.send_to(text_data=json.dumps({"do": "raise", "v": version}))
    assert error_code(await bia_socket.receive_from()) == "match_over"
    await bia_socket.disconnect()
